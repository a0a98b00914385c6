package cli

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/store"
	"github.com/tapparena/tapp/engine"
)

// BenchmarkRatingsBigLeague runs `tapp ratings --league night` on a database of a night's
// league: TAPP_BENCH_RATINGS_DEALS deals (default 100,000; the figure in BENCHMARKS.md is for
// 5,000,000) of 6 bots at 3-seat tables, a round robin whose 20 tables of a round play the
// round's deal sources, duplicate, 10 groups (60 deals) per match, written
// through the store's own API (SaveDeals, so with the sums kept as a league keeps them). Set
// TAPP_BENCH_RATINGS_DB to a file to keep the database between runs: it is generated only
// when the file does not exist (a postgres:// URL: when it holds no league "night"). It
// reports the time per board and the heap it allocated.
func BenchmarkRatingsBigLeague(b *testing.B) {
	deals := 100_000
	if v := os.Getenv("TAPP_BENCH_RATINGS_DEALS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			b.Fatalf("TAPP_BENCH_RATINGS_DEALS=%q: want a positive number", v)
		}
		deals = n
	}
	db := os.Getenv("TAPP_BENCH_RATINGS_DB")
	if db == "" {
		db = filepath.Join(b.TempDir(), "night.db")
	}
	if !hasNightLeague(db) {
		start := time.Now()
		if err := writeSyntheticLadder(context.Background(), db, deals, func(done int) {
			if done%500_000 == 0 {
				b.Logf("%d deals stored (%.0f deals/s)", done, float64(done)/time.Since(start).Seconds())
			}
		}); err != nil {
			b.Fatal(err)
		}
		b.Logf("generated %d deals in %v", deals, time.Since(start).Round(time.Second))
	}
	m := &Main{Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}, Getenv: func(string) string { return "" }}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		m.Stdout.(*bytes.Buffer).Reset()
		if err := m.ratings(context.Background(), []string{"--league", "night", "--db", db}); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/board")
}

// hasNightLeague reports whether db (a SQLite file or a postgres:// URL) holds the league a
// generation left.
func hasNightLeague(db string) bool {
	if !strings.HasPrefix(db, "postgres") {
		_, err := os.Stat(db)
		return err == nil
	}
	st, err := store.Open(context.Background(), db)
	if err != nil {
		return false
	}
	defer st.Close()
	_, err = st.GetLeague(context.Background(), "night")
	return err == nil
}

// writeSyntheticLadder stores a league of n deals (rounded up to whole matches) in a new
// database at path, in batches of 600 deals: a round robin, every table of a round on the
// round's deal sources, as a league plays them.
func writeSyntheticLadder(ctx context.Context, path string, n int, progress func(done int)) error {
	st, err := store.Open(ctx, path)
	if err != nil {
		return err
	}
	defer st.Close()
	if _, err := st.EnsureLeague(ctx, &domain.League{ID: "night", Plan: "{}", Status: domain.LeagueFinished}); err != nil {
		return err
	}
	rules, err := engine.ParseRuleSet("modern")
	if err != nil {
		return err
	}
	bots := []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot"}
	skill := map[string]int{"alpha": 6, "bravo": 3, "charlie": 0, "delta": 0, "echo": -3, "foxtrot": -6}
	rng := rand.New(rand.NewPCG(5, 5_000_000))
	seatings := [][]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}
	const groups = 10
	var batch []*domain.DealRecord
	done := 0
	started := time.Date(2026, 11, 30, 20, 0, 0, 0, time.UTC)
	var tables [][]string // a round robin's: every composition of 3, each round on the round's deal sources
	for a := range 6 {
		for b := a + 1; b < 6; b++ {
			for c := b + 1; c < 6; c++ {
				tables = append(tables, []string{bots[a], bots[b], bots[c]})
			}
		}
	}
	for mi := 0; done < n; mi++ {
		table := tables[mi%len(tables)]
		m := &domain.Match{Spec: domain.MatchSpec{Rules: rules, Bots: table, Deals: groups, Seed: uint64(mi / len(tables)), Duplicate: true,
			LeagueID: "night", TimeControl: domain.DefaultTimeControl}, Status: domain.MatchFinished,
			Started: started.Add(time.Duration(mi) * time.Second), Finished: started.Add(time.Duration(mi)*time.Second + 30*time.Second)}
		if err := st.CreateMatch(ctx, m); err != nil {
			return err
		}
		for g := range groups {
			deal := engine.DealFromSeed(rules, m.Spec.Seed, uint64(g))
			for si, seating := range seatings {
				seat := []string{table[seating[0]], table[seating[1]], table[seating[2]]}
				d := &domain.DealRecord{MatchID: m.ID, Number: g*6 + si, Group: g, Seating: seat, Deal: deal,
					Started: m.Started, Outcome: engine.Outcome{Declarer: engine.NoSeat, Contract: engine.Ramsch}}
				declarer := rng.IntN(3)
				v := []int{10, 20, 30, 50}[rng.IntN(4)]
				if rng.IntN(100) < 45+skill[seat[declarer]] {
					v = -v
				}
				d.Outcome = engine.Outcome{Declarer: engine.Seat(declarer), Contract: engine.Solo, DeclarerWon: v > 0}
				for s := range 3 {
					pay := -v
					if s == declarer {
						pay = 2 * v
					}
					d.Results = append(d.Results, domain.SeatResult{Bot: seat[s], Seat: engine.Seat(s), Payoff: pay, Declarer: s == declarer})
				}
				batch = append(batch, d)
			}
		}
		done += groups * 6
		if len(batch) >= 600 || done >= n {
			if err := st.SaveDeals(ctx, batch); err != nil {
				return fmt.Errorf("store %d deals: %w", len(batch), err)
			}
			batch = batch[:0]
			if progress != nil {
				progress(done)
			}
		}
	}
	return nil
}
