package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/tapparena/tapp/arena/internal/dealchain"
	"github.com/tapparena/tapp/arena/internal/domain"
)

// A match's stored deals form a hash chain in the order they were stored (dealchain, schema
// version 15): each deal's row keeps its place (chain_seq) and the first bytes of its link
// (chain_link), and the match's row the chain's length and its last link (chain_len,
// chain_head). The transaction that stores deals reads each match's head (on PostgreSQL
// under a row lock, so that hosts storing deals of one league match take turns), links the
// deals in the order of the batch and writes the new head: a deal is in the chain exactly
// when it is stored.

// chainSchema is the schema version that keeps deal chains.
const chainSchema = 15

// chainDigest is the digest of d as it reads back from the store: its start in whole µs (as
// stored), sent its requests' digest as the record keeps it.
func chainDigest(d *domain.DealRecord, started time.Time, players int, sent []byte) [32]byte {
	c := *d
	c.Started = started
	return dealchain.Digest(&c, sent, players)
}

// chainQueries are the statements of chainDeals, prepared before its transaction.
func (s *Store) chainQueries() []string {
	if !s.chained {
		return nil
	}
	head := `SELECT chain_len, chain_head, commitment FROM matches WHERE id = ?`
	if s.dialect == postgresDialect {
		head += ` FOR NO KEY UPDATE`
	}
	return []string{s.rebind(head),
		s.rebind(`UPDATE matches SET chain_version = ?, chain_len = ?, chain_head = ? WHERE id = ?`)}
}

// chainDeals links the deals of a batch into their matches' chains, in the batch's order:
// it fills in each deal's chain_seq and chain_link among dealArgs (dealCols values per deal)
// and writes each match's new head, in tx. The matches are taken in ascending order (locked
// on PostgreSQL: after the league's jobs, before anything else).
func (s *Store) chainDeals(ctx context.Context, tx *sql.Tx, ds []*domain.DealRecord, digests [][32]byte, dealArgs []any) error {
	if !s.chained {
		return nil
	}
	q := s.chainQueries()
	var ids []string
	for _, d := range ds {
		if !slices.Contains(ids, d.MatchID) {
			ids = append(ids, d.MatchID)
		}
	}
	slices.Sort(ids)
	type chain struct {
		n    int
		head dealchain.Link
	}
	chains := make(map[string]*chain, len(ids))
	for _, id := range ids {
		var n int
		var head []byte
		var commitment string
		err := s.txQueryRow(ctx, tx, q[0], id).Scan(&n, &head, &commitment)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("match %s: %w", id, domain.ErrNotFound)
		}
		if err != nil {
			return err
		}
		c := &chain{n: n, head: dealchain.Anchor(id, commitment)}
		if n > 0 {
			if len(head) != len(c.head) {
				return fmt.Errorf("match %s: %w: its chain of %d deals has no head of %d bytes (%d): run tapp db check",
					id, ErrCorrupt, n, len(c.head), len(head))
			}
			copy(c.head[:], head)
		}
		chains[id] = c
	}
	for i, d := range ds {
		c := chains[d.MatchID]
		c.head = dealchain.Next(c.head, digests[i])
		dealArgs[i*dealCols+chainSeqCol] = c.n
		dealArgs[i*dealCols+chainLinkCol] = slices.Clone(c.head[:dealchain.StoredLinkSize])
		c.n++
	}
	for _, id := range ids {
		c := chains[id]
		if _, err := s.txExec(ctx, tx, q[1], dealchain.Version, c.n, c.head[:], id); err != nil {
			return err
		}
	}
	return nil
}

// Chain returns what the store keeps of a match's chain: the match's head and every stored
// deal's place in it (one index range of the match's deals, their small columns only), or
// domain.ErrNotFound.
func (s *Store) Chain(ctx context.Context, matchID string) (*domain.Chain, error) {
	op := "read the chain of match " + matchID
	c := &domain.Chain{}
	err := s.r.QueryRowContext(ctx, s.rebind(`SELECT chain_version, chain_len, chain_head FROM matches WHERE id = ?`), matchID).
		Scan(&c.Version, &c.Length, &c.Head)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("match %s: %w", matchID, domain.ErrNotFound)
	}
	if err != nil {
		return nil, s.wrap(op, err)
	}
	rows, err := s.r.QueryContext(ctx, s.rebind(`SELECT number, chain_seq, chain_link FROM deals WHERE match_id = ?
ORDER BY number`), matchID)
	if err != nil {
		return nil, s.wrap(op, err)
	}
	defer rows.Close()
	for rows.Next() {
		var number int
		var seq sql.NullInt64
		var link []byte
		if err := rows.Scan(&number, &seq, &link); err != nil {
			return nil, s.wrap(op, err)
		}
		if !seq.Valid {
			c.Unchained = append(c.Unchained, number)
			continue
		}
		c.Links = append(c.Links, domain.ChainLink{Seq: int(seq.Int64), Number: number, Link: link})
	}
	if err := rows.Err(); err != nil {
		return nil, s.wrap(op, err)
	}
	slices.SortStableFunc(c.Links, func(a, b domain.ChainLink) int { return a.Seq - b.Seq })
	return c, nil
}
