package store

import (
	"context"
	"fmt"
)

// Double-dummy analyses of stored deals (package arena/internal/analysis, table deal_analyses): one
// JSON body per deal and analysis method, so that an analysis is made once.

// SaveAnalysis stores (or replaces) the analysis of one stored deal under method.
func (s *Store) SaveAnalysis(ctx context.Context, matchID string, number int, method string, body []byte) error {
	_, err := s.w.ExecContext(ctx, s.rebind(`INSERT INTO deal_analyses (match_id, deal_number, method, body)
		VALUES (?, ?, ?, ?) ON CONFLICT (match_id, method, deal_number) DO UPDATE SET body = excluded.body`),
		matchID, number, method, string(body))
	return s.wrap(fmt.Sprintf("saving the analysis of deal %d of match %s", number, matchID), err)
}

// Analyses returns the stored analyses of a match's deals under method, by deal number.
func (s *Store) Analyses(ctx context.Context, matchID, method string) (map[int][]byte, error) {
	rows, err := s.r.QueryContext(ctx, s.rebind(`SELECT deal_number, body FROM deal_analyses
		WHERE match_id = ? AND method = ?`), matchID, method)
	if err != nil {
		return nil, s.wrap("reading analyses of match "+matchID, err)
	}
	defer rows.Close()
	out := map[int][]byte{}
	for rows.Next() {
		var n int
		var body string
		if err := rows.Scan(&n, &body); err != nil {
			return nil, s.wrap("reading analyses of match "+matchID, err)
		}
		out[n] = []byte(body)
	}
	return out, s.wrap("reading analyses of match "+matchID, rows.Err())
}
