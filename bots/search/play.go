package search

import (
	"github.com/tapparena/tapp/bots/doubledummy"
	"github.com/tapparena/tapp/engine"
)

// card decides a card: every sampled deal is solved for every legal card, and the card with
// the best mean payoff is played (PIMC).
//
// What the solver is asked depends on what scores:
//   - modern point contracts: only 61 counts, so "61 or not" for each card (a null-window
//     search); in the last exactTricks tricks the exact points, as a tie-break;
//   - classic and wuerttemberg point contracts: the margin above 60 scores, so exact points;
//   - every trick (Rufer, Durch, Tout): won or lost;
//   - no trick (Bettel, Ouvert): won or lost, and the declarer's forced tricks as a tie-break;
//   - Ramsch: the bot's own final points under the paranoid assumption (see doubledummy.GoalRamsch),
//     which it minimises; in the first ramschHeuristicTricks tricks the paranoid search is both
//     too slow and too pessimistic, and the heuristic bot plays instead.
//
// Where points are needed while many tricks remain, they are estimated within estimateTol
// points (MoveEstimates), 61 always being settled exactly.
const (
	estimateTol           = 8
	ramschHeuristicTricks = 3
)

func (d *decision) card() (engine.Action, bool) {
	obs := d.obs
	var actions []engine.Action
	var index [engine.NumCards]int
	for _, a := range obs.Legal {
		if a.Kind == engine.ActCard && a.Card.Valid() {
			index[a.Card] = len(actions)
			actions = append(actions, a)
		}
	}
	if len(actions) == 0 {
		return engine.Action{}, false
	}
	if obs.Contract == engine.Ramsch && len(obs.Tricks) < ramschHeuristicTricks {
		return engine.Action{}, false // too early for the solver: the heuristic bot plays
	}
	me := int(obs.Seat)
	contract := obs.Contract
	hand := obs.Rules.HandSize()
	sc := doubledummy.NewScorer(obs.Rules, obs.Options, contract, obs.Tout, int(obs.Declarer))
	remaining := hand - len(obs.Tricks)
	mean, n := d.evaluate(len(actions), func(st *engine.State, s *doubledummy.Solver, out []float64) bool {
		var mvBuf [16]doubledummy.MoveValue
		p, err := doubledummy.PlayPosition(st, obs)
		if err != nil {
			return false
		}
		lo, hi := -1, 1000 // exact
		tol, anchor := 0, -1
		tieBreak := false
		switch p.Goal {
		case doubledummy.GoalPoints:
			switch {
			case obs.Rules.Variant != engine.Modern:
				if remaining > exactTricks+1 {
					tol, anchor = estimateTol, 61
				}
			case remaining > exactTricks:
				lo, hi = 60, 61
			default:
				tieBreak = true
			}
		case doubledummy.GoalAllTricks:
			lo, hi = hand-1, hand
		case doubledummy.GoalNoTrick:
			// exact trick counts: besides won or lost, the number of tricks the declarer is
			// forced to take measures how exposed he is (a tie-break for both sides)
			tieBreak = true
		case doubledummy.GoalRamsch:
			if remaining > exactTricks {
				tol = estimateTol
			}
		}
		var buf []doubledummy.MoveValue
		if tol > 0 {
			buf = s.MoveEstimates(&p, tol, anchor, mvBuf[:0])
		} else {
			buf = s.MoveValues(&p, lo, hi, mvBuf[:0])
		}
		if s.Aborted() || len(buf) != len(actions) {
			return false
		}
		for _, mv := range buf {
			var u float64
			if p.Goal == doubledummy.GoalRamsch {
				u = -float64(mv.Value)
			} else {
				u = sc.Payoff(me, mv.Value)
				if tieBreak {
					// a point more for the declarer is worth a little to him, less to the
					// others; in a Bettel a trick more is worth a little less to him
					w := 0.001 * float64(mv.Value)
					if p.Goal == doubledummy.GoalNoTrick {
						w = -0.01 * float64(mv.Value)
					}
					if me == p.Declarer {
						u += w
					} else {
						u -= w
					}
				}
			}
			out[index[mv.Card]] = u
		}
		return true
	})
	return d.choose(mean, n, actions)
}
