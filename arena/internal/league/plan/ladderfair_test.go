package plan

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tapparena/tapp/engine"
)

// simulateLadder plans rounds of a ladder the way the runner does (round r sees the results
// of the rounds before r−1) with results drawn from planted strengths, and returns every
// bot's matches after each round. The strongest bot wins almost every unit, so that its
// Bradley–Terry rating is held only by the prior and its standard error stays the largest:
// uncertainty alone would seat it at every table.
func simulateLadder(t *testing.T, bots, seats, rounds int) []map[string]int {
	t.Helper()
	rules, err := engine.ParseRuleSet(fmt.Sprintf("modern players=%d", seats))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	strength := map[string]float64{}
	for i := range bots {
		b := fmt.Sprintf("bot%d", i)
		names = append(names, b)
		strength[b] = float64(i) * 4
	}
	strength[names[bots-1]] = 1000 // unbeatable
	p := &Plan{League: "L", Rules: rules, Format: Ladder, Bots: names, Deals: 3, Duplicate: true, Seed: 9}
	rng := rand.New(rand.NewPCG(uint64(bots), uint64(seats)))
	var byRound [][]Unit
	counts := map[string]int{}
	var history []map[string]int
	for r := range rounds {
		var known []Unit
		for _, us := range byRound[:max(r-p.Ahead()+1, 0)] {
			known = append(known, us...)
		}
		var units []Unit
		scheduled := map[string]int{}
		for _, b := range names {
			scheduled[b] = counts[b]
		}
		for m, table := range p.LadderTables(r, known, scheduled) {
			if len(table) != seats || len(slices.Compact(slices.Sorted(slices.Values(table)))) != seats {
				t.Fatalf("round %d: table %v is not %d distinct bots", r, table, seats)
			}
			id := fmt.Sprintf("r%03d-m%d", r, m)
			for g := range p.Deals {
				u := Unit{MatchID: id, Group: g, Deals: 6, Complete: true, Bots: table, Net: make([]int64, seats)}
				for i, b := range table {
					u.Net[i] = int64(strength[b] + 30*rng.NormFloat64())
				}
				units = append(units, u)
			}
			for _, b := range table {
				counts[b]++
			}
		}
		byRound = append(byRound, units)
		snap := map[string]int{}
		for _, b := range names {
			snap[b] = counts[b]
		}
		history = append(history, snap)
	}
	return history
}

// TestLadderKeepsMatchCountsFair: over a ladder of 4, 5 and 7 bots at 3- and 4-seat tables,
// uncertainty-first matchmaking keeps every bot's matches within a factor 1.5 of every
// other's once each bot has had a few (from round 10 on).
func TestLadderKeepsMatchCountsFair(t *testing.T) {
	t.Parallel()
	for _, bots := range []int{4, 5, 7} {
		for _, seats := range []int{3, 4} {
			t.Run(fmt.Sprintf("%d bots %d seats", bots, seats), func(t *testing.T) {
				t.Parallel()
				history := simulateLadder(t, bots, seats, 40)
				for r, counts := range history[10:] {
					lo, hi := 1<<30, 0
					for _, c := range counts {
						lo, hi = min(lo, c), max(hi, c)
					}
					if float64(hi) > 1.5*float64(lo) {
						t.Fatalf("after round %d: matches per bot %v: the most (%d) exceed 1.5 × the fewest (%d)", r+10, counts, hi, lo)
					}
				}
				t.Logf("after 40 rounds: %v", history[len(history)-1])
			})
		}
	}
}
