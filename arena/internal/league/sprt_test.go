package league_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/league"
	"github.com/tapparena/tapp/arena/internal/league/leaguestore"
	"github.com/tapparena/tapp/arena/internal/league/plan"
	"github.com/tapparena/tapp/arena/internal/league/sprt"
	"github.com/tapparena/tapp/arena/internal/rating"
	"github.com/tapparena/tapp/arena/internal/store/memstore"
)

// sprtSettings ask whether heuristic is stronger than a random bot: it is, by far.
var sprtSettings = sprt.Settings{NElo0: 0, NElo1: 60, Alpha: 0.05, Beta: 0.05}

func sprtPlan(t *testing.T, name string) *plan.Plan {
	t.Helper()
	p, err := sprt.NewPlan(name, *testPlan(t, "", "", 0, 4), "heur", "r1", []string{"r2", "r3"}, sprtSettings)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// recomputedSPRT is the test's state recomputed from every raw result of the league.
func recomputedSPRT(t *testing.T, st leaguestore.Store, p *plan.Plan) sprt.Summary {
	t.Helper()
	s, err := sprt.Recompute(context.Background(), st, p, sprtSettings)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func sameSummary(a, b sprt.Summary) bool { return fmt.Sprintf("%+v", a) == fmt.Sprintf("%+v", b) }

func TestSPRTDecides(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := memstore.New()
	a := newArena(t, st, fourBots)
	p := sprtPlan(t, "sprt")
	r := &league.Runner{Store: st, Seats: a.srv, Concurrency: 8, Lease: 5 * time.Second, Poll: 20 * time.Millisecond}
	// The goal ends the league; the time limit only stops a league that hangs, so it is
	// generous: on a busy machine 60 s played too few deals for the test to decide.
	summary, out, err := sprt.Run(ctx, r, p, sprtSettings, time.Now().Add(10*time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("SPRT: %+v after %s", summary, describe(out))
	if out.Stopped != "goal reached" || summary.Report.Status != rating.SPRTAcceptH1 {
		t.Fatalf("outcome %s, SPRT %+v: want H1 accepted (heuristic beats random)", describe(out), summary.Report)
	}
	if !(summary.Report.LLR >= summary.Report.Upper) || summary.DecidedPair != summary.Pairs || summary.Diff.Mean <= 0 {
		t.Errorf("summary %+v", summary)
	}
	// The running totals give the decision the raw results give, at the same pair.
	if want := recomputedSPRT(t, st, p); !sameSummary(summary, want) {
		t.Errorf("running test %+v\nrecomputed from raw results %+v", summary, want)
	}
}

// An SPRT interrupted again and again, each run with a fresh test (as a new process would
// start, after Ctrl-C or kill -9), reaches the decision that the raw results give.
func TestInterruptedSPRTDecidesAsRecomputed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := openSQLite(t)
	a := newArena(t, st, fourBots)
	p := sprtPlan(t, "sprt-resumed")
	for run := 1; ; run++ {
		runCtx, cancel := context.WithCancel(ctx)
		// A run plays at most 45 deals and is stopped after 30 are stored, so that it is
		// interrupted before the test decides however far play runs ahead of the store.
		seats := &seatsUntilInterrupt{t: t, seats: a.srv, limit: 45, stopped: runCtx.Done()}
		r := &league.Runner{Store: st, Seats: seats, Concurrency: 8, Lease: 5 * time.Second, Poll: 20 * time.Millisecond,
			Linger: time.Millisecond, Progress: func(pr league.Progress) {
				if pr.Played >= 30 { // stop in the middle of a pair
					cancel()
				}
			}}
		summary, out, err := sprt.Run(runCtx, r, p, sprtSettings, time.Now().Add(10*time.Minute))
		cancel()
		if err != nil {
			t.Fatalf("run %d: %v", run, err)
		}
		if want := recomputedSPRT(t, st, p); !sameSummary(summary, want) {
			t.Fatalf("run %d: running test %+v\nrecomputed from raw results %+v", run, summary, want)
		}
		if out.Stopped == "goal reached" {
			if run < 2 {
				t.Errorf("decided in the first run; the interruptions did not happen")
			}
			if summary.Report.Status != rating.SPRTAcceptH1 {
				t.Errorf("decision %s, want H1 accepted (heuristic beats random)", summary.Report.Status)
			}
			return
		}
		if out.Stopped != "interrupted" || run > 100 {
			t.Fatalf("run %d stopped: %q (%+v)", run, out.Stopped, summary.Report)
		}
	}
}
