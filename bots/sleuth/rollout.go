package sleuth

import (
	"github.com/tapparena/tapp/bots/doubledummy"
	"github.com/tapparena/tapp/engine"
)

// Play-outs: a world finished by the opponent model's policy (the heuristic bot) at every
// seat. Where the double-dummy solver fits badly — Ramsch, which is not a two-sided game, the
// defence of a point contract against a declarer who does not see every card, and the value
// of a deal decided in the bidding but not yet played — a play-out tells what the
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
	return d.playOutCard(actions, func(o *engine.Outcome) float64 { return float64(o.Payoff[me]) })
}

// defendsByPlayOuts reports whether this card decision is a defender's in a modern point
// contract (Solo, Heart Solo, Frage) at a table of three, which the bot values by play-outs rather than by the
// solver. The solver assumes that the declarer and the fellow defender see every card and
// play perfectly; the declarers the bot meets are rule-of-thumb players, and the fellow
// defender too. Measured on the same hands and contracts (heuristic bidding, the bot at one
// defender's seat, docs/STRENGTH.md session 6), defending by play-outs took 0.44 cents a
// defence more than defending by the solver. The declarer keeps the solver: its play-outs
// did no better there (its own later cards would be the rule of thumb's), and so do the
// defenders of a four-player table, where the play-outs did worse on the same hands (−0.7
// cents a defence, 141 defences).
func (d *decision) defendsByPlayOuts() bool {
	obs := d.obs
	if d.b.cfg.SolverDefence || obs.Rules.Variant != engine.Modern || obs.Rules.Players != 3 ||
		obs.Declarer < 0 || obs.Seat == obs.Declarer {
		return false
	}
	g, _ := doubledummy.GoalOf(obs.Contract, obs.Tout)
	return g == doubledummy.GoalPoints
}

// defenceValue is a defender's payoff of a played-out point contract, the declarer's card
// points as a tie-break: where the deal is won or lost whatever the card, the card that
// leaves him fewer points keeps more chances against a declarer who errs.
func (d *decision) defenceValue(o *engine.Outcome) float64 {
	return float64(o.Payoff[d.obs.Seat]) - 0.001*float64(o.DeclarerPoints())
}

// playOutCard values every legal card by playing it on every world and finishing the deal
// with the heuristic at every seat; value turns the outcome into the bot's payoff. The card
// with the best mean is played.
func (d *decision) playOutCard(actions []engine.Action, value func(*engine.Outcome) float64) (engine.Action, bool) {
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
			out[j] = value(&o)
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
