package engine

import "fmt"

// EventKind says what happened.
type EventKind uint8

// The event kinds, in the order they can occur in a deal.
const (
	EvDealt         EventKind = iota // the cards are dealt: Hands (redacted: only the seat's own hand)
	EvBid                            // Seat said Action (pass, play, or a contract) in the bidding
	EvContract                       // bidding resolved: Seat declarer (NoSeat for Ramsch), Contract, Trump (NoSuit until named in classic Solo)
	EvThrowIn                        // everybody passed in an auction: thrown in (R-CL-PASS)
	EvTappTaken                      // Frage declarer Seat takes up the tapp: Cards (redacted: empty, except for the declarer)
	EvDiscard                        // Seat lays Card away (redacted: NoCard, except for the declarer)
	EvTrump                          // Seat names Trump (classic Solo)
	EvCall                           // Seat calls Card (Rufer)
	EvCalledCard                     // the called Card was held by Holder, who hands it over (Holder NoSeat: it lies in the tapp)
	EvGive                           // declarer Seat gives Card to Holder (redacted: NoCard, except for the declarer and Holder)
	EvTout                           // Seat answers the Tout question: Tout
	EvOuvertExposed                  // Bettel Ouvert: declarer Seat's remaining hand Cards lies face up
	EvCard                           // Seat plays Card to trick Trick
	EvTrickWon                       // Seat wins trick Trick worth Points
	EvDealEnd                        // the deal is over: reveal of Hands (as dealt), Cards (the tapp), Discards
	EvSettled                        // settlement: Payoff per seat and PotAfter (see Outcome)
	numEventKinds
)

var eventKindNames = [numEventKinds]string{"dealt", "bid", "contract", "throwin", "tapptaken", "discard", "trump", "call", "calledcard", "give", "tout", "ouvertexposed", "card", "trickwon", "dealend", "settled"}

// String returns the event kind's name.
func (k EventKind) String() string {
	if k < numEventKinds {
		return eventKindNames[k]
	}
	return fmt.Sprintf("event(%d)", uint8(k))
}

// Event is one entry of a deal's log. Fields an event kind does not use hold NoSeat, NoSuit,
// NoCard or zero. Events are plain values (no pointers), so the log copies cheaply.
type Event struct {
	Kind     EventKind
	Seat     Seat     // who acted, or whom the event is about; NoSeat for table events
	Holder   Seat     // EvCalledCard, EvGive: the defender who held the called card (NoSeat: tapp)
	Contract Contract // EvContract, EvSettled
	Trump    Suit     // EvContract, EvTrump
	Tout     bool     // EvTout
	Trick    int8     // EvCard, EvTrickWon: trick number from 0; -1 otherwise
	Card     Card     // EvDiscard, EvCall, EvCalledCard, EvGive, EvCard
	Action   Action   // the action behind EvBid, EvDiscard, EvTrump, EvCall, EvGive, EvTout, EvCard (redacted like Card)
	Points   int      // EvTrickWon: card points of the trick
	Cards    CardSet  // EvTappTaken: tapp; EvOuvertExposed: exposed hand; EvDealEnd: the tapp
	Discards CardSet  // EvDealEnd: the cards a Frage declarer laid away
	Hands    [MaxPlayers]CardSet
	Payoff   [MaxPlayers]int // EvSettled: per seat, as Outcome.Payoff
	PotAfter int             // EvSettled: as Outcome.PotAfter
}

// String returns a short human-readable form, e.g. "card 1 HA".
func (e Event) String() string {
	switch e.Kind {
	case EvBid, EvDiscard, EvTrump, EvCall, EvTout, EvCard:
		return fmt.Sprintf("%s %s %s", e.Kind, e.Seat, e.Action)
	case EvContract:
		return fmt.Sprintf("contract %s %s trump %s", e.Seat, e.Contract, e.Trump)
	case EvCalledCard:
		return fmt.Sprintf("calledcard %s holder %s", e.Card, e.Holder)
	case EvGive:
		return fmt.Sprintf("give %s %s to %s", e.Seat, e.Card, e.Holder)
	case EvTrickWon:
		return fmt.Sprintf("trickwon %s trick %d points %d", e.Seat, e.Trick, e.Points)
	case EvTappTaken, EvOuvertExposed:
		return fmt.Sprintf("%s %s [%s]", e.Kind, e.Seat, e.Cards)
	case EvSettled:
		return fmt.Sprintf("settled %v pot %d", e.Payoff, e.PotAfter)
	}
	return e.Kind.String()
}

// evRec is the compact form in which the state logs an event (14 bytes, so Apply and Clone
// stay cheap); the full Event is rebuilt from it, the deal and the outcome on demand.
type evRec struct {
	kind     EventKind
	seat     Seat
	holder   Seat
	contract Contract
	trump    Suit
	tout     bool
	trick    int8
	card     Card
	action   Action
	points   int16
}

// event expands a log record.
func (s *State) event(r *evRec) Event {
	e := Event{Kind: r.kind, Seat: r.seat, Holder: r.holder, Contract: r.contract, Trump: r.trump,
		Tout: r.tout, Trick: r.trick, Card: r.card, Action: r.action, Points: int(r.points)}
	switch r.kind {
	case EvDealt:
		e.Hands = s.deal.Hands
	case EvTappTaken:
		e.Cards = s.deal.Tapp
	case EvOuvertExposed:
		e.Cards = s.deal.Hands[r.seat].Without(r.card)
		e.Card = NoCard
	case EvDealEnd:
		e.Hands, e.Cards, e.Discards = s.deal.Hands, s.deal.Tapp, s.discards
	case EvSettled:
		e.Payoff, e.PotAfter = s.outcome.Payoff, s.outcome.PotAfter
	}
	return e
}

// NumEvents returns the length of the event log (cheap; no allocation).
func (s *State) NumEvents() int { return len(s.log) }

// Events returns the full event log, unredacted (a new slice).
func (s *State) Events() []Event { return s.events(0) }

// EventsSince returns the log from index from on, unredacted (Events()[from:], without
// building the whole log).
func (s *State) EventsSince(from int) []Event { return s.events(from) }

// EventsFor returns the log from index from on (same indices as Events), each event redacted
// to what seat may know (R-INFO-1..4): others' hands, an unseen tapp, Frage discards and the
// Rufer give become NoCard or empty. A seat outside the table gets the public view. The
// returned slice is new.
func (s *State) EventsFor(seat Seat, from int) []Event {
	from = min(max(from, 0), len(s.log))
	return s.AppendEventsFor(make([]Event, 0, len(s.log)-from), seat, from)
}

// AppendEventsFor appends what EventsFor returns to dst (EventsFor is this into a new list):
// a caller that builds a request per decision keeps one list instead of allocating one each
// time.
func (s *State) AppendEventsFor(dst []Event, seat Seat, from int) []Event {
	from = min(max(from, 0), len(s.log))
	for i := from; i < len(s.log); i++ {
		dst = append(dst, s.event(&s.log[i]))
		s.redact(&dst[len(dst)-1], seat)
	}
	return dst
}

func (s *State) events(from int) []Event {
	from = min(max(from, 0), len(s.log))
	out := make([]Event, len(s.log)-from)
	for i := range out {
		out[i] = s.event(&s.log[from+i])
	}
	return out
}

// redact removes from e what seat may not know.
func (s *State) redact(e *Event, seat Seat) {
	switch e.Kind {
	case EvDealt:
		for i := range e.Hands {
			if Seat(i) != seat {
				e.Hands[i] = 0
			}
		}
	case EvTappTaken:
		if seat != e.Seat {
			e.Cards = 0
		}
	case EvDiscard:
		if seat != e.Seat {
			e.Card, e.Action.Card = NoCard, NoCard
		}
	case EvGive:
		if seat != e.Seat && seat != e.Holder {
			e.Card, e.Action.Card = NoCard, NoCard
		}
	}
}
