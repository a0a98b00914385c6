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
// contract (Solo, Heart Solo, Frage) at a table of three, which the bot values by play-outs
// in the worlds where the other two seats are, by the evidence, rule-of-thumb players
// (othersByRuleOfThumb), and by the solver in the others. The solver assumes that the
// declarer and the fellow defender see every card and play perfectly; against rule-of-thumb
// players that is wrong, and defending by play-outs took 0.44 cents a defence more than by
// the solver on the same hands (docs/STRENGTH.md, session 6). Against a searching declarer
// the play-out's assumption is the wrong one: it expects the rule of thumb's errors where a
// searcher makes none. At the table, against heuristic bots, the play-outs in every world,
// the solver in every world and this mixture were level within a third of a cent a deal
// over 900 deals (session 40); against kibitz no difference was shown. The declarer keeps the solver: its play-outs did no
// better there (its own later cards would be the rule of thumb's), and so do the defenders of
// a four-player table, where the play-outs did worse on the same hands (−0.7 cents a
// defence, 141 defences).
func (d *decision) defendsByPlayOuts() bool {
	obs := d.obs
	if d.b.cfg.SolverDefence || obs.Rules.Variant != engine.Modern || obs.Rules.Players != 3 ||
		obs.Declarer < 0 || obs.Seat == obs.Declarer {
		return false
	}
	g, _ := doubledummy.GoalOf(obs.Contract, obs.Tout)
	return g == doubledummy.GoalPoints
}

// playOutTrust is how sure the bot must be, in a world, that both other seats play by the
// rule of thumb before it defends there by play-outs rather than by the solver.
const playOutTrust = 0.5

// othersByRuleOfThumb reports whether, in world w, every other seat is a rule-of-thumb
// player with probability playOutTrust at least (Config.PlayOutDefence: always). The
// posterior is the world's: a seat's moves are read against the rule of thumb with that
// world's cards. (The posterior over a batch's worlds, each world's weighted, chose the same
// cards in TestDefenceBySolverAgainstSearchers's 243 decisions.)
func (d *decision) othersByRuleOfThumb(w *world) bool {
	if d.b.cfg.PlayOutDefence {
		return true
	}
	for s := 0; s < d.obs.Rules.Players; s++ {
		if engine.Seat(s) != d.obs.Seat && w.thumb[s] < playOutTrust {
			return false
		}
	}
	return true
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
		return d.playOutValues(w, actions, &next, value, out)
	})
	m := ev.means()
	if m == nil {
		return engine.Action{}, false
	}
	return actions[d.best(m, actions, 1e-9)], true
}

// playOutValues plays every legal card on world w and finishes the deal with the heuristic
// at every seat, writing value of each outcome to out; *next is the scratch state the card
// is played on (allocated at the first call). False: the world does not count.
func (d *decision) playOutValues(w *world, actions []engine.Action, next **engine.State, value func(*engine.Outcome) float64, out []float64) bool {
	for j, a := range actions {
		if *next == nil {
			*next = w.st.Clone()
		} else {
			(*next).CopyFrom(w.st)
		}
		if err := (*next).Apply(a); err != nil {
			return false
		}
		o, ok := d.playOut(*next)
		if !ok {
			return false
		}
		out[j] = value(&o)
		if d.exhausted() && j < len(actions)-1 {
			return false
		}
	}
	return true
}
