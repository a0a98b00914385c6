// Package encode writes what the arena sends a bot most often straight into protobuf wire
// form: the decision request (a referee.Request, with the seat's whole observation), the
// events that go with it, and a game's end. It is the arena's hottest path (a request per
// decision), and building the protobuf messages first costs several times more. The bytes
// are exactly those of proto.Marshal (deterministic) of the tapp.v1 messages that
// arena/internal/protoconv builds from the same values; the tests hold the two together. It
// uses no generated code, so that what encodes requests (in-process play, the store) links
// neither gRPC nor the protobuf messages.
package encode

import (
	"time"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/tapparena/tapp/arena/internal/protoappend"
	"github.com/tapparena/tapp/arena/internal/referee"
	wf "github.com/tapparena/tapp/arena/internal/wireform"
	"github.com/tapparena/tapp/engine"
)

// AppendRequest appends the wire form of the DecisionRequest that r is to b. The decision
// kind and the event kinds are the engine's, which tapp.v1's enums number alike (events
// shifted by one, to leave 0 for UNSPECIFIED); the tests check both.
func AppendRequest(b []byte, r *referee.Request) []byte {
	o := r.Observation
	b = protoappend.String(b, wf.ReqGameID, r.GameID)
	b = protoappend.String(b, wf.ReqRequestID, r.RequestID)
	b = protoappend.Int(b, wf.ReqDecision, int64(o.Decision))
	for _, a := range r.Legal {
		b = protoappend.Text(b, wf.ReqLegal, actionString(a))
	}
	secs, nanos := r.Deadline.Unix(), r.Deadline.Nanosecond()
	b, m := protoappend.Open(b, wf.ReqDeadline)
	b = protoappend.Int(b, wf.TimeSeconds, secs)
	b = protoappend.Int(b, wf.TimeNanos, int64(nanos))
	b = protoappend.Close(b, m)
	b, m = protoappend.Open(b, wf.ReqOverage)
	b = protoappend.Int(b, wf.TimeSeconds, int64(r.OverageLeft/time.Second))
	b = protoappend.Int(b, wf.TimeNanos, int64(r.OverageLeft%time.Second))
	b = protoappend.Close(b, m)
	b, m = protoappend.OpenLong(b, wf.ReqObservation) // 128 bytes to 16 KiB: its length is not moved
	rules := r.Rules
	if rules == "" {
		rules = o.Rules.String()
	}
	b = appendObservation(b, o, rules)
	b = protoappend.CloseLong(b, m)
	for i := range r.Events {
		b, m = protoappend.Open(b, wf.ReqEvents)
		b = AppendEvent(b, &r.Events[i], r.FirstEvent+i, 0)
		b = protoappend.Close(b, m)
	}
	return b
}

func appendObservation(b []byte, o *engine.Observation, rules string) []byte {
	n := o.Rules.Players
	b = protoappend.String(b, wf.ObsRules, rules)
	b = protoappend.Int(b, wf.ObsSeat, int64(o.Seat))
	b = appendCards(b, wf.ObsHand, o.Hand)
	b = protoappend.Int(b, wf.ObsDecision, int64(o.Decision))
	b = protoappend.Int(b, wf.ObsToMove, int64(o.ToMove))
	b = appendMoves(b, wf.ObsBids, o.Bids)
	b = protoappend.Int(b, wf.ObsDeclarer, int64(o.Declarer))
	b = protoappend.String(b, wf.ObsContract, wf.ContractText(o.Contract))
	b = protoappend.String(b, wf.ObsTrump, wf.SuitText(o.Trump))
	b = protoappend.Bool(b, wf.ObsTout, o.Tout)
	b = appendCards(b, wf.ObsTapp, o.Tapp)
	b = appendCards(b, wf.ObsDiscarded, o.Discarded)
	b = protoappend.String(b, wf.ObsCalled, wf.CardText(o.Called))
	b = protoappend.Int(b, wf.ObsCalledHolder, int64(o.CalledHolder))
	b = protoappend.Bool(b, wf.ObsCalledInTapp, o.CalledInTapp)
	b = protoappend.String(b, wf.ObsGiven, wf.CardText(o.Given))
	b = appendCards(b, wf.ObsExposed, o.Exposed)
	for i := range o.Tricks {
		b = appendTrick(b, wf.ObsTricks, &o.Tricks[i])
	}
	b = appendTrick(b, wf.ObsCurrent, &o.Current)
	b = appendPacked(b, wf.ObsTricksTaken, o.TricksTaken[:n])
	b = appendPacked(b, wf.ObsHandSizes, o.HandSizes[:n])
	b = appendMoves(b, wf.ObsHistory, o.History)
	b = appendCards(b, wf.ObsDealt, o.Dealt)
	b = protoappend.Int(b, wf.ObsPot, int64(o.Options.Pot))
	b = protoappend.Bool(b, wf.ObsForcedRamsch, o.Options.ForcedRamsch)
	for i := range n {
		b = protoappend.Text(b, wf.ObsVoids, suitsNames[o.Voids[i]])
	}
	for i := range n {
		b = appendHand(b, wf.ObsPlayed, o.Played[i])
	}
	return b
}

// AppendEvent appends the wire form of the GameEvent that EventToProto(e, index, players)
// gives.
func AppendEvent(b []byte, e *engine.Event, index, players int) []byte {
	b = protoappend.Int(b, wf.EvIndex, int64(index))
	b = protoappend.Int(b, wf.EvKind, int64(e.Kind+1))
	b = protoappend.Int(b, wf.EvSeat, int64(e.Seat))
	switch e.Kind {
	case engine.EvBid, engine.EvDiscard, engine.EvTrump, engine.EvCall, engine.EvGive, engine.EvTout, engine.EvCard:
		b = protoappend.String(b, wf.EvAction, wf.ActionText(e.Action))
	}
	b = protoappend.String(b, wf.EvCard, wf.CardText(e.Card))
	b = appendCards(b, wf.EvCards, e.Cards)
	b = protoappend.String(b, wf.EvContract, wf.ContractText(e.Contract))
	b = protoappend.String(b, wf.EvTrump, wf.SuitText(e.Trump))
	b = protoappend.Int(b, wf.EvHolder, int64(e.Holder))
	b = protoappend.Int(b, wf.EvTrick, int64(e.Trick))
	b = protoappend.Int(b, wf.EvPoints, int64(e.Points))
	b = protoappend.Bool(b, wf.EvTout, e.Tout)
	switch e.Kind {
	case engine.EvDealt, engine.EvDealEnd:
		for i := range eventPlayers(e, players, 3) {
			b = appendHand(b, wf.EvHands, e.Hands[i])
		}
	}
	b = appendCards(b, wf.EvDiscards, e.Discards)
	if e.Kind == engine.EvSettled {
		b = appendPacked(b, wf.EvPayoff, e.Payoff[:eventPlayers(e, players, engine.MaxPlayers)])
		b = protoappend.Int(b, wf.EvPotAfter, int64(e.PotAfter))
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

// actionString is a.String() (a legal action's notation, never a hidden card), without
// building a string for a bid with a suit.
func actionString(a engine.Action) string {
	if a.Kind == engine.ActBid || a.Kind == engine.ActTrump {
		return wf.ActionText(a)
	}
	return a.String()
}

// suitsNames holds the notation of every set of suits (a seat's voids), in suit order.
var suitsNames = func() (names [1 << engine.NumSuits]string) {
	for x := range names {
		names[x] = wf.SuitsText(engine.Suits(x))
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
	b = appendCards(b, wf.HandCards, set)
	return protoappend.Close(b, m)
}

func appendMoves(b []byte, num protowire.Number, ms []engine.Move) []byte {
	for _, mv := range ms {
		var m int
		b, m = protoappend.Open(b, num)
		b = protoappend.Int(b, wf.MoveSeat, int64(mv.Seat))
		b = protoappend.String(b, wf.MoveAction, wf.ActionText(mv.Action))
		b = protoappend.Close(b, m)
	}
	return b
}

func appendTrick(b []byte, num protowire.Number, t *engine.Trick) []byte {
	b, m := protoappend.Open(b, num)
	b = protoappend.Int(b, wf.TrickLeader, int64(t.Leader))
	for _, c := range t.Cards {
		if c.Valid() {
			b = protoappend.Text(b, wf.TrickCards, c.String())
		}
	}
	b = protoappend.Int(b, wf.TrickWinner, int64(t.Winner))
	b = protoappend.Int(b, wf.TrickPoints, int64(t.Points))
	return protoappend.Close(b, m)
}

// AppendGameEnded appends the wire form of a finished (not aborted) game's GameEnded: the
// reveal and the settlement in wire form (the same for every seat, so encoded once per deal)
// and the seat's events since its last message. The bytes are those of proto.Marshal of
// GameEnded{GameId, Reveal, Settlement, Events: EventsToProto(events, first)}.
func AppendGameEnded(b []byte, gameID string, reveal, settlement []byte, events []engine.Event, first int) []byte {
	b = protoappend.String(b, wf.EndedGameID, gameID)
	b = protowire.AppendTag(b, wf.EndedReveal, protowire.BytesType)
	b = protowire.AppendBytes(b, reveal)
	b = protowire.AppendTag(b, wf.EndedSettlement, protowire.BytesType)
	b = protowire.AppendBytes(b, settlement)
	for i := range events {
		var m int
		b, m = protoappend.Open(b, wf.EndedEvents)
		b = AppendEvent(b, &events[i], first+i, 0)
		b = protoappend.Close(b, m)
	}
	return b
}
