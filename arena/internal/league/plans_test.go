package league_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/league"
	"github.com/tapparena/tapp/arena/internal/league/plan"
)

// TestRunHoldsOnlyTheMatchesInPlay: a run keeps a match's plan while its jobs play and drops
// it after the last one, so a league of any length holds none of the matches it is done
// with (what a cache of every match would keep grows with the night).
func TestRunHoldsOnlyTheMatchesInPlay(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := openSQLite(t)
	a := newArena(t, st, fourBots)
	p := testPlan(t, "plans", plan.RoundRobin, 3, 1) // 12 matches of 1 job each
	r := &league.Runner{Store: st, Seats: a.srv, Concurrency: 4, Lease: 5 * time.Second, Poll: 50 * time.Millisecond}
	var mu sync.Mutex
	var jobs, last int
	league.WatchHeldPlans(r, func(held int) {
		mu.Lock()
		defer mu.Unlock()
		jobs++
		last = held
	})
	out, err := r.Run(ctx, p, time.Time{})
	if err != nil || !out.Finished {
		t.Fatalf("Run = %v, %v; want finished", out, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if jobs != 12 || last != 0 {
		t.Errorf("after the last of %d jobs the run holds %d match plans; want 12 jobs, and none held", jobs, last)
	}
}
