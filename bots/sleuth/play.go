package sleuth

import (
	"github.com/tapparena/tapp/bots/doubledummy"
	"github.com/tapparena/tapp/engine"
)

// Card play: every legal card is valued on every world by the double-dummy solver, and the
// card with the best weighted mean payoff is played. What the solver is asked depends on what
// scores:
//   - modern point contracts: only 61 counts, so "61 or not" for each card while more than
//     exactTricks tricks remain, the exact points (a tie-break) from then on;
//   - classic and wuerttemberg point contracts: the margin above 60 scores, so the points
//     within estimateTol (61 settled exactly), exact in the last exactTricks+1 tricks;
//   - every trick (Rufer, Durch, Tout) and no trick (Bettel, Ouvert): won or lost, with the
//     tricks the declarer is forced to take as the tie-break of the no-trick contracts;
//   - Ramsch: see ramsch.go.
const (
	exactTricks = 5
	estimateTol = 8
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
	if obs.Contract == engine.Ramsch {
		return d.ramschCard(actions)
	}
	me := int(obs.Seat)
	hand := obs.Rules.HandSize()
	sc := doubledummy.NewScorer(obs.Rules, obs.Options, obs.Contract, obs.Tout, int(obs.Declarer))
	remaining := hand - len(obs.Tricks)
	ev := d.evaluate(len(actions), maxCardBatches, func(w *world, out []float64) bool {
		var mvBuf [16]doubledummy.MoveValue
		p, err := doubledummy.PlayPosition(w.st, obs)
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
			tieBreak = true
		}
		var buf []doubledummy.MoveValue
		if tol > 0 {
			buf = d.solver.MoveEstimates(&p, tol, anchor, mvBuf[:0])
		} else {
			buf = d.solver.MoveValues(&p, lo, hi, mvBuf[:0])
		}
		if d.solver.Aborted() || len(buf) != len(actions) {
			return false
		}
		for _, mv := range buf {
			u := sc.Payoff(me, mv.Value)
			if tieBreak {
				// a point more for the declarer is worth a little to him, less to the others;
				// in a Bettel a trick more is worth a little less to him
				t := 0.001 * float64(mv.Value)
				if p.Goal == doubledummy.GoalNoTrick {
					t = -0.01 * float64(mv.Value)
				}
				if me == p.Declarer {
					u += t
				} else {
					u -= t
				}
			}
			out[index[mv.Card]] = u
		}
		return true
	})
	m := ev.means()
	if m == nil {
		return engine.Action{}, false
	}
	return actions[d.best(m, actions, 1e-9)], true
}

// maxCardBatches is how many batches of worlds a close card decision may draw.
const maxCardBatches = 4
