package store

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/board"
	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/store/storetest"
)

// dumpSourceRows lists every deal source's row and cell with its league and rule set spelled
// out, in key order: what migration 33 must carry over whatever the layout.
func dumpSourceRows(t *testing.T, s *Store) string {
	t.Helper()
	ctx := context.Background()
	queries := []string{
		`SELECT sc.league_id, sc.rules, x.source, '', x.cells, 0, 0, 0, 0 FROM rating_sources x JOIN rating_scopes sc ON sc.id = x.scope`,
		`SELECT sc.league_id, sc.rules, x.source, x.bots, x.deals, x.net0, x.net1, x.net2, x.net3 FROM rating_cells x JOIN rating_scopes sc ON sc.id = x.scope`,
	}
	var out strings.Builder
	for _, q := range queries {
		rows, err := s.r.QueryContext(ctx, q+` ORDER BY 1, 2, 3, 4`)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for rows.Next() {
			var league, rules, source, bots string
			var v [5]int64
			if err := rows.Scan(&league, &rules, &source, &bots, &v[0], &v[1], &v[2], &v[3], &v[4]); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&out, "%s|%s|%s|%s|%v\n", league, rules, source, bots, v)
			n++
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		rows.Close()
		if n == 0 {
			t.Fatalf("no rows from %s", q)
		}
	}
	return out.String()
}

// undoMigration33 puts the deal sources' rows back as versions 16 to 32 kept them, keyed by
// the league's id and the rule set's text.
func undoMigration33() []string {
	return []string{
		`CREATE TABLE rating_sources_old (league_id TEXT NOT NULL, rules TEXT NOT NULL, source TEXT NOT NULL,
	cells BIGINT NOT NULL DEFAULT 0, PRIMARY KEY (league_id, rules, source))`,
		`INSERT INTO rating_sources_old SELECT sc.league_id, sc.rules, x.source, x.cells FROM rating_sources x JOIN rating_scopes sc ON sc.id = x.scope`,
		`DROP TABLE rating_sources`,
		`ALTER TABLE rating_sources_old RENAME TO rating_sources`,
		`CREATE TABLE rating_cells_old (league_id TEXT NOT NULL, rules TEXT NOT NULL, source TEXT NOT NULL, bots TEXT NOT NULL,
	deals BIGINT NOT NULL DEFAULT 0, net0 BIGINT NOT NULL DEFAULT 0, net1 BIGINT NOT NULL DEFAULT 0, net2 BIGINT NOT NULL DEFAULT 0,
	net3 BIGINT NOT NULL DEFAULT 0, PRIMARY KEY (league_id, rules, source, bots))`,
		`INSERT INTO rating_cells_old SELECT sc.league_id, sc.rules, x.source, x.bots, x.deals, x.net0, x.net1, x.net2, x.net3
	FROM rating_cells x JOIN rating_scopes sc ON sc.id = x.scope`,
		`DROP TABLE rating_cells`,
		`ALTER TABLE rating_cells_old RENAME TO rating_cells`,
		`DROP TABLE rating_scopes`,
		`DELETE FROM schema_migrations WHERE version = 33`,
	}
}

// TestMigration33NumbersTheDealSourceRows: a database at schema version 32 (the deal sources'
// rows keyed by the rule set's text) keeps every row and cell through migration 33, its board
// stays what it was, and deals stored after it add to the sources stored before (a duplicate
// match replaying a stored match's deal sources) as the raw results say.
func TestMigration33NumbersTheDealSourceRows(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		dsn := b.newDSN(t)
		s := openTest(t, dsn)
		storeLeagueOfSyntheticDeals(t, s)
		rows, want := dumpSourceRows(t, s), boardJSON(t, s, domain.MatchFilter{}, board.LoadOptions{})
		for _, q := range undoMigration33() {
			if _, err := s.w.ExecContext(ctx, q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		again := openTest(t, dsn)
		if v, err := again.SchemaVersion(ctx); err != nil || v != latestVersion(t, again) {
			t.Fatalf("schema version %d, %v after reopening; want %d", v, err, latestVersion(t, again))
		}
		if got := dumpSourceRows(t, again); got != rows {
			t.Errorf("deal sources' rows after migration 33:\n%s\nbefore:\n%s", got, rows)
		}
		if got := boardJSON(t, again, domain.MatchFilter{}, board.LoadOptions{}); got != want {
			t.Errorf("board after migration 33:\n%s\nbefore:\n%s", got, want)
		}

		// The first match's deal sources again, by the same bots in another seating.
		m := &domain.Match{Spec: domain.MatchSpec{Rules: mustRules(t, "modern"), Bots: []string{"c", "a", "b"}, Deals: 6 * 4,
			Seed: seedOf("L", 0), Duplicate: true, LeagueID: "L", TimeControl: domain.DefaultTimeControl},
			Started: time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)}
		if err := again.CreateMatch(ctx, m); err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(7, 7))
		var batch []*domain.DealRecord
		for n := range m.Spec.Deals {
			batch = append(batch, storetest.RatedDeal(m, n, rng, 0))
		}
		if err := again.SaveDeals(ctx, batch); err != nil {
			t.Fatal(err)
		}
		if got := dumpSourceRows(t, again); got == rows {
			t.Error("the deal sources' rows did not change with a match that replays their sources")
		}
		for _, f := range []domain.MatchFilter{{}, {LeagueID: "L"}} {
			if got, raw := boardJSON(t, again, f, board.LoadOptions{}), boardJSON(t, again, f, board.LoadOptions{Recompute: true}); got != raw {
				t.Errorf("filter %+v: board after migration 33 and more deals:\n%s\nfrom raw results:\n%s", f, got, raw)
			}
		}
	})
}
