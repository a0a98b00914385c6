package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"

	"github.com/tapparena/tapp/arena/internal/domain"
)

// convertCompactRecords rewrites the deals stored before schema version 11 as compact records
// (the Go part of migration 0011), one deal at a time: each is read as it was stored (text
// columns and a decision log, or decision rows before version 4) and, when it can be stored
// compactly (record.go: its requests are rebuilt and compared byte for byte, and kept
// verbatim where they differ), its row gets the record and loses what the record replaces.
// A deal that cannot be converted stays as it was, and reads back as before.
func convertCompactRecords(ctx context.Context, s *Store, tx *sql.Tx) error {
	type key struct {
		match  string
		number int
	}
	rows, err := tx.QueryContext(ctx, `SELECT match_id, number FROM deals WHERE record IS NULL ORDER BY match_id, number`)
	if err != nil {
		return err
	}
	var keys []key
	for rows.Next() {
		var k key
		if err := rows.Scan(&k.match, &k.number); err != nil {
			rows.Close()
			return err
		}
		keys = append(keys, k)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	update := s.rebind(`UPDATE deals SET seating = '', deal = '', options = '', moves = '', outcome = '',
	decision_log = NULL, record = ? WHERE match_id = ? AND number = ?`)
	drop := s.rebind(`DELETE FROM decisions WHERE match_id = ? AND deal_number = ?`)
	var info *matchInfo
	for i, k := range keys {
		s.report("compact deal records", i, len(keys))
		if info == nil || info.id != k.match {
			if info, err = s.readMatchInfo(ctx, tx, k.match); err != nil {
				return err
			}
			info.id = k.match
		}
		deals, err := s.loadDealsFrom(ctx, tx, info, k.match, oneDeal(k.number), true)
		if err != nil {
			return fmt.Errorf("deal %d of match %s: %w", k.number, k.match, err)
		}
		if len(deals) != 1 {
			return fmt.Errorf("deal %d of match %s: read %d deals", k.number, k.match, len(deals))
		}
		d := &deals[0]
		rec, err := encodeRecord(d, d.Started, info)
		if errors.Is(err, errNotCompact) {
			continue
		}
		if err != nil {
			return fmt.Errorf("deal %d of match %s: %w", k.number, k.match, err)
		}
		if _, err := tx.ExecContext(ctx, update, rec, k.match, k.number); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, drop, k.match, k.number); err != nil {
			return err
		}
	}
	s.report("compact deal records", len(keys), len(keys))
	return nil
}

// convertResultsFromRecords is the Go part of migration 0013: a compact record's results are
// rebuilt from it on reading, so its rows of results go, match by match. A compact record
// whose rows are not what it gives (results stored by hand) is turned back into text columns
// and a decision log and keeps its rows, so that every deal reads back as it was stored.
func convertResultsFromRecords(ctx context.Context, s *Store, tx *sql.Tx) error {
	rows, err := tx.QueryContext(ctx, `SELECT DISTINCT match_id FROM deals WHERE record IS NOT NULL ORDER BY match_id`)
	if err != nil {
		return err
	}
	var matches []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		matches = append(matches, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	const what = "matches whose results their records rebuild"
	for i, id := range matches {
		s.report(what, i, len(matches))
		if err := s.dropDerivedResults(ctx, tx, id); err != nil {
			return fmt.Errorf("match %s: %w", id, err)
		}
	}
	s.report(what, len(matches), len(matches))
	return nil
}

// dropDerivedResults converts one match for convertResultsFromRecords.
func (s *Store) dropDerivedResults(ctx context.Context, tx *sql.Tx, matchID string) error {
	info, err := s.readMatchInfo(ctx, tx, matchID)
	if err != nil {
		return err
	}
	rows, err := tx.QueryContext(ctx, s.rebind(`SELECT r.deal_number, r.seat, r.bot, r.payoff, r.points, r.tricks, r.declarer
FROM results r JOIN deals d ON d.match_id = r.match_id AND d.number = r.deal_number
WHERE r.match_id = ? AND d.record IS NOT NULL ORDER BY r.deal_number, r.seat`), matchID)
	if err != nil {
		return err
	}
	stored := map[int][]domain.SeatResult{}
	for rows.Next() {
		n, r, err := scanResult(rows)
		if err != nil {
			rows.Close()
			return err
		}
		stored[n] = append(stored[n], r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	deals, err := s.loadDealsFrom(ctx, tx, info, matchID, allDeals, false) // a compact record's results are rebuilt
	if err != nil {
		return err
	}
	for i := range deals {
		d := &deals[i]
		if d.SentDigest == nil || slices.Equal(stored[d.Number], d.Results) {
			continue
		}
		whole, err := s.loadDealsFrom(ctx, tx, info, matchID, oneDeal(d.Number), true)
		if err != nil {
			return err
		}
		if len(whole) != 1 {
			return fmt.Errorf("deal %d: read %d deals", d.Number, len(whole))
		}
		whole[0].Results = stored[d.Number]
		text, err := textColumns(&whole[0], info.rules)
		if err != nil {
			return fmt.Errorf("deal %d: %w", d.Number, err)
		}
		if _, err := tx.ExecContext(ctx, s.rebind(`UPDATE deals SET seating = ?, deal = ?, options = ?, moves = ?,
	outcome = ?, decision_log = ?, record = NULL WHERE match_id = ? AND number = ?`),
			append(text[:], matchID, d.Number)...); err != nil {
			return err
		}
	}
	_, err = tx.ExecContext(ctx, s.rebind(`DELETE FROM results WHERE match_id = ?
	AND deal_number IN (SELECT number FROM deals WHERE match_id = ? AND record IS NOT NULL)`), matchID, matchID)
	return err
}
