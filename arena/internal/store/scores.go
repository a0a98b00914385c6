package store

import (
	"cmp"
	"context"
	"database/sql"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/engine"
)

// A match's running score (schema version 28): score_blocks keeps, per block of scoreBlock
// deal numbers, the deals stored and each table position's net over them, written in the
// transaction that stores the deals. The score before deal n is then the sum of the blocks
// before n's (a row per scoreBlock deals, narrow) and of the deals of n's own block before it
// (fewer than scoreBlock records read): what the dashboard's replay and live view show,
// without reading the match's deals.

// scoreBlock is how many deal numbers a row of score_blocks covers: a replay reads at most
// this many records less one, and a match of a million deals has 15,625 rows to sum.
const scoreBlock = 64

// keepsScoreBlocks reports whether the store's schema has score_blocks (migration 28).
func (s *Store) keepsScoreBlocks() bool { return s.schema >= 28 }

// blockKey names a row of score_blocks.
type blockKey struct {
	match string
	block int
}

// The upsert of a batch's blocks.
const (
	insertBlock = `INSERT INTO score_blocks (match_id, block, deals, net0, net1, net2, net3) VALUES `
	upsertBlock = ` ON CONFLICT (match_id, block) DO UPDATE SET deals = score_blocks.deals + excluded.deals,
	net0 = score_blocks.net0 + excluded.net0, net1 = score_blocks.net1 + excluded.net1,
	net2 = score_blocks.net2 + excluded.net2, net3 = score_blocks.net3 + excluded.net3`
	blockCols = 7
)

// scoreOps returns the upserts that add a batch of deals to their matches' score blocks, in
// key order (two transactions never wait for each other's rows in a circle).
func (s *Store) scoreOps(ctx context.Context, ds []*domain.DealRecord) ([]writeOp, error) {
	if !s.keepsScoreBlocks() {
		return nil, nil
	}
	blocks := map[blockKey]*unitTotal{}
	for _, d := range ds {
		info, err := s.cachedMatchInfo(ctx, d.MatchID)
		if err != nil {
			return nil, err
		}
		addToBlock(blocks, info.bots, d)
	}
	return s.rowOps(insertBlock, blockCols, blockArgs(blocks), upsertBlock), nil
}

// addToBlock adds deal d of a match whose bots are bots (in table order) to its block.
func addToBlock(blocks map[blockKey]*unitTotal, bots []string, d *domain.DealRecord) {
	k := blockKey{d.MatchID, d.Number / scoreBlock}
	b := blocks[k]
	if b == nil {
		b = &unitTotal{}
		blocks[k] = b
	}
	b.deals++
	for _, r := range d.Results {
		if i := slices.Index(bots, r.Bot); i >= 0 && i < engine.MaxPlayers {
			b.net[i] += int64(r.Payoff)
		}
	}
}

// blockArgs are the values of insertBlock's rows for blocks, in key order.
func blockArgs(blocks map[blockKey]*unitTotal) []any {
	keys := slices.SortedFunc(maps.Keys(blocks), func(a, b blockKey) int {
		return cmp.Or(strings.Compare(a.match, b.match), cmp.Compare(a.block, b.block))
	})
	args := make([]any, 0, len(keys)*blockCols)
	for _, k := range keys {
		b := blocks[k]
		args = append(args, k.match, k.block, b.deals, b.net[0], b.net[1], b.net[2], b.net[3])
	}
	return args
}

// ScoreBefore is each bot's net over the match's stored deals numbered below number, and how
// many they are: the kept blocks before number's, and the deals of its block before it. Every
// bot of the match has a net (0 without such deals); an unknown match is domain.ErrNotFound.
func (s *Store) ScoreBefore(ctx context.Context, matchID string, number int) (map[string]int64, int, error) {
	info, err := s.cachedMatchInfo(ctx, matchID)
	if err != nil {
		return nil, 0, err
	}
	net, counted := make(map[string]int64, len(info.bots)), 0
	for _, b := range info.bots {
		net[b] = 0
	}
	if number <= 0 {
		return net, 0, nil
	}
	number = min(number, math.MaxInt32) // deal numbers are 32-bit columns
	from := 0                           // the first deal number not in the kept blocks read
	if s.keepsScoreBlocks() {
		from = number / scoreBlock * scoreBlock
		var n sql.NullInt64
		var nets [engine.MaxPlayers]sql.NullInt64
		err := s.r.QueryRowContext(ctx, s.rebind(`SELECT sum(deals), sum(net0), sum(net1), sum(net2), sum(net3)
FROM score_blocks WHERE match_id = ? AND block < ?`), matchID, number/scoreBlock).Scan(&n, &nets[0], &nets[1], &nets[2], &nets[3])
		if err != nil {
			return nil, 0, s.wrap("read the score of match "+matchID, err)
		}
		counted = int(n.Int64)
		for i, b := range info.bots {
			if i < len(nets) {
				net[b] += nets[i].Int64
			}
		}
	}
	if from < number {
		deals, err := s.loadDealsFrom(ctx, s.r, info, matchID, dealRange{first: from, last: number - 1}, false)
		if err != nil {
			return nil, 0, err
		}
		for i := range deals {
			counted++
			for _, r := range deals[i].Results {
				net[r.Bot] += int64(r.Payoff)
			}
		}
	}
	return net, counted, nil
}

// convertScoreBlocks is the Go part of migration 28: the score blocks of every deal stored
// before, match by match, a few thousand deals at a time, with progress. On PostgreSQL a SHARE
// lock on deals holds off an older build's writers meanwhile.
func convertScoreBlocks(ctx context.Context, s *Store, tx *sql.Tx) error {
	if s.dialect == postgresDialect {
		if _, err := tx.ExecContext(ctx, `LOCK TABLE deals IN SHARE MODE`); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM score_blocks`); err != nil {
		return err
	}
	rows, err := tx.QueryContext(ctx, `SELECT DISTINCT match_id FROM deals ORDER BY match_id`)
	if err != nil {
		return err
	}
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	const what, chunk = "matches whose running scores are summed", 64 * scoreBlock
	for i, id := range ids {
		s.report(what, i, len(ids))
		info, err := s.readMatchInfo(ctx, tx, id)
		if err != nil {
			return err
		}
		var last int
		if err := tx.QueryRowContext(ctx, s.rebind(`SELECT max(number) FROM deals WHERE match_id = ?`), id).Scan(&last); err != nil {
			return err
		}
		for first := 0; first <= last; first += chunk {
			deals, err := s.loadDealsFrom(ctx, tx, info, id, dealRange{first: first, last: first + chunk - 1}, false)
			if err != nil {
				return err
			}
			blocks := map[blockKey]*unitTotal{}
			for d := range deals {
				addToBlock(blocks, info.bots, &deals[d])
			}
			for _, op := range s.rowOps(insertBlock, blockCols, blockArgs(blocks)) {
				if _, err := tx.ExecContext(ctx, op.query, op.args...); err != nil {
					return err
				}
			}
		}
	}
	s.report(what, len(ids), len(ids))
	return nil
}
