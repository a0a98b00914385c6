// Package inproc seats Go bots (bots.Bot) at the referee's tables in this process, without
// gRPC: for tests, self-play and research. A bot gets the engine's observation as it is and
// decides on the table's goroutine when the referee asks (referee.Direct: no goroutine,
// channel or timer per decision), under the same clock as a bot over the wire (a late answer
// is a late answer), and its matches are stored like any other. Nothing is encoded for a
// decision: its record says the bot was handed the observation and keeps the request's clock
// (domain.DecisionRecord.Observed), and a store rebuilds the request it stands for, the one
// the gRPC session would have sent, when the deal is read (record format 2), so that `tapp
// replay verify` and `tapp replay ask` work on them. With Encode, every request is encoded in
// wire form for the record as the gRPC session sends it (as record format 1 kept every
// in-process request): what tests compare the two with.
package inproc

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tapparena/tapp/arena/internal/encode"
	"github.com/tapparena/tapp/arena/internal/referee"
	"github.com/tapparena/tapp/bots"
	"github.com/tapparena/tapp/engine"
)

// Seats seats in-process bots for the match runner (it implements match.Seats): a bot may
// sit in several seats and at several tables at once (its Decide is called concurrently, as
// the Go SDK calls it), through one line per bot.
type Seats struct {
	Bots map[string]bots.Bot // by bot name
	// Encode encodes every request in wire form for its decision record (DecisionRecord.Sent),
	// as the gRPC session does; without it nothing is encoded, and the decisions are
	// recorded as observed (their requests are rebuilt on reading).
	Encode bool

	mu    sync.Mutex
	conns map[string]*Conn
}

// SeatTable implements match.Seats: it never waits.
func (s *Seats) SeatTable(_ context.Context, seating []string) ([]referee.Conn, func(), error) {
	conns := make([]referee.Conn, len(seating))
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, name := range seating {
		c := s.conns[name]
		if c == nil {
			b := s.Bots[name]
			if b == nil {
				return nil, nil, fmt.Errorf("no in-process bot %q", name)
			}
			if s.conns == nil {
				s.conns = map[string]*Conn{}
			}
			c = NewConn(b, s.Encode)
			s.conns[name] = c
		}
		conns[i] = c
	}
	return conns, release, nil
}

func release() {}

// Conn is the line to an in-process bot (a referee.Direct), for any number of seats and
// tables at once.
type Conn struct {
	bot    bots.Bot
	encode bool
	size   atomic.Int64 // the size of the last request encoded, to allocate the next one at once
	epoch  time.Time    // when the line was made: the clock is read as time since (now)
}

var _ referee.Direct = (*Conn)(nil)

// NewConn returns a line to b; with encode, requests are encoded for the record (else the
// record keeps the clock only: Seats.Encode).
func NewConn(b bots.Bot, encode bool) *Conn {
	return &Conn{bot: b, encode: encode, epoch: time.Now()}
}

// now is the time now from the monotonic clock alone (time.Since the line was made, half
// the cost of time.Now): the referee times a decision by the monotonic clock, and a bot's
// answer is timed twice a decision.
func (c *Conn) now() time.Time { return c.epoch.Add(time.Since(c.epoch)) }

// Open implements referee.Conn: an in-process bot answers when asked (Decide), never on a
// channel.
func (c *Conn) Open(*referee.Start, func(func(*referee.Request))) (<-chan referee.Answer, func()) {
	return nil, release
}

// errDirect says that an in-process bot is asked through Decide.
var errDirect = errors.New("an in-process bot is asked through Decide, not Ask")

// Ask implements referee.Conn: the referee asks a Direct conn through Decide.
func (c *Conn) Ask(*referee.Request) ([]byte, <-chan time.Time, error) { return nil, nil, errDirect }

// Decide implements referee.Direct: the bot decides on this goroutine, its context ending at
// the request's deadline plus the overage left, and carrying both (bots.ClockOf). A bot that
// fails or answers no legal action gets the first legal one answered for it, as the Go SDK
// does.
func (c *Conn) Decide(req *referee.Request) ([]byte, engine.Action, time.Time, error) {
	var sent []byte
	var handed time.Time // zero: handed over when asked, with nothing encoded before
	if c.encode {
		sent = encode.AppendRequest(make([]byte, 0, c.size.Load()+256), req)
		c.size.Store(int64(len(sent)))
		handed = c.now()
	}
	ctx := contexts.Get().(*deadlineContext)
	ctx.deadline = req.Deadline.Add(req.OverageLeft)
	ctx.clock = bots.Clock{Deadline: req.Deadline, Overage: req.OverageLeft}
	a, err := c.call(ctx, req.Observation)
	ctx.stop()
	if a = a.Canonical(); err != nil || !legal(req.Legal, a) {
		a = req.Legal[0]
	}
	return sent, a, handed, nil
}

// Encodes implements referee.Direct: requests are encoded with Encode.
func (c *Conn) Encodes() bool { return c.encode }

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

// never is a channel that is never closed: an in-process bot never leaves.
var never = make(chan struct{})

// Gone implements referee.Conn: an in-process bot never leaves.
func (c *Conn) Gone() <-chan struct{} { return never }

// StreamEvents implements referee.Conn.
func (c *Conn) StreamEvents() bool { return false }

// deadlineContext is a decision's context: it ends at the deadline, or when the bot has
// answered. Most bots never ask whether it has ended (a random bot does not), so its channel
// and timer are made only when a bot asks for Done; Err reads the clock.
type deadlineContext struct {
	deadline time.Time
	clock    bots.Clock // the request's deadline and bank, for bots.ClockOf

	mu       sync.Mutex
	done     chan struct{}
	timer    *time.Timer
	answered bool
}

// contexts keeps decisions' contexts between decisions: a context is the bot's only until its
// Decide returns (as a context cancelled after the call, it has no use after).
var contexts = sync.Pool{New: func() any { return new(deadlineContext) }}

func (c *deadlineContext) Deadline() (time.Time, bool) { return c.deadline, true }

func (c *deadlineContext) Done() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done == nil {
		c.done = make(chan struct{})
		switch d := time.Until(c.deadline); {
		case c.answered || d <= 0:
			close(c.done)
		default:
			done := c.done
			c.timer = time.AfterFunc(d, func() { close(done) })
		}
	}
	return c.done
}

func (c *deadlineContext) Err() error {
	c.mu.Lock()
	answered := c.answered
	c.mu.Unlock()
	switch {
	case !time.Now().Before(c.deadline):
		return context.DeadlineExceeded
	case answered:
		return context.Canceled
	}
	return nil
}

// Value answers the decision's clock (bots.ClockOf) and nothing else.
func (c *deadlineContext) Value(key any) any {
	if _, ok := key.(bots.ClockKey); ok {
		return c.clock
	}
	return nil
}

// stop ends the context once the bot has answered, as a context cancelled after the call, and
// puts it back into contexts for another decision, unless its channel was made (a goroutine of
// the bot may still wait on it, or ask it: it stays ended, and is left to the collector).
func (c *deadlineContext) stop() {
	c.mu.Lock()
	if c.done == nil {
		c.answered = false
		c.mu.Unlock()
		contexts.Put(c)
		return
	}
	defer c.mu.Unlock()
	c.answered = true
	if c.timer == nil || c.timer.Stop() {
		select {
		case <-c.done:
		default:
			close(c.done)
		}
	}
}
