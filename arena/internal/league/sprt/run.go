package sprt

import (
	"context"
	"time"

	"go.uber.org/zap"

	"github.com/tapparena/tapp/arena/internal/league"
	"github.com/tapparena/tapp/arena/internal/league/plan"
)

// Run plays the SPRT league p (see NewPlan) with r until the test decides, until its limit of
// pairs, until the time limit until (zero: none) or until ctx ends, and returns the test's
// final state with the run's outcome. r's Goal is the test's Check; r.Store is what it reads.
// Run again with the same plan to resume an undecided test.
func Run(ctx context.Context, r *league.Runner, p *plan.Plan, s Settings, until time.Time) (Summary, *league.Outcome, error) {
	log := r.Log
	if log == nil {
		log = zap.NewNop()
	}
	t, err := NewTest(r.Store, p, s, log)
	if err != nil {
		return Summary{}, nil, err
	}
	r.Goal = t.Check
	out, err := r.Run(ctx, p, until)
	if err != nil {
		return Summary{}, out, err
	}
	// The deals stored after the last check (those of the jobs in flight) count too.
	if _, err := t.Check(context.WithoutCancel(ctx)); err != nil {
		return Summary{}, out, err
	}
	return t.Summary(), out, nil
}
