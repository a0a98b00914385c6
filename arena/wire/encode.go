package wire

import (
	"time"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/tapparena/tapp/arena/internal/protoappend"
	"github.com/tapparena/tapp/engine"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// Request is everything a decision request says, in the engine's terms. AppendRequest
// encodes it straight into protobuf wire form: it is the arena's hottest path (a request per
// decision, each with the seat's whole observation), and building the protobuf messages
// first costs several times more. The bytes are exactly those of proto.Marshal
// (deterministic) of the tappv1.DecisionRequest that ObservationToProto, ActionsToProto and
// EventsToProto describe; TestAppendRequestIsProtoMarshal holds the two together.
type Request struct {
	GameID      string
	RequestID   string
	Legal       []engine.Action
	Deadline    time.Time
	OverageLeft time.Duration
	Observation *engine.Observation
	Rules       string         // Observation.Rules.String(), given when the caller has it
	Events      []engine.Event // the seat's redacted events since its last message
	FirstEvent  int            // the log index of Events[0]
}

// Field numbers of the messages written here (proto/tapp/v1/bot.proto and game.proto).
const (
	reqGameID, reqRequestID, reqDecision, reqLegal, reqDeadline, reqOverage, reqObservation, reqEvents = 1, 2, 3, 4, 5, 6, 7, 8

	obsRules, obsSeat, obsHand, obsDecision, obsToMove, obsBids, obsDeclarer, obsContract, obsTrump = 1, 2, 3, 4, 5, 6, 7, 8, 9
	obsTout, obsTapp, obsDiscarded, obsCalled, obsCalledHolder, obsCalledInTapp, obsGiven           = 10, 11, 12, 13, 14, 15, 16
	obsExposed, obsTricks, obsCurrent, obsTricksTaken, obsHandSizes, obsHistory, obsDealt           = 17, 18, 19, 20, 21, 22, 23
	obsPot, obsForcedRamsch, obsVoids, obsPlayed                                                    = 24, 25, 26, 27

	moveSeat, moveAction                              = 1, 2
	trickLeader, trickCards, trickWinner, trickPoints = 1, 2, 3, 4
	handCards                                         = 1
	timeSeconds, timeNanos                            = 1, 2 // Timestamp and Duration alike

	evIndex, evKind, evSeat, evAction, evCard, evCards, evContract, evTrump = 1, 2, 3, 4, 5, 6, 7, 8
	evHolder, evTrick, evPoints, evTout, evHands, evDiscards, evPayoff      = 9, 10, 11, 12, 13, 14, 15
	evPotAfter                                                              = 16
)

// AppendRequest appends the request's wire form to b.
func AppendRequest(b []byte, r *Request) []byte {
	o := r.Observation
	b = protoappend.String(b, reqGameID, r.GameID)
	b = protoappend.String(b, reqRequestID, r.RequestID)
	b = protoappend.Int(b, reqDecision, int64(DecisionToProto(o.Decision)))
	for _, a := range r.Legal {
		b = protoappend.Text(b, reqLegal, a.String())
	}
	secs, nanos := r.Deadline.Unix(), r.Deadline.Nanosecond()
	b, m := protoappend.Open(b, reqDeadline)
	b = protoappend.Int(b, timeSeconds, secs)
	b = protoappend.Int(b, timeNanos, int64(nanos))
	b = protoappend.Close(b, m)
	b, m = protoappend.Open(b, reqOverage)
	b = protoappend.Int(b, timeSeconds, int64(r.OverageLeft/time.Second))
	b = protoappend.Int(b, timeNanos, int64(r.OverageLeft%time.Second))
	b = protoappend.Close(b, m)
	b, m = protoappend.Open(b, reqObservation)
	rules := r.Rules
	if rules == "" {
		rules = o.Rules.String()
	}
	b = appendObservation(b, o, rules)
	b = protoappend.Close(b, m)
	for i := range r.Events {
		b, m = protoappend.Open(b, reqEvents)
		b = AppendEvent(b, &r.Events[i], r.FirstEvent+i, 0)
		b = protoappend.Close(b, m)
	}
	return b
}

func appendObservation(b []byte, o *engine.Observation, rules string) []byte {
	n := o.Rules.Players
	b = protoappend.String(b, obsRules, rules)
	b = protoappend.Int(b, obsSeat, int64(o.Seat))
	b = appendCards(b, obsHand, o.Hand)
	b = protoappend.Int(b, obsDecision, int64(DecisionToProto(o.Decision)))
	b = protoappend.Int(b, obsToMove, int64(o.ToMove))
	b = appendMoves(b, obsBids, o.Bids)
	b = protoappend.Int(b, obsDeclarer, int64(o.Declarer))
	b = protoappend.String(b, obsContract, contractText(o.Contract))
	b = protoappend.String(b, obsTrump, suitText(o.Trump))
	b = protoappend.Bool(b, obsTout, o.Tout)
	b = appendCards(b, obsTapp, o.Tapp)
	b = appendCards(b, obsDiscarded, o.Discarded)
	b = protoappend.String(b, obsCalled, cardText(o.Called))
	b = protoappend.Int(b, obsCalledHolder, int64(o.CalledHolder))
	b = protoappend.Bool(b, obsCalledInTapp, o.CalledInTapp)
	b = protoappend.String(b, obsGiven, cardText(o.Given))
	b = appendCards(b, obsExposed, o.Exposed)
	for i := range o.Tricks {
		b = appendTrick(b, obsTricks, &o.Tricks[i])
	}
	b = appendTrick(b, obsCurrent, &o.Current)
	b = appendPacked(b, obsTricksTaken, o.TricksTaken[:n])
	b = appendPacked(b, obsHandSizes, o.HandSizes[:n])
	b = appendMoves(b, obsHistory, o.History)
	b = appendCards(b, obsDealt, o.Dealt)
	b = protoappend.Int(b, obsPot, int64(o.Options.Pot))
	b = protoappend.Bool(b, obsForcedRamsch, o.Options.ForcedRamsch)
	for i := range n {
		b = protoappend.Text(b, obsVoids, suitsNames[o.Voids[i]])
	}
	for i := range n {
		b = appendHand(b, obsPlayed, o.Played[i])
	}
	return b
}

// AppendEvent appends the wire form of the GameEvent that EventToProto(e, index, players)
// gives.
func AppendEvent(b []byte, e *engine.Event, index, players int) []byte {
	b = protoappend.Int(b, evIndex, int64(index))
	b = protoappend.Int(b, evKind, int64(EventKindToProto(e.Kind)))
	b = protoappend.Int(b, evSeat, int64(e.Seat))
	switch e.Kind {
	case engine.EvBid, engine.EvDiscard, engine.EvTrump, engine.EvCall, engine.EvGive, engine.EvTout, engine.EvCard:
		b = protoappend.String(b, evAction, actionText(e.Action))
	}
	b = protoappend.String(b, evCard, cardText(e.Card))
	b = appendCards(b, evCards, e.Cards)
	b = protoappend.String(b, evContract, contractText(e.Contract))
	b = protoappend.String(b, evTrump, suitText(e.Trump))
	b = protoappend.Int(b, evHolder, int64(e.Holder))
	b = protoappend.Int(b, evTrick, int64(e.Trick))
	b = protoappend.Int(b, evPoints, int64(e.Points))
	b = protoappend.Bool(b, evTout, e.Tout)
	switch e.Kind {
	case engine.EvDealt, engine.EvDealEnd:
		for i := range eventPlayers(e, players, 3) {
			b = appendHand(b, evHands, e.Hands[i])
		}
	}
	b = appendCards(b, evDiscards, e.Discards)
	if e.Kind == engine.EvSettled {
		b = appendPacked(b, evPayoff, e.Payoff[:eventPlayers(e, players, engine.MaxPlayers)])
		b = protoappend.Int(b, evPotAfter, int64(e.PotAfter))
	}
	return b
}

// eventPlayers is the table size an event's per-seat lists have: players if known, else
// for hands the seats that hold cards (at least 3), else guess.
func eventPlayers(e *engine.Event, players, guess int) int {
	switch {
	case players > 0:
		return players
	case e.Kind == engine.EvSettled:
		return guess
	case e.Hands[3] != 0:
		return 4
	}
	return guess
}

// suitsNames holds the notation of every set of suits (a seat's voids), in suit order.
var suitsNames = func() (names [1 << engine.NumSuits]string) {
	for x := range names {
		names[x] = suitsText(engine.Suits(x))
	}
	return names
}()

// appendPacked writes a packed repeated int32 (proto3's default for repeated scalars).
func appendPacked(b []byte, num protowire.Number, vs []int) []byte {
	if len(vs) == 0 {
		return b
	}
	size := 0
	for _, v := range vs {
		size += protowire.SizeVarint(uint64(int64(v)))
	}
	b = protowire.AppendTag(b, num, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(size))
	for _, v := range vs {
		b = protowire.AppendVarint(b, uint64(int64(v)))
	}
	return b
}

func appendCards(b []byte, num protowire.Number, set engine.CardSet) []byte {
	for ; set != 0; set &= set - 1 { // canonical order, as CardSet.Cards
		b = protoappend.Text(b, num, set.Lowest().String())
	}
	return b
}

func appendHand(b []byte, num protowire.Number, set engine.CardSet) []byte {
	b, m := protoappend.Open(b, num)
	b = appendCards(b, handCards, set)
	return protoappend.Close(b, m)
}

func appendMoves(b []byte, num protowire.Number, ms []engine.Move) []byte {
	for _, mv := range ms {
		var m int
		b, m = protoappend.Open(b, num)
		b = protoappend.Int(b, moveSeat, int64(mv.Seat))
		b = protoappend.String(b, moveAction, actionText(mv.Action))
		b = protoappend.Close(b, m)
	}
	return b
}

func appendTrick(b []byte, num protowire.Number, t *engine.Trick) []byte {
	b, m := protoappend.Open(b, num)
	b = protoappend.Int(b, trickLeader, int64(t.Leader))
	for _, c := range t.Cards {
		if c.Valid() {
			b = protoappend.Text(b, trickCards, c.String())
		}
	}
	b = protoappend.Int(b, trickWinner, int64(t.Winner))
	b = protoappend.Int(b, trickPoints, int64(t.Points))
	return protoappend.Close(b, m)
}

// Field numbers of GameEnded.
const endedGameID, endedReveal, endedSettlement, endedEvents = 1, 2, 3, 5

// AppendGameEnded appends the wire form of a finished (not aborted) game's GameEnded: the
// reveal and the settlement in wire form (the same for every seat, so encoded once per deal)
// and the seat's events since its last message. The bytes are those of proto.Marshal of
// GameEnded{GameId, Reveal, Settlement, Events: EventsToProto(events, first)}.
func AppendGameEnded(b []byte, gameID string, reveal, settlement []byte, events []engine.Event, first int) []byte {
	b = protoappend.String(b, endedGameID, gameID)
	b = protowire.AppendTag(b, endedReveal, protowire.BytesType)
	b = protowire.AppendBytes(b, reveal)
	b = protowire.AppendTag(b, endedSettlement, protowire.BytesType)
	b = protowire.AppendBytes(b, settlement)
	for i := range events {
		var m int
		b, m = protoappend.Open(b, endedEvents)
		b = AppendEvent(b, &events[i], first+i, 0)
		b = protoappend.Close(b, m)
	}
	return b
}

// DecodeResponse decodes a ConnectResponse message sent in wire form (kind and body), for
// lines that need it as a message.
func DecodeResponse(kind protowire.Number, body []byte) (*tappv1.ConnectResponse, error) {
	b := protowire.AppendTag(nil, kind, protowire.BytesType)
	msg := &tappv1.ConnectResponse{}
	return msg, proto.Unmarshal(protowire.AppendBytes(b, body), msg)
}
