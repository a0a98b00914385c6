package analysis

import (
	"fmt"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/bots/doubledummy"
	"github.com/tapparena/tapp/engine"
)

// Change is what playing another action at a recorded decision is worth against par.
type Change struct {
	// Gain is the seat's payoff under perfect play after the new action minus after the
	// recorded one (negative: the change costs), in Unit.
	Gain float64
	Unit string // the rule set's unit, or "card points" in Ramsch
	// Valued is false where the analysis cannot say: a modern round-one "play" or "pass",
	// whose worth depends on what everybody names next, and the declaration choices.
	Valued bool
}

// ValueChange values playing now instead of the recorded action at decision k of a recorded
// deal of rule set r: cards against par (as Decision.Loss), contracts named or bid as if the
// seat declared them (ContractValue, with every card known; passing in an auction is worth
// 0).
func (a *Analyzer) ValueChange(r engine.RuleSet, rec *domain.DealRecord, k int, now engine.Action) (Change, error) {
	if k < 0 || k >= len(rec.Moves) {
		return Change{}, fmt.Errorf("deal %d has no decision %d", rec.Number, k)
	}
	st, err := engine.NewState(r, rec.Deal, rec.Options)
	if err != nil {
		return Change{}, err
	}
	for i, mv := range rec.Moves[:k] {
		if err := st.Apply(mv.Action); err != nil {
			return Change{}, fmt.Errorf("deal %d: move %d (%s): %w", rec.Number, i, mv, err)
		}
	}
	if err := st.Check(now); err != nil {
		return Change{}, fmt.Errorf("deal %d, decision %d: %s is not legal: %w", rec.Number, k, now, err)
	}
	then := rec.Moves[k].Action
	seat := int(st.ToMove())
	ch := Change{Unit: unitOf(r)}
	switch st.Decision() {
	case engine.DecideCard:
		vals, ok, err := a.CardValues(st)
		if err != nil {
			return ch, err
		}
		if !ok { // an early trick of a Ramsch: only the two cards are searched, for a while
			gain, valued, err := a.ramschPair(st, then.Card, now.Card, RamschChangeLimit)
			ch.Gain, ch.Valued, ch.Unit = gain, valued, "card points"
			return ch, err
		}
		var pNow, pThen float64
		for _, v := range vals {
			if v.Card == now.Card {
				pNow = v.Payoff
			}
			if v.Card == then.Card {
				pThen = v.Payoff
			}
		}
		ch.Gain, ch.Valued = pNow-pThen, true
		if st.Contract() == engine.Ramsch {
			ch.Unit = "card points"
		}
	case engine.DecideBid, engine.DecideContract:
		value := func(act engine.Action) (float64, bool) {
			switch act.Kind {
			case engine.ActBid:
				trump := act.Suit
				if trump == engine.NoSuit {
					trump = engine.Hearts
					if act.Contract == engine.Bettel || act.Contract == engine.Ouvert {
						trump = engine.NoSuit
					}
					if act.Contract == engine.Solo && r.Variant == engine.Classic {
						return bestSolo(a, r, rec, seat), true // its trump is named later
					}
				}
				return a.ContractValue(r, rec.Options, rec.Deal.Hands, rec.Deal.Tapp, seat, Contender{act.Contract, trump}), true
			case engine.ActPass:
				return 0, r.Variant != engine.Modern
			}
			return 0, false
		}
		vNow, ok1 := value(now)
		vThen, ok2 := value(then)
		if ok1 && ok2 {
			ch.Gain, ch.Valued = vNow-vThen, true
		}
	}
	return ch, nil
}

// RamschChangeLimit bounds the search of a change at an early trick of a Ramsch (the two
// cards' paranoid values): a whole Ramsch takes from a second to minutes (docs/BENCHMARKS.md,
// ramsch-exact); a change it cannot value in time is left unvalued.
const RamschChangeLimit = 20 * time.Second

// ramschPair is what playing now instead of then is worth in a Ramsch, in card points kept
// out of the seat's tricks: each card's paranoid value (the seat's own final points, every
// other seat playing against it, as CardValues values them), searched within limit.
func (a *Analyzer) ramschPair(st *engine.State, then, now engine.Card, limit time.Duration) (gain float64, valued bool, err error) {
	seat := st.ToMove()
	a.solver.SetLimit(time.Now().Add(limit), nil)
	defer a.solver.SetLimit(time.Time{}, nil)
	value := func(c engine.Card) (int, error) {
		next := st.Clone()
		if err := next.Apply(engine.CardAction(c)); err != nil {
			return 0, err
		}
		p, err := doubledummy.PositionOf(next, seat)
		if err != nil {
			return 0, err
		}
		return a.solver.Value(&p), nil
	}
	vThen, err := value(then)
	if err != nil {
		return 0, false, err
	}
	vNow, err := value(now)
	if err != nil || a.solver.Aborted() {
		return 0, false, err
	}
	return float64(vThen - vNow), true, nil
}

// bestSolo is a classic Solo's value with its best trump.
func bestSolo(a *Analyzer, r engine.RuleSet, rec *domain.DealRecord, seat int) float64 {
	best := 0.0
	for i, t := range sideSuits {
		v := a.ContractValue(r, rec.Options, rec.Deal.Hands, rec.Deal.Tapp, seat, Contender{engine.Solo, t})
		if i == 0 || v > best {
			best = v
		}
	}
	return best
}
