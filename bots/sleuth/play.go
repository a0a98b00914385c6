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
//   - Ramsch: see ramschCard (rollout.go).
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
	goal, _ := doubledummy.GoalOf(obs.Contract, obs.Tout)
	lo, hi := -1, 1000 // exact
	tol, anchor := 0, -1
	tieBreak := false
	switch goal {
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
	// utility is the bot's payoff when the declarer ends with value v
	utility := func(v int) float64 {
		u := sc.Payoff(me, v)
		if tieBreak {
			// a point more for the declarer is worth a little to him, less to the others;
			// in a Bettel a trick more is worth a little less to him
			t := 0.001 * float64(v)
			if goal == doubledummy.GoalNoTrick {
				t = -0.01 * float64(v)
			}
			if me == int(obs.Declarer) {
				u += t
			} else {
				u -= t
			}
		}
		return u
	}
	var after *engine.State
	ev := d.evaluate(len(actions), maxCardBatches, func(w *world, out []float64) bool {
		if d.modelReplies(w) {
			// the others finish the trick as the model plays, the solver takes it from there
			for j, a := range actions {
				if after == nil {
					after = w.st.Clone()
				} else {
					after.CopyFrom(w.st)
				}
				v, ok := d.afterTrick(after, a, lo, hi, tol, anchor)
				if !ok {
					return false
				}
				out[j] = utility(v)
			}
			return true
		}
		var mvBuf [16]doubledummy.MoveValue
		p, err := doubledummy.PlayPosition(w.st, obs)
		if err != nil {
			return false
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
			out[index[mv.Card]] = utility(mv.Value)
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
// like MoveValues in the window (lo, hi) or within tol.
func (d *decision) afterTrick(st *engine.State, a engine.Action, lo, hi, tol, anchor int) (int, bool) {
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
	case tol > 0:
		l, h := s.Approx(&p, tol, anchor)
		return (l + h + 1) / 2, !s.Aborted()
	case lo < 0:
		return s.Value(&p), !s.Aborted()
	default:
		if s.AtLeast(&p, hi) {
			return hi, !s.Aborted()
		}
		return lo, !s.Aborted()
	}
}

// maxCardBatches is how many batches of worlds a close card decision may draw.
const maxCardBatches = 4
