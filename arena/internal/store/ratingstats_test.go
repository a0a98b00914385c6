package store

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/board"
	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/store/storetest"
)

// boardJSON is the leaderboard of the sums Load gives, as JSON.
func boardJSON(t *testing.T, st domain.Store, f domain.MatchFilter, o board.LoadOptions) string {
	t.Helper()
	sums, err := board.Load(context.Background(), st, f, o)
	if err != nil {
		t.Fatalf("Load(%+v, %+v): %v", f, o, err)
	}
	lb, err := board.Compute(sums, board.Options{Bot: f.Bot, TaintedIncluded: o.IncludeTainted,
		Families: map[string]string{"a": "abc", "b": "abc"}})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", " ")
	if err := enc.Encode(lb); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// storeLeagueOfSyntheticDeals stores matches of every kind the sums distinguish, from several
// goroutines at once (one and several deals per transaction): duplicate groups complete and
// not, 3 and 4 seats, two leagues and stand-alone, a match with fallbacks, one forfeited. The
// matches of league L deal from one seed, as the tables of a league round do, so that their
// compositions share deal sources (tainted matches too, and two matches of one composition
// share cells).
func storeLeagueOfSyntheticDeals(t *testing.T, s *Store) {
	t.Helper()
	ctx := context.Background()
	type plan struct {
		league   string
		rules    string
		bots     []string
		dup      bool
		deals    int
		fallback float64
		forfeit  bool
	}
	plans := []plan{
		{"L", "modern", []string{"a", "b", "c"}, true, 6 * 20, 0, false},
		{"L", "modern", []string{"b", "c", "a"}, true, 6 * 5, 0, false},    // the same composition, the same sources
		{"L", "modern", []string{"a", "b", "d"}, true, 6*15 + 4, 0, false}, // a group left open
		{"L", "modern", []string{"c", "b", "d"}, false, 70, 0, false},
		{"L", "modern", []string{"a", "c", "d"}, false, 60, 0.05, false}, // tainted: 5% fallbacks
		{"L", "modern", []string{"d", "a", "b"}, false, 40, 0, true},     // tainted: a forfeit
		{"M", "modern players=4", []string{"a", "b", "c", "d"}, true, 4 * 25, 0, false},
		{"", "classic", []string{"a", "b", "c"}, false, 50, 0, false},
	}
	var wg sync.WaitGroup
	errs := make(chan error, len(plans))
	for i, p := range plans {
		m := &domain.Match{Spec: domain.MatchSpec{Rules: mustRules(t, p.rules), Bots: p.bots, Deals: p.deals,
			Seed: seedOf(p.league, i), Duplicate: p.dup, LeagueID: p.league, TimeControl: domain.DefaultTimeControl},
			Started: time.Date(2026, 12, 1, 0, i, 0, 0, time.UTC)}
		if err := s.CreateMatch(ctx, m); err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(i), 99))
			for n := 0; n < p.deals; {
				batch := []*domain.DealRecord{storetest.RatedDeal(m, n, rng, p.fallback)}
				n++
				for n%7 != 0 && n < p.deals && i%2 == 0 { // every other match stores batches
					batch = append(batch, storetest.RatedDeal(m, n, rng, p.fallback))
					n++
				}
				if err := s.SaveDeals(ctx, batch); err != nil {
					errs <- err
					return
				}
			}
			m.Status, m.Finished = domain.MatchFinished, time.Now()
			if p.forfeit {
				m.Forfeited = []string{"d"}
			}
			errs <- s.UpdateMatch(ctx, m)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
}

// seedOf is the deal seed of the data set's match i: one for league L, as a league round's.
func seedOf(league string, i int) uint64 {
	if league == "L" {
		return 1
	}
	return uint64(i + 1)
}

// TestRatingSumsGiveTheBoardOfRawResults: the board from the sums the store keeps as it stores
// deals is identical to the board recomputed from raw results, for every filter, with and
// without tainted matches.
func TestRatingSumsGiveTheBoardOfRawResults(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		storeLeagueOfSyntheticDeals(t, s)
		for _, f := range []domain.MatchFilter{{}, {LeagueID: "L"}, {LeagueID: "M"}, {Bot: "d"},
			{LeagueID: "L", Rules: mustRules(t, "modern").String()}} {
			for _, o := range []board.LoadOptions{{}, {IncludeTainted: true}, {History: true}} {
				kept := boardJSON(t, s, f, o)
				o.Recompute = true
				raw := boardJSON(t, s, f, o)
				if kept != raw {
					t.Errorf("filter %+v, %+v: the kept sums' board differs from the raw results'\nkept: %s\nraw: %s",
						f, o, kept, raw)
				}
			}
		}
		// The data set exercises what it claims to.
		sums, err := board.Load(context.Background(), s, domain.MatchFilter{LeagueID: "L"}, board.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		lb, err := board.Compute(sums, board.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if lb.TaintedMatches != 2 || lb.PartialUnits != 1 || lb.Units != 20+15+70 || lb.Matches != 4 || lb.Sources != 70 {
			t.Errorf("league L: %d tainted matches, %d partial units, %d cells, %d deal sources, %d rated by Elo; want 2, 1, %d, 70, 4",
				lb.TaintedMatches, lb.PartialUnits, lb.Units, lb.Sources, lb.Matches, 20+15+70)
		}
		if len(sums.Pairs) < 3 {
			t.Errorf("league L: %d pairs of compositions sharing deal sources, want its 3 compositions' (and more)", len(sums.Pairs))
		}
	})
}

// TestRatingSumsRebuiltForOlderDatabases: a database whose deals were stored before the sums
// were kept (the state migration 10 leaves: empty sums, stale) gets them on opening.
func TestRatingSumsRebuiltForOlderDatabases(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		dsn := b.newDSN(t)
		s := openTest(t, dsn)
		storeLeagueOfSyntheticDeals(t, s)
		want := boardJSON(t, s, domain.MatchFilter{}, board.LoadOptions{})
		ctx := context.Background()
		for _, q := range []string{"DELETE FROM rating_tables", "DELETE FROM rating_roles", "DELETE FROM rating_matches",
			"DELETE FROM rating_open_groups", "DELETE FROM rating_compositions", "UPDATE rating_state SET stale = 1"} {
			if _, err := s.w.ExecContext(ctx, q); err != nil {
				t.Fatal(err)
			}
		}
		if got := boardJSON(t, s, domain.MatchFilter{}, board.LoadOptions{}); got == want {
			t.Fatal("emptying the sums left the board as it was: the test tests nothing")
		}
		again := openTest(t, dsn)
		got := boardJSON(t, again, domain.MatchFilter{}, board.LoadOptions{})
		// Matches that finished at once may enter the rebuilt Elo ledgers in another order than
		// they did (the order they finished in was not recorded before): all else is equal.
		if withoutElo(t, got) != withoutElo(t, want) {
			t.Errorf("board after the rebuild:\n%s\nwant:\n%s", got, want)
		}
		if raw := boardJSON(t, again, domain.MatchFilter{}, board.LoadOptions{Recompute: true}); got != raw {
			t.Errorf("rebuilt board:\n%s\nfrom raw results:\n%s", got, raw)
		}
	})
}

// withoutElo is a board's JSON without the multiplayer Elo.
func withoutElo(t *testing.T, js string) string {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal([]byte(js), &v); err != nil {
		t.Fatal(err)
	}
	delete(v, "elo_order")
	for _, b := range v["bots"].([]any) {
		delete(b.(map[string]any), "multi_elo")
		delete(b.(map[string]any), "history")
	}
	out, _ := json.Marshal(v)
	return string(out)
}

// undoMigration16 drops what migration 16 added (and so its deal-source sums), and migration
// 33's numbering of their rows, for tests that rebuild an older database from a new one.
func undoMigration16() []string {
	var qs []string
	for _, t := range append(sourceTables[1:], "rating_history", "rating_scopes") {
		qs = append(qs, "DROP TABLE "+t)
	}
	for _, c := range pointColumns {
		qs = append(qs, "ALTER TABLE rating_tables DROP COLUMN "+c)
	}
	return qs
}

func TestTableValuesRoundTrip(t *testing.T) {
	t.Parallel()
	for _, bots := range [][]string{{"x", "y", "z"}, {"p", "q", "r", "s"}} {
		ts, err := tableFromValues(bots, make([]int64, len(tableColumns)))
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(1, 2))
		for range 20 {
			net := make([]int64, len(bots))
			for i := range net {
				net[i] = rng.Int64N(100) - 50
			}
			ts.AddUnit(int64(1+rng.IntN(6)), net)
		}
		var v []int64
		for _, x := range tableValues(ts) {
			v = append(v, x.(int64))
		}
		back, err := tableFromValues(bots, v)
		if err != nil {
			t.Fatal(err)
		}
		ts.Points, ts.PointsCross = nil, nil // not kept: the store's sums are by table unit
		if fmt.Sprint(back) != fmt.Sprint(ts) {
			t.Errorf("%v: round trip gave %v, want %v", bots, back, ts)
		}
	}
}

// TestMigration12ConvertsTheRatingSums: a database at schema version 11 (rating sums per
// match, no per-composition counters) gets them from its per-match sums when migration 12
// runs, and its board stays what it was.
func TestMigration12ConvertsTheRatingSums(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		dsn := b.newDSN(t)
		s := openTest(t, dsn)
		storeLeagueOfSyntheticDeals(t, s)
		want := boardJSON(t, s, domain.MatchFilter{LeagueID: "L"}, board.LoadOptions{})
		ctx := context.Background()
		for _, q := range slices.Concat([]string{"DROP INDEX rating_matches_fallbacks", "DROP INDEX matches_forfeited",
			"ALTER TABLE rating_matches DROP COLUMN tainted_by_fallbacks",
			"DROP TABLE rating_compositions",
			// The versions after 12, undone so that they run again.
			"DROP TABLE submissions", "DROP TABLE submission_sources",
			"ALTER TABLE matches DROP COLUMN commitment_version", "ALTER TABLE matches DROP COLUMN chain_version",
			"ALTER TABLE matches DROP COLUMN chain_len", "ALTER TABLE matches DROP COLUMN chain_head",
			"ALTER TABLE deals DROP COLUMN chain_seq", "ALTER TABLE deals DROP COLUMN chain_link",
			"ALTER TABLE matches DROP COLUMN clock_scope", "ALTER TABLE matches DROP COLUMN admission",
			"DROP INDEX matches_board", "ALTER TABLE matches DROP COLUMN board",
			"DROP TABLE league_bots", "ALTER TABLE leagues DROP COLUMN paused", "ALTER TABLE leagues DROP COLUMN matches",
			"ALTER TABLE leagues DROP COLUMN matches_finished", "ALTER TABLE leagues DROP COLUMN board_deals", "ALTER TABLE leagues DROP COLUMN planned_deals",
			"DELETE FROM schema_migrations WHERE version >= 12"}, undoMigration16()) {
			if _, err := s.w.ExecContext(ctx, q); err != nil {
				t.Fatal(err)
			}
		}
		again := openTest(t, dsn)
		if v, err := again.SchemaVersion(ctx); err != nil || v != latestVersion(t, again) {
			t.Fatalf("schema version %d, %v after reopening; want %d", v, err, latestVersion(t, again))
		}
		var comps int
		if err := again.r.QueryRowContext(ctx, `SELECT count(*) FROM rating_compositions`).Scan(&comps); err != nil || comps != 6 {
			t.Errorf("%d compositions converted, %v; want the 6 of the data set", comps, err)
		}
		if got := boardJSON(t, again, domain.MatchFilter{LeagueID: "L"}, board.LoadOptions{}); got != want {
			t.Errorf("board after migration 12:\n%s\nbefore:\n%s", got, want)
		}
	})
}

// TestMigration16BuildsTheDealSourceSums: a database at schema version 15 (sums by table unit,
// no deal-source sums) gets them from its stored deals when migration 16 runs, with progress,
// and its board is then the board of the raw results, as it was before.
func TestMigration16BuildsTheDealSourceSums(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		dsn := b.newDSN(t)
		s := openTest(t, dsn)
		storeLeagueOfSyntheticDeals(t, s)
		want := boardJSON(t, s, domain.MatchFilter{}, board.LoadOptions{})
		ctx := context.Background()
		for _, q := range slices.Concat(undoMigration16(), []string{"DELETE FROM schema_migrations WHERE version IN (16, 33)"}) {
			if _, err := s.w.ExecContext(ctx, q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		var steps []string
		again, err := OpenWith(ctx, dsn, Options{Progress: func(what string, done, total int) {
			steps = append(steps, fmt.Sprintf("%s %d/%d", what, done, total))
		}})
		if err != nil {
			t.Fatal(err)
		}
		defer again.Close()
		const what = "matches whose deal-source rating sums are built"
		if len(steps) != 9 || steps[0] != what+" 0/8" || steps[8] != what+" 8/8" {
			t.Errorf("progress %q, want %q … %q for the 8 matches", steps, what+" 0/8", what+" 8/8")
		}
		if got := boardJSON(t, again, domain.MatchFilter{}, board.LoadOptions{}); got != want {
			t.Errorf("board after migration 16:\n%s\nbefore:\n%s", got, want)
		}
		for _, f := range []domain.MatchFilter{{}, {LeagueID: "L"}} {
			if got, raw := boardJSON(t, again, f, board.LoadOptions{}), boardJSON(t, again, f, board.LoadOptions{Recompute: true}); got != raw {
				t.Errorf("filter %+v: board after migration 16:\n%s\nfrom raw results:\n%s", f, got, raw)
			}
		}
	})
}
