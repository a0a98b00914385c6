package server

import (
	"sync/atomic"
	"time"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/protoappend"
	"github.com/tapparena/tapp/arena/internal/protoconv"
	"github.com/tapparena/tapp/arena/internal/referee"
	wf "github.com/tapparena/tapp/arena/internal/wireform"
	"github.com/tapparena/tapp/engine"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// A GameStarted goes to every seat of every deal, so it is written by hand as the decision
// requests are: through protobuf's generic path, with the rule set spelled by fmt each time,
// it cost about a microsecond of the arena's CPU per decision (issue 31).

// Field numbers of GameStarted (bot.proto) and TimeControl (game.proto).
const (
	startedGameID      protowire.Number = 1
	startedMatchID     protowire.Number = 2
	startedDealNumber  protowire.Number = 3
	startedRules       protowire.Number = 4
	startedSeat        protowire.Number = 5
	startedPlayers     protowire.Number = 6
	startedTimeControl protowire.Number = 7
	startedHand        protowire.Number = 8
	startedCommitment  protowire.Number = 9

	timeControlPerDecision protowire.Number = 1
	timeControlOverage     protowire.Number = 2
	timeControlMaxStrikes  protowire.Number = 3
	timeControlScope       protowire.Number = 4
)

// started is the GameStarted message of a seat (for a resume's snapshot; the stream's
// GameStarted is appendGameStarted's).
func started(st *referee.Start) *tappv1.GameStarted {
	return &tappv1.GameStarted{
		GameId: st.GameID, MatchId: st.MatchID, DealNumber: int32(st.Number), Rules: rulesText(st.Rules),
		Seat: int32(st.Seat), TimeControl: protoconv.TimeControlToProto(st.TimeControl),
		Hand: protoconv.CardsToProto(st.Hand), DealCommitment: st.Commitment, Players: st.Players,
	}
}

// appendGameStarted appends the wire form of a seat's GameStarted: the bytes proto.Marshal
// writes for started(st) (TestGameStartedIsProtoMarshal).
func appendGameStarted(b []byte, st *referee.Start) []byte {
	b = protoappend.String(b, startedGameID, st.GameID)
	b = protoappend.String(b, startedMatchID, st.MatchID)
	b = protoappend.Int(b, startedDealNumber, int64(int32(st.Number)))
	b = protoappend.String(b, startedRules, rulesText(st.Rules))
	b = protoappend.Int(b, startedSeat, int64(int32(st.Seat)))
	for _, p := range st.Players {
		b = protoappend.Text(b, startedPlayers, p)
	}
	b = appendTimeControl(b, st.TimeControl)
	var buf [engine.NumCards]engine.Card
	for _, c := range st.Hand.Cards(buf[:0]) {
		b = protoappend.Text(b, startedHand, c.String())
	}
	return protoappend.String(b, startedCommitment, st.Commitment)
}

// appendTimeControl appends the GameStarted's time_control as TimeControlToProto makes it:
// always present, its durations too (durationpb.New never gives nil).
func appendTimeControl(b []byte, tc domain.TimeControl) []byte {
	scope := tappv1.ClockScope_CLOCK_SCOPE_GAME
	if tc.PerMatch() {
		scope = tappv1.ClockScope_CLOCK_SCOPE_MATCH
	}
	b, m := protoappend.Open(b, startedTimeControl)
	b = appendDuration(b, timeControlPerDecision, tc.PerDecision)
	b = appendDuration(b, timeControlOverage, tc.Overage)
	b = protoappend.Int(b, timeControlMaxStrikes, int64(int32(tc.MaxStrikes)))
	b = protoappend.Int(b, timeControlScope, int64(scope))
	return protoappend.Close(b, m)
}

// appendDuration appends a Duration field as durationpb.New(d) is marshalled.
func appendDuration(b []byte, num protowire.Number, d time.Duration) []byte {
	b, m := protoappend.Open(b, num)
	b = protoappend.Int(b, wf.TimeSeconds, int64(d/time.Second))
	b = protoappend.Int(b, wf.TimeNanos, int64(int32(d%time.Second)))
	return protoappend.Close(b, m)
}

// lastRules is the last rule set rulesText spelled: an arena mostly plays one, and
// RuleSet.String (fmt) cost more than the rest of a GameStarted.
var lastRules atomic.Pointer[spelledRules]

type spelledRules struct {
	rules engine.RuleSet
	text  string
}

// rulesText is rules.String(), remembered for the last rule set.
func rulesText(rules engine.RuleSet) string {
	if last := lastRules.Load(); last != nil && last.rules == rules {
		return last.text
	}
	spelled := &spelledRules{rules: rules, text: rules.String()}
	lastRules.Store(spelled)
	return spelled.text
}
