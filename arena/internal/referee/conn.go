package referee

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/engine"
)

// Conn is the referee's line to the bot in one seat: what an adapter implements to let bots
// play (the gRPC session of arena/internal/server, the in-process adapter of
// arena/internal/inproc). Everything the referee tells a bot is in the engine's terms; the
// adapter turns it into its own (a wire message, a Go call). The referee calls a Conn from
// the goroutine that plays the deal; several deals may use one Conn at once.
type Conn interface {
	// Open seats the bot in a game and tells it so: until closeFn is called the bot's
	// answers for start.GameID arrive on answers. pending, for a bot that resumes, calls use
	// with the seat's open request, if one is open; the referee waits for use to return
	// before it goes on with the game (req is valid only during use).
	Open(start *Start, pending func(use func(*Request))) (answers <-chan Answer, closeFn func())
	// Ask sends a decision request without blocking; req (and its observation) is the
	// referee's, valid only during the call. sent is the request as it went to the
	// bot in wire form (nil when it went in no wire form), recorded with the decision. When
	// the request waits in a queue before it reaches the bot, handed receives the moment it
	// leaves the queue: the bot's clock starts then (nil: it starts at once). An error means
	// the request could not be queued (the bot is not reading, or gone); the referee treats
	// it like a late answer.
	Ask(req *Request) (sent []byte, handed <-chan time.Time, err error)
	// Refuse tells the bot why an answer was refused; the referee waits for a correction.
	Refuse(r Refusal)
	// Fallback tells the bot that the referee played the fallback for a late answer.
	Fallback(f FallbackPlayed)
	// Events sends the seat's new events as they happen (only when StreamEvents).
	Events(gameID string, events []engine.Event, first int)
	// End tells the bot the game is over, with the seat's last events (the log index of
	// the first is first). end is the same for every seat and valid only during the call.
	End(end *End, events []engine.Event, first int)
	// Gone is closed when the bot has left for good (disconnected past its grace period).
	Gone() <-chan struct{}
	// StreamEvents reports whether the bot asked for every event as it happens; if not, a
	// request carries the events since the seat's last message.
	StreamEvents() bool
}

// Direct is a Conn whose bot decides on the goroutine that asks it (an in-process bot,
// arena/internal/inproc): the referee calls Decide instead of Ask and waits for nothing, so a
// decision costs no goroutine, channel or timer. The bot is under the same clock as any other:
// an answer that comes past the time per decision and the bot's overage is late, and the
// referee plays the fallback for it and gives a strike, as for a late answer over the wire
// (a bot that never returns holds no table: the referee's watchdog takes the decision over
// past its time and goes on with the deal on another goroutine, takeover.go). The referee
// does not Open a Direct seat's games: its bot needs no start message and answers on no
// channel.
type Direct interface {
	Conn
	// Decide asks for the decision req describes and returns the bot's action, one of
	// req.Legal, and when the bot was handed the request (its clock starts then: encoding it
	// before is the arena's share; zero: when the referee asked, as nothing came before); the
	// bot's clock stops when Decide returns (the referee reads it then). sent is as Ask's. req
	// is valid only during the call. An error means the bot gave no action (the referee treats
	// it like a missing answer).
	Decide(req *Request) (sent []byte, action engine.Action, handed time.Time, err error)
	// Encodes says whether Decide encodes its requests for their records, which needs each
	// request's events; a bot in process reads only its observation, so when nothing is
	// encoded the referee builds no events for the seat (they count as sent), and a recorded
	// decision is marked Observed with its clock (domain.DecisionRecord.Observed): a store
	// rebuilds the request it stands for when it is read.
	Encodes() bool
}

// FloodCounter is a Conn whose adapter refuses some answers itself, before the referee sees
// them (a bot flooding a game, PROTO-FLOOD). Flooded returns how many it refused for game
// since it was last asked, by the request id they named ("" for the answers past the ids it
// keeps apart), and forgets them; the referee counts them with the decisions they name.
type FloodCounter interface {
	Flooded(gameID string) map[string]int
}

// Start is what a seat is told when its game begins.
type Start struct {
	GameID      string
	MatchID     string
	Number      int // the deal number in the match
	Rules       engine.RuleSet
	Seat        engine.Seat
	Players     []string // the bots by seat
	TimeControl domain.TimeControl
	Hand        engine.CardSet
	Commitment  string // the match's commitment to its deals
}

// Request is one decision asked of a seat. The referee builds every request it asks with
// Build; the adapters encode it as it is (arena/internal/encode), and the store rebuilds a
// stored deal's requests with Build too, so what a request holds is decided in one place.
type Request struct {
	GameID      string
	RequestID   string
	Observation *engine.Observation
	Legal       []engine.Action // in the engine's stable order; the first is the fallback
	Deadline    time.Time       // the time per decision from the moment the referee asked
	OverageLeft time.Duration   // the bot's bank for the rest of the game (of the match, with a per-match clock)
	Rules       string          // Observation.Rules.String()
	// Events are the seat's redacted events since its last message (none when the bot
	// streams events); FirstEvent is the log index of the first.
	Events     []engine.Event
	FirstEvent int

	obs engine.Observation // what Observation points to, when Build filled it
}

// Build makes r the request for the decision st waits for, as the referee asks it of the
// seat to move: that seat's observation, its legal actions, and its redacted events from
// log index firstEvent on (those it has not been sent), named gameID and requestID, with
// the deadline and the overage left on the seat's clock. r's storage is reused: a request
// built into r before is overwritten, observation, legal actions and events included.
func (r *Request) Build(st *engine.State, gameID, requestID string, deadline time.Time, overageLeft time.Duration, firstEvent int) {
	r.build(st, RulesText(st.Rules()), gameID, requestID, deadline, overageLeft, firstEvent)
}

// build is Build with st's rules spelled already (rules): the referee spells them once a deal.
func (r *Request) build(st *engine.State, rules, gameID, requestID string, deadline time.Time, overageLeft time.Duration, firstEvent int) {
	seat := st.ToMove()
	r.Rules = rules
	st.ObserveInto(seat, &r.obs) // into the storage of the request built before
	r.GameID, r.RequestID, r.Observation = gameID, requestID, &r.obs
	r.Legal = r.obs.Legal // the seat to move's observation holds its legal actions
	r.Deadline, r.OverageLeft = deadline, overageLeft
	r.Events, r.FirstEvent = st.AppendEventsFor(r.Events[:0], seat, firstEvent), firstEvent // into the last request's list
}

// lastRules is the last rule set RulesText spelled: a process mostly plays one, and spelling
// it for every request (or every GameStarted the server writes) would cost more than the
// rest of building it.
var lastRules atomic.Pointer[spelledRules]

type spelledRules struct {
	rules engine.RuleSet
	text  string
}

// RulesText is rules.String(), remembered for the last rule set.
func RulesText(rules engine.RuleSet) string {
	if last := lastRules.Load(); last != nil && last.rules == rules {
		return last.text
	}
	spelled := &spelledRules{rules: rules, text: rules.String()}
	lastRules.Store(spelled)
	return spelled.text
}

// Refusal is an answer the referee refused, with the rule it broke.
type Refusal struct {
	GameID, RequestID string
	Rule              string // an engine rule id, or one of the Reason* protocol reasons
	Reason            string
}

// FallbackPlayed is the fallback the referee played for a late or missing answer.
type FallbackPlayed struct {
	GameID, RequestID string
	Action            engine.Action
	Strikes           int  // the bot's strikes in the game so far (in the match, with a per-match clock)
	Forfeited         bool // the bot has forfeited the game (the match, with a per-match clock)
}

// End is how a game ended, the same for every seat.
type End struct {
	GameID  string
	Aborted bool // the game ended without a result (the arena stopped it); nothing else is set
	Rules   engine.RuleSet
	Deal    engine.Deal
	State   *engine.State // the final state, for the reveal
	Outcome engine.Outcome

	encodeOnce sync.Once
	encoded    EncodedEnd
}

// EncodedEnd is the reveal and the settlement of a game in the wire form of the adapter that
// encoded them (the protocol's messages).
type EncodedEnd struct {
	Reveal, Settlement []byte
	Err                error // the encoding failed; nothing else is set
}

// Encoded returns encode(e), encoded once for all the seats of the game: the reveal and the
// settlement are the same for every seat, so the first seat's adapter encodes them and the
// other seats get the same bytes. The arena sends one wire form, so every adapter that asks
// passes the same encoding.
func (e *End) Encoded(encode func(*End) EncodedEnd) EncodedEnd {
	e.encodeOnce.Do(func() { e.encoded = encode(e) })
	return e.encoded
}

// Answer is one answer a bot sent for a game.
type Answer struct {
	RequestID string
	Action    string
	At        time.Time
	Think     time.Duration // the bot's own thinking time as it reported it (0 if it did not)
}

// Absent stands in for a bot that is not there: nothing reaches it, and it is gone already,
// so the referee plays every decision of its seat by the fallback.
type Absent struct{}

var closedChan = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// Open implements Conn.
func (Absent) Open(*Start, func(func(*Request))) (<-chan Answer, func()) { return nil, func() {} }

// Ask implements Conn.
func (Absent) Ask(*Request) ([]byte, <-chan time.Time, error) { return nil, nil, nil }

// Refuse implements Conn.
func (Absent) Refuse(Refusal) {}

// Fallback implements Conn.
func (Absent) Fallback(FallbackPlayed) {}

// Events implements Conn.
func (Absent) Events(string, []engine.Event, int) {}

// End implements Conn.
func (Absent) End(*End, []engine.Event, int) {}

// Gone implements Conn.
func (Absent) Gone() <-chan struct{} { return closedChan }

// StreamEvents implements Conn.
func (Absent) StreamEvents() bool { return false }
