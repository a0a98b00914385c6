// Package wire converts between the engine's types and the protobuf messages of tapp.v1. It is
// the only package that knows both: the engine never imports generated code, and the rest of
// the arena and the Go SDK convert through here.
package wire

import (
	"fmt"
	"strings"
	"time"

	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/engine"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// Timestamp converts a time.
func Timestamp(t time.Time) *timestamppb.Timestamp { return timestamppb.New(t) }

// Duration converts a duration.
func Duration(d time.Duration) *durationpb.Duration { return durationpb.New(d) }

// CardsToProto lists a card set in canonical order and R-CARD-5 notation.
func CardsToProto(set engine.CardSet) []string {
	if set == 0 {
		return nil
	}
	var buf [engine.NumCards]engine.Card
	cards := set.Cards(buf[:0])
	out := make([]string, len(cards))
	for i, c := range cards {
		out[i] = c.String()
	}
	return out
}

// CardsFromProto reads a list of cards; an unknown or repeated card is an error.
func CardsFromProto(cards []string) (engine.CardSet, error) {
	for _, text := range cards {
		if strings.ContainsAny(text, " ,\t") {
			return 0, fmt.Errorf("unknown card %q", text)
		}
	}
	return engine.ParseCardSet(strings.Join(cards, " "))
}

// cardText is a card's notation, "" for NoCard (a card hidden from the receiver).
func cardText(c engine.Card) string {
	if !c.Valid() {
		return ""
	}
	return c.String()
}

func cardFrom(text string) (engine.Card, error) {
	if text == "" {
		return engine.NoCard, nil
	}
	return engine.ParseCard(text)
}

// suitText is a suit letter, "" for no suit.
func suitText(s engine.Suit) string {
	if s >= engine.NumSuits {
		return ""
	}
	return s.String()
}

func suitFrom(text string) (engine.Suit, error) {
	if text == "" || text == "-" {
		return engine.NoSuit, nil
	}
	return engine.ParseSuit(text)
}

// contractText is a contract id, "" for none.
func contractText(c engine.Contract) string {
	if c == engine.NoContract {
		return ""
	}
	return c.String()
}

func contractFrom(text string) (engine.Contract, error) {
	if text == "" {
		return engine.NoContract, nil
	}
	return engine.ParseContract(text)
}

// ActionsToProto lists actions in notation.
func ActionsToProto(actions []engine.Action) []string {
	out := make([]string, len(actions))
	for i, a := range actions {
		out[i] = a.String()
	}
	return out
}

// ActionsFromProto parses actions.
func ActionsFromProto(texts []string) ([]engine.Action, error) {
	out := make([]engine.Action, len(texts))
	for i, t := range texts {
		a, err := engine.ParseAction(t)
		if err != nil {
			return nil, err
		}
		out[i] = a
	}
	return out, nil
}

// DecisionToProto converts a decision kind; the enums share their order.
func DecisionToProto(d engine.Decision) tappv1.Decision { return tappv1.Decision(d) }

// DecisionFromProto converts a decision kind.
func DecisionFromProto(d tappv1.Decision) engine.Decision { return engine.Decision(d) }

// EventKindToProto converts an event kind (the proto enum is the engine's shifted by one, to
// leave 0 for UNSPECIFIED).
func EventKindToProto(k engine.EventKind) tappv1.EventKind { return tappv1.EventKind(k + 1) }

// EventKindFromProto converts an event kind.
func EventKindFromProto(k tappv1.EventKind) engine.EventKind { return engine.EventKind(k - 1) }

// TimeControlToProto converts a time control.
func TimeControlToProto(tc domain.TimeControl) *tappv1.TimeControl {
	return &tappv1.TimeControl{
		PerDecision: Duration(tc.PerDecision), Overage: Duration(tc.Overage), MaxStrikes: int32(tc.MaxStrikes),
	}
}

// TimeControlFromProto converts a time control; unset fields take the defaults.
func TimeControlFromProto(tc *tappv1.TimeControl) domain.TimeControl {
	out := domain.DefaultTimeControl
	if tc == nil {
		return out
	}
	if d := tc.GetPerDecision(); d != nil && d.AsDuration() > 0 {
		out.PerDecision = d.AsDuration()
	}
	if d := tc.GetOverage(); d != nil {
		out.Overage = d.AsDuration()
	}
	if tc.GetMaxStrikes() > 0 {
		out.MaxStrikes = int(tc.GetMaxStrikes())
	}
	return out
}

func hands(hs [engine.MaxPlayers]engine.CardSet, players int) []*tappv1.Hand {
	out := make([]*tappv1.Hand, players)
	for i := range out {
		out[i] = &tappv1.Hand{Cards: CardsToProto(hs[i])}
	}
	return out
}

func handsFrom(hs []*tappv1.Hand) ([engine.MaxPlayers]engine.CardSet, error) {
	var out [engine.MaxPlayers]engine.CardSet
	if len(hs) > engine.MaxPlayers {
		return out, fmt.Errorf("%d hands, at most %d", len(hs), engine.MaxPlayers)
	}
	for i, h := range hs {
		set, err := CardsFromProto(h.GetCards())
		if err != nil {
			return out, err
		}
		out[i] = set
	}
	return out, nil
}

// EventsToProto converts redacted events; first is the log index of evs[0].
func EventsToProto(evs []engine.Event, first int) []*tappv1.GameEvent {
	if len(evs) == 0 {
		return nil
	}
	out := make([]*tappv1.GameEvent, len(evs))
	for i := range evs {
		out[i] = EventToProto(&evs[i], first+i, 0)
	}
	return out
}

// EventToProto converts one (redacted) event at log index. players is the table size for
// hand lists; 0 means "as many as the event has non-empty hands, at least 3".
func EventToProto(e *engine.Event, index int, players int) *tappv1.GameEvent {
	pe := &tappv1.GameEvent{
		Index: int32(index), Kind: EventKindToProto(e.Kind), Seat: int32(e.Seat),
		Holder: int32(e.Holder), Trick: int32(e.Trick), Points: int32(e.Points), Tout: e.Tout,
		Card: cardText(e.Card), Cards: CardsToProto(e.Cards), Discards: CardsToProto(e.Discards),
		Contract: contractText(e.Contract), Trump: suitText(e.Trump),
	}
	switch e.Kind {
	case engine.EvBid, engine.EvDiscard, engine.EvTrump, engine.EvCall, engine.EvGive, engine.EvTout, engine.EvCard:
		if e.Action.Kind == engine.ActDiscard && !e.Action.Card.Valid() {
			pe.Action = "discard"
		} else if e.Action.Kind == engine.ActGive && !e.Action.Card.Valid() {
			pe.Action = "give"
		} else {
			pe.Action = e.Action.String()
		}
	case engine.EvDealt, engine.EvDealEnd:
		n := players
		if n == 0 {
			n = 3
			if e.Hands[3] != 0 {
				n = 4
			}
		}
		pe.Hands = hands(e.Hands, n)
	case engine.EvSettled:
		n := players
		if n == 0 {
			n = 4
		}
		for i := 0; i < n; i++ {
			pe.Payoff = append(pe.Payoff, int32(e.Payoff[i]))
		}
		pe.PotAfter = int32(e.PotAfter)
	}
	return pe
}

// OutcomeToProto converts a settlement.
func OutcomeToProto(o engine.Outcome) *tappv1.Settlement {
	n := engine.MaxPlayers
	s := &tappv1.Settlement{
		ThrownIn: o.ThrownIn, Declarer: int32(o.Declarer), Contract: contractText(o.Contract),
		Trump: suitText(o.Trump), Tout: o.Tout, DeclarerWon: o.DeclarerWon, Draw: o.Draw,
		PotBefore: int32(o.PotBefore), PotAfter: int32(o.PotAfter),
	}
	for i := 0; i < n; i++ {
		s.Points = append(s.Points, int32(o.Points[i]))
		s.Tricks = append(s.Tricks, int32(o.Tricks[i]))
		s.Payoff = append(s.Payoff, int32(o.Payoff[i]))
	}
	return s
}

// SettlementForPlayers trims a settlement's per-seat lists to the table size.
func SettlementForPlayers(s *tappv1.Settlement, players int) *tappv1.Settlement {
	s.Points, s.Tricks, s.Payoff = s.Points[:players], s.Tricks[:players], s.Payoff[:players]
	return s
}

// RevealToProto is the full deal shown to everyone at the end (R-INFO-4).
func RevealToProto(r engine.RuleSet, d engine.Deal, st *engine.State) *tappv1.Reveal {
	rv := &tappv1.Reveal{Hands: hands(d.Hands, r.Players), Tapp: CardsToProto(d.Tapp), Deal: d.Format(r)}
	if st != nil {
		for _, e := range st.Events() {
			if e.Kind == engine.EvDealEnd {
				rv.Discarded = CardsToProto(e.Discards)
			}
		}
	}
	return rv
}
