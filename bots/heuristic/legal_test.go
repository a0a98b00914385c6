package heuristic

import (
	"context"
	"math"
	"sync"
	"testing"

	"github.com/tapparena/tapp/engine"
)

// TestAlwaysLegal plays thousands of deals of every variant and table size, the heuristic at
// every seat and against random bots, and checks that every answer is one of obs.Legal and
// that asking again with the same observation gives the same answer.
func TestAlwaysLegal(t *testing.T) {
	t.Parallel()
	deals := 1000
	if testing.Short() {
		deals = 100
	}
	var mu sync.Mutex
	all := map[engine.Decision]int{}
	t.Cleanup(func() {
		// Every kind of decision of every variant came up and was answered.
		for d := engine.DecideBid; d <= engine.DecideCard; d++ {
			if all[d] == 0 {
				t.Errorf("decision %s never asked of the heuristic", d)
			}
		}
	})
	for _, r := range ruleSets() {
		t.Run(r.String(), func(t *testing.T) {
			t.Parallel()
			seen := map[engine.Decision]int{}
			defer func() {
				mu.Lock()
				defer mu.Unlock()
				for d, n := range seen {
					all[d] += n
				}
			}()
			contracts := map[engine.Contract]int{}
			for i := 0; i < deals; i++ {
				d := engine.DealFromSeed(r, 11, uint64(i))
				hero := i%(r.Players+1) - 1 // -1: heuristic everywhere
				opts := engine.Options{}
				if r.Variant == engine.Modern && i%25 == 24 {
					opts.ForcedRamsch = true // R-SESSION-3
				}
				_, out := playDeal(t, r, d, opts, table(r.Players, hero, uint64(i)), func(obs *engine.Observation, a engine.Action) {
					if hero >= 0 && int(obs.Seat) != hero {
						return
					}
					seen[obs.Decision]++
					found := false
					for _, l := range obs.Legal {
						if l == a {
							found = true
						}
					}
					if !found {
						t.Fatalf("seat %s %s: %s is not in obs.Legal %v", obs.Seat, obs.Decision, a, obs.Legal)
					}
					again, err := New().Decide(context.Background(), obs)
					if err != nil || again != a {
						t.Fatalf("seat %s %s: same observation, answers %s then %s (%v)", obs.Seat, obs.Decision, a, again, err)
					}
				})
				contracts[out.Contract]++
			}
			t.Logf("decisions %v contracts %v", seen, contracts)
		})
	}
}

// The Rufer plan sums the losers of each suit once per call and give; it must agree with the
// whole count of every exchange, card by card.
func TestRuferPlanMatchesFullCount(t *testing.T) {
	t.Parallel()
	full := func(e *evaluator, trump engine.Suit) (engine.Card, float64) {
		best, bestP, bestL := engine.NoCard, -1.0, 1<<30
		for _, c := range (e.pack &^ e.hand).Cards(nil) {
			h := e.hand.With(c)
			l := 1 << 30
			for _, g := range e.hand.Cards(nil) {
				if x := losers(e.pack, h.Without(g), trump); x < l {
					l = x
				}
			}
			p := e.pAllByLosers(l)
			if p > bestP+1e-9 || (math.Abs(p-bestP) <= 1e-9 && (l < bestL ||
				(l == bestL && callRank(c, trump) > callRank(best, trump)))) {
				best, bestP, bestL = c, p, l
			}
		}
		return best, bestP
	}
	for _, players := range []int{3, 4} {
		r := engine.DefaultRules(engine.Modern)
		r.Players = players
		for i := 0; i < 300; i++ {
			deal := engine.DealFromSeed(r, 44, uint64(i))
			e := newEvaluator(r, deal.Hands[i%players])
			for trump := engine.Suit(0); trump < engine.NumSuits; trump++ {
				c1, p1 := e.ruferPlan(trump, nil)
				c2, p2 := full(e, trump)
				if c1 != c2 || p1 != p2 {
					t.Fatalf("deal %d trump %v: plan %v %.2f, full count %v %.2f", i, trump, c1, p1, c2, p2)
				}
			}
		}
	}
}
