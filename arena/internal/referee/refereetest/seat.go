// Package refereetest is a scripted seat (a referee.Conn) for the tests of the referee and of
// what plays through it (the match runner, the stores' played deals): each of the seat's
// requests gets the replies its script says, after the delays it says — late, illegal,
// flooding, repeated, for unknown requests — and the seat may leave, resume or keep a
// request in its queue. Run in a testing/synctest bubble, every delay is exact.
package refereetest

import (
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/tapparena/tapp/arena/internal/referee"
	"github.com/tapparena/tapp/engine"
)

// Pick is the action a reply gives when its script names none: the last legal action, so
// that an answered decision is told apart from the fallback (the first) wherever there is a
// choice.
func Pick(legal []engine.Action) engine.Action { return legal[min(1, len(legal)-1)] }

// Reply is one answer the seat sends for a request.
type Reply struct {
	After   time.Duration // from the moment the request reached the seat (its hand-off)
	Request string        // the request answered: "" for the one asked
	Action  string        // the action text: "" for Pick's
	Think   time.Duration // the thinking time the bot reports
	Times   int           // sends the reply this many times (0: once)
}

// Never is a HandAfter for a request that never leaves the seat's queue.
const Never time.Duration = -1

// Step is what the seat does with one request.
type Step struct {
	Replies []Reply
	// HandAfter keeps the request in the seat's queue for this long before the bot gets it
	// (the bot's clock starts then); Never keeps it there. 0: the bot gets it at once.
	HandAfter time.Duration
	Full      bool // the seat's queue is full: Ask fails
	Leave     bool // the bot leaves for good (Gone) when asked, before any reply
	Resume    bool // the bot resumes when asked and reads its open request (Resumed)
	Switch    bool // the bot switches its event stream (StreamEvents) when asked
}

// Answer is a step with one reply for the request, after a delay, with the action given ("":
// Pick's).
func Answer(after time.Duration, action string) Step {
	return Step{Replies: []Reply{{After: after, Action: action}}}
}

// Quiet is a step without any reply.
var Quiet = Step{}

// Asked is a request as the seat got it: referee.Request is valid only during Ask.
type Asked struct {
	GameID, RequestID string
	Legal             []engine.Action
	Deadline          time.Time
	OverageLeft       time.Duration
	Events            []engine.Event
	FirstEvent        int
	Decision          engine.Decision
	At                time.Time // when the referee asked
	Sent              []byte    // what Encode made of it
}

// asked copies what the seat keeps of a request: the one place that knows referee.Request's
// fields.
func asked(r *referee.Request) Asked {
	return Asked{
		GameID: r.GameID, RequestID: r.RequestID, Legal: slices.Clone(r.Legal), Deadline: r.Deadline,
		OverageLeft: r.OverageLeft, Events: slices.Clone(r.Events), FirstEvent: r.FirstEvent,
		Decision: r.Observation.Decision, At: time.Now(),
	}
}

// Ended is the end of a game as the seat was told it.
type Ended struct {
	GameID  string
	Aborted bool
	Outcome engine.Outcome
	Events  []engine.Event
	First   int
}

// Seat is a scripted referee.Conn for one game at a time. Its k-th request (from 0) gets
// Script[k], every later one Then. What the referee told it is kept for the test to read
// (after the game, or under the seat's lock via Seen).
type Seat struct {
	Script []Step
	Then   Step // the step for requests past the script (the zero Step: no reply)
	// Encode, when set, makes the request's wire form for the record (Ask's sent).
	Encode func(*referee.Request) []byte
	// Stream is whether the bot asks for every event as it happens.
	Stream bool

	mu      sync.Mutex
	answers chan referee.Answer
	closed  chan struct{} // closed when the referee leaves the game
	pending func(use func(*referee.Request))
	gone    chan struct{}
	left    bool
	late    sync.WaitGroup
	seen    Seen
}

// Seen is everything the referee told a seat, in order.
type Seen struct {
	Starts    []referee.Start
	Asked     []Asked
	Resumed   []Asked // the open request as a resume read it
	Refusals  []referee.Refusal
	Fallbacks []referee.FallbackPlayed
	Ends      []Ended
	// Delivered is every batch of events the seat got, in order: with a request, streamed,
	// or with the end.
	Delivered []Delivery
}

// Delivery is a batch of a seat's events: First is the log index of the first.
type Delivery struct {
	First    int
	Events   []engine.Event
	Streamed bool // sent by Events, not with a request or the end
}

// answerRoom is how many replies may wait for the referee: more than a script sends.
const answerRoom = 4096

// NewSeat returns a seat that plays script and then step then.
func NewSeat(then Step, script ...Step) *Seat {
	return &Seat{Script: script, Then: then}
}

// Seen returns a copy of what the seat was told so far.
func (s *Seat) Seen() Seen {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.seen
	c.Starts, c.Asked, c.Resumed = slices.Clone(c.Starts), slices.Clone(c.Asked), slices.Clone(c.Resumed)
	c.Refusals, c.Fallbacks, c.Ends, c.Delivered = slices.Clone(c.Refusals), slices.Clone(c.Fallbacks), slices.Clone(c.Ends), slices.Clone(c.Delivered)
	return c
}

// Wait waits for the replies the seat still has to send (late ones, after the game).
func (s *Seat) Wait() { s.late.Wait() }

// Open implements referee.Conn.
func (s *Seat) Open(start *referee.Start, pending func(use func(*referee.Request))) (<-chan referee.Answer, func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.gone == nil {
		s.gone = make(chan struct{})
	}
	st := *start
	st.Players = slices.Clone(start.Players)
	s.seen.Starts = append(s.seen.Starts, st)
	answers, closed := make(chan referee.Answer, answerRoom), make(chan struct{})
	s.answers, s.closed, s.pending = answers, closed, pending
	var once sync.Once
	return answers, func() { once.Do(func() { close(closed) }) }
}

// Ask implements referee.Conn: it plays the request's step.
func (s *Seat) Ask(r *referee.Request) ([]byte, <-chan time.Time, error) {
	a := asked(r)
	if s.Encode != nil {
		a.Sent = s.Encode(r)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	step := s.Then
	if k := len(s.seen.Asked); k < len(s.Script) {
		step = s.Script[k]
	}
	s.seen.Asked = append(s.seen.Asked, a)
	s.deliver(a.FirstEvent, a.Events, false)
	if step.Full {
		return nil, nil, errQueueFull
	}
	if step.Leave && !s.left {
		s.left = true
		close(s.gone)
	}
	if step.Switch {
		s.Stream = !s.Stream
	}
	if step.Resume && s.pending != nil {
		pending := s.pending
		s.late.Go(func() { // as a session does, from a goroutine of its own
			pending(func(r *referee.Request) {
				s.mu.Lock()
				s.seen.Resumed = append(s.seen.Resumed, asked(r))
				s.mu.Unlock()
			})
		})
	}
	var handed chan time.Time
	if step.HandAfter != 0 {
		handed = make(chan time.Time, 1)
	}
	if step.HandAfter == Never {
		return a.Sent, handed, nil
	}
	answers, closed := s.answers, s.closed
	s.late.Go(func() {
		if handed != nil {
			time.Sleep(step.HandAfter)
			handed <- time.Now()
		}
		s.reply(answers, closed, a, step.Replies)
	})
	return a.Sent, handed, nil
}

// reply sends a step's replies, each at its time, until the game is over.
func (s *Seat) reply(answers chan<- referee.Answer, closed <-chan struct{}, a Asked, replies []Reply) {
	from := time.Now()
	replies = slices.Clone(replies)
	slices.SortStableFunc(replies, func(x, y Reply) int { return int(x.After - y.After) })
	for _, r := range replies {
		time.Sleep(time.Until(from.Add(r.After)))
		id, action := r.Request, r.Action
		if id == "" {
			id = a.RequestID
		}
		if action == "" {
			action = Pick(a.Legal).String()
		}
		for range max(r.Times, 1) {
			select {
			case answers <- referee.Answer{RequestID: id, Action: action, At: time.Now(), Think: r.Think}:
			case <-closed:
				return
			}
		}
	}
}

// errQueueFull is Ask's error for a step with a full queue.
var errQueueFull = errors.New("the seat's queue is full")

// Refuse implements referee.Conn.
func (s *Seat) Refuse(r referee.Refusal) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seen.Refusals = append(s.seen.Refusals, r)
}

// Fallback implements referee.Conn.
func (s *Seat) Fallback(f referee.FallbackPlayed) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seen.Fallbacks = append(s.seen.Fallbacks, f)
}

// Events implements referee.Conn.
func (s *Seat) Events(_ string, events []engine.Event, first int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.deliver(first, events, true)
}

// deliver records a batch of events (s.mu held).
func (s *Seat) deliver(first int, events []engine.Event, streamed bool) {
	if len(events) > 0 {
		s.seen.Delivered = append(s.seen.Delivered, Delivery{First: first, Events: slices.Clone(events), Streamed: streamed})
	}
}

// End implements referee.Conn.
func (s *Seat) End(end *referee.End, events []engine.Event, first int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seen.Ends = append(s.seen.Ends, Ended{GameID: end.GameID, Aborted: end.Aborted, Outcome: end.Outcome,
		Events: slices.Clone(events), First: first})
	s.deliver(first, events, false)
}

// Gone implements referee.Conn.
func (s *Seat) Gone() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.gone == nil {
		s.gone = make(chan struct{})
	}
	return s.gone
}

// Leave makes the bot leave for good now.
func (s *Seat) Leave() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.gone == nil {
		s.gone = make(chan struct{})
	}
	if !s.left {
		s.left = true
		close(s.gone)
	}
}

// StreamEvents implements referee.Conn.
func (s *Seat) StreamEvents() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.Stream
}
