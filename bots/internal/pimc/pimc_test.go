package pimc

import (
	"testing"

	"github.com/tapparena/tapp/bots/doubledummy"
	"github.com/tapparena/tapp/engine"
)

// Among values within eps of the best, the heuristic's choice wins; without one (or when it
// is not among them) the first highest does.
func TestBestBreaksTiesByTheHeuristic(t *testing.T) {
	t.Parallel()
	acts := []engine.Action{engine.PassAction(), engine.PlayAction(), engine.ToutAction(true)}
	for _, c := range []struct {
		values []float64
		tie    engine.Action
		hasTie bool
		want   int
	}{
		{[]float64{1, 3, 3}, engine.ToutAction(true), true, 2},
		{[]float64{1, 3, 3 - 1e-12}, engine.ToutAction(true), true, 2},
		{[]float64{1, 3, 2.5}, engine.ToutAction(true), true, 1},
		{[]float64{1, 3, 3}, engine.ToutAction(true), false, 1},
		{[]float64{3, 3, 1}, engine.PlayAction(), true, 1},
	} {
		if got := Best(c.values, acts, 1e-9, c.tie, c.hasTie); got != c.want {
			t.Errorf("Best(%v, tie %v %v) = %d, want %d", c.values, c.tie, c.hasTie, got, c.want)
		}
	}
}

// A modern point contract asks "61 or not" while more than ExactTricks tricks remain and the
// exact points, tie-broken, after; the older variants estimate the margin within EstimateTol;
// the defender's payoff is the declarer's loss.
func TestCardQueryAsksWhatScores(t *testing.T) {
	t.Parallel()
	obs := func(v engine.Variant, tricks int, seat engine.Seat) *engine.Observation {
		return &engine.Observation{Rules: engine.DefaultRules(v), Seat: seat, Declarer: 0, Contract: engine.Solo,
			Trump: engine.Clubs, Tricks: make([]engine.Trick, tricks)}
	}
	early := NewCardQuery(obs(engine.Modern, 0, 1))
	if early.Goal != doubledummy.GoalPoints || early.Lo != 60 || early.Hi != 61 || early.Tol != 0 || early.TieBreak {
		t.Errorf("modern, first trick: %+v, want the window 60–61", early)
	}
	if early.Utility(61) >= 0 || early.Utility(60) <= 0 {
		t.Errorf("a defender's payoff: %v when the declarer makes 61, %v when he does not", early.Utility(61), early.Utility(60))
	}
	late := NewCardQuery(obs(engine.Modern, obs(engine.Modern, 0, 0).Rules.HandSize()-ExactTricks, 0))
	if late.Lo >= 0 || !late.TieBreak || late.Utility(70) <= late.Utility(65) {
		t.Errorf("modern, last tricks: %+v, want exact points, a point more worth more to the declarer", late)
	}
	older := NewCardQuery(obs(engine.Classic, 0, 0))
	if older.Tol != EstimateTol || older.Anchor != 61 {
		t.Errorf("classic, first trick: %+v, want estimates within %d anchored at 61", older, EstimateTol)
	}
}
