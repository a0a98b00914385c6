// Package inproc seats Go bots (bots.Bot) at the referee's tables in this process, without
// gRPC: for tests, self-play and research. A bot gets the engine's observation as it is,
// decides in a goroutine of its own under the same clock as a bot over the wire (a late
// answer is a late answer), and its matches are stored like any other: with Record, every
// request is also encoded in wire form for the record, exactly as the gRPC session sends it,
// so that `tapp replay verify` and `tapp replay ask` work on them.
package inproc

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/tapparena/tapp/arena/internal/encode"
	"github.com/tapparena/tapp/arena/internal/referee"
	"github.com/tapparena/tapp/bots"
	"github.com/tapparena/tapp/engine"
)

// Seats seats in-process bots for the match runner (it implements match.Seats): each seat
// of a table gets a line of its own to its bot, and a bot may sit in several seats and at
// several tables at once (its Decide is called concurrently, as the Go SDK calls it).
type Seats struct {
	Bots map[string]bots.Bot // by bot name
	// Record encodes every request in wire form for its decision record (DecisionRecord.Sent),
	// as the gRPC session does; without it nothing is encoded and replays cannot show or
	// re-ask the requests.
	Record bool
}

// SeatTable implements match.Seats: it never waits.
func (s *Seats) SeatTable(_ context.Context, seating []string) ([]referee.Conn, func(), error) {
	conns := make([]referee.Conn, len(seating))
	for i, name := range seating {
		b := s.Bots[name]
		if b == nil {
			return nil, nil, fmt.Errorf("no in-process bot %q", name)
		}
		conns[i] = NewConn(b, s.Record)
	}
	return conns, func() {}, nil
}

// answerBuffer is room for a seat's answers that the referee has not taken yet: one per open
// request, and the late answers of requests that timed out.
const answerBuffer = 8

// Conn is one seat's line to an in-process bot (a referee.Conn).
type Conn struct {
	bot    bots.Bot
	record bool
	gone   chan struct{}

	mu    sync.Mutex
	games map[string]*game
	size  int // the size of the last request encoded, to allocate the next one at once
}

type game struct {
	answers chan referee.Answer
	ctx     context.Context // ends when the referee leaves the game
	cancel  context.CancelFunc
}

// NewConn returns a line to b; with record, requests are encoded for the record.
func NewConn(b bots.Bot, record bool) *Conn {
	return &Conn{bot: b, record: record, gone: make(chan struct{}), games: make(map[string]*game)}
}

// Open implements referee.Conn.
func (c *Conn) Open(start *referee.Start, _ func(func(*referee.Request))) (<-chan referee.Answer, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	g := &game{answers: make(chan referee.Answer, answerBuffer), ctx: ctx, cancel: cancel}
	c.mu.Lock()
	c.games[start.GameID] = g
	c.mu.Unlock()
	return g.answers, func() {
		c.mu.Lock()
		if c.games[start.GameID] == g {
			delete(c.games, start.GameID)
		}
		c.mu.Unlock()
		cancel()
	}
}

// Ask implements referee.Conn: the bot decides in a goroutine of its own, with the request's
// deadline (and the overage left) on its context. A bot that fails or answers no legal
// action gets the first legal one answered for it, as the Go SDK does.
func (c *Conn) Ask(req *referee.Request) ([]byte, <-chan time.Time, error) {
	c.mu.Lock()
	g := c.games[req.GameID]
	size := c.size
	c.mu.Unlock()
	if g == nil {
		return nil, nil, fmt.Errorf("no open game %s", req.GameID)
	}
	var sent []byte
	if c.record {
		sent = encode.AppendRequest(make([]byte, 0, size+256), req)
		c.mu.Lock()
		c.size = len(sent)
		c.mu.Unlock()
	}
	obs := *req.Observation // the referee's is valid only during Ask
	go c.decide(g, req.RequestID, &obs, req.Deadline.Add(req.OverageLeft))
	return sent, nil, nil
}

func (c *Conn) decide(g *game, requestID string, obs *engine.Observation, deadline time.Time) {
	ctx, cancel := context.WithDeadline(g.ctx, deadline)
	defer cancel()
	a, err := c.call(ctx, obs)
	if a = a.Canonical(); err != nil || !legal(obs.Legal, a) {
		a = obs.Legal[0]
	}
	ans := referee.Answer{RequestID: requestID, Action: a.String(), At: time.Now()}
	select {
	case g.answers <- ans:
	case <-g.ctx.Done(): // the game is over: nobody reads the answer
	}
}

// call calls the bot, turning a panic into an error.
func (c *Conn) call(ctx context.Context, obs *engine.Observation) (a engine.Action, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("bot panicked: %v", p)
		}
	}()
	return c.bot.Decide(ctx, obs)
}

func legal(list []engine.Action, a engine.Action) bool {
	for _, x := range list {
		if x == a {
			return true
		}
	}
	return false
}

// Refuse implements referee.Conn: an in-process bot answers legal actions only.
func (c *Conn) Refuse(referee.Refusal) {}

// Fallback implements referee.Conn.
func (c *Conn) Fallback(referee.FallbackPlayed) {}

// Events implements referee.Conn: in-process bots decide from the observation alone.
func (c *Conn) Events(string, []engine.Event, int) {}

// End implements referee.Conn.
func (c *Conn) End(*referee.End, []engine.Event, int) {}

// Gone implements referee.Conn: an in-process bot never leaves.
func (c *Conn) Gone() <-chan struct{} { return c.gone }

// StreamEvents implements referee.Conn.
func (c *Conn) StreamEvents() bool { return false }
