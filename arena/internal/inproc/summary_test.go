package inproc_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/host"
	"github.com/tapparena/tapp/arena/internal/inproc"
	"github.com/tapparena/tapp/arena/internal/match"
	"github.com/tapparena/tapp/arena/internal/referee"
	"github.com/tapparena/tapp/arena/internal/store"
	"github.com/tapparena/tapp/arena/internal/store/memstore"
	"github.com/tapparena/tapp/engine"
)

// summaryStores are the stores a match is played into: memory, SQLite, and PostgreSQL when
// TAPP_TEST_POSTGRES names a server (a fresh schema each).
func summaryStores(t *testing.T) map[string]func(t *testing.T) domain.Store {
	out := map[string]func(t *testing.T) domain.Store{
		"memory": func(t *testing.T) domain.Store { return memstore.New() },
		"sqlite": func(t *testing.T) domain.Store {
			st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "m.db"))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { st.Close() })
			return st
		},
	}
	if dsn := os.Getenv("TAPP_TEST_POSTGRES"); dsn != "" {
		out["postgres"] = func(t *testing.T) domain.Store { return openPostgres(t, dsn) }
	}
	return out
}

func openPostgres(t *testing.T, dsn string) domain.Store {
	t.Helper()
	admin, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	schema := fmt.Sprintf("tapp_inproc_test_%d", time.Now().UnixNano())
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
	st, err := store.Open(context.Background(), dsn+sep+"search_path="+schema)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// The summary a match's run returns (the payoff per bot, the deals) is kept as the deals are
// stored, not read back: it must be what Summarize reads from the store, in every store,
// for a match played whole and for one interrupted and resumed by a new runner (as after a
// kill: nothing of the first run's memory is left), and the same for the same seed.
func TestRunnersSummaryIsTheStoredResults(t *testing.T) {
	t.Parallel()
	specs := map[string]domain.MatchSpec{
		"modern":               {Rules: engine.DefaultRules(engine.Modern), Deals: 14, Seed: 7},
		"modern duplicate":     {Rules: engine.DefaultRules(engine.Modern), Deals: 12, Seed: 8, Duplicate: true},
		"classic with a pot":   {Rules: mustRuleSet(t, "classic pot=on"), Deals: 10, Seed: 9},
		"interrupted, resumed": {Rules: engine.DefaultRules(engine.Modern), Deals: 14, Seed: 7},
	}
	for storeName, open := range summaryStores(t) {
		for specName, spec := range specs {
			t.Run(storeName+"/"+specName, func(t *testing.T) {
				t.Parallel()
				ctx := context.Background()
				st := open(t)
				newRunner := func() *match.Runner {
					return &match.Runner{Store: st, Seats: &inproc.Seats{Bots: builtins(t, spec.Seed, "random", "random", "random")}, Parallel: 4}
				}
				spec.Bots, spec.TimeControl = names(builtins(t, spec.Seed, "random", "random", "random")), clock
				for _, b := range spec.Bots {
					if err := host.EnsureBot(ctx, st, b); err != nil {
						t.Fatal(err)
					}
				}
				r := newRunner()
				m, err := r.Create(ctx, spec)
				if err != nil {
					t.Fatal(err)
				}
				if specName == "interrupted, resumed" {
					// Stopped as the sixth table is seated, once five deals are stored.
					stop, cancel := context.WithCancel(ctx)
					fiveStored := make(chan struct{})
					r.Progress = func(done, _ int) {
						if done == 5 {
							close(fiveStored)
						}
					}
					r.Seats = &stoppingSeats{Seats: r.Seats, at: 5, before: func() { <-fiveStored; cancel() }}
					r.Parallel = 1
					if _, err := r.Run(stop, m); !errors.Is(err, context.Canceled) {
						t.Fatalf("the interrupted run = %v, want context.Canceled", err)
					}
					if m, err = st.GetMatch(ctx, m.ID); err != nil {
						t.Fatal(err)
					}
					if ns, _ := st.DealNumbers(ctx, m.ID); len(ns) != 5 {
						t.Fatalf("the interrupted run stored deals %v: want 0-4", ns)
					}
					r = newRunner()
				}
				got, err := r.Run(ctx, m)
				if err != nil {
					t.Fatal(err)
				}
				want, err := match.Summarize(ctx, st, m)
				if err != nil {
					t.Fatal(err)
				}
				tables, err := match.NewSchedule(spec)
				if err != nil {
					t.Fatal(err)
				}
				if got.Deals != tables.Len() || want.Deals != tables.Len() || !reflect.DeepEqual(got.Net, want.Net) {
					t.Errorf("the run's summary: %d deals, net %v; read from the store: %d deals, net %v; want %d deals and the same nets",
						got.Deals, got.Net, want.Deals, want.Net, tables.Len())
				}
				nonzero := false
				for _, n := range got.Net {
					nonzero = nonzero || n != 0
				}
				if !nonzero {
					t.Errorf("net %v: every bot at 0, the test shows no sum", got.Net)
				}
				// The same seed, played whole into a fresh store of the same kind: the same summary.
				fresh := open(t)
				for _, b := range spec.Bots {
					if err := host.EnsureBot(ctx, fresh, b); err != nil {
						t.Fatal(err)
					}
				}
				fr := &match.Runner{Store: fresh, Seats: &inproc.Seats{Bots: builtins(t, spec.Seed, "random", "random", "random")}, Parallel: 4}
				fm, err := fr.Create(ctx, spec)
				if err != nil {
					t.Fatal(err)
				}
				again, err := fr.Run(ctx, fm)
				if err != nil {
					t.Fatal(err)
				}
				if again.Deals != got.Deals || !reflect.DeepEqual(again.Net, got.Net) {
					t.Errorf("the same seed: %d deals, net %v; before %d, %v", again.Deals, again.Net, got.Deals, got.Net)
				}
			})
		}
	}
}

// stoppingSeats seats tables as Seats does, but calls before (once) when asked for the
// table after the first at ones, and then refuses it with the context's error.
type stoppingSeats struct {
	match.Seats
	at     int
	before func()
	asked  int
}

// SeatTable implements match.Seats.
func (s *stoppingSeats) SeatTable(ctx context.Context, bots []string) ([]referee.Conn, func(), error) {
	if s.asked++; s.asked > s.at {
		if s.asked == s.at+1 {
			s.before()
		}
		<-ctx.Done()
		return nil, nil, ctx.Err()
	}
	return s.Seats.SeatTable(ctx, bots)
}

func mustRuleSet(t *testing.T, text string) engine.RuleSet {
	t.Helper()
	r, err := engine.ParseRuleSet(text)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
