// Package replaytest records deals for the tests of the replay viewer (arena/internal/replay)
// and of the re-ask package (arena/internal/reask): a seeded match played with the real
// referee by answer functions in this process, every request encoded as the gRPC session
// encodes it, without a network or a store. Only tests import it.
package replaytest

import (
	"context"
	"fmt"
	"hash/fnv"
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
	"github.com/tapparena/tapp/engine"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// Answers answers one decision request with the action texts a bot sends, in order (none:
// the request goes unanswered).
type Answers func(req *tappv1.DecisionRequest) []string

// Clock is fast, so that a strike costs little time.
var Clock = domain.TimeControl{PerDecision: 300 * time.Millisecond, Overage: 50 * time.Millisecond, MaxStrikes: 3, Scope: domain.ClockPerMatch}

// RuleSets are the variants and table sizes every replay feature is tested on.
var RuleSets = []string{
	"wuerttemberg", "classic", "classic pot=on", "modern", "modern frage=on", "modern players=4",
	"modern pack=32", "modern players=4 pack=32 frage=on",
}

// HashLegal answers with a legal action chosen by a hash of the game and request ids (varied
// play, the same on every run); one request in eleven first gets an illegal answer that the
// referee refuses before the legal one comes.
func HashLegal(req *tappv1.DecisionRequest) []string {
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

// FirstLegal always answers the first legal action.
func FirstLegal(req *tappv1.DecisionRequest) []string { return []string{req.Legal[0]} }

// Silent never answers.
func Silent(*tappv1.DecisionRequest) []string { return nil }

// BotChooser answers with a Go bot, as the SDK would.
func BotChooser(b bots.Bot) Answers {
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

// Play plays a seeded match of n deals among in-process bots (one answer function per table
// position; missing or nil ones are HashLegal) with the real referee under Clock, and returns
// the match as stored and its records. The pot is carried from deal to deal as the match
// runner does.
func Play(t testing.TB, rulesText string, n int, answers ...Answers) (*domain.Match, []domain.DealRecord) {
	t.Helper()
	rules, err := engine.ParseRuleSet(rulesText)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"north", "east", "south", "west"}[:rules.Players]
	spec := domain.MatchSpec{Rules: rules, Bots: names, Deals: n, Seed: 7, TimeControl: Clock}
	m := &domain.Match{ID: "m" + fmt.Sprint(len(rulesText)*1000+n), Spec: spec, Status: domain.MatchFinished}
	tables, err := match.Plan(spec)
	if err != nil {
		t.Fatal(err)
	}
	conns := map[string]*LocalConn{}
	clocks := map[string]*referee.Clock{}
	for i, name := range names {
		a := Answers(HashLegal)
		if i < len(answers) && answers[i] != nil {
			a = answers[i]
		}
		conns[name] = NewLocalConn(a)
		clocks[name] = referee.NewClock(Clock)
	}
	pot := 0
	var recs []domain.DealRecord
	for _, tb := range tables {
		players := make([]referee.Player, len(tb.Seating))
		for s, b := range tb.Seating {
			players[s] = referee.Player{Bot: b, Conn: conns[b], Clock: clocks[b]}
		}
		rec, err := referee.Play(context.Background(), &referee.Table{MatchID: m.ID, Number: tb.Number, Group: tb.Group,
			Rules: rules, Deal: tb.Deal, Options: engine.Options{Pot: pot}, Players: players, TimeControl: Clock})
		if err != nil {
			t.Fatal(err)
		}
		pot = rec.Outcome.PotAfter
		recs = append(recs, *rec)
	}
	return m, recs
}

// Clone deep-copies a record's slices, so a test can corrupt it alone.
func Clone(rec domain.DealRecord) domain.DealRecord {
	rec.Moves = append([]engine.Move(nil), rec.Moves...)
	rec.Decisions = append([]domain.DecisionRecord(nil), rec.Decisions...)
	rec.Results = append([]domain.SeatResult(nil), rec.Results...)
	rec.Seating = append([]string(nil), rec.Seating...)
	return rec
}

// LocalConn is an in-process line to a bot for the referee: it answers every request at once
// with the answers its function gives.
type LocalConn struct {
	answer Answers
	mu     sync.Mutex
	games  map[string]chan referee.Answer
	gone   chan struct{}
}

// NewLocalConn is a line that answers with answer.
func NewLocalConn(answer Answers) *LocalConn {
	return &LocalConn{answer: answer, games: make(map[string]chan referee.Answer), gone: make(chan struct{})}
}

// Ask encodes the request as the gRPC session does (the record keeps it) and answers it.
func (c *LocalConn) Ask(r *referee.Request) ([]byte, <-chan time.Time, error) {
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

// Open implements referee.Conn.
func (c *LocalConn) Open(start *referee.Start, _ func(func(*referee.Request))) (<-chan referee.Answer, func()) {
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

// Refuse implements referee.Conn.
func (c *LocalConn) Refuse(referee.Refusal) {}

// Fallback implements referee.Conn.
func (c *LocalConn) Fallback(referee.FallbackPlayed) {}

// Events implements referee.Conn.
func (c *LocalConn) Events(string, []engine.Event, int) {}

// End implements referee.Conn.
func (c *LocalConn) End(*referee.End, []engine.Event, int) {}

// Gone implements referee.Conn.
func (c *LocalConn) Gone() <-chan struct{} { return c.gone }

// StreamEvents implements referee.Conn: the events ride in the requests.
func (c *LocalConn) StreamEvents() bool { return false }
