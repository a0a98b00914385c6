// Package protoconv builds the tapp.v1 messages the arena sends from engine and domain types
// (the observation, events, a settlement and the reveal, a time control), for every message
// but the few that arena/internal/encode writes by hand, and reads back the requests a deal's
// record keeps as they were sent. Bots decode with arena/wire; the engine never sees
// generated code.
package protoconv

import (
	"time"

	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/wireform"
	"github.com/tapparena/tapp/engine"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// Timestamp converts a time.
func Timestamp(t time.Time) *timestamppb.Timestamp { return timestamppb.New(t) }

// Duration converts a duration.
func Duration(d time.Duration) *durationpb.Duration { return durationpb.New(d) }

// CardsToProto lists a card set in canonical order and R-CARD-5 notation.
func CardsToProto(set engine.CardSet) []string { return wireform.CardsText(set) }

// ActionsToProto lists actions in notation.
func ActionsToProto(actions []engine.Action) []string {
	out := make([]string, len(actions))
	for i, a := range actions {
		out[i] = a.String()
	}
	return out
}

// DecisionToProto converts a decision kind; the enums share their order.
func DecisionToProto(d engine.Decision) tappv1.Decision { return tappv1.Decision(d) }

// EventKindToProto converts an event kind (the proto enum is the engine's shifted by one, to
// leave 0 for UNSPECIFIED).
func EventKindToProto(k engine.EventKind) tappv1.EventKind { return tappv1.EventKind(k + 1) }

// TimeControlToProto converts a time control.
func TimeControlToProto(tc domain.TimeControl) *tappv1.TimeControl {
	scope := tappv1.ClockScope_CLOCK_SCOPE_GAME
	if tc.PerMatch() {
		scope = tappv1.ClockScope_CLOCK_SCOPE_MATCH
	}
	return &tappv1.TimeControl{
		PerDecision: Duration(tc.PerDecision), Overage: Duration(tc.Overage), MaxStrikes: int32(tc.MaxStrikes), Scope: scope,
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
	if tc.GetScope() == tappv1.ClockScope_CLOCK_SCOPE_MATCH {
		out.Scope = domain.ClockPerMatch
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
		Card: wireform.CardText(e.Card), Cards: CardsToProto(e.Cards), Discards: CardsToProto(e.Discards),
		Contract: wireform.ContractText(e.Contract), Trump: wireform.SuitText(e.Trump),
	}
	switch e.Kind {
	case engine.EvBid, engine.EvDiscard, engine.EvTrump, engine.EvCall, engine.EvGive, engine.EvTout, engine.EvCard:
		pe.Action = wireform.ActionText(e.Action)
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
		ThrownIn: o.ThrownIn, Declarer: int32(o.Declarer), Contract: wireform.ContractText(o.Contract),
		Trump: wireform.SuitText(o.Trump), Tout: o.Tout, DeclarerWon: o.DeclarerWon, Draw: o.Draw,
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

// revealTail is how many of the last events RevealToProto looks at for the deal's end
// before it reads the whole log: the end and the settlement.
const revealTail = 2

// RevealToProto is the full deal shown to everyone at the end (R-INFO-4).
func RevealToProto(r engine.RuleSet, d engine.Deal, st *engine.State) *tappv1.Reveal {
	rv := &tappv1.Reveal{Hands: hands(d.Hands, r.Players), Tapp: CardsToProto(d.Tapp), Deal: d.Format(r)}
	if st == nil {
		return rv
	}
	// A finished deal's log ends with its end and its settlement: the last deal end is read
	// from the log's tail, not from the whole log built (the arena reveals every deal).
	for i, tail := 0, st.EventsSince(max(st.NumEvents()-revealTail, 0)); i < len(tail); i++ {
		if e := tail[len(tail)-1-i]; e.Kind == engine.EvDealEnd {
			rv.Discarded = CardsToProto(e.Discards)
			return rv
		}
	}
	for _, e := range st.Events() {
		if e.Kind == engine.EvDealEnd {
			rv.Discarded = CardsToProto(e.Discards)
		}
	}
	return rv
}

// moveToProto converts a move; a card hidden from the receiver (NoCard) leaves the bare verb.
func moveToProto(m engine.Move) *tappv1.Move {
	return &tappv1.Move{Seat: int32(m.Seat), Action: wireform.ActionText(m.Action)}
}

func movesToProto(ms []engine.Move) []*tappv1.Move {
	out := make([]*tappv1.Move, len(ms))
	for i, m := range ms {
		out[i] = moveToProto(m)
	}
	return out
}

// trickToProto converts a trick (cards in playing order).
func trickToProto(t engine.Trick) *tappv1.Trick {
	pt := &tappv1.Trick{Leader: int32(t.Leader), Winner: int32(t.Winner), Points: int32(t.Points)}
	for _, c := range t.Cards {
		if c.Valid() {
			pt.Cards = append(pt.Cards, c.String())
		}
	}
	return pt
}

// ObservationToProto converts one seat's observation. The observation is already limited to
// the seat's information set; this keeps it so (no field is added that the engine left out).
func ObservationToProto(o *engine.Observation) *tappv1.Observation {
	n := o.Rules.Players
	po := &tappv1.Observation{
		Rules: o.Rules.String(), Seat: int32(o.Seat), Hand: CardsToProto(o.Hand),
		Decision: DecisionToProto(o.Decision), ToMove: int32(o.ToMove), Bids: movesToProto(o.Bids),
		Declarer: int32(o.Declarer), Contract: wireform.ContractText(o.Contract), Trump: wireform.SuitText(o.Trump), Tout: o.Tout,
		Tapp: CardsToProto(o.Tapp), Discarded: CardsToProto(o.Discarded),
		Called: wireform.CardText(o.Called), CalledHolder: int32(o.CalledHolder), CalledInTapp: o.CalledInTapp,
		Given: wireform.CardText(o.Given), Exposed: CardsToProto(o.Exposed), Current: trickToProto(o.Current),
		History: movesToProto(o.History), Dealt: CardsToProto(o.Dealt),
		Pot: int32(o.Options.Pot), ForcedRamsch: o.Options.ForcedRamsch,
	}
	for _, t := range o.Tricks {
		po.Tricks = append(po.Tricks, trickToProto(t))
	}
	for i := 0; i < n; i++ {
		po.TricksTaken = append(po.TricksTaken, int32(o.TricksTaken[i]))
		po.HandSizes = append(po.HandSizes, int32(o.HandSizes[i]))
		po.Voids = append(po.Voids, wireform.SuitsText(o.Voids[i]))
		po.Played = append(po.Played, &tappv1.Hand{Cards: CardsToProto(o.Played[i])})
	}
	return po
}
