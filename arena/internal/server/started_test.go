package server

import (
	"bytes"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/referee"
	"github.com/tapparena/tapp/engine"
)

// The stream's GameStarted, written by hand, is the message a resume's snapshot holds, byte
// for byte: whatever the rule set, seat, clock (negative and odd durations, a per-match
// scope), hand, players and commitment, empty ones included.
func TestGameStartedIsProtoMarshal(t *testing.T) {
	t.Parallel()
	modern := engine.DefaultRules(engine.Modern)
	classic := engine.DefaultRules(engine.Classic)
	deal := engine.DealFromSeed(modern, 7, 3)
	starts := []referee.Start{
		{},
		{GameID: "m-1/1", MatchID: "m-1", Number: 1, Rules: modern, Seat: 0, Players: []string{"a", "b", "c"},
			TimeControl: domain.DefaultTimeControl, Hand: deal.Hands[0], Commitment: "ab12"},
		{GameID: "m-2/300", MatchID: "m-2", Number: 300, Rules: classic, Seat: 2, Players: []string{"", "b", "ç"},
			TimeControl: domain.TimeControl{PerDecision: 1500 * time.Millisecond, Overage: -3*time.Second - 7, MaxStrikes: -1, Scope: domain.ClockPerMatch},
			Hand:        deal.Hands[2]},
		{GameID: "g", Number: -5, Rules: modern, Seat: -1, TimeControl: domain.TimeControl{PerDecision: 1}, Hand: engine.CardSet(1)},
	}
	for i := range starts {
		st := &starts[i]
		want, err := proto.MarshalOptions{Deterministic: true}.Marshal(started(st))
		if err != nil {
			t.Fatal(err)
		}
		if got := appendGameStarted(nil, st); !bytes.Equal(got, want) {
			t.Errorf("start %d: appendGameStarted\n%x\nwant proto.Marshal\n%x", i, got, want)
		}
	}
}
