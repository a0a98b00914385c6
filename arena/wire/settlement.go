package wire

import (
	"fmt"

	"github.com/tapparena/tapp/arena/internal/wireform"
	"github.com/tapparena/tapp/engine"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// OutcomeFromProto reads a finished game's settlement (GameEnded.settlement) into the
// engine's outcome; its lists by seat give the table's seats, the rest stay zero.
func OutcomeFromProto(s *tappv1.Settlement) (engine.Outcome, error) {
	o := engine.Outcome{
		ThrownIn: s.GetThrownIn(), Declarer: engine.Seat(s.GetDeclarer()), Tout: s.GetTout(),
		DeclarerWon: s.GetDeclarerWon(), Draw: s.GetDraw(),
		PotBefore: int(s.GetPotBefore()), PotAfter: int(s.GetPotAfter()),
	}
	if len(s.GetPoints()) > engine.MaxPlayers || len(s.GetTricks()) > engine.MaxPlayers || len(s.GetPayoff()) > engine.MaxPlayers {
		return o, fmt.Errorf("settlement: more than %d seats", engine.MaxPlayers)
	}
	var err error
	if o.Contract, err = wireform.ContractFrom(s.GetContract()); err != nil {
		return o, fmt.Errorf("settlement contract: %w", err)
	}
	if o.Trump, err = wireform.SuitFrom(s.GetTrump()); err != nil {
		return o, fmt.Errorf("settlement trump: %w", err)
	}
	for i, v := range s.GetPoints() {
		o.Points[i] = int(v)
	}
	for i, v := range s.GetTricks() {
		o.Tricks[i] = int(v)
	}
	for i, v := range s.GetPayoff() {
		o.Payoff[i] = int(v)
	}
	return o, nil
}

// RevealFromProto reads a finished game's reveal (GameEnded.reveal, R-INFO-4): every hand as
// dealt and the tapp, and the cards the Frage declarer laid away (none in other contracts).
func RevealFromProto(r *tappv1.Reveal) (deal engine.Deal, discarded engine.CardSet, err error) {
	if len(r.GetHands()) > engine.MaxPlayers {
		return deal, 0, fmt.Errorf("reveal: %d hands, at most %d", len(r.GetHands()), engine.MaxPlayers)
	}
	for i, h := range r.GetHands() {
		if deal.Hands[i], err = wireform.CardsFrom(h.GetCards()); err != nil {
			return deal, 0, fmt.Errorf("reveal hand %d: %w", i, err)
		}
	}
	if deal.Tapp, err = wireform.CardsFrom(r.GetTapp()); err != nil {
		return deal, 0, fmt.Errorf("reveal tapp: %w", err)
	}
	if discarded, err = wireform.CardsFrom(r.GetDiscarded()); err != nil {
		return deal, 0, fmt.Errorf("reveal discarded: %w", err)
	}
	return deal, discarded, nil
}
