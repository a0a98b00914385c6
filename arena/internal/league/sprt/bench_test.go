package sprt_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/league/plan"
	"github.com/tapparena/tapp/arena/internal/league/sprt"
	"github.com/tapparena/tapp/arena/internal/store"
	"github.com/tapparena/tapp/engine"
)

// BenchmarkSPRTCheck measures one check of a running test on SQLite after rounds of the test
// are stored (48 deals a round; the last one half played), against the recomputation from every raw result that the
// check replaced:
//
//	go test -run '^$' -bench SPRTCheck -benchtime 20x ./arena/internal/league/sprt
func BenchmarkSPRTCheck(b *testing.B) {
	s := sprt.Settings{NElo0: 0, NElo1: 150, Alpha: 0.05, Beta: 0.05}
	for _, rounds := range []int{10, 100} {
		ctx := context.Background()
		st, err := store.Open(ctx, filepath.Join(b.TempDir(), "sprt.db"))
		if err != nil {
			b.Fatal(err)
		}
		p := benchPlan(b, s)
		if _, err := st.EnsureLeague(ctx, &domain.League{ID: p.League, Plan: p.Fingerprint()}); err != nil {
			b.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(3, 4))
		for r := range rounds { // the last round half played: a check reads its units
			storeRound(b, st, p, r, r == rounds-1, rng)
		}
		b.Run(fmt.Sprintf("running/rounds=%d", rounds), func(b *testing.B) {
			test, err := sprt.NewTest(st, p, s, nil)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := test.Check(ctx); err != nil { // counts the stored pairs once
				b.Fatal(err)
			}
			b.ResetTimer()
			for range b.N {
				if _, err := test.Check(ctx); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("recomputed/rounds=%d", rounds), func(b *testing.B) {
			for range b.N {
				if _, err := sprt.Recompute(ctx, st, p, s); err != nil {
					b.Fatal(err)
				}
			}
		})
		st.Close()
	}
}

func benchPlan(b *testing.B, s sprt.Settings) *plan.Plan {
	rules, err := engine.ParseRuleSet("modern")
	if err != nil {
		b.Fatal(err)
	}
	// An undecidable test (equal bots, H1 far away), so that every check reads the store.
	s.NElo1 = 1e4
	p, err := sprt.NewPlan("bench", plan.Plan{Rules: rules, Deals: 4, Seed: 5, TimeControl: domain.DefaultTimeControl},
		"new", "old", []string{"f1", "f2", "f3"}, s)
	if err != nil {
		b.Fatal(err)
	}
	return p
}

// storeRound schedules round r and stores its deals (cards from the seed, a settled outcome,
// random payoffs), or half of each match's when half is set.
func storeRound(b *testing.B, st *store.Store, p *plan.Plan, r int, half bool, rng *rand.Rand) {
	ctx := context.Background()
	places, ms, jobs, err := p.Round(r, p.FixedTables(r))
	if err != nil {
		b.Fatal(err)
	}
	if err := st.ScheduleRound(ctx, places, ms, jobs); err != nil {
		b.Fatal(err)
	}
	for _, m := range ms {
		deals := p.TablesPerMatch()
		if half {
			deals /= 2
		}
		for n := range deals {
			d := &domain.DealRecord{MatchID: m.ID, Number: n, Group: n / 6, Seating: m.Spec.Bots,
				Deal:    engine.DealFromSeed(p.Rules, m.Spec.Seed, uint64(n)),
				Outcome: engine.Outcome{Declarer: 0, Contract: engine.Solo, Trump: engine.Clubs, DeclarerWon: true},
				Started: time.Now(), Duration: time.Millisecond}
			for seat, bot := range m.Spec.Bots {
				d.Results = append(d.Results, domain.SeatResult{Bot: bot, Seat: engine.Seat(seat), Payoff: rng.IntN(41) - 20})
			}
			if err := st.SaveDeal(ctx, d); err != nil {
				b.Fatal(err)
			}
		}
	}
}
