package engine

import (
	"fmt"
	"strings"
)

// Seat is a seat in playing order: 0 = forehand, 1 = middlehand, …, Players-1 = dealer
// (R-SEAT-1). With 3 players the dealer is rearhand; with 4 the dealer plays too.
type Seat int8

// NoSeat marks "nobody": no declarer (Ramsch, thrown in), nobody to move (terminal), or the
// called card lying in the tapp.
const NoSeat Seat = -1

// MaxPlayers is the largest table; arrays indexed by Seat have this length.
const MaxPlayers = 4

// String returns the seat number ("0".."3"), or "-" for NoSeat.
func (s Seat) String() string {
	if s >= 0 && s < MaxPlayers {
		return string(rune('0' + s))
	}
	return "-"
}

// SeatName returns the traditional name of a seat at a table of the given size: forehand,
// middlehand, rearhand (3 players: the dealer), and with 4 players rearhand then dealer.
func SeatName(s Seat, players int) string {
	switch {
	case s == 0:
		return "forehand"
	case s == 1:
		return "middlehand"
	case s == 2:
		return "rearhand"
	case s == 3 && players == 4:
		return "dealer"
	}
	return "seat " + s.String()
}

// ActionKind says what an action does.
type ActionKind uint8

// The action kinds. The zero value ActNone is not a legal action.
const (
	ActNone    ActionKind = iota
	ActPass               // "pass": modern round one weg, or an auction pass
	ActPlay               // "play": modern round one ich spiele
	ActBid                // a contract: modern round two, or an auction bid (Contract, Suit)
	ActTrump              // "trump:C": classic Solo names its trump (R-CL-ORDER)
	ActDiscard            // "discard:DT": a Frage declarer lays one card away (R-MOD-FRAGE)
	ActCall               // "call:HA": a Rufer declarer calls a card (R-MOD-RUFER)
	ActGive               // "give:C7": a Rufer declarer gives a card to the holder
	ActTout               // "tout": Tout announced (R-CL-ORDER)
	ActNoTout             // "notout": no Tout
	ActCard               // "HA": a card played to the trick
	numActionKinds
)

var actionKindNames = [numActionKinds]string{"none", "pass", "play", "bid", "trump", "discard", "call", "give", "tout", "notout", "card"}

// String returns the kind's name.
func (k ActionKind) String() string {
	if k < numActionKinds {
		return actionKindNames[k]
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// Action is one decision of one player. It is small and comparable; fields that a kind does
// not use hold their "none" values (Contract NoContract, Suit NoSuit, Card NoCard), which the
// constructors, ParseAction and LegalActions guarantee. Check and Apply also accept actions
// whose unused fields hold anything, and record them in canonical form.
type Action struct {
	Kind     ActionKind
	Contract Contract // ActBid
	Suit     Suit     // ActBid for solo/rufer/durch in modern, ActTrump
	Card     Card     // ActDiscard, ActCall, ActGive, ActCard
}

// PassAction is "pass".
func PassAction() Action { return Action{Kind: ActPass, Suit: NoSuit, Card: NoCard} }

// PlayAction is "play" (modern round one).
func PlayAction() Action { return Action{Kind: ActPlay, Suit: NoSuit, Card: NoCard} }

// BidAction names a contract; suit is C, S or D for modern solo/rufer/durch, else NoSuit.
func BidAction(c Contract, s Suit) Action {
	return Action{Kind: ActBid, Contract: c, Suit: s, Card: NoCard}.Canonical()
}

// TrumpAction is "trump:X".
func TrumpAction(s Suit) Action { return Action{Kind: ActTrump, Suit: s, Card: NoCard} }

// ToutAction is "tout" (true) or "notout" (false).
func ToutAction(tout bool) Action {
	if tout {
		return Action{Kind: ActTout, Suit: NoSuit, Card: NoCard}
	}
	return Action{Kind: ActNoTout, Suit: NoSuit, Card: NoCard}
}

// CardAction plays card c.
func CardAction(c Card) Action { return Action{Kind: ActCard, Suit: NoSuit, Card: c} }

// DiscardAction lays card c away.
func DiscardAction(c Card) Action { return Action{Kind: ActDiscard, Suit: NoSuit, Card: c} }

// CallAction calls card c.
func CallAction(c Card) Action { return Action{Kind: ActCall, Suit: NoSuit, Card: c} }

// GiveAction gives card c.
func GiveAction(c Card) Action { return Action{Kind: ActGive, Suit: NoSuit, Card: c} }

// Canonical returns the action with every field its kind does not use set to "none". Heart
// contracts, Frage, Bettel and Ouvert carry NoSuit (their trump is implied).
func (a Action) Canonical() Action {
	switch a.Kind {
	case ActBid:
		if !a.Contract.takesSuit() {
			a.Suit = NoSuit
		}
		a.Card = NoCard
	case ActTrump:
		a.Contract, a.Card = NoContract, NoCard
	case ActDiscard, ActCall, ActGive, ActCard:
		a.Contract, a.Suit = NoContract, NoSuit
	default:
		a.Contract, a.Suit, a.Card = NoContract, NoSuit, NoCard
	}
	return a
}

// String returns the action in text notation: pass, play, frage, solo, solo:C, heartsolo,
// bettel, rufer:S, heartrufer, ouvert, durch:D, heartdurch, tout, notout, trump:C, discard:DT,
// call:HA, give:C7, and a played card as HA.
func (a Action) String() string {
	switch a.Kind {
	case ActPass:
		return "pass"
	case ActPlay:
		return "play"
	case ActTout:
		return "tout"
	case ActNoTout:
		return "notout"
	case ActBid:
		if a.Contract.takesSuit() && a.Suit < NumSuits {
			return a.Contract.String() + ":" + a.Suit.String()
		}
		return a.Contract.String()
	case ActTrump:
		return "trump:" + a.Suit.String()
	case ActDiscard, ActCall, ActGive:
		if a.Card.Valid() {
			return cardActionNames[a.Kind-ActDiscard][a.Card]
		}
		return cardActionVerbs[a.Kind-ActDiscard] + ":" + a.Card.String()
	case ActCard:
		return a.Card.String()
	}
	return "none"
}

// cardActionVerbs and cardActionNames name the actions that take a card (in the order of
// their kinds, ActDiscard first), so that listing the legal lay-aways allocates nothing.
var (
	cardActionVerbs = [...]string{"discard", "call", "give"}
	cardActionNames = func() (names [len(cardActionVerbs)][NumCards]string) {
		for k, verb := range cardActionVerbs {
			for c := range Card(NumCards) {
				names[k][c] = verb + ":" + c.String()
			}
		}
		return names
	}()
)

// ParseAction reads an action in the notation of Action.String (case-insensitive). "card:HA"
// is accepted for a played card too. It checks only the form; whether the action is legal is
// for State.Check.
func ParseAction(text string) (Action, error) {
	t := strings.TrimSpace(text)
	if len(t) == 2 { // a played card, the most frequent answer: no other action is this short
		if c, err := ParseCard(t); err == nil {
			return CardAction(c), nil
		}
	}
	head, arg, hasArg := strings.Cut(t, ":")
	head = strings.ToLower(head)
	if !hasArg {
		switch head {
		case "pass":
			return PassAction(), nil
		case "play":
			return PlayAction(), nil
		case "tout":
			return ToutAction(true), nil
		case "notout":
			return ToutAction(false), nil
		}
		if c, err := ParseContract(head); err == nil && c.Biddable() {
			return BidAction(c, NoSuit), nil
		}
		if c, err := ParseCard(t); err == nil {
			return CardAction(c), nil
		}
		return Action{}, fmt.Errorf("unknown action %q (pass, play, a contract such as solo:C, tout, notout, trump:C, discard:DT, call:HA, give:C7, or a card such as HA)", text)
	}
	switch head {
	case "trump":
		s, err := ParseSuit(arg)
		if err != nil {
			return Action{}, fmt.Errorf("action %q: %w", text, err)
		}
		return TrumpAction(s), nil
	case "discard", "call", "give", "card":
		c, err := ParseCard(arg)
		if err != nil {
			return Action{}, fmt.Errorf("action %q: %w", text, err)
		}
		switch head {
		case "discard":
			return DiscardAction(c), nil
		case "call":
			return CallAction(c), nil
		case "give":
			return GiveAction(c), nil
		}
		return CardAction(c), nil
	}
	c, err := ParseContract(head)
	if err != nil || !c.Biddable() {
		return Action{}, fmt.Errorf("unknown action %q", text)
	}
	if !c.takesSuit() {
		return Action{}, fmt.Errorf("action %q: %s takes no suit", text, c)
	}
	s, err := ParseSuit(arg)
	if err != nil {
		return Action{}, fmt.Errorf("action %q: %w", text, err)
	}
	return BidAction(c, s), nil
}

// Move is an action together with the seat that took it.
type Move struct {
	Seat   Seat
	Action Action
}

// String returns "seat:action", e.g. "1:solo:C".
func (m Move) String() string { return m.Seat.String() + ":" + m.Action.String() }

// Decision is the kind of decision due in a state.
type Decision uint8

// The decisions.
const (
	DecideNone     Decision = iota // terminal: nobody is to move
	DecideBid                      // modern round one (play/pass), or an auction bid or pass
	DecideContract                 // modern round two: name a contract
	DecideTrump                    // classic Solo: name the trump
	DecideDiscard                  // Frage: lay away one card
	DecideCall                     // Rufer: call a card
	DecideGive                     // Rufer: give a card to the holder
	DecideTout                     // older variants: tout or notout
	DecideCard                     // play a card
	numDecisions
)

var decisionNames = [numDecisions]string{"none", "bid", "contract", "trump", "discard", "call", "give", "tout", "card"}

// String returns "none", "bid", "contract", "trump", "discard", "call", "give", "tout" or "card".
func (d Decision) String() string {
	if d < numDecisions {
		return decisionNames[d]
	}
	return fmt.Sprintf("decision(%d)", uint8(d))
}

// RuleError is the error Check and Apply return for an illegal action: the id of the rule it
// breaks and what is wrong, e.g. "R-PLAY-2: must follow suit C".
type RuleError struct {
	Rule string
	Msg  string
}

// Error returns "RULE: message".
func (e *RuleError) Error() string { return e.Rule + ": " + e.Msg }

func ruleErr(rule, format string, args ...any) error {
	return &RuleError{Rule: rule, Msg: fmt.Sprintf(format, args...)}
}
