package sleuth

import (
	"github.com/tapparena/tapp/bots/doubledummy"
	"github.com/tapparena/tapp/bots/internal/pimc"
	"github.com/tapparena/tapp/engine"
)

// The declarer's choices after the bidding — the Frage lay-away, a classic Solo's trump, the
// Rufer call and give, the Tout answer — are made like the bids: every alternative is valued
// at the first lead of every world (positionValue) and the best weighted mean is taken.

// maxDeclareBatches is how many batches of worlds a declaration may draw.
const maxDeclareBatches = 2

// choose solves the alternatives' positions on every world and returns the best, with the
// heuristic's choice breaking ties.
func (d *decision) choose(actions []engine.Action, position func(w *world, j int) (doubledummy.Position, bool)) (engine.Action, bool) {
	obs := d.obs
	ev := d.evaluate(len(actions), maxDeclareBatches, func(w *world, out []float64) bool {
		for j := range actions {
			p, ok := position(w, j)
			if !ok {
				return false
			}
			v, ok := d.positionValue(&p, obs.Rules, obs.Options, obs.Contract, false)
			if !ok {
				return false
			}
			out[j] = v
		}
		return true
	})
	m := ev.means()
	if m == nil {
		return engine.Action{}, false
	}
	return actions[d.best(m, actions, 1e-9)], true
}

// discard lays away one card of a Frage: the best of a few sets (doubledummy.FrageDiscards)
// for the cards still to lay away; the set's most valuable card goes now.
func (d *decision) discard() (engine.Action, bool) {
	obs := d.obs
	r := &obs.Rules
	me := int(obs.Seat)
	k := obs.Hand.Len() - r.HandSize()
	if k <= 0 {
		return engine.Action{}, false
	}
	sets := doubledummy.FrageDiscards(obs.Hand, engine.Hearts, k, 4)
	actions := make([]engine.Action, len(sets))
	for j, set := range sets {
		actions[j] = engine.DiscardAction(set.Highest())
	}
	return d.choose(actions, func(w *world, j int) (doubledummy.Position, bool) {
		h := pimc.Hands(w.st)
		h[me] = obs.Hand &^ sets[j]
		return doubledummy.HandPosition(r, h, me, engine.Frage, engine.Hearts, (obs.Discarded | sets[j]).Points(), false), true
	})
}

// trump names a classic Solo's trump.
func (d *decision) trump() (engine.Action, bool) {
	obs := d.obs
	r := &obs.Rules
	me := int(obs.Seat)
	actions := pimc.OfKind(obs.Legal, engine.ActTrump)
	return d.choose(actions, func(w *world, j int) (doubledummy.Position, bool) {
		return doubledummy.HandPosition(r, pimc.Hands(w.st), me, obs.Contract, actions[j].Suit, w.st.Deal().Tapp.Points(), false), true
	})
}

// call chooses the Rufer's called card among every missing trump and the highest missing card
// of each side suit; on each world the holder hands it over and gets the rule of thumb's give.
func (d *decision) call() (engine.Action, bool) {
	obs := d.obs
	r := &obs.Rules
	me := int(obs.Seat)
	actions := pimc.CallCandidates(obs)
	return d.choose(actions, func(w *world, j int) (doubledummy.Position, bool) {
		c := actions[j].Card
		h := doubledummy.Exchange(r, pimc.Hands(w.st), me, c, doubledummy.RuferGive(obs.Hand.With(c), obs.Trump, c))
		return doubledummy.HandPosition(r, h, me, obs.Contract, obs.Trump, 0, false), true
	})
}

// give chooses the card handed to the holder of the called card.
func (d *decision) give() (engine.Action, bool) {
	obs := d.obs
	r := &obs.Rules
	me := int(obs.Seat)
	holder := int(obs.CalledHolder)
	if holder < 0 {
		return engine.Action{}, false
	}
	actions := pimc.OfKind(obs.Legal, engine.ActGive)
	return d.choose(actions, func(w *world, j int) (doubledummy.Position, bool) {
		h := pimc.Hands(w.st)
		h[me] = h[me].Without(actions[j].Card)
		h[holder] = h[holder].With(actions[j].Card)
		return doubledummy.HandPosition(r, h, me, obs.Contract, obs.Trump, 0, false), true
	})
}

// tout answers the Tout question (older variants): Tout when every trick is taken in at least
// ToutThreshold of the weighted worlds.
func (d *decision) tout() (engine.Action, bool) {
	obs := d.obs
	r := &obs.Rules
	me := int(obs.Seat)
	ev := d.evaluate(1, maxDeclareBatches, func(w *world, out []float64) bool {
		p := doubledummy.HandPosition(r, pimc.Hands(w.st), me, obs.Contract, obs.Trump, 0, true)
		if d.solver.DeclarerWins(&p) {
			out[0] = 1
		}
		return !d.solver.Aborted()
	})
	m := ev.means()
	if m == nil {
		return engine.Action{}, false
	}
	return engine.ToutAction(m[0] >= ToutThreshold), true
}

// ToutThreshold is the share of worlds in which the declarer must take every trick before the
// bot announces Tout (kibitz's too).
const ToutThreshold = pimc.ToutThreshold
