package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
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
	for _, k := range keys {
		if info == nil || info.id != k.match {
			if info, err = s.readMatchInfo(ctx, tx, k.match); err != nil {
				return err
			}
			info.id = k.match
		}
		deals, err := s.loadDealsFrom(ctx, tx, info, k.match, &k.number, true)
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
	return nil
}
