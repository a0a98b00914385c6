package encode

import (
	"google.golang.org/protobuf/encoding/protowire"

	"github.com/tapparena/tapp/arena/internal/protoappend"
	wf "github.com/tapparena/tapp/arena/internal/wireform"
	"github.com/tapparena/tapp/engine"
)

// The fields of Reveal and Settlement (proto/tapp/v1/game.proto).
const (
	revealHands     protowire.Number = 1
	revealTapp      protowire.Number = 2
	revealDiscarded protowire.Number = 3
	revealDeal      protowire.Number = 4

	settleThrownIn    protowire.Number = 1
	settleDeclarer    protowire.Number = 2
	settleContract    protowire.Number = 3
	settleTrump       protowire.Number = 4
	settleTout        protowire.Number = 5
	settleDeclarerWon protowire.Number = 6
	settleDraw        protowire.Number = 7
	settlePoints      protowire.Number = 8
	settleTricks      protowire.Number = 9
	settlePayoff      protowire.Number = 10
	settlePotBefore   protowire.Number = 11
	settlePotAfter    protowire.Number = 12
)

// AppendReveal appends the wire form of the Reveal that protoconv.RevealToProto(r, d, st)
// gives: the arena reveals every deal it plays, to every seat, and protobuf's generic path
// (with the messages built first) was most of a deal's end (issue 31).
func AppendReveal(b []byte, r engine.RuleSet, d engine.Deal, st *engine.State) []byte {
	for i := range r.Players {
		b = appendHand(b, revealHands, d.Hands[i])
	}
	b = appendCards(b, revealTapp, d.Tapp)
	if st != nil {
		b = appendCards(b, revealDiscarded, dealEndDiscards(st))
	}
	return protoappend.String(b, revealDeal, d.Format(r))
}

// revealTail is how many of the last events dealEndDiscards looks at for the deal's end
// before it reads the whole log: a finished deal's log ends with its end and its settlement.
const revealTail = 2

// dealEndDiscards are the discards of st's last deal end, as RevealToProto reads them: from
// the log's tail, or else the whole log.
func dealEndDiscards(st *engine.State) engine.CardSet {
	tail := st.EventsSince(max(st.NumEvents()-revealTail, 0))
	for i := len(tail) - 1; i >= 0; i-- {
		if tail[i].Kind == engine.EvDealEnd {
			return tail[i].Discards
		}
	}
	var discards engine.CardSet
	for _, e := range st.Events() {
		if e.Kind == engine.EvDealEnd {
			discards = e.Discards
		}
	}
	return discards
}

// AppendSettlement appends the wire form of the Settlement that
// protoconv.SettlementForPlayers(protoconv.OutcomeToProto(o), players) gives.
func AppendSettlement(b []byte, o engine.Outcome, players int) []byte {
	b = protoappend.Bool(b, settleThrownIn, o.ThrownIn)
	b = protoappend.Int(b, settleDeclarer, int64(int32(o.Declarer)))
	b = protoappend.String(b, settleContract, wf.ContractText(o.Contract))
	b = protoappend.String(b, settleTrump, wf.SuitText(o.Trump))
	b = protoappend.Bool(b, settleTout, o.Tout)
	b = protoappend.Bool(b, settleDeclarerWon, o.DeclarerWon)
	b = protoappend.Bool(b, settleDraw, o.Draw)
	b = appendPacked32(b, settlePoints, o.Points[:players])
	b = appendPacked32(b, settleTricks, o.Tricks[:players])
	b = appendPacked32(b, settlePayoff, o.Payoff[:players])
	b = protoappend.Int(b, settlePotBefore, int64(int32(o.PotBefore)))
	return protoappend.Int(b, settlePotAfter, int64(int32(o.PotAfter)))
}

// appendPacked32 is appendPacked for values an int32 field holds (as OutcomeToProto converts
// them).
func appendPacked32(b []byte, num protowire.Number, vs []int) []byte {
	var room [engine.MaxPlayers]int
	out := room[:0]
	for _, v := range vs {
		out = append(out, int(int32(v)))
	}
	return appendPacked(b, num, out)
}
