package store

import (
	"context"
	"fmt"
	"testing"

	"github.com/tapparena/tapp/arena/internal/board"
)

// TestMigration18FillsTheRatingHistory: a database from before version 18 (ledgers without
// their points) gets the points its ledgers' logs replay to when migration 18 runs: the same
// history, ledger by ledger, as the points written while the matches were rated.
func TestMigration18FillsTheRatingHistory(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		dsn := b.newDSN(t)
		s := openTest(t, dsn)
		storeLeagueOfSyntheticDeals(t, s)
		ctx := context.Background()
		keys := eloKeys(t, s)
		if len(keys) == 0 {
			t.Fatal("no ledger: the data set rates no match")
		}
		histories := func(s *Store) string {
			out := ""
			for _, k := range keys {
				h, err := s.EloHistory(ctx, k, 1000)
				if err != nil {
					t.Fatal(err)
				}
				out += fmt.Sprintf("%v: %v\n", k, h)
			}
			return out
		}
		want := histories(s)
		for _, q := range []string{"DELETE FROM rating_elo_points", "DELETE FROM schema_migrations WHERE version = 18"} { // 18 alone: 19 stays
			if _, err := s.w.ExecContext(ctx, q); err != nil {
				t.Fatal(err)
			}
		}
		if got := histories(s); got == want {
			t.Fatal("the history survived deleting its points: the test proves nothing")
		}
		again := openTest(t, dsn)
		if got := histories(again); got != want {
			t.Errorf("history after migration 18:\n%s\nas the matches were rated:\n%s", got, want)
		}
	})
}

func eloKeys(t *testing.T, s *Store) []board.EloKey {
	t.Helper()
	rows, err := s.r.QueryContext(context.Background(), `SELECT league_id, rules, tainted FROM rating_elo_head ORDER BY league_id, rules, tainted`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var keys []board.EloKey
	for rows.Next() {
		var k board.EloKey
		var tainted int
		if err := rows.Scan(&k.League, &k.Rules, &tainted); err != nil {
			t.Fatal(err)
		}
		k.Tainted = tainted != 0
		keys = append(keys, k)
	}
	return keys
}
