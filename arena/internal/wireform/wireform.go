// Package wireform is what the hand-written codecs of the bot stream agree on with tapp.v1
// (proto/tapp/v1): the field numbers of the messages that the arena writes and the Go SDK
// reads by hand (arena/internal/encode, arena/wire), and how engine values are spelled in
// them — the notation of R-CARD-5, with "" for no card, suit or contract and a bare verb
// for a card hidden from the receiver. The tests of both codecs hold these to the generated
// code (the bytes of proto.Marshal, the values of proto.Unmarshal).
package wireform

import (
	"fmt"
	"strings"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/tapparena/tapp/engine"
)

// Field numbers of DecisionRequest (bot.proto).
const (
	ReqGameID      protowire.Number = 1
	ReqRequestID   protowire.Number = 2
	ReqDecision    protowire.Number = 3
	ReqLegal       protowire.Number = 4
	ReqDeadline    protowire.Number = 5
	ReqOverage     protowire.Number = 6
	ReqObservation protowire.Number = 7
	ReqEvents      protowire.Number = 8
)

// Field numbers of Observation (game.proto).
const (
	ObsRules        protowire.Number = 1
	ObsSeat         protowire.Number = 2
	ObsHand         protowire.Number = 3
	ObsDecision     protowire.Number = 4
	ObsToMove       protowire.Number = 5
	ObsBids         protowire.Number = 6
	ObsDeclarer     protowire.Number = 7
	ObsContract     protowire.Number = 8
	ObsTrump        protowire.Number = 9
	ObsTout         protowire.Number = 10
	ObsTapp         protowire.Number = 11
	ObsDiscarded    protowire.Number = 12
	ObsCalled       protowire.Number = 13
	ObsCalledHolder protowire.Number = 14
	ObsCalledInTapp protowire.Number = 15
	ObsGiven        protowire.Number = 16
	ObsExposed      protowire.Number = 17
	ObsTricks       protowire.Number = 18
	ObsCurrent      protowire.Number = 19
	ObsTricksTaken  protowire.Number = 20
	ObsHandSizes    protowire.Number = 21
	ObsHistory      protowire.Number = 22
	ObsDealt        protowire.Number = 23
	ObsPot          protowire.Number = 24
	ObsForcedRamsch protowire.Number = 25
	ObsVoids        protowire.Number = 26
	ObsPlayed       protowire.Number = 27
)

// Field numbers of Move, Trick, Hand, and of Timestamp and Duration (which share theirs).
const (
	MoveSeat    protowire.Number = 1
	MoveAction  protowire.Number = 2
	TrickLeader protowire.Number = 1
	TrickCards  protowire.Number = 2
	TrickWinner protowire.Number = 3
	TrickPoints protowire.Number = 4
	HandCards   protowire.Number = 1
	TimeSeconds protowire.Number = 1
	TimeNanos   protowire.Number = 2
)

// Field numbers of GameEvent (game.proto).
const (
	EvIndex    protowire.Number = 1
	EvKind     protowire.Number = 2
	EvSeat     protowire.Number = 3
	EvAction   protowire.Number = 4
	EvCard     protowire.Number = 5
	EvCards    protowire.Number = 6
	EvContract protowire.Number = 7
	EvTrump    protowire.Number = 8
	EvHolder   protowire.Number = 9
	EvTrick    protowire.Number = 10
	EvPoints   protowire.Number = 11
	EvTout     protowire.Number = 12
	EvHands    protowire.Number = 13
	EvDiscards protowire.Number = 14
	EvPayoff   protowire.Number = 15
	EvPotAfter protowire.Number = 16
)

// Field numbers of GameEnded (bot.proto).
const (
	EndedGameID     protowire.Number = 1
	EndedReveal     protowire.Number = 2
	EndedSettlement protowire.Number = 3
	EndedEvents     protowire.Number = 5
)

// Field numbers of ConnectResponse (the arena's messages), ConnectRequest (the bot's) and
// Answer (bot.proto).
const (
	ResponseSeq             protowire.Number = 1
	ResponseGameStarted     protowire.Number = 3
	ResponseDecisionRequest protowire.Number = 5
	ResponseGameEnded       protowire.Number = 8

	RequestAnswer protowire.Number = 2

	AnswerGameID    protowire.Number = 1
	AnswerRequestID protowire.Number = 2
	AnswerAction    protowire.Number = 3
	AnswerThinkTime protowire.Number = 4
)

// CardText is a card's notation, "" for NoCard (a card hidden from the receiver).
func CardText(c engine.Card) string {
	if !c.Valid() {
		return ""
	}
	return c.String()
}

// CardFrom reads CardText.
func CardFrom(text string) (engine.Card, error) {
	if text == "" {
		return engine.NoCard, nil
	}
	return engine.ParseCard(text)
}

// SuitText is a suit's letter, "" for no suit.
func SuitText(s engine.Suit) string {
	if s >= engine.NumSuits {
		return ""
	}
	return s.String()
}

// SuitFrom reads SuitText (and "-", which also means none).
func SuitFrom(text string) (engine.Suit, error) {
	if text == "" || text == "-" {
		return engine.NoSuit, nil
	}
	return engine.ParseSuit(text)
}

// ContractText is a contract's id, "" for none.
func ContractText(c engine.Contract) string {
	if c == engine.NoContract {
		return ""
	}
	return c.String()
}

// ContractFrom reads ContractText.
func ContractFrom(text string) (engine.Contract, error) {
	if text == "" {
		return engine.NoContract, nil
	}
	return engine.ParseContract(text)
}

// ActionText is an action's notation; a discard or a give whose card is hidden from the
// receiver (NoCard) is the bare verb.
func ActionText(a engine.Action) string {
	switch {
	case a.Kind == engine.ActDiscard && !a.Card.Valid():
		return "discard"
	case a.Kind == engine.ActGive && !a.Card.Valid():
		return "give"
	case a.Kind == engine.ActBid && a.Contract < engine.NumContracts && a.Suit < engine.NumSuits:
		return bidTexts[a.Contract][a.Suit] // a bid with a suit: spelled once, not per request
	case a.Kind == engine.ActTrump && a.Suit < engine.NumSuits:
		return trumpTexts[a.Suit]
	}
	return a.String()
}

// bidTexts and trumpTexts hold the notation of the actions whose String builds a string:
// bids by contract and suit (a contract without a suit spelled as String spells it), and
// trump choices by suit.
var (
	bidTexts = func() (t [engine.NumContracts][engine.NumSuits]string) {
		for c := range engine.Contract(engine.NumContracts) {
			for s := range engine.Suit(engine.NumSuits) {
				t[c][s] = engine.Action{Kind: engine.ActBid, Contract: c, Suit: s}.String()
			}
		}
		return t
	}()
	trumpTexts = func() (t [engine.NumSuits]string) {
		for s := range engine.Suit(engine.NumSuits) {
			t[s] = engine.Action{Kind: engine.ActTrump, Suit: s}.String()
		}
		return t
	}()
)

// ActionFrom reads ActionText.
func ActionFrom(text string) (engine.Action, error) {
	switch text {
	case "discard":
		return engine.DiscardAction(engine.NoCard), nil
	case "give":
		return engine.GiveAction(engine.NoCard), nil
	}
	return engine.ParseAction(text)
}

// SuitsText is a set of suits (a seat's voids) as its letters in suit order.
func SuitsText(x engine.Suits) string {
	out := ""
	for s := engine.Suit(0); s < engine.NumSuits; s++ {
		if x.Has(s) {
			out += s.String()
		}
	}
	return out
}

// SuitsFrom reads SuitsText.
func SuitsFrom(text string) (engine.Suits, error) {
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

// CardsText lists a card set in canonical order, each card in its notation; nil for none.
func CardsText(set engine.CardSet) []string {
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

// CardsFrom reads a list of cards; an unknown or repeated card is an error.
func CardsFrom(cards []string) (engine.CardSet, error) {
	for _, text := range cards {
		if strings.ContainsAny(text, " ,\t") {
			return 0, fmt.Errorf("unknown card %q", text)
		}
	}
	return engine.ParseCardSet(strings.Join(cards, " "))
}

// SecondsNanos reads a Timestamp or a Duration in wire form (they share their fields); false
// for anything else. As protobuf, a field given twice counts as given last.
func SecondsNanos(b []byte) (secs int64, nanos int32, ok bool) {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 || typ != protowire.VarintType {
			return 0, 0, false
		}
		v, m := protowire.ConsumeVarint(b[n:])
		if m < 0 {
			return 0, 0, false
		}
		b = b[n+m:]
		switch num {
		case TimeSeconds:
			secs = int64(v)
		case TimeNanos:
			nanos = int32(v)
		default:
			return 0, 0, false
		}
	}
	return secs, nanos, true
}
