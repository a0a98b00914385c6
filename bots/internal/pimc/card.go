package pimc

import (
	"github.com/tapparena/tapp/bots/doubledummy"
	"github.com/tapparena/tapp/engine"
)

// Card play is the solver's in both bots: every legal card valued on every imagined deal.
// What the solver is asked depends on what scores:
//   - modern point contracts: only 61 counts, so "61 or not" for each card (a null-window
//     search) while more than ExactTricks tricks remain; the exact points, as a tie-break,
//     from then on;
//   - classic and wuerttemberg point contracts: the margin above 60 scores, so the points
//     within EstimateTol (61 always settled exactly), exact in the last ExactTricks+1 tricks;
//   - every trick (Rufer, Durch, Tout): won or lost;
//   - no trick (Bettel, Ouvert): won or lost, and the declarer's forced tricks as a
//     tie-break for both sides;
//   - Ramsch: the bot's own final points under the paranoid assumption (doubledummy.GoalRamsch),
//     which it minimises, within EstimateTol while more than ExactTricks tricks remain.
const (
	ExactTricks = 5
	EstimateTol = 8
)

// CardQuery is what the solver is asked for one card decision, and how its answer (the
// declarer's points or tricks, or in Ramsch the bot's points) becomes the bot's payoff.
type CardQuery struct {
	Goal doubledummy.Goal
	// Lo, Hi is the search window of MoveValues (Lo < 0: exact values).
	Lo, Hi int
	// Tol > 0: estimates within Tol points (MoveEstimates), Anchor settled exactly.
	Tol, Anchor int
	// TieBreak adds a little for each point (or, no-trick, takes a little for each trick)
	// the declarer ends with, so that equally winning cards are told apart.
	TieBreak bool

	scorer   doubledummy.Scorer
	me       int
	declarer int
}

// NewCardQuery returns the query for the card decision of obs.
func NewCardQuery(obs *engine.Observation) CardQuery {
	hand := obs.Rules.HandSize()
	remaining := hand - len(obs.Tricks)
	goal, _ := doubledummy.GoalOf(obs.Contract, obs.Tout)
	q := CardQuery{Goal: goal, Lo: -1, Hi: 1000, Anchor: -1, me: int(obs.Seat), declarer: int(obs.Declarer)}
	switch goal {
	case doubledummy.GoalPoints:
		switch {
		case obs.Rules.Variant != engine.Modern:
			if remaining > ExactTricks+1 {
				q.Tol, q.Anchor = EstimateTol, 61
			}
		case remaining > ExactTricks:
			q.Lo, q.Hi = 60, 61
		default:
			q.TieBreak = true
		}
	case doubledummy.GoalAllTricks:
		q.Lo, q.Hi = hand-1, hand
	case doubledummy.GoalNoTrick:
		q.TieBreak = true
	case doubledummy.GoalRamsch:
		if remaining > ExactTricks {
			q.Tol = EstimateTol
		}
		return q
	}
	q.scorer = doubledummy.NewScorer(obs.Rules, obs.Options, obs.Contract, obs.Tout, int(obs.Declarer))
	return q
}

// Utility is the bot's payoff when the solver's answer is v.
func (q *CardQuery) Utility(v int) float64 {
	if q.Goal == doubledummy.GoalRamsch {
		return -float64(v)
	}
	u := q.scorer.Payoff(q.me, v)
	if q.TieBreak {
		// a point more for the declarer is worth a little to him, less to the others; in a
		// Bettel a trick more is worth a little less to him
		t := 0.001 * float64(v)
		if q.Goal == doubledummy.GoalNoTrick {
			t = -0.01 * float64(v)
		}
		if q.me == q.declarer {
			u += t
		} else {
			u -= t
		}
	}
	return u
}

// MoveValues asks s the query for every legal move of p, appending to buf.
func (q *CardQuery) MoveValues(s *doubledummy.Solver, p *doubledummy.Position, buf []doubledummy.MoveValue) []doubledummy.MoveValue {
	if q.Tol > 0 {
		return s.MoveEstimates(p, q.Tol, q.Anchor, buf)
	}
	return s.MoveValues(p, q.Lo, q.Hi, buf)
}
