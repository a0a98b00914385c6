package replay

import (
	"context"
	"fmt"
	"hash/fnv"
	"log/slog"
	"os"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/encode"
	"github.com/tapparena/tapp/arena/internal/match"
	"github.com/tapparena/tapp/arena/internal/referee"
	"github.com/tapparena/tapp/arena/wire"
	"github.com/tapparena/tapp/bots"
	"github.com/tapparena/tapp/bots/builtin"
	"github.com/tapparena/tapp/bots/sdk"
	"github.com/tapparena/tapp/engine"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// botEnv makes the test binary a bot (see TestMain): its value names the bot.
const botEnv = "TAPP_REPLAY_TEST_BOT"

// TestMain lets the test binary play a bot program for the ask tests: with TAPP_REPLAY_TEST_BOT
// set it connects to $TAPP_ARENA with $TAPP_TOKEN through the Go SDK and plays that bot.
func TestMain(m *testing.M) {
	if kind := os.Getenv(botEnv); kind != "" {
		b := lastLegalBot()
		if kind != "last" {
			var err error
			if b, err = builtin.New(kind, 1); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(2)
			}
		}
		err := sdk.Run(context.Background(), sdk.Config{Arena: os.Getenv("TAPP_ARENA"), Token: os.Getenv("TAPP_TOKEN"),
			Name: "test-" + kind, Version: "test/" + kind, Log: slog.New(slog.DiscardHandler)}, b)
		if err != nil && err != sdk.ErrGoingAway {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// lastLegalBot always plays the last legal action.
func lastLegalBot() bots.Bot {
	return bots.Func(func(_ context.Context, obs *engine.Observation) (engine.Action, error) {
		return obs.Legal[len(obs.Legal)-1], nil
	})
}

// hashLegal answers with a legal action chosen by a hash of the game and request ids (varied
// play, the same on every run); one request in eleven first gets an illegal answer that the
// referee refuses before the legal one comes.
func hashLegal(req *tappv1.DecisionRequest) []string {
	h := fnv.New64a()
	h.Write([]byte(req.GetGameId() + "|" + req.GetRequestId()))
	v := h.Sum64()
	pick := req.Legal[v%uint64(len(req.Legal))]
	if v%11 == 3 {
		wrong := "pass" // refused by the rules (R-…): pass where it is not legal, else tout
		for _, l := range req.Legal {
			if l == "pass" {
				wrong = "tout"
			}
		}
		return []string{wrong, pick}
	}
	return []string{pick}
}

// botChooser answers with a Go bot, as the SDK would.
func botChooser(b bots.Bot) func(req *tappv1.DecisionRequest) []string {
	return func(req *tappv1.DecisionRequest) []string {
		obs, err := wire.ObservationFromProto(req.GetObservation(), req.GetLegal())
		if err != nil {
			panic(err)
		}
		a, err := b.Decide(context.Background(), obs)
		if err != nil {
			panic(err)
		}
		return []string{a.String()}
	}
}

// localConn is an in-process line to a bot for the referee: it answers every request at once
// with the answers answer gives (none: the request goes unanswered).
type localConn struct {
	answer func(req *tappv1.DecisionRequest) []string
	mu     sync.Mutex
	games  map[string]chan referee.Answer
	gone   chan struct{}
}

func newLocalConn(answer func(req *tappv1.DecisionRequest) []string) *localConn {
	return &localConn{answer: answer, games: make(map[string]chan referee.Answer), gone: make(chan struct{})}
}

// Ask encodes the request as the gRPC session does (the record keeps it) and answers it.
func (c *localConn) Ask(r *referee.Request) ([]byte, <-chan time.Time, error) {
	sent := encode.AppendRequest(nil, r)
	req := &tappv1.DecisionRequest{}
	if err := proto.Unmarshal(sent, req); err != nil {
		return sent, nil, err
	}
	c.mu.Lock()
	ch := c.games[req.GetGameId()]
	c.mu.Unlock()
	for _, text := range c.answer(req) {
		ch <- referee.Answer{RequestID: req.GetRequestId(), Action: text, At: time.Now()}
	}
	return sent, nil, nil
}

func (c *localConn) Open(start *referee.Start, _ func(func(*referee.Request))) (<-chan referee.Answer, func()) {
	ch := make(chan referee.Answer, 8)
	c.mu.Lock()
	c.games[start.GameID] = ch
	c.mu.Unlock()
	return ch, func() {
		c.mu.Lock()
		delete(c.games, start.GameID)
		c.mu.Unlock()
	}
}

func (c *localConn) Refuse(referee.Refusal)                {}
func (c *localConn) Fallback(referee.FallbackPlayed)       {}
func (c *localConn) Events(string, []engine.Event, int)    {}
func (c *localConn) End(*referee.End, []engine.Event, int) {}
func (c *localConn) Gone() <-chan struct{}                 { return c.gone }
func (c *localConn) StreamEvents() bool                    { return false }

// testClock is fast, so that a strike costs little time.
var testClock = domain.TimeControl{PerDecision: 300 * time.Millisecond, Overage: 50 * time.Millisecond, MaxStrikes: 3}

// play plays a seeded match of n deals among in-process bots (one answer function per table
// position) with the real referee, and returns its replay context and records. The pot is
// carried from deal to deal as the match runner does.
func play(t testing.TB, rulesText string, n int, answers ...func(*tappv1.DecisionRequest) []string) (Match, []domain.DealRecord) {
	t.Helper()
	rules, err := engine.ParseRuleSet(rulesText)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"north", "east", "south", "west"}[:rules.Players]
	spec := domain.MatchSpec{Rules: rules, Bots: names, Deals: n, Seed: 7, TimeControl: testClock}
	m := Match{ID: "m" + fmt.Sprint(len(rulesText)*1000+n), Rules: rules, Bots: names, TimeControl: testClock, Seeded: true, Seed: spec.Seed}
	tables, err := match.Plan(spec)
	if err != nil {
		t.Fatal(err)
	}
	conns := map[string]*localConn{}
	clocks := map[string]*referee.Clock{}
	for i, name := range names {
		a := hashLegal
		if i < len(answers) && answers[i] != nil {
			a = answers[i]
		}
		conns[name] = newLocalConn(a)
		clocks[name] = referee.NewClock(testClock)
	}
	pot := 0
	var recs []domain.DealRecord
	for _, tb := range tables {
		players := make([]referee.Player, len(tb.Seating))
		for s, b := range tb.Seating {
			players[s] = referee.Player{Bot: b, Conn: conns[b], Clock: clocks[b]}
		}
		rec, err := referee.Play(context.Background(), &referee.Table{MatchID: m.ID, Number: tb.Number, Group: tb.Group,
			Rules: rules, Deal: tb.Deal, Options: engine.Options{Pot: pot}, Players: players, TimeControl: testClock})
		if err != nil {
			t.Fatal(err)
		}
		pot = rec.Outcome.PotAfter
		recs = append(recs, *rec)
	}
	return m, recs
}

// ruleSets are the variants and table sizes every replay feature is tested on.
var ruleSets = []string{
	"wuerttemberg", "classic", "classic pot=on", "modern", "modern frage=on", "modern players=4",
	"modern pack=32", "modern players=4 pack=32 frage=on",
}
