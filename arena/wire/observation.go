package wire

import (
	"fmt"

	"github.com/tapparena/tapp/arena/internal/wireform"
	"github.com/tapparena/tapp/engine"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

func movesFrom(ms []*tappv1.Move) ([]engine.Move, error) {
	out := make([]engine.Move, len(ms))
	for i, m := range ms {
		a, err := wireform.ActionFrom(m.GetAction())
		if err != nil {
			return nil, err
		}
		out[i] = engine.Move{Seat: engine.Seat(m.GetSeat()), Action: a}
	}
	return out, nil
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
	if o.Contract, err = wireform.ContractFrom(po.GetContract()); err != nil {
		return nil, errs("contract", err)
	}
	if o.Trump, err = wireform.SuitFrom(po.GetTrump()); err != nil {
		return nil, errs("trump", err)
	}
	if o.Called, err = wireform.CardFrom(po.GetCalled()); err != nil {
		return nil, errs("called", err)
	}
	if o.Given, err = wireform.CardFrom(po.GetGiven()); err != nil {
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
		if o.Voids[i], err = wireform.SuitsFrom(v); err != nil {
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
