package wire

import (
	"fmt"

	"github.com/tapparena/tapp/engine"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// MoveToProto converts a move; a card hidden from the receiver (NoCard) leaves the bare verb.
func MoveToProto(m engine.Move) *tappv1.Move {
	return &tappv1.Move{Seat: int32(m.Seat), Action: actionText(m.Action)}
}

func actionText(a engine.Action) string {
	switch {
	case a.Kind == engine.ActDiscard && !a.Card.Valid():
		return "discard"
	case a.Kind == engine.ActGive && !a.Card.Valid():
		return "give"
	}
	return a.String()
}

func actionFrom(text string) (engine.Action, error) {
	switch text {
	case "discard":
		return engine.DiscardAction(engine.NoCard), nil
	case "give":
		return engine.GiveAction(engine.NoCard), nil
	}
	return engine.ParseAction(text)
}

func movesToProto(ms []engine.Move) []*tappv1.Move {
	out := make([]*tappv1.Move, len(ms))
	for i, m := range ms {
		out[i] = MoveToProto(m)
	}
	return out
}

func movesFrom(ms []*tappv1.Move) ([]engine.Move, error) {
	out := make([]engine.Move, len(ms))
	for i, m := range ms {
		a, err := actionFrom(m.GetAction())
		if err != nil {
			return nil, err
		}
		out[i] = engine.Move{Seat: engine.Seat(m.GetSeat()), Action: a}
	}
	return out, nil
}

// TrickToProto converts a trick (cards in playing order).
func TrickToProto(t engine.Trick) *tappv1.Trick {
	pt := &tappv1.Trick{Leader: int32(t.Leader), Winner: int32(t.Winner), Points: int32(t.Points)}
	for _, c := range t.Cards {
		if c.Valid() {
			pt.Cards = append(pt.Cards, c.String())
		}
	}
	return pt
}

func trickFrom(pt *tappv1.Trick) (engine.Trick, error) {
	t := engine.Trick{Leader: engine.Seat(pt.GetLeader()), Winner: engine.Seat(pt.GetWinner()), Points: int(pt.GetPoints())}
	for i := range t.Cards {
		t.Cards[i] = engine.NoCard
	}
	if pt == nil {
		t.Leader, t.Winner = engine.NoSeat, engine.NoSeat
		return t, nil
	}
	if len(pt.GetCards()) > engine.MaxPlayers {
		return t, fmt.Errorf("trick with %d cards", len(pt.GetCards()))
	}
	for i, text := range pt.GetCards() {
		c, err := engine.ParseCard(text)
		if err != nil {
			return t, err
		}
		t.Cards[i] = c
	}
	return t, nil
}

func suitsText(x engine.Suits) string {
	out := ""
	for s := engine.Suit(0); s < engine.NumSuits; s++ {
		if x.Has(s) {
			out += s.String()
		}
	}
	return out
}

func suitsFrom(text string) (engine.Suits, error) {
	var x engine.Suits
	for i := 0; i < len(text); i++ {
		s, err := engine.ParseSuit(text[i : i+1])
		if err != nil {
			return 0, err
		}
		x |= 1 << s
	}
	return x, nil
}

// ObservationToProto converts one seat's observation. The observation is already limited to
// the seat's information set; this keeps it so (no field is added that the engine left out).
func ObservationToProto(o *engine.Observation) *tappv1.Observation {
	n := o.Rules.Players
	po := &tappv1.Observation{
		Rules: o.Rules.String(), Seat: int32(o.Seat), Hand: CardsToProto(o.Hand),
		Decision: DecisionToProto(o.Decision), ToMove: int32(o.ToMove), Bids: movesToProto(o.Bids),
		Declarer: int32(o.Declarer), Contract: contractText(o.Contract), Trump: suitText(o.Trump), Tout: o.Tout,
		Tapp: CardsToProto(o.Tapp), Discarded: CardsToProto(o.Discarded),
		Called: cardText(o.Called), CalledHolder: int32(o.CalledHolder), CalledInTapp: o.CalledInTapp,
		Given: cardText(o.Given), Exposed: CardsToProto(o.Exposed), Current: TrickToProto(o.Current),
		History: movesToProto(o.History), Dealt: CardsToProto(o.Dealt),
		Pot: int32(o.Options.Pot), ForcedRamsch: o.Options.ForcedRamsch,
	}
	for _, t := range o.Tricks {
		po.Tricks = append(po.Tricks, TrickToProto(t))
	}
	for i := 0; i < n; i++ {
		po.TricksTaken = append(po.TricksTaken, int32(o.TricksTaken[i]))
		po.HandSizes = append(po.HandSizes, int32(o.HandSizes[i]))
		po.Voids = append(po.Voids, suitsText(o.Voids[i]))
		po.Played = append(po.Played, &tappv1.Hand{Cards: CardsToProto(o.Played[i])})
	}
	return po
}

// ObservationFromProto rebuilds the engine's observation from the wire, for Go bots. legal
// is the request's list of legal actions.
func ObservationFromProto(po *tappv1.Observation, legal []string) (*engine.Observation, error) {
	rules, err := engine.ParseRuleSet(po.GetRules())
	if err != nil {
		return nil, fmt.Errorf("observation rules: %w", err)
	}
	o := &engine.Observation{
		Rules: rules, Seat: engine.Seat(po.GetSeat()), Decision: DecisionFromProto(po.GetDecision()),
		ToMove: engine.Seat(po.GetToMove()), Declarer: engine.Seat(po.GetDeclarer()), Tout: po.GetTout(),
		CalledHolder: engine.Seat(po.GetCalledHolder()), CalledInTapp: po.GetCalledInTapp(),
		Options: engine.Options{Pot: int(po.GetPot()), ForcedRamsch: po.GetForcedRamsch()},
	}
	errs := func(what string, err error) error { return fmt.Errorf("observation %s: %w", what, err) }
	if o.Hand, err = CardsFromProto(po.GetHand()); err != nil {
		return nil, errs("hand", err)
	}
	if o.Dealt, err = CardsFromProto(po.GetDealt()); err != nil {
		return nil, errs("dealt", err)
	}
	if o.Tapp, err = CardsFromProto(po.GetTapp()); err != nil {
		return nil, errs("tapp", err)
	}
	if o.Discarded, err = CardsFromProto(po.GetDiscarded()); err != nil {
		return nil, errs("discarded", err)
	}
	if o.Exposed, err = CardsFromProto(po.GetExposed()); err != nil {
		return nil, errs("exposed", err)
	}
	if o.Contract, err = contractFrom(po.GetContract()); err != nil {
		return nil, errs("contract", err)
	}
	if o.Trump, err = suitFrom(po.GetTrump()); err != nil {
		return nil, errs("trump", err)
	}
	if o.Called, err = cardFrom(po.GetCalled()); err != nil {
		return nil, errs("called", err)
	}
	if o.Given, err = cardFrom(po.GetGiven()); err != nil {
		return nil, errs("given", err)
	}
	if o.History, err = movesFrom(po.GetHistory()); err != nil {
		return nil, errs("history", err)
	}
	if o.Bids, err = movesFrom(po.GetBids()); err != nil {
		return nil, errs("bids", err)
	}
	if o.Current, err = trickFrom(po.GetCurrent()); err != nil {
		return nil, errs("current trick", err)
	}
	for _, pt := range po.GetTricks() {
		t, err := trickFrom(pt)
		if err != nil {
			return nil, errs("trick", err)
		}
		o.Tricks = append(o.Tricks, t)
	}
	if len(po.GetHandSizes()) > engine.MaxPlayers || len(po.GetPlayed()) > engine.MaxPlayers ||
		len(po.GetVoids()) > engine.MaxPlayers || len(po.GetTricksTaken()) > engine.MaxPlayers {
		return nil, fmt.Errorf("observation: more than %d seats", engine.MaxPlayers)
	}
	for i, v := range po.GetHandSizes() {
		o.HandSizes[i] = int(v)
	}
	for i, v := range po.GetTricksTaken() {
		o.TricksTaken[i] = int(v)
	}
	for i, v := range po.GetVoids() {
		if o.Voids[i], err = suitsFrom(v); err != nil {
			return nil, errs("voids", err)
		}
	}
	for i, h := range po.GetPlayed() {
		if o.Played[i], err = CardsFromProto(h.GetCards()); err != nil {
			return nil, errs("played", err)
		}
	}
	if o.Legal, err = ActionsFromProto(legal); err != nil {
		return nil, errs("legal actions", err)
	}
	return o, nil
}
