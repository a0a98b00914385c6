// Package referee plays one deal between bots: it asks each seat for its decisions under the
// match's clock, refuses illegal or malformed answers with the rule broken, plays the
// documented fallback for late or missing answers, and records everything that was sent and
// received. It talks to bots through the Conn interface, so the same referee drives bots over
// gRPC sessions and bots called in-process.
package referee

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/tapparena/tapp/arena"
	"github.com/tapparena/tapp/arena/wire"
	"github.com/tapparena/tapp/engine"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// Protocol reasons for refusing an answer. Rule violations carry the engine's rule id instead.
const (
	ReasonMalformed      = "PROTO-MALFORMED"       // the action text does not parse
	ReasonUnknownRequest = "PROTO-UNKNOWN-REQUEST" // no open request with this id for this bot
	ReasonDuplicate      = "PROTO-DUPLICATE"       // the request is over: answered, or its fallback played
)

// Answer is one answer a bot sent for a game.
type Answer struct {
	RequestID string
	Action    string
	At        time.Time
	Think     time.Duration // the bot's own thinking time as it reported it (0 if it did not)
}

// Conn is the referee's line to the bot in one seat.
type Conn interface {
	// Send queues a message for the bot without blocking. An error means the message could
	// not be queued (the bot is not reading, or gone); the referee treats it like a late
	// answer.
	Send(msg *tappv1.ConnectResponse) error
	// SendEncoded is Send for a message in wire form: kind is its field in ConnectResponse
	// (wire.ResponseDecisionRequest, wire.ResponseGameEnded). The referee encodes a request
	// once, for the bot and for its record, and a game's end once for every seat.
	SendEncoded(kind protowire.Number, body []byte) error
	// Open routes the bot's answers for gameID to the returned channel until closeFn is
	// called. snapshot is called when a resuming bot needs the game's current view.
	Open(gameID string, snapshot func() *tappv1.Snapshot_Game) (answers <-chan Answer, closeFn func())
	// Gone is closed when the bot has left for good (disconnected past its grace period).
	Gone() <-chan struct{}
	// StreamEvents reports whether the bot asked for every event as it happens.
	StreamEvents() bool
}

// RequestSender is implemented by a Conn whose messages wait in a queue before they reach the
// bot (a gRPC session's outbox). SendRequest queues a decision request like SendEncoded and
// returns a channel that receives the moment the request is handed to the bot's connection.
// The bot's clock starts then: the time a request waits behind the arena's own work (other
// tables, the store, the garbage collector) is the arena's share, recorded but never charged.
type RequestSender interface {
	SendRequest(gameID, requestID string, body []byte) (handed <-chan time.Time, err error)
}

// maxAttempts bounds the answers recorded for one decision: a bot that floods its open request
// with refused answers gets them counted in one last attempt, so that its deal stays storable.
const maxAttempts = 64

// Clock is one bot's clock and strike count for a whole match; the deals of a match may run
// in parallel, so it is safe for concurrent use.
type Clock struct {
	mu        sync.Mutex
	tc        arena.TimeControl
	bank      time.Duration
	strikes   int
	forfeited bool
}

// NewClock starts a bot's clock for a match.
func NewClock(tc arena.TimeControl) *Clock { return &Clock{tc: tc, bank: tc.Overage} }

// Bank returns the overage left.
func (c *Clock) Bank() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bank
}

// Forfeited reports whether the bot has forfeited the match by strikes.
func (c *Clock) Forfeited() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.forfeited
}

// Strikes returns the strikes so far.
func (c *Clock) Strikes() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.strikes
}

// spend takes an overrun from the bank.
func (c *Clock) spend(over time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.bank = max(c.bank-over, 0)
}

// forfeit marks the bot as gone for the rest of the match.
func (c *Clock) forfeit() {
	c.mu.Lock()
	c.forfeited = true
	c.mu.Unlock()
}

// strike records a late or missing answer and reports the count, whether the bot has now
// forfeited, and whether this answer counted (answers that were already late when an earlier
// one forfeited the match — deals run in parallel — count no more).
func (c *Clock) strike() (int, bool, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.bank = 0
	if c.forfeited {
		return c.strikes, true, false
	}
	c.strikes++
	if c.tc.MaxStrikes > 0 && c.strikes >= c.tc.MaxStrikes {
		c.forfeited = true
	}
	return c.strikes, c.forfeited, true
}

// Player is one seat of a table: the bot's name, its line and its match clock.
type Player struct {
	Bot   string
	Conn  Conn
	Clock *Clock
}

// Table is one deal to play.
type Table struct {
	MatchID     string
	Number      int // deal number in the match
	Group       int // deal source (duplicate group)
	Rules       engine.RuleSet
	Deal        engine.Deal
	Options     engine.Options
	Players     []Player // by seat
	TimeControl arena.TimeControl
	// Watch, when set, receives every event (unredacted only after the deal ends: it gets
	// the public view while the deal runs).
	Watch func(number int, ev engine.Event, public []engine.Event)
	// Watching, when set, says whether anyone watches now; while not, the events are not
	// even built for Watch.
	Watching func() bool
	// Commitment is the match's commitment to its deals, sent in every GameStarted.
	Commitment string
}

// ErrAborted is returned when the context ends a deal before it finishes; nothing of the
// deal is recorded.
var ErrAborted = errors.New("deal aborted")

// Fallback returns the documented fallback for a late or missing answer: the first legal
// action in the engine's stable order.
func Fallback(legal []engine.Action) engine.Action { return legal[0] }

// Play plays one deal to its end and returns its full record.
func Play(ctx context.Context, t *Table) (*arena.DealRecord, error) {
	st, err := engine.NewState(t.Rules, t.Deal, t.Options)
	if err != nil {
		return nil, err
	}
	g := &game{t: t, st: st, id: GameID(t.MatchID, t.Number), sent: make([]int, len(t.Players)), rules: t.Rules.String()}
	return g.play(ctx)
}

// GameID names one deal of a match on the wire.
func GameID(matchID string, number int) string { return matchID + "/" + strconv.Itoa(number) }

type game struct {
	t    *Table
	st   *engine.State
	id   string
	sent []int // per seat: events sent so far

	rules    string // the rule set's text, for every request
	lastSize int    // the size of the last request, to allocate the next one at once

	mu      sync.Mutex                // guards pending for snapshots taken from session goroutines
	pending [engine.MaxPlayers][]byte // the open request of each seat, in wire form

	requests int // requests sent: "r1" … "rN", every one before the last one closed
	// asked[k-1] is when request rk was handed to its bot and askedSeat[k-1] the seat it was
	// for, and deal the record being played: an answer to a request that is over is recorded
	// with that request's decision, and only if it came from that request's seat.
	asked     []time.Time
	askedSeat []engine.Seat
	deal      *arena.DealRecord
}

func (g *game) play(ctx context.Context) (*arena.DealRecord, error) {
	t := g.t
	rec := &arena.DealRecord{
		MatchID: t.MatchID, Number: t.Number, Group: t.Group, Deal: t.Deal, Options: t.Options,
		Started: time.Now(),
	}
	for _, p := range t.Players {
		rec.Seating = append(rec.Seating, p.Bot)
	}
	g.deal = rec

	answers := make([]<-chan Answer, len(t.Players))
	for i, p := range t.Players {
		seat := engine.Seat(i)
		ch, closeFn := p.Conn.Open(g.id, func() *tappv1.Snapshot_Game { return g.snapshot(seat) })
		defer closeFn()
		answers[i] = ch
		_ = p.Conn.Send(&tappv1.ConnectResponse{Message: &tappv1.ConnectResponse_GameStarted{GameStarted: g.started(seat)}})
	}
	g.watch(0)

	var legal []engine.Action
	for !g.st.Terminal() {
		if err := ctx.Err(); err != nil {
			g.abort()
			return nil, fmt.Errorf("%w: %v", ErrAborted, err)
		}
		seat := g.st.ToMove()
		legal = g.st.LegalActions(legal[:0])
		d, err := g.decide(ctx, seat, legal, answers[seat])
		if err != nil {
			g.abort()
			return nil, err
		}
		d.Index = len(rec.Decisions)
		rec.Decisions = append(rec.Decisions, d)
		before := g.st.NumEvents()
		if err := g.st.Apply(d.Action); err != nil {
			return nil, fmt.Errorf("referee: applying checked action %s: %w", d.Action, err)
		}
		g.watch(before)
		for i, p := range t.Players {
			if p.Conn.StreamEvents() {
				g.flushEvents(engine.Seat(i))
			}
		}
	}

	out := g.st.Outcome()
	rec.Moves = append(rec.Moves, g.st.History()...)
	rec.Outcome = out
	reveal, err := proto.MarshalOptions{Deterministic: true}.Marshal(wire.RevealToProto(t.Rules, t.Deal, g.st))
	if err != nil {
		return nil, fmt.Errorf("referee: encoding the reveal: %w", err)
	}
	settlement, err := proto.MarshalOptions{Deterministic: true}.Marshal(wire.SettlementForPlayers(wire.OutcomeToProto(out), t.Rules.Players))
	if err != nil {
		return nil, fmt.Errorf("referee: encoding the settlement: %w", err)
	}
	for i, p := range t.Players {
		seat := engine.Seat(i)
		rec.Results = append(rec.Results, arena.SeatResult{
			Bot: p.Bot, Seat: seat, Payoff: out.Payoff[i], Points: out.Points[i],
			Tricks: out.Tricks[i], Declarer: out.Declarer == seat,
		})
		evs, first := g.newEvents(seat)
		_ = p.Conn.SendEncoded(wire.ResponseGameEnded, wire.AppendGameEnded(nil, g.id, reveal, settlement, evs, first))
	}
	rec.Duration = time.Since(rec.Started)
	return rec, nil
}

// decide asks the seat's bot for one decision and returns what was decided and how.
func (g *game) decide(ctx context.Context, seat engine.Seat, legal []engine.Action, answers <-chan Answer) (arena.DecisionRecord, error) {
	p := g.t.Players[seat]
	rec := arena.DecisionRecord{Seat: seat, Bot: p.Bot, Decision: g.st.Decision()}
	if p.Clock.Forfeited() {
		rec.Action, rec.Fallback = Fallback(legal), true
		return rec, nil
	}
	select {
	case <-p.Conn.Gone():
		p.Clock.forfeit()
		rec.Action, rec.Fallback = Fallback(legal), true
		return rec, nil
	default:
	}

	start := time.Now() // the arena's share counts building and encoding the request
	g.requests++
	g.asked = append(g.asked, start)
	g.askedSeat = append(g.askedSeat, seat)
	rec.RequestID = "r" + strconv.Itoa(g.requests)
	obs := g.st.Observe(seat)
	tc := g.t.TimeControl
	bank := p.Clock.Bank()
	evs, first := g.newEvents(seat)
	// The deadline goes out in whole µs (a bot cannot use less), which keeps a compact deal
	// record's clock fields a byte each (arena/internal/store/record.go).
	encoded := wire.AppendRequest(make([]byte, 0, g.lastSize+256), &wire.Request{
		GameID: g.id, RequestID: rec.RequestID, Legal: legal, Deadline: start.Add(tc.PerDecision).Truncate(time.Microsecond),
		OverageLeft: bank, Observation: &obs, Rules: g.rules, Events: evs, FirstEvent: first,
	})
	g.lastSize = len(encoded)
	rec.Sent, rec.SentFromState = encoded, true
	g.setPending(seat, encoded)
	defer g.setPending(seat, nil)

	// The bot's clock starts when the request is handed to its connection (at once for a
	// Conn without a queue); until then the hard timer is only a backstop for a request that
	// never leaves (a bot that stopped reading fills its outbox).
	allowed := tc.PerDecision + bank
	clockStart := start
	var handed <-chan time.Time
	var err error
	if rs, ok := p.Conn.(RequestSender); ok {
		handed, err = rs.SendRequest(g.id, rec.RequestID, encoded)
	} else {
		err = p.Conn.SendEncoded(wire.ResponseDecisionRequest, encoded)
	}
	if err != nil {
		return g.late(rec, legal, start, allowed), nil
	}
	hard := time.NewTimer(allowed)
	defer hard.Stop()
	for {
		select {
		case at := <-handed:
			handed, clockStart = nil, at
			rec.ArenaShare = at.Sub(start)
			g.asked[g.requests-1] = at
			hard.Reset(max(allowed-time.Since(at), 0))
		case a := <-answers:
			if action, ok := g.check(p, seat, &rec, a, clockStart); ok {
				elapsed := a.At.Sub(clockStart)
				rec.Action, rec.Latency, rec.Think = action, elapsed, a.Think
				if over := elapsed - tc.PerDecision; over > 0 {
					p.Clock.spend(over)
				}
				return rec, nil
			}
		case <-hard.C:
			if handed != nil { // never handed over: the whole wait was the arena's or the line's
				rec.ArenaShare = time.Since(start)
			}
			return g.late(rec, legal, clockStart, allowed), nil
		case <-p.Conn.Gone():
			p.Clock.forfeit()
			rec.Action, rec.Fallback, rec.Latency = Fallback(legal), true, time.Since(clockStart)
			return rec, nil
		case <-ctx.Done():
			return rec, fmt.Errorf("%w: %v", ErrAborted, ctx.Err())
		}
	}
}

// check validates one answer; a refused answer is recorded, and the bot is told why.
func (g *game) check(p Player, seat engine.Seat, rec *arena.DecisionRecord, a Answer, start time.Time) (engine.Action, bool) {
	attempt := arena.AnswerAttempt{Text: a.Action, After: a.At.Sub(start)}
	var rule, reason string
	var action engine.Action
	switch {
	case a.RequestID != rec.RequestID && g.closed(a.RequestID, seat):
		// The referee keeps no record of how each earlier request ended, only that it did.
		rule, reason = ReasonDuplicate, "request "+a.RequestID+" is over: it was answered, or its deadline passed and the fallback was played"
	case a.RequestID != rec.RequestID:
		// Another seat's request, or none at all: it belongs to no decision of this seat, so
		// it is recorded nowhere in the deal (the session counts it among its refusals).
		rule, reason = ReasonUnknownRequest, "no open request "+strconv.Quote(a.RequestID)+" for this seat"
	default:
		var err error
		action, err = engine.ParseAction(a.Action)
		if err != nil {
			rule, reason = ReasonMalformed, err.Error()
		} else if err := g.st.Check(action); err != nil {
			var re *engine.RuleError
			if errors.As(err, &re) {
				rule, reason = re.Rule, err.Error()
			} else {
				rule, reason = ReasonMalformed, err.Error()
			}
		}
	}
	if rule == "" {
		rec.Attempts = append(rec.Attempts, attempt)
		return action, true
	}
	attempt.Rejected = reason
	if a.RequestID == rec.RequestID {
		addAttempt(rec, attempt)
	} else if rule == ReasonDuplicate {
		g.recordLate(seat, a, reason)
	}
	_ = p.Conn.Send(&tappv1.ConnectResponse{Message: &tappv1.ConnectResponse_AnswerRejected{AnswerRejected: &tappv1.AnswerRejected{
		GameId: g.id, RequestId: a.RequestID, RuleId: rule, Reason: reason,
	}}})
	return action, false
}

// recordLate adds an answer to a request that is over (answered, or played by the fallback)
// to that request's decision, with its time from that request: a bot's late answers show in
// the record of the decision they were meant for. closed() has checked that the request was
// the sender's seat's; the seat is checked again so that no answer can land in another seat's
// record.
func (g *game) recordLate(seat engine.Seat, a Answer, reason string) {
	k, _ := strconv.Atoi(strings.TrimPrefix(a.RequestID, "r")) // closed() checked the form
	for i := len(g.deal.Decisions) - 1; i >= 0; i-- {
		if d := &g.deal.Decisions[i]; d.RequestID == a.RequestID && d.Seat == seat {
			addAttempt(d, arena.AnswerAttempt{Text: a.Action, After: a.At.Sub(g.asked[k-1]), Rejected: reason})
			return
		}
	}
}

// addAttempt records one answer of a decision; past maxAttempts the last attempt counts the
// refused answers that were not recorded one by one.
func addAttempt(d *arena.DecisionRecord, a arena.AnswerAttempt) {
	switch n := len(d.Attempts); {
	case n < maxAttempts-1 || a.Rejected == "":
		d.Attempts = append(d.Attempts, a)
	case n == maxAttempts-1:
		d.Attempts = append(d.Attempts, arena.AnswerAttempt{Text: a.Text, After: a.After, Rejected: floodNote(1)})
	default:
		last := &d.Attempts[n-1]
		var more int
		fmt.Sscanf(last.Rejected, ReasonFlood+": %d", &more)
		last.Text, last.After, last.Rejected = a.Text, a.After, floodNote(more+1)
	}
}

// ReasonFlood refuses answers beyond what a decision records, or beyond what a session
// queues for a game.
const ReasonFlood = "PROTO-FLOOD"

func floodNote(n int) string {
	return ReasonFlood + ": " + strconv.Itoa(n) + " more refused answers, the last one shown (a decision records " + strconv.Itoa(maxAttempts) + ")"
}

// closed reports whether id names a request of this game for seat that is over (answered, or
// given its fallback): every request of the seat but the one open now.
func (g *game) closed(id string, seat engine.Seat) bool {
	n, ok := strings.CutPrefix(id, "r")
	k, err := strconv.Atoi(n)
	return ok && err == nil && k >= 1 && k < g.requests && strconv.Itoa(k) == n && g.askedSeat[k-1] == seat
}

// late plays the fallback for a late or missing answer and gives a strike.
func (g *game) late(rec arena.DecisionRecord, legal []engine.Action, start time.Time, waited time.Duration) arena.DecisionRecord {
	p := g.t.Players[rec.Seat]
	strikes, forfeited, counted := p.Clock.strike()
	rec.Action, rec.Fallback, rec.Strike, rec.Latency = Fallback(legal), true, counted, waited
	_ = p.Conn.Send(&tappv1.ConnectResponse{Message: &tappv1.ConnectResponse_Fallback{Fallback: &tappv1.Fallback{
		GameId: g.id, RequestId: rec.RequestID, Action: rec.Action.String(),
		Strikes: int32(strikes), Forfeited: forfeited,
	}}})
	return rec
}

func (g *game) started(seat engine.Seat) *tappv1.GameStarted {
	t := g.t
	gs := &tappv1.GameStarted{
		GameId: g.id, MatchId: t.MatchID, DealNumber: int32(t.Number), Rules: t.Rules.String(),
		Seat: int32(seat), TimeControl: wire.TimeControlToProto(t.TimeControl),
		Hand: wire.CardsToProto(t.Deal.Hands[seat]), DealCommitment: t.Commitment,
	}
	for _, p := range t.Players {
		gs.Players = append(gs.Players, p.Bot)
	}
	return gs
}

// newEvents returns the events the seat has not been sent yet, redacted for it, and the log
// index of the first; they count as sent from now on.
func (g *game) newEvents(seat engine.Seat) ([]engine.Event, int) {
	first := g.sent[seat]
	evs := g.st.EventsFor(seat, first)
	g.sent[seat] += len(evs)
	return evs, first
}

// takeEvents is newEvents as protobuf messages.
func (g *game) takeEvents(seat engine.Seat) []*tappv1.GameEvent {
	return wire.EventsToProto(g.newEvents(seat))
}

func (g *game) flushEvents(seat engine.Seat) {
	if evs := g.takeEvents(seat); len(evs) > 0 {
		_ = g.t.Players[seat].Conn.Send(&tappv1.ConnectResponse{Message: &tappv1.ConnectResponse_Event{Event: &tappv1.EventNotice{GameId: g.id, Events: evs}}})
	}
}

func (g *game) watch(from int) {
	if g.t.Watch == nil || g.t.Watching != nil && !g.t.Watching() {
		return
	}
	all := g.st.EventsSince(from)
	public := g.st.EventsFor(engine.NoSeat, from)
	for i := range all {
		g.t.Watch(g.t.Number, all[i], public[i:i+1])
	}
}

func (g *game) setPending(seat engine.Seat, encoded []byte) {
	g.mu.Lock()
	g.pending[seat] = encoded
	g.mu.Unlock()
}

// snapshot is the game as one seat sees it now, for a bot that resumes its session.
func (g *game) snapshot(seat engine.Seat) *tappv1.Snapshot_Game {
	g.mu.Lock()
	encoded := g.pending[seat]
	g.mu.Unlock()
	snap := &tappv1.Snapshot_Game{Started: g.started(seat)}
	if encoded != nil {
		pending := &tappv1.DecisionRequest{}
		if err := proto.Unmarshal(encoded, pending); err == nil { // the referee encoded it: it decodes
			snap.Pending, snap.Observation = pending, pending.GetObservation()
		}
	}
	return snap
}

// abort tells every seat that the game ended without a result.
func (g *game) abort() {
	for _, p := range g.t.Players {
		_ = p.Conn.Send(&tappv1.ConnectResponse{Message: &tappv1.ConnectResponse_GameEnded{GameEnded: &tappv1.GameEnded{GameId: g.id, Aborted: true}}})
	}
}
