package sleuth

import (
	"github.com/tapparena/tapp/bots/doubledummy"
	"github.com/tapparena/tapp/bots/internal/pimc"
	"github.com/tapparena/tapp/engine"
)

// Card play: every legal card is valued on every world by the double-dummy solver, and the
// card with the best weighted mean payoff is played; what the solver is asked, and how its
// answer becomes the bot's payoff, is pimc.CardQuery's (kibitz asks the same). A Ramsch card,
// and a defender's card in a modern point contract: see rollout.go.
func (d *decision) card() (engine.Action, bool) {
	obs := d.obs
	actions, index := pimc.CardActions(obs.Legal)
	if len(actions) == 0 {
		return engine.Action{}, false
	}
	if obs.Contract == engine.Ramsch {
		return d.ramschCard(actions)
	}
	defence := d.defendsByPlayOuts()
	q := pimc.NewCardQuery(obs)
	var after, next *engine.State
	ev := d.evaluate(len(actions), maxCardBatches, func(w *world, out []float64) bool {
		if defence && d.othersByRuleOfThumb(w) {
			// the deal finished as rule-of-thumb players would finish it (rollout.go)
			return d.playOutValues(w, actions, &next, d.defenceValue, out)
		}
		if d.modelReplies(w) {
			// the others finish the trick as the model plays, the solver takes it from there
			for j, a := range actions {
				if after == nil {
					after = w.st.Clone()
				} else {
					after.CopyFrom(w.st)
				}
				v, ok := d.afterTrick(after, a, &q)
				if !ok {
					return false
				}
				out[j] = q.Utility(v)
			}
			return true
		}
		var mvBuf [16]doubledummy.MoveValue
		p, err := doubledummy.PlayPosition(w.st, obs)
		if err != nil {
			return false
		}
		buf := q.MoveValues(d.solver, &p, mvBuf[:0])
		if d.solver.Aborted() || len(buf) != len(actions) {
			return false
		}
		for _, mv := range buf {
			out[index[mv.Card]] = q.Utility(mv.Value)
		}
		return true
	})
	m := ev.means()
	if m == nil {
		return engine.Action{}, false
	}
	return actions[d.best(m, actions, 1e-9)], true
}

// modelTrust is how sure the bot must be that every seat still to play to the trick plays by
// the rule of thumb before it takes their cards from the model rather than from the solver.
const modelTrust = 0.9

// modelReplies reports whether, in world w, the seats that play after the bot in the current
// trick are, all of them, rule-of-thumb players by the evidence (see Model.ruleOfThumb).
func (d *decision) modelReplies(w *world) bool {
	if d.b.cfg.NoInference || d.b.cfg.NoModelReplies {
		return false
	}
	obs := d.obs
	n := obs.Rules.Players
	played := 0
	for played < n && obs.Current.Cards[played] != engine.NoCard {
		played++
	}
	if played == n-1 {
		return false // the bot completes the trick: nothing to predict
	}
	for k := played + 1; k < n; k++ {
		seat := (int(obs.Current.Leader) + k) % n
		if w.thumb[seat] < modelTrust {
			return false
		}
	}
	return true
}

// afterTrick plays a on st (a copy of a world), lets the other seats finish the trick as the
// heuristic plays, and returns the declarer's value from there under perfect play, searched
// as q asks (the window, or the estimate within q.Tol).
func (d *decision) afterTrick(st *engine.State, a engine.Action, q *pimc.CardQuery) (int, bool) {
	me := d.obs.Seat
	trick := st.TricksPlayed()
	if err := st.Apply(a); err != nil {
		return 0, false
	}
	for !st.Terminal() && st.TricksPlayed() == trick {
		obs := st.Observe(st.ToMove())
		r, err := d.b.fallback.Decide(d.ctx, &obs)
		if err != nil {
			return 0, false
		}
		if err := st.Apply(r); err != nil {
			return 0, false
		}
		d.spend(rolloutCost)
	}
	if st.Terminal() {
		o := st.Outcome()
		g, _ := doubledummy.GoalOf(o.Contract, o.Tout)
		if g == doubledummy.GoalPoints {
			return o.Points[o.Declarer], true
		}
		return o.Tricks[o.Declarer], true
	}
	p, err := doubledummy.PositionOf(st, me)
	if err != nil {
		return 0, false
	}
	s := d.solver
	switch {
	case q.Tol > 0:
		l, h := s.Approx(&p, q.Tol, q.Anchor)
		return (l + h + 1) / 2, !s.Aborted()
	case q.Lo < 0:
		return s.Value(&p), !s.Aborted()
	default:
		if s.AtLeast(&p, q.Hi) {
			return q.Hi, !s.Aborted()
		}
		return q.Lo, !s.Aborted()
	}
}

// maxCardBatches is how many batches of worlds a close card decision may draw.
const maxCardBatches = 4
