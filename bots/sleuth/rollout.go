package sleuth

import (
	"github.com/tapparena/tapp/engine"
)

// Play-outs: a world finished by the opponent model's policy (the heuristic bot) at every
// seat. Where the double-dummy solver fits badly — Ramsch, which is not a two-sided game, and
// the value of a deal decided in the bidding but not yet played — a play-out tells what the
// deal is worth against players like the model, at the price of assuming the bot itself plays
// no better than the rule of thumb from there on.

// playOut plays st to the end with the heuristic at every seat and returns the outcome; st is
// left as it was (the play-out runs on the decision's scratch state).
func (d *decision) playOut(st *engine.State) (engine.Outcome, bool) {
	if d.scratch == nil {
		d.scratch = st.Clone()
	} else {
		d.scratch.CopyFrom(st)
	}
	s := d.scratch
	for !s.Terminal() {
		obs := s.Observe(s.ToMove())
		a, err := d.b.fallback.Decide(d.ctx, &obs)
		if err != nil {
			return engine.Outcome{}, false
		}
		if err := s.Apply(a); err != nil {
			return engine.Outcome{}, false
		}
		d.spend(rolloutCost)
	}
	return s.Outcome(), true
}

// ramschCard plays a Ramsch card: every legal card is played on every world and the deal
// finished by the heuristic at every seat; the card with the best mean payoff (the real
// scoring: the most points pay, a Jungfer pays double) is played.
func (d *decision) ramschCard(actions []engine.Action) (engine.Action, bool) {
	me := d.obs.Seat
	var next *engine.State
	ev := d.evaluate(len(actions), maxCardBatches, func(w *world, out []float64) bool {
		for j, a := range actions {
			if next == nil {
				next = w.st.Clone()
			} else {
				next.CopyFrom(w.st)
			}
			if err := next.Apply(a); err != nil {
				return false
			}
			o, ok := d.playOut(next)
			if !ok {
				return false
			}
			out[j] = float64(o.Payoff[me])
			if d.exhausted() && j < len(actions)-1 {
				return false
			}
		}
		return true
	})
	m := ev.means()
	if m == nil {
		return engine.Action{}, false
	}
	return actions[d.best(m, actions, 1e-9)], true
}
