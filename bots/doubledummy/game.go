package doubledummy

import "github.com/tapparena/tapp/engine"

// GoalOf is the solver's goal and tapp rule for contract c (with or without a Tout
// announcement).
func GoalOf(c engine.Contract, tout bool) (Goal, TappRule) {
	switch c {
	case engine.Frage, engine.Solo, engine.HeartSolo:
		if tout {
			return GoalAllTricks, TappNobody
		}
		return GoalPoints, TappDeclarer
	case engine.Bettel, engine.Ouvert:
		return GoalNoTrick, TappNobody
	case engine.Ramsch:
		return GoalRamsch, TappLastTrick
	}
	return GoalAllTricks, TappNobody
}

// PositionOf is the perfect-information position of a deal in trick play, every hand known
// (st is the real deal, not a sample). In Ramsch, viewpoint is the seat whose points are the
// value (Position.Declarer); otherwise it is ignored.
func PositionOf(st *engine.State, viewpoint engine.Seat) (Position, error) {
	obs := st.Observe(viewpoint)
	return PlayPosition(st, &obs)
}

// PlayPosition is the perfect-information position of st during trick play, where obs is
// seat obs.Seat's observation of the same point of play (st is typically a deal sampled from
// it: obs supplies the tricks so far without another Observe). In Ramsch obs.Seat is the
// viewpoint (Position.Declarer).
func PlayPosition(st *engine.State, obs *engine.Observation) (Position, error) {
	n := obs.Rules.Players
	p := Position{Players: n, Trump: st.Trump()}
	for i := 0; i < n; i++ {
		p.Hands[i] = st.Hand(engine.Seat(i))
	}
	cur := obs.Current
	p.Leader = int(cur.Leader)
	for i := 0; i < n && cur.Cards[i] != engine.NoCard; i++ {
		p.Trick[i] = cur.Cards[i]
		p.NTrick++
	}
	for _, t := range obs.Tricks {
		p.Taken[t.Winner] += t.Points
		p.Tricks[t.Winner]++
	}
	c := st.Contract()
	p.Goal, p.TappRule = GoalOf(c, st.Tout())
	p.Declarer = int(st.Declarer())
	deal := st.Deal()
	switch c {
	case engine.Frage:
		d := st.Declarer()
		p.Tapp = ((deal.Hands[d] | deal.Tapp) &^ (st.Hand(d) | obs.Played[d])).Points()
	case engine.Solo, engine.HeartSolo, engine.Ramsch:
		p.Tapp = deal.Tapp.Points()
	}
	if c == engine.Ramsch {
		p.Declarer = int(obs.Seat)
	}
	return p, p.Validate()
}

// Scorer turns a deal's result into payoffs (R-MOD-SETTLE-1, R-CL-SCORE-*, R-WT-*, R-POT)
// for one contract, declarer and Tout announcement.
type Scorer struct {
	rules    engine.RuleSet
	contract engine.Contract
	tout     bool
	decl     int
	pot      int // the pot after the ante, for a Solo's pot payments
}

// NewScorer returns the scorer of contract c declared by decl (Tout announced or not) under
// rule set r with options o (the pot carried in). Not for Ramsch.
func NewScorer(r engine.RuleSet, o engine.Options, c engine.Contract, tout bool, decl int) Scorer {
	sc := Scorer{rules: r, contract: c, tout: tout, decl: decl}
	if r.Pot {
		sc.pot = o.Pot + 2
	}
	return sc
}

// baseValue is the older variants' game value for s points above 60.
func (sc *Scorer) baseValue(s int) int {
	if sc.rules.Variant == engine.Classic {
		switch sc.contract {
		case engine.Frage:
			return (s + 3) / 4
		case engine.Solo:
			return (s + 1) / 2
		}
		return s
	}
	if sc.contract == engine.Solo {
		return 2 * s
	}
	return s
}

// Payoff is what seat gets when the declarer ends with value v: his card points in a point
// contract without Tout, else his number of tricks. Modern: cents; the older variants: game
// points, the declarer's pot payments included.
func (sc *Scorer) Payoff(seat, v int) float64 {
	r := &sc.rules
	hand := r.HandSize()
	var won bool
	var value int
	switch {
	case r.Variant == engine.Modern:
		switch sc.contract {
		case engine.Frage, engine.Solo, engine.HeartSolo:
			won = v >= 61
		case engine.Bettel, engine.Ouvert:
			won = v == 0
		default:
			won = v == hand
		}
		value = r.Stakes[sc.contract]
	case sc.tout:
		won = v == hand
		value = sc.baseValue(60) * r.ToutFactor
	default:
		if v == 60 {
			return 0
		}
		won = v > 60
		if won {
			value = sc.baseValue(v - 60)
		} else {
			value = sc.baseValue(60 - v)
		}
	}
	sign := 1
	if !won {
		sign = -1
	}
	if seat != sc.decl {
		return float64(-sign * value)
	}
	pay := sign * value * (r.Players - 1)
	if r.Pot && r.Variant != engine.Modern {
		switch {
		case sc.contract == engine.Frage && !won:
			pay -= value
		case sc.contract != engine.Frage:
			pay += sign * sc.pot
		}
	}
	return float64(pay)
}

// Payoff is what seat gets from a deal of contract c (declarer decl, Tout announced or not)
// that the declarer ends with value v: his card points in a point contract without Tout, else
// his number of tricks. Modern: cents (R-MOD-SETTLE-1); the older variants: game points,
// the declarer's pot payments included (R-CL-SCORE-*, R-WT-*, R-POT; pot is the pot carried
// in). Not for Ramsch.
func Payoff(r engine.RuleSet, o engine.Options, c engine.Contract, tout bool, decl, seat, v int) float64 {
	sc := NewScorer(r, o, c, tout, decl)
	return sc.Payoff(seat, v)
}

// Rules is the scorer's rule set.
func (sc *Scorer) Rules() engine.RuleSet { return sc.rules }
