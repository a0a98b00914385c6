package search

import "github.com/tapparena/tapp/engine"

// The exported surface the double-dummy analysis of recorded deals (package arena/internal/analysis)
// builds on: the same positions, goals and payoffs the bot uses, so that an analysis and the
// bot agree on what every card is worth.

// GoalOf is the solver's goal and tapp rule for contract c (with or without a Tout
// announcement).
func GoalOf(c engine.Contract, tout bool) (Goal, TappRule) { return goalOf(c, tout) }

// PositionOf is the perfect-information position of a deal in trick play, every hand known
// (st is the real deal, not a sample). In Ramsch, viewpoint is the seat whose points are the
// value (Position.Declarer); otherwise it is ignored.
func PositionOf(st *engine.State, viewpoint engine.Seat) (Position, error) {
	obs := st.Observe(viewpoint)
	return playPosition(st, &obs)
}

// Payoff is what seat gets from a deal of contract c (declarer decl, Tout announced or not)
// that the declarer ends with value v: his card points in a point contract without Tout, else
// his number of tricks. Modern: cents (R-MOD-SETTLE-1); the older variants: game points,
// the declarer's pot payments included (R-CL-SCORE-*, R-WT-*, R-POT; pot is the pot carried
// in). Not for Ramsch.
func Payoff(r engine.RuleSet, o engine.Options, c engine.Contract, tout bool, decl, seat, v int) float64 {
	sc := newScorer(r, o, c, tout, decl)
	return sc.payoff(seat, v)
}

// DeclaredPosition is the position at the first lead if seat me declared contract c (trump
// trump where c takes one) on a deal with these hands and tapp, the declaration made by the
// bot's rules of thumb: a Frage lays away the best cards by discardCandidates, a Rufer calls
// and gives by ruferCall and ruferGive. No Tout is announced.
func DeclaredPosition(r engine.RuleSet, hands [engine.MaxPlayers]engine.CardSet, tapp engine.CardSet, me int, c engine.Contract, trump engine.Suit) Position {
	tappPts := tapp.Points()
	switch c {
	case engine.Frage:
		full := hands[me] | tapp
		ds := discardCandidates(full, engine.Hearts, tapp.Len(), 1)
		hands[me] = full &^ ds[0]
		tappPts = ds[0].Points()
	case engine.Rufer, engine.HeartRufer:
		call := ruferCall(r.Pack(), hands[me], trump)
		hands = exchange(&r, hands, me, call, ruferGive(hands[me].With(call), trump, call))
	}
	return handPosition(&r, hands, me, c, trump, tappPts, false)
}
