package analysis

import (
	"fmt"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/bots/doubledummy"
	"github.com/tapparena/tapp/engine"
)

// CardValue is what one legal card is worth to the seat playing it under perfect play.
type CardValue struct {
	Card engine.Card
	// Payoff: the seat's payoff in the rule set's unit (in Ramsch: minus its own final card
	// points, paranoid).
	Payoff float64
	// Value: the solver's value after the card (the declarer's card points or tricks; in
	// Ramsch the seat's own points), exact when Exact, else only on the right side of what
	// scores (61, every trick, no trick).
	Value int
	Exact bool
}

// CardValues values every legal card of the seat to move in st, a deal in trick play. ok is
// false where the analysis leaves a card out (the first tricks of a Ramsch).
func (a *Analyzer) CardValues(st *engine.State) (vals []CardValue, ok bool, err error) {
	r := st.Rules()
	seat := st.ToMove()
	c := st.Contract()
	if c == engine.Ramsch && r.HandSize()-st.TricksPlayed() > RamschTricks {
		return nil, false, nil
	}
	p, err := doubledummy.PositionOf(st, seat)
	if err != nil {
		return nil, false, err
	}
	h := r.HandSize()
	lo, hi := -1, 1000 // exact
	switch p.Goal {
	case doubledummy.GoalPoints:
		if r.Variant == engine.Modern {
			lo, hi = 60, 61
		}
	case doubledummy.GoalAllTricks:
		lo, hi = h-1, h
	case doubledummy.GoalNoTrick:
		lo, hi = 0, 1
	}
	a.buf = a.solver.MoveValues(&p, lo, hi, a.buf[:0])
	exact := lo < 0
	vals = make([]CardValue, 0, len(a.buf))
	for _, mv := range a.buf {
		cv := CardValue{Card: mv.Card, Value: mv.Value, Exact: exact}
		if p.Goal == doubledummy.GoalRamsch {
			cv.Payoff = -float64(mv.Value)
		} else {
			cv.Payoff = doubledummy.Payoff(r, st.Options(), c, st.Tout(), int(st.Declarer()), int(seat), mv.Value)
		}
		vals = append(vals, cv)
	}
	if len(vals) != st.LegalCards().Len() {
		return nil, false, fmt.Errorf("the solver valued %d cards of %d legal", len(vals), st.LegalCards().Len())
	}
	return vals, true, nil
}

// better reports whether x is better than y for the seat: a higher payoff, or with exact
// values the same payoff and a better value for the seat's side.
func better(x, y CardValue, maximises bool) bool {
	if x.Payoff != y.Payoff {
		return x.Payoff > y.Payoff
	}
	if !x.Exact || x.Value == y.Value {
		return false
	}
	return (x.Value > y.Value) == maximises
}

// maximises reports whether the seat to move wants the solver's value high.
func maximises(st *engine.State) bool {
	seat := st.ToMove()
	switch st.Contract() {
	case engine.Ramsch:
		return false // its own points
	case engine.Bettel, engine.Ouvert:
		return seat != st.Declarer() // the declarer's tricks
	}
	return seat == st.Declarer()
}

// BestCards returns the cards that keep par among vals, and the best value.
func BestCards(vals []CardValue, maximises bool) ([]engine.Card, CardValue) {
	best := vals[0]
	for _, v := range vals[1:] {
		if better(v, best, maximises) {
			best = v
		}
	}
	var cards []engine.Card
	for _, v := range vals {
		if !better(best, v, maximises) {
			cards = append(cards, v.Card)
		}
	}
	sortCards(cards)
	return cards, best
}

func sortCards(cs []engine.Card) {
	for i := 1; i < len(cs); i++ {
		for j := i; j > 0 && cs[j] > cs[j-1]; j-- {
			cs[j], cs[j-1] = cs[j-1], cs[j]
		}
	}
}

// card analyses move k, a card.
func (a *Analyzer) card(st *engine.State, k int, mv engine.Move, rec *domain.DealRecord) (Decision, bool, error) {
	vals, ok, err := a.CardValues(st)
	if err != nil || !ok {
		return Decision{}, false, err
	}
	maxi := maximises(st)
	cards, best := BestCards(vals, maxi)
	var got CardValue
	found := false
	for _, v := range vals {
		if v.Card == mv.Action.Card {
			got, found = v, true
		}
	}
	if !found {
		return Decision{}, false, fmt.Errorf("card %s is not legal", mv.Action.Card)
	}
	d := Decision{Index: k, Seat: int(mv.Seat), Kind: "card", Action: mv.Action.Card.String(),
		Loss: best.Payoff - got.Payoff, ParBefore: best.Payoff, ParAfter: got.Payoff}
	if int(mv.Seat) < len(rec.Seating) {
		d.Bot = rec.Seating[mv.Seat]
	}
	for _, c := range cards {
		d.Best = append(d.Best, c.String())
	}
	if got.Exact {
		lp := got.Value - best.Value
		if maxi {
			lp = -lp
		}
		d.LossPoints = &lp
	}
	if st.Contract() == engine.Ramsch {
		d.Unit = "card points"
		d.ParBefore, d.ParAfter = float64(best.Value), float64(got.Value) // its own points
	}
	return d, true, nil
}
