package sleuth

import (
	"context"
	"math"
	"time"

	"github.com/tapparena/tapp/bots"
	"github.com/tapparena/tapp/engine"
)

// Time management. A decision's work is counted in solver nodes, plus a fixed price for each
// world drawn, read by the opponent model or played out (sampleCost, readCost, rolloutCost),
// so that what the bot decides never depends on the speed of the machine: the same
// observation and seed give the same worlds, the same solves and the same action.
//
// Each decision gets a budget of work by what is at stake (importance): an ordinary card
// Config.Effort, a card in a contract of high stakes up to twice that, a bid or a declaration
// (lay-away, trump, call, give, Tout) twice. The budget is a ceiling, not a
// target: worlds are solved batch by batch, and the bot stops as soon as another batch could
// not change its choice (the best alternative leads the second by more than twice the
// standard error of the difference, or every alternative is worth the same in every world).
// Easy decisions so stay cheap and the time saved goes to the close ones that matter, which
// draw further batches up to their budget.
//
// The clock is the safety net: a decision also stops halfway through its own time (the
// request's deadline, bots.ClockOf; the context's deadline when the caller gives no clock;
// DefaultMaxTime after it starts when there is neither) or at Config.MaxTime if set,
// whichever comes first, on the work done by then. A decision that matters may run on into
// the overage bank (bankShare): where a busy host cuts the work of a bid short, the bank
// buys it back, and ordinary cards leave the bank alone. The bot reports that it spends the
// bank (bots.BankSpender), so that over gRPC the SDK lets it. The
// budgets are set so that on one core of the reference machine 95% of decisions take at most
// 250 ms (docs/STRENGTH.md), far inside the arena's default second per decision; only on a
// machine loaded far beyond that do decisions run into the clock and depend on timing.

// The prices of work outside the solver, in solver nodes of about the same time.
const (
	sampleCost  = 400 // drawing a world (engine.Observation.Sample)
	readCost    = 150 // reading one past decision of another seat (the heuristic's choice)
	rolloutCost = 150 // one move of a played-out deal (a heuristic decision)
)

// deadlineMargin is kept free before the context's deadline for the answer to travel, and
// timeShare is the share of the rest a decision may use: measured in a match on a host at
// load average 41 (2 cores, the bot niced), decisions that ran to the SDK's deadline
// (0.9 s of 1 s) reached the arena up to 0.5 s late, drained the overage bank and struck
// out; stopping at half the time keeps them inside the clock.
const (
	deadlineMargin = 30 * time.Millisecond
	timeShare      = 0.5
)

// start sets the decision's deadline and budget.
func (d *decision) start(ctx context.Context) {
	now := time.Now()
	switch {
	case d.b.cfg.MaxTime > 0:
		d.deadline = now.Add(d.b.cfg.MaxTime)
	case d.b.cfg.MaxTime == 0:
		if _, ok := ctx.Deadline(); !ok {
			d.deadline = now.Add(DefaultMaxTime)
		}
	}
	if dl, ok := d.clockStop(ctx, now); ok && (d.deadline.IsZero() || dl.Before(d.deadline)) {
		d.deadline = dl
	}
	d.budget = uint64(float64(d.b.cfg.Effort) * d.importance())
	if d.obs.Rules.Variant != engine.Modern {
		d.budget = uint64(float64(d.budget) * olderEffort)
	}
}

// clockStop is when the clock stops the decision: timeShare of its own time, and, for a
// decision that matters (importance above 1), a share of the overage bank on top
// (bankShare), never past timeShare of the time to the end of the bank (or of the context,
// whichever is first). Without a clock on the context (bots.ClockOf: a caller that gives
// none) it is timeShare of the time to the context's deadline, as before there was one.
// false: no deadline at all.
func (d *decision) clockStop(ctx context.Context, now time.Time) (time.Time, bool) {
	share := func(until time.Time) time.Time {
		// stop after timeShare of the time left: on a host so busy that the work takes
		// longer than that, the thread that has just been given the CPU may lose it for a
		// while before the answer is sent
		return now.Add(max(time.Duration(timeShare*float64(until.Sub(now)-deadlineMargin)), minTime))
	}
	ctxEnd, hasDeadline := ctx.Deadline()
	clock, hasClock := bots.ClockOf(ctx)
	if !hasClock || clock.Deadline.IsZero() {
		if !hasDeadline {
			return time.Time{}, false
		}
		return share(ctxEnd), true
	}
	own := clock.Deadline
	if hasDeadline && ctxEnd.Before(own) {
		own = ctxEnd
	}
	stop := share(own)
	if extra := d.bankShare() * float64(max(clock.Overage, 0)); extra > 0 {
		end := clock.End()
		if hasDeadline && ctxEnd.Before(end) {
			end = ctxEnd
		}
		if longer := stop.Add(time.Duration(extra)); longer.Before(share(end)) {
			stop = longer
		} else if limit := share(end); limit.After(stop) {
			stop = limit
		}
	}
	return stop, true
}

// minTime is the least time a decision gets whatever the clock says.
const minTime = 5 * time.Millisecond

// bankShare is the share of the overage bank a decision may spend beyond its own time when
// its work does not fit: a bid or a declaration (importance 2) a tenth, a card of a contract
// of high stakes less, an ordinary card none. A tenth at a time leaves most of a game's bank
// for the next bid (a seat has two to five such decisions a deal), and only decisions cut
// short by the clock spend it at all: work, not time, bounds a decision that fits.
func (d *decision) bankShare() float64 {
	return max(0, d.importance()-1) * maxBankShare
}

// maxBankShare is the bank share of the decisions that matter most.
const maxBankShare = 0.1

// olderEffort scales the budget in the older variants, whose exact card points make the work
// outside the solver's count (reading the worlds, valuing the plans) dearer: at the full
// budget their p95 was 250 ms (classic) and 274 ms (Württemberg) of CPU a decision, against
// modern's 231 ms (BenchmarkDecide, docs/BENCHMARKS.md).
const olderEffort = 0.8

// importance is the share of Config.Effort this decision may spend.
func (d *decision) importance() float64 {
	o := d.obs
	switch o.Decision {
	case engine.DecideBid, engine.DecideContract:
		return 2
	case engine.DecideCard:
		if o.Contract == engine.Ramsch || o.Declarer < 0 {
			return 1
		}
		// the stake relative to the variant's common contract
		r := &o.Rules
		if r.Variant == engine.Modern {
			return math.Min(2, math.Max(1, float64(r.Stakes[o.Contract])/15))
		}
		if o.Tout {
			return 2
		}
		return 1
	}
	return 2
}

// spend records work done outside the solver.
func (d *decision) spend(units uint64) { d.extra += units }

// used is the work done so far.
func (d *decision) used() uint64 { return d.solver.Nodes() - d.nodes0 + d.extra }

// left is the work still allowed (0 when spent).
func (d *decision) left() uint64 {
	u := d.used()
	if u >= d.budget {
		return 0
	}
	return d.budget - u
}

// timeUp reports whether the clock has run out or the context ended.
func (d *decision) timeUp() bool {
	return d.ctx.Err() != nil || (!d.deadline.IsZero() && time.Now().After(d.deadline))
}

// exhausted reports whether the decision must stop: no work left or no time.
func (d *decision) exhausted() bool { return d.left() == 0 || d.timeUp() }

// limitSolve lets the next solves use at most the work left (and clears an abort).
func (d *decision) limitSolve() {
	d.solver.SetLimit(d.deadline, d.stop)
	d.solver.SetNodeLimit(d.solver.Nodes() + d.left())
}
