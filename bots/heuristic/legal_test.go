package heuristic

import (
	"context"
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
