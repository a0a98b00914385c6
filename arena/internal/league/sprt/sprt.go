// Package sprt asks "is the candidate B stronger than the baseline A?" as a league: each
// round plays two duplicate matches on the same deals, B with field bots and A with the same
// field bots, B in A's table position (plan.NewSPRT), so B holds exactly the cards A held
// against opponents that hold the same cards and seats. A pair is one duplicate group of
// each: the scored unit. Its score compares B's total over the group's seatings with A's: 1
// when B won more, ½ when equal, 0 when less — a bounded score that the heavy tail of a few
// big contracts cannot dominate. The scores feed rating.SPRT (normalized Elo,
// fishtest-style).
//
// Pairs are taken in schedule order (round, group), and only the complete prefix counts, so
// the decision is reached at the same pair however the test is interrupted and resumed.
// A running test (Test) reads the store's running totals of the units it has not counted yet,
// so a check costs the same after a million deals as after ten; Pairs and Summarize recompute
// the same from raw results.
package sprt

import (
	"fmt"

	"github.com/tapparena/tapp/arena/internal/league/plan"
	"github.com/tapparena/tapp/arena/internal/rating"
)

// Settings are the hypotheses and error rates of a test, and its optional limit.
type Settings struct {
	NElo0, NElo1 float64 // H0: nElo = NElo0 against H1: nElo = NElo1 (NElo0 < NElo1)
	Alpha, Beta  float64 // type I and type II errors
	// MaxPairs stops the test undecided after this many pairs (0: no limit).
	MaxPairs int
}

// NewPlan returns the plan of a test (plan.NewSPRT) of candidate against baseline with the
// field; with a limit of MaxPairs, it has just the rounds that complete MaxPairs pairs (a
// round plays one pair per deal source): the goal is checked about once a second, and quick
// bots would play far past the limit in that time.
func NewPlan(league string, base plan.Plan, candidate, baseline string, field []string, s Settings) (*plan.Plan, error) {
	p, err := plan.NewSPRT(league, base, candidate, baseline, field)
	if err != nil {
		return nil, err
	}
	if s.MaxPairs > 0 {
		p.Rounds = (s.MaxPairs + p.Deals - 1) / p.Deals
	}
	return p, nil
}

// Pair is one duplicate group played by the candidate and by the baseline.
type Pair struct {
	Round, Group int
	Candidate    int64   // the candidate's total over the group
	Baseline     int64   // the baseline's total over the same deals and seatings
	Deals        int     // deals per side
	Score        float64 // 1, ½ or 0 from the candidate's point of view
}

// Diff is the candidate's advantage per deal in this pair.
func (p Pair) Diff() float64 { return float64(p.Candidate-p.Baseline) / float64(p.Deals) }

// newPair scores the candidate's total against the baseline's.
func newPair(round, group int, candidate, baseline int64, deals int) Pair {
	p := Pair{Round: round, Group: group, Candidate: candidate, Baseline: baseline, Deals: deals, Score: 0.5}
	switch {
	case candidate > baseline:
		p.Score = 1
	case candidate < baseline:
		p.Score = 0
	}
	return p
}

// Summary is the state of a test after some pairs.
type Summary struct {
	Report rating.SPRTReport
	Pairs  int
	// Diff is the candidate's advantage in payoff per deal over the baseline, with its 95%
	// interval, one value per pair.
	Diff rating.Interval
	// Elo is the score of the pairs as an Elo difference and normalized Elo per game (a game
	// being one pair), with their margins, as fastchess prints them for a W/D/L tally.
	Elo         rating.EloEstimate
	W, D, L     int
	DecidedPair int // pairs used for the decision (0 while continuing)
}

// Over reports whether a test in this state is done: decided, or at its limit of pairs.
func (s Summary) Over(maxPairs int) bool {
	return s.Report.Status != rating.SPRTContinue || (maxPairs > 0 && s.Pairs >= maxPairs)
}

// tally is a test fed pairs in schedule order up to its decision, keeping running sums only.
type tally struct {
	test    *rating.SPRT
	diff    rating.Running
	w, d, l int
}

func newTally(s Settings) (*tally, error) {
	t, err := rating.NewSPRT(s.NElo0, s.NElo1, s.Alpha, s.Beta)
	if err != nil {
		return nil, err
	}
	return &tally{test: t}, nil
}

// decided reports whether the test has decided: later pairs do not count.
func (t *tally) decided() bool { return t.test.Status() != rating.SPRTContinue }

// add feeds the next pair of the schedule to the test.
func (t *tally) add(p Pair) error {
	var r rating.WDL
	switch p.Score {
	case 1:
		r.W = 1
	case 0:
		r.L = 1
	default:
		r.D = 1
	}
	if err := t.test.AddWDL(r); err != nil {
		return err
	}
	t.diff.Add(p.Diff())
	t.w, t.d, t.l = t.w+r.W, t.d+r.D, t.l+r.L
	return nil
}

func (t *tally) summary() Summary {
	s := Summary{Report: t.test.Report(), Pairs: t.test.N(), Diff: t.diff.Interval(),
		Elo: rating.EloFromWDL(rating.WDL{W: t.w, D: t.d, L: t.l}), W: t.w, D: t.d, L: t.l}
	if t.decided() {
		s.DecidedPair = t.test.N()
	}
	return s
}

// Summarize feeds the pairs, in order, to a fresh test and stops at the first decision.
func Summarize(pairs []Pair, s Settings) (Summary, error) {
	t, err := newTally(s)
	if err != nil {
		return Summary{}, err
	}
	for _, p := range pairs {
		if t.decided() {
			break
		}
		if err := t.add(p); err != nil {
			return t.summary(), fmt.Errorf("pair %d/%d: %w", p.Round, p.Group, err)
		}
	}
	return t.summary(), nil
}
