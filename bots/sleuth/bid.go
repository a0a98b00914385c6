package sleuth

import (
	"github.com/tapparena/tapp/bots/doubledummy"
	"github.com/tapparena/tapp/bots/internal/pimc"
	"github.com/tapparena/tapp/engine"
)

// Bidding by evaluation. Every plan the bot could follow for the rest of the bidding is
// played on every world: the other seats bid and declare as the opponent model says (the
// heuristic bot's choice on their hands in that world), the bot as the plan says; the deal
// that results is valued (value.go): the bot's contract or an opponent's by the calibrated
// double-dummy verdict, a Ramsch by play-outs, a thrown-in deal at 0. So passing is not worth
// 0: it is worth defending whatever the others then play, or the Ramsch; and a contract the
// others would outbid is worth what their contract is. The plans race: all of them on a first
// batch of worlds, the ones still in the running on more; the best weighted mean wins, less a
// caution for the noise of its estimate (see choosePlan).
//
// The plans:
//   - modern round one: pass, or play and name contract X in round two (X among the
//     contracts the hand might carry, bidCandidates); "play" is worth the policy of naming,
//     for each thing the bot may hear before its round-two turn, the X best then (adapt.go);
//   - modern round two: name X, each X that can still win; and one that cannot (a pass in
//     effect) when there is one;
//   - the older variants' auction: pass, or bid X now and hold it, bidding it again whenever
//     it is legal (a classic Solo with each trump suit the hand might carry).

// plan is what the bot does for the rest of the bidding.
type plan struct {
	action engine.Action // the answer now
	name   engine.Action // the contract it names (modern round two) or holds (auction)
	trump  engine.Suit   // a classic Solo's trump (R-CL-ORDER)
}

// bidCandidates lists the contracts worth evaluating for hand (pimc.Candidates), as plans
// that name them.
func bidCandidates(r *engine.RuleSet, hand engine.CardSet) []plan {
	var out []plan
	for _, c := range pimc.Candidates(r, hand) {
		out = append(out, plan{name: c.Name, trump: c.Trump})
	}
	return out
}

// plans lists the plans of this bidding decision.
func (d *decision) plans() []plan {
	obs := d.obs
	r := &obs.Rules
	cands := bidCandidates(r, obs.Hand)
	var out []plan
	switch {
	case obs.Decision == engine.DecideBid && r.Variant == engine.Modern:
		out = append(out, plan{action: engine.PassAction()})
		for _, c := range cands {
			c.action = engine.PlayAction()
			out = append(out, c)
		}
	case obs.Decision == engine.DecideBid:
		out = append(out, plan{action: engine.PassAction()})
		for _, c := range cands {
			if _, ok := pimc.FindLegal(obs.Legal, c.name); ok {
				c.action = c.name
				out = append(out, c)
			}
		}
	default: // modern round two
		loser := false
		for _, a := range obs.Legal {
			if a.Kind == engine.ActBid && !d.canWin(a) && !loser {
				out = append(out, plan{action: a, name: a, trump: engine.NoSuit})
				loser = true
			}
		}
		for _, c := range cands {
			if l, ok := pimc.FindLegal(obs.Legal, c.name); ok && d.canWin(l) {
				c.action = l
				out = append(out, c)
			}
		}
		if len(out) == 0 { // nothing the hand carries can win: name the best of what can
			for _, a := range obs.Legal {
				if a.Kind == engine.ActBid && d.canWin(a) {
					out = append(out, plan{action: a, name: a, trump: a.Suit})
				}
			}
		}
	}
	return out
}

// canWin reports whether naming a in modern round two can still win the bidding: no seat
// named a higher contract before, nor an equal one nearer forehand (R-MOD-BID-3).
func (d *decision) canWin(a engine.Action) bool {
	me := d.obs.Seat
	for _, m := range d.obs.Bids {
		if m.Action.Kind != engine.ActBid || m.Seat == me {
			continue
		}
		c := m.Action.Contract
		if a.Contract < c || (a.Contract == c && me > m.Seat) {
			return false
		}
	}
	return true
}

// bid answers a bidding decision by the best plan.
func (d *decision) bid() (engine.Action, bool) {
	plans := d.plans()
	if len(plans) == 0 {
		return engine.Action{}, false
	}
	if len(plans) == 1 {
		return plans[0].action, true
	}
	var sim *engine.State
	var tags []uint64 // per world solved, what the bot heard by its round-two turn (adapt.go)
	solve := func(plans []plan) func(w *world, out []float64) bool {
		return func(w *world, out []float64) bool {
			cache := map[outcomeKey]float64{}
			var tag uint64
			for j, p := range plans {
				if sim == nil {
					sim = w.st.Clone()
				} else {
					sim.CopyFrom(w.st)
				}
				t, ok := d.simulateBidding(sim, p)
				if !ok {
					return false
				}
				if p.action.Kind == engine.ActPlay {
					tag = t
				}
				key := keyOf(sim)
				v, ok := cache[key]
				if !ok {
					if v, ok = d.valueAtLead(sim); !ok {
						return false
					}
					cache[key] = v
				}
				out[j] = v
			}
			tags = append(tags, tag)
			return true
		}
	}
	// A race: every plan on the first batch of worlds, then only the plans still in the
	// running (raceMargin standard errors from the best, and the passive one) on fresh
	// batches; the choice is made on the worlds of both.
	ev := d.evaluate(len(plans), 1, solve(plans))
	m := ev.means()
	if m == nil {
		return engine.Action{}, false
	}
	best := 0
	for j := range m {
		if m[j] > m[best] {
			best = j
		}
	}
	var keep []int
	for j := range plans {
		gap, se := ev.gap(best, j)
		if j == best || d.passive(plans[j]) || gap <= raceMargin*se {
			keep = append(keep, j)
		}
	}
	if len(keep) > 1 && !d.exhausted() {
		kept := make([]plan, len(keep))
		for i, j := range keep {
			kept[i] = plans[j]
		}
		tags1 := tags
		tags = nil
		ev2 := d.evaluateFrom(1, len(kept), maxBidBatches-1, solve(kept))
		tags = append(tags1, tags...)
		merged := &evaluation{alts: len(kept)}
		for i := range ev.values {
			vals := make([]float64, len(kept))
			for a, j := range keep {
				vals[a] = ev.values[i][j]
			}
			merged.add(ev.weight[i], vals)
		}
		for i := range ev2.values {
			merged.add(ev2.weight[i], ev2.values[i])
		}
		ev, plans = merged, kept
		m = ev.means()
	} else if len(keep) == 1 {
		return plans[keep[0]].action, true
	}
	if d.obs.Decision == engine.DecideBid && d.obs.Rules.Variant == engine.Modern && !d.b.cfg.FixedPlay {
		return d.choosePlay(ev, m, plans, tags), true
	}
	return plans[d.choosePlan(ev, m, plans)].action, true
}

// choosePlay answers modern round one: pass, or play valued as the policy of naming in round
// two the contract best for what the bot will have heard by then (adaptivePlay), which must
// beat passing by bidCaution standard errors.
func (d *decision) choosePlay(ev *evaluation, m []float64, plans []plan, tags []uint64) engine.Action {
	var plays []int
	pass := -1
	for j, p := range plans {
		if p.action.Kind == engine.ActPlay {
			plays = append(plays, j)
		} else if pass < 0 && d.passive(p) {
			pass = j
		}
	}
	if len(plays) == 0 || pass < 0 || len(tags) != ev.worlds() {
		return plans[d.choosePlan(ev, m, plans)].action
	}
	col, differs := adaptivePlay(ev, tags, plays)
	if !differs {
		return plans[d.choosePlan(ev, m, plans)].action
	}
	wide := ev.withColumn(col)
	gap, se := wide.gap(ev.alts, pass)
	if gap < bidCaution*se {
		return plans[pass].action
	}
	return engine.PlayAction()
}

// raceMargin is how many standard errors behind the best a plan may be after the first batch
// and still be weighed on more worlds.
const raceMargin = 2

// passive reports whether plan p gives up the bidding: a pass, or a contract in modern round
// two that cannot win.
func (d *decision) passive(p plan) bool {
	return p.action.Kind == engine.ActPass || (p.action.Kind == engine.ActBid && d.obs.Decision == engine.DecideContract && !d.canWin(p.action))
}

// choosePlan picks the plan with the best mean less a caution: a plan that bids must beat
// the best plan that passes (or, in modern round two, names a loser) by bidCaution standard
// errors of their difference, so that a contract is not declared on the noise of a few
// worlds.
func (d *decision) choosePlan(ev *evaluation, m []float64, plans []plan) int {
	passive := -1
	for j, p := range plans {
		if d.passive(p) {
			passive = j
		}
	}
	best := -1
	for j := range plans {
		if best < 0 || m[j] > m[best] {
			best = j
		}
	}
	if passive < 0 || best == passive {
		return best
	}
	gap, se := ev.gap(best, passive)
	if gap < bidCaution*se {
		return passive
	}
	return best
}

// bidCaution is how many standard errors a bid must gain over passing.
const bidCaution = 0.5

// maxBidBatches is how many batches of worlds a bidding decision may draw.
const maxBidBatches = 3

// simulateBidding plays the rest of the bidding and the declaration on st (a world at the
// bot's decision): the bot by plan p, the others by the model. It stops at the first card or
// the end of the deal. It returns what the bot heard by its round-two turn (heard; 0 when it
// had none).
func (d *decision) simulateBidding(st *engine.State, p plan) (uint64, bool) {
	me := d.obs.Seat
	first := true
	var tag uint64
	for !st.Terminal() && st.Decision() != engine.DecideCard {
		var a engine.Action
		seat := st.ToMove()
		if seat == me {
			if !first && st.Decision() == engine.DecideContract && tag == 0 {
				tag = heard(st, len(d.obs.History), me) | 1
			}
			var ok bool
			if a, ok = d.ownMove(st, p, first); !ok {
				return 0, false
			}
			first = false
		} else {
			obs := st.Observe(seat)
			var err error
			if a, err = d.b.fallback.Decide(d.ctx, &obs); err != nil {
				return 0, false
			}
			d.spend(rolloutCost)
		}
		if err := st.Apply(a); err != nil {
			return 0, false
		}
	}
	return tag, true
}

// ownMove is the bot's move in a simulated bidding and declaration.
func (d *decision) ownMove(st *engine.State, p plan, first bool) (engine.Action, bool) {
	me := st.ToMove()
	hand := st.Hand(me)
	r := st.Rules()
	switch st.Decision() {
	case engine.DecideBid, engine.DecideContract:
		if first {
			return p.action, true
		}
		legal := st.LegalActions(nil)
		if st.Decision() == engine.DecideContract {
			if l, ok := pimc.FindLegal(legal, p.name); ok {
				return l, true
			}
			return legal[0], true
		}
		if p.name.Kind == engine.ActBid {
			if l, ok := pimc.FindLegal(legal, p.name); ok {
				return l, true
			}
		}
		return engine.PassAction(), true
	case engine.DecideDiscard:
		left := hand.Len() - r.HandSize() // still to lay away
		if left <= 0 {
			left = 1
		}
		sets := doubledummy.FrageDiscards(hand, engine.Hearts, left, 1)
		if len(sets) == 0 {
			return engine.Action{}, false
		}
		return engine.DiscardAction(sets[0].Highest()), true
	case engine.DecideTrump:
		t := p.trump
		if t == engine.NoSuit || t == engine.Hearts {
			t = engine.Clubs
		}
		return engine.TrumpAction(t), true
	case engine.DecideCall:
		return engine.CallAction(doubledummy.RuferCall(r.Pack(), hand, st.Trump())), true
	case engine.DecideGive:
		obs := st.Observe(me)
		return engine.GiveAction(doubledummy.RuferGive(hand, st.Trump(), obs.Called)), true
	case engine.DecideTout:
		return engine.ToutAction(false), true
	}
	return engine.Action{}, false
}

// outcomeKey names the deal a simulated bidding led to: who declared what.
type outcomeKey struct {
	declarer engine.Seat
	contract engine.Contract
	trump    engine.Suit
	thrown   bool
}

func keyOf(st *engine.State) outcomeKey {
	return outcomeKey{declarer: st.Declarer(), contract: st.Contract(), trump: st.Trump(), thrown: st.Terminal()}
}
