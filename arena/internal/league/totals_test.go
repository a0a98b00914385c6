package league_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/league"
	"github.com/tapparena/tapp/arena/internal/league/leaguestore"
	"github.com/tapparena/tapp/arena/internal/league/plan"
	"github.com/tapparena/tapp/arena/internal/rating"
	"github.com/tapparena/tapp/arena/internal/store"
	"github.com/tapparena/tapp/arena/internal/store/memstore"
)

// schedule lists a league's matches by round with their bots, in schedule order.
func schedule(t *testing.T, st leaguestore.Store, id string) []string {
	t.Helper()
	ctx := context.Background()
	lms, err := st.LeagueMatches(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, lm := range lms {
		m, err := st.GetMatch(ctx, lm.MatchID)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("round %d %s %s", lm.Round, lm.MatchID, strings.Join(m.Spec.Bots, "+")))
	}
	return out
}

// checkTotals compares the store's running totals of a league with those recomputed from
// every stored result: the deals, and the pairwise results of each round.
func checkTotals(t *testing.T, st leaguestore.Store, id string) {
	t.Helper()
	ctx := context.Background()
	ms, err := st.ListMatches(ctx, domain.MatchFilter{LeagueID: id})
	if err != nil {
		t.Fatal(err)
	}
	rows, err := st.Results(ctx, domain.MatchFilter{LeagueID: id})
	if err != nil {
		t.Fatal(err)
	}
	lms, err := st.LeagueMatches(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	round := map[string]int{}
	rounds := 0
	for _, lm := range lms {
		round[lm.MatchID] = lm.Round
		rounds = max(rounds, lm.Round+1)
	}
	deals := map[string]bool{}
	for _, r := range rows {
		deals[fmt.Sprintf("%s/%d", r.MatchID, r.Deal)] = true
	}
	if n, err := st.LeagueDeals(ctx, id); err != nil || n != len(deals) {
		t.Errorf("LeagueDeals = %d, %v; %d deals stored", n, err, len(deals))
	}
	for r := range rounds {
		in := map[string]*domain.Match{}
		for i := range ms {
			if round[ms[i].ID] == r {
				in[ms[i].ID] = &ms[i]
			}
		}
		var kept []domain.ResultRow
		for _, row := range rows {
			if in[row.MatchID] != nil {
				kept = append(kept, row)
			}
		}
		want, err := rating.MergePairs(plan.PairResults(plan.Units(in, kept)))
		if err != nil {
			t.Fatal(err)
		}
		got, err := st.LadderPairs(ctx, id, r, r+1)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) == 0 && len(want) == 0 {
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("round %d: running totals %v, recomputed from the results %v", r, got, want)
		}
	}
}

// A ladder's matchmaking reads the store's running totals. On the memory store, on SQLite and
// on PostgreSQL with two workers (each with a store of its own, both scheduling rounds) the
// totals are those of the stored results, and so the ladder chooses the same tables.
func TestLadderTotalsAreExactOnEveryStore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := testPlan(t, "lt", plan.Ladder, 6, 2)
	ref := memstore.New()
	if out := runLeague(t, ctx, ref, newArena(t, ref, fourBots), p, 8); !out.Finished {
		t.Fatalf("memory: %s", describe(out))
	}
	checkTotals(t, ref, "lt")
	want := schedule(t, ref, "lt")
	if len(want) != 6*1 {
		t.Fatalf("%d matches scheduled, want 6 rounds of 1", len(want))
	}

	for _, backend := range []string{"sqlite", "postgres"} {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			var stores [2]*store.Store
			if backend == "sqlite" {
				stores[0] = openSQLite(t)
				stores[1] = stores[0]
			} else {
				stores[0], stores[1] = openPostgresPair(t)
			}
			a := newArena(t, stores[0], fourBots)
			var wg sync.WaitGroup
			played := make([]int, 2)
			for i, st := range stores {
				wg.Add(1)
				go func() {
					defer wg.Done()
					r := &league.Runner{Store: st, Seats: a.srv, Concurrency: 4, Owner: fmt.Sprintf("host%d/1/x", i),
						Lease: 5 * time.Second, Poll: 20 * time.Millisecond, Linger: time.Millisecond}
					out, err := r.Run(ctx, p, time.Time{})
					if err != nil {
						t.Errorf("worker %d: %v", i, err)
						return
					}
					played[i] = out.Played
				}()
			}
			wg.Wait()
			if t.Failed() {
				return
			}
			t.Logf("deals played by the workers: %v", played)
			checkTotals(t, stores[0], "lt")
			if got := schedule(t, stores[0], "lt"); !reflect.DeepEqual(got, want) {
				t.Errorf("ladder schedule\n%s\nwant (memory store, one worker)\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// openPostgresPair opens two stores (as on two hosts) on one fresh schema of the server
// TAPP_TEST_POSTGRES names, or skips the test without one.
func openPostgresPair(t *testing.T) (*store.Store, *store.Store) {
	t.Helper()
	dsn := os.Getenv("TAPP_TEST_POSTGRES")
	if dsn == "" {
		t.Skip("PostgreSQL tests skipped: set TAPP_TEST_POSTGRES (eval \"$(bash scripts/ci-postgres.sh)\")")
	}
	admin, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	schema := fmt.Sprintf("tapp_totals_test_%d", time.Now().UnixNano())
	if _, err := admin.Exec(`CREATE SCHEMA ` + schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_, _ = admin.Exec(`DROP SCHEMA ` + schema + ` CASCADE`)
		admin.Close()
	})
	sep := "?"
	if strings.Contains(dsn, "?") {
		sep = "&"
	}
	var out [2]*store.Store
	for i := range out {
		st, err := store.Open(context.Background(), dsn+sep+"search_path="+schema)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		out[i] = st
	}
	return out[0], out[1]
}
