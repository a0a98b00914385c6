// Package referee plays one deal between bots: it asks each seat for its decisions under the
// match's clock, refuses illegal or malformed answers with the rule broken, plays the
// documented fallback for late or missing answers, and records everything that was sent and
// received. It speaks the engine's terms only and talks to bots through the Conn interface
// (conn.go), so the same referee drives bots over gRPC sessions and bots called in-process.
package referee

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/engine"
)

// Protocol reasons for refusing an answer. Rule violations carry the engine's rule id instead.
const (
	ReasonMalformed      = "PROTO-MALFORMED"       // the action text does not parse
	ReasonUnknownRequest = "PROTO-UNKNOWN-REQUEST" // no open request with this id for this bot
	ReasonDuplicate      = "PROTO-DUPLICATE"       // the request is over: answered, or its fallback played
)

// maxAttempts bounds the answers recorded for one decision: a bot that floods its open request
// with refused answers gets the rest counted (DecisionRecord.Flooded), so that its deal stays
// storable.
const maxAttempts = 64

// Clock is one bot's overage bank and strike count: a game's (each deal of a match has one
// per seat, made by Play) or, with a per-match time control, the whole match's, shared by the
// deals the match plays in parallel; it is safe for concurrent use. A bot's match clock also
// says whether it has left the match for good (Player.Clock).
//
// The bank and whether the bot forfeited are read at every decision, and change rarely: they
// are atomics, read without the lock and written under it (with the strikes, which change
// with them).
type Clock struct {
	mu        sync.Mutex
	tc        domain.TimeControl
	bank      atomic.Int64 // time.Duration
	strikes   int
	forfeited atomic.Bool
}

// NewClock starts a bot's clock for a match (or a game).
func NewClock(tc domain.TimeControl) *Clock {
	c := &Clock{}
	c.start(tc)
	return c
}

// start sets the clock to tc's full bank, no strikes.
func (c *Clock) start(tc domain.TimeControl) {
	c.tc = tc
	c.bank.Store(int64(tc.Overage))
}

// Bank returns the overage left.
func (c *Clock) Bank() time.Duration { return time.Duration(c.bank.Load()) }

// Forfeited reports whether the bot has forfeited what the clock is for (a game or the match)
// by strikes, or has left for good.
func (c *Clock) Forfeited() bool { return c.forfeited.Load() }

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
	c.bank.Store(int64(max(time.Duration(c.bank.Load())-over, 0)))
}

// forfeit marks the bot as gone for the rest of the match.
func (c *Clock) forfeit() {
	c.mu.Lock()
	c.forfeited.Store(true)
	c.mu.Unlock()
}

// strike records a late or missing answer and reports the count, whether the bot has now
// forfeited, and whether this answer counted (answers that were already late when an earlier
// one forfeited the match — deals run in parallel — count no more).
func (c *Clock) strike() (int, bool, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.bank.Store(0)
	if c.forfeited.Load() {
		return c.strikes, true, false
	}
	c.strikes++
	if c.tc.MaxStrikes > 0 && c.strikes >= c.tc.MaxStrikes {
		c.forfeited.Store(true)
	}
	return c.strikes, c.forfeited.Load(), true
}

// Player is one seat of a table: the bot's name, its line and its match clock. With a
// per-match time control the match clock keeps the bot's bank and strikes; with a per-game
// one (the default) the game has a clock of its own for them, and the match clock only
// keeps whether the bot has left the match for good.
type Player struct {
	Bot   string
	Conn  Conn
	Clock *Clock
}

// maxRetimes bounds how often a request that has not reached the bot's connection when its
// time is up gets its time again (domain.MaxRetimes).
const maxRetimes = domain.MaxRetimes

// Table is one deal to play.
type Table struct {
	MatchID     string
	Number      int // deal number in the match
	Group       int // deal source (duplicate group)
	Rules       engine.RuleSet
	Deal        engine.Deal
	Options     engine.Options
	Players     []Player // by seat
	TimeControl domain.TimeControl
	// Watch, when set, receives every event (unredacted only after the deal ends: it gets
	// the public view while the deal runs).
	Watch func(number int, ev engine.Event, public []engine.Event)
	// Watching, when set, says whether anyone watches now; while not, the events are not
	// even built for Watch.
	Watching func() bool
	// Commitment is the match's commitment to its deals, sent in every GameStarted.
	Commitment string
	// Unrecorded keeps no record of what the seats in process (Direct) were asked and
	// answered: their decisions come back with what a match counts (seat, bot, action,
	// latency, strike, fallback), without requests or answers. A seat over the wire is
	// recorded as always: its requests are encoded to be sent anyway.
	Unrecorded bool
	// Decided, when set, is told every decision as it is recorded (the admission control
	// judges the bots' headroom from them as they come).
	Decided func(*domain.DecisionRecord)
}

// ErrAborted is returned when the context ends a deal before it finishes; nothing of the
// deal is recorded.
var ErrAborted = errors.New("deal aborted")

// Fallback returns the documented fallback for a late or missing answer: the first legal
// action in the engine's stable order.
func Fallback(legal []engine.Action) engine.Action { return legal[0] }

// Play plays one deal to its end and returns its full record.
func Play(ctx context.Context, t *Table) (*domain.DealRecord, error) {
	st, err := newState(t)
	if err != nil {
		return nil, err
	}
	defer states.Put(st)
	sc := scratches.Get().(*scratch)
	defer sc.keep()
	g := sc.game // a game no one holds any more, or a new one
	if g == nil {
		g = new(game)
	}
	sc.game = nil
	*g = game{t: t, st: st, id: GameID(t.MatchID, t.Number), sc: sc, req: sc.req, epoch: time.Now(), rules: RulesText(t.Rules)}
	anyDirect := false
	for i, p := range t.Players {
		g.direct[i], _ = p.Conn.(Direct)
		anyDirect = anyDirect || g.direct[i] != nil
		g.clocks[i] = p.Clock
		if !t.TimeControl.PerMatch() || p.Clock == nil {
			// The game's own bank and strikes, kept in the game (no allocation per seat).
			g.own[i].start(t.TimeControl)
			g.clocks[i] = &g.own[i]
		}
	}
	var rec *domain.DealRecord
	if anyDirect {
		rec, err = g.playTakeable(ctx) // takeover.go: a bot in process that never returns holds no table
	} else {
		rec, err = g.play(ctx)
	}
	if g.closers == nil && !g.taking.takenOver {
		// No seat was opened (a session's resume could still reach the game) and no bot was
		// taken over from (its goroutine comes back to the game): the next deal's.
		sc.game = g
	}
	return rec, err
}

// states keeps engine states between deals: a deal's state is the referee's alone (a Conn
// sees it only during End, the record and the watchers get copies), so the next deal resets
// it instead of allocating one.
var states sync.Pool

// newState is the state of t's deal at its start.
func newState(t *Table) (*engine.State, error) {
	if st, ok := states.Get().(*engine.State); ok {
		if err := st.Reset(t.Rules, t.Deal, t.Options); err != nil {
			states.Put(st)
			return nil, err
		}
		return st, nil
	}
	return engine.NewState(t.Rules, t.Deal, t.Options)
}

// GameID names one deal of a match on the wire.
func GameID(matchID string, number int) string { return matchID + "/" + strconv.Itoa(number) }

type game struct {
	t      *Table
	st     *engine.State
	id     string
	sent   [engine.MaxPlayers]int    // per seat: events sent so far
	direct [engine.MaxPlayers]Direct // per seat: its Conn, when it decides when asked
	// clocks are the seats' banks and strikes: the game's own (own), or with a per-match
	// time control the players' match clocks.
	clocks [engine.MaxPlayers]*Clock
	own    [engine.MaxPlayers]Clock

	req *Request // the request being asked, built afresh for each decision (the scratch's)
	sc  *scratch // storage kept between deals

	answers [engine.MaxPlayers]<-chan Answer // per seat over the wire: its answers
	closers []func()                         // the seats' close functions, for the game's end
	taking  takeover                         // takeover.go, for the tables with Direct seats

	mu      sync.Mutex                  // guards pending for resumes, which come from the adapters' goroutines
	pending [engine.MaxPlayers]*Request // the open request of each seat

	requests int // requests sent: "r1" … "rN", every one before the last one closed
	// asked[k-1] is when request rk was handed to its bot and askedSeat[k-1] the seat it was
	// for, and deal the record being played: an answer to a request that is over is recorded
	// with that request's decision, and only if it came from that request's seat.
	asked     []time.Time
	askedSeat []engine.Seat
	deal      *domain.DealRecord
	hard      *time.Timer // the decision timer (timer), made at the first decision over the wire
	epoch     time.Time   // when Play began: the deal's clock (now) is read as time since
	rules     string      // the rules spelled, once a deal (Request.Rules)

	// last is when the last decision's bot, a Direct seat's, returned, and fresh says that
	// nothing but the referee's own work came since: applying the action, the admission
	// control's note of it (Table.Decided), building the next request. Such a decision is
	// timed from then, not from a clock read of its own (a clock read is a decision's dearest
	// step after the bot's and the observation's): its bot's latency includes that work, a
	// few hundred ns, as it included building its request before. A watcher told the events
	// or a seat over the wire (sent events, or asked) clears fresh.
	last  time.Time
	fresh bool

	// cur is the decision being decided: filled in place, and copied once, into the deal's
	// decisions, when it is applied (a decision record is some 200 bytes; passed by value it
	// was copied five times a decision). A takeover (takeover.go) goes on with it.
	cur domain.DecisionRecord
}

// now is the time now, read from the monotonic clock alone (time.Since the deal's start,
// half the cost of time.Now, read twice a decision): a deal's times keep the wall clock of
// its start and move with the monotonic clock, as time.Now's would but for a step of the wall
// clock during the deal.
func (g *game) now() time.Time { return g.epoch.Add(time.Since(g.epoch)) }

// deadline is the deadline of a request asked at start: the time per decision from then, in
// whole µs (t.Truncate(time.Microsecond), which divides by any duration, done as one: a
// microsecond divides a second) and without a monotonic reading, as Truncate gives it.
func deadline(start time.Time, perDecision time.Duration) time.Time {
	d := start.Add(perDecision)
	return d.Add(-time.Duration(d.Nanosecond() % int(time.Microsecond))).Round(0)
}

func (g *game) play(ctx context.Context) (*domain.DealRecord, error) {
	t := g.t
	rec := &domain.DealRecord{
		MatchID: t.MatchID, Number: t.Number, Group: t.Group, Deal: t.Deal, Options: t.Options,
		Started: g.epoch,
	}
	rec.Seating = make([]string, len(t.Players))
	for i, p := range t.Players {
		rec.Seating[i] = p.Bot
	}
	g.deal = rec

	// A Direct seat is not opened: its bot is asked through Decide, answers on no channel and
	// needs no start message (nothing is built for it).
	for i, p := range t.Players {
		if g.direct[i] != nil {
			continue
		}
		seat := engine.Seat(i)
		ch, closeFn := p.Conn.Open(g.started(seat), func(use func(*Request)) { g.withPending(seat, use) })
		g.closers = append(g.closers, closeFn)
		g.answers[i] = ch
	}
	// The decisions are gathered in storage kept between deals, and the record gets a copy of
	// the size it needs: a deal's length is known only at its end.
	sc := g.sc
	rec.Decisions, g.asked, g.askedSeat = sc.decisions[:0], sc.asked[:0], sc.askedSeat[:0]
	sc.attempts, sc.attemptOf = sc.attempts[:0], sc.attemptOf[:0]
	g.watch(0)
	return g.run(ctx, nil)
}

// run plays the deal from where it is to its end (first, when set, is a decision decided
// already: a takeover's), and ends the game: the goroutine that returns from run with
// anything but errTakenOver is the one that ended it (with no defers: a goroutine whose bot
// was taken over from returns without touching the game).
func (g *game) run(ctx context.Context, first *domain.DecisionRecord) (*domain.DealRecord, error) {
	rec, err := g.loop(ctx, first)
	if errors.Is(err, errTakenOver) {
		return nil, err
	}
	if err == nil {
		g.finish()
	}
	sc := g.sc
	sc.asked, sc.askedSeat, g.asked, g.askedSeat = g.asked[:0], g.askedSeat[:0], nil, nil
	for _, closeFn := range g.closers {
		closeFn()
	}
	return rec, err
}

// loop asks and applies the decisions to the deal's end.
func (g *game) loop(ctx context.Context, first *domain.DecisionRecord) (*domain.DealRecord, error) {
	if first != nil {
		if err := g.apply(first); err != nil {
			return nil, err
		}
	}
	for !g.st.Terminal() {
		if err := ctx.Err(); err != nil {
			g.abort()
			return nil, fmt.Errorf("%w: %w", ErrAborted, err)
		}
		seat := g.st.ToMove()
		d := &g.cur
		err := g.decide(ctx, seat, g.answers[seat], d)
		if errors.Is(err, errTakenOver) {
			return nil, err
		}
		if err != nil {
			g.abort()
			return nil, err
		}
		if err := g.apply(d); err != nil {
			return nil, err
		}
	}
	return g.deal, nil
}

// apply records decision d (a copy: d is the game's decision being decided) and plays its
// action.
func (g *game) apply(d *domain.DecisionRecord) error {
	t, rec := g.t, g.deal
	d.Index = len(rec.Decisions)
	rec.Decisions = append(rec.Decisions, *d)
	g.sc.decisions = rec.Decisions // the storage grown, kept (and cleared) for the next deal
	if t.Decided != nil {
		t.Decided(&rec.Decisions[len(rec.Decisions)-1])
	}
	before := g.st.NumEvents()
	if err := g.st.Apply(d.Action); err != nil {
		return fmt.Errorf("referee: applying checked action %s: %w", d.Action, err)
	}
	g.watch(before)
	for i, p := range t.Players {
		if p.Conn.StreamEvents() { // a bot may ask for the stream, or stop it, at any time
			g.flushEvents(engine.Seat(i))
		}
	}
	return nil
}

// finish completes the record of a deal played to its end and tells the seats.
func (g *game) finish() {
	t, rec, sc := g.t, g.deal, g.sc
	g.traceLate(g.answers[:len(t.Players)])         // into the working decisions, before the record's copy
	rec.Decisions = sc.copyDecisions(rec.Decisions) // the scratch storage goes back when Play returns
	out := g.st.Outcome()
	rec.Moves = slices.Clone(g.st.History())
	rec.Outcome = out
	end := &sc.end // valid only during the Conns' End calls
	*end = End{GameID: g.id, Rules: t.Rules, Deal: t.Deal, State: g.st, Outcome: out}
	rec.Results = domain.ResultsOf(rec.Seating, out)
	for i, p := range t.Players {
		seat := engine.Seat(i)
		if d := g.direct[seat]; d != nil && !d.Encodes() {
			g.sent[seat] = g.st.NumEvents() // as in decide: nothing reads them
		}
		evs, first := g.newEvents(seat)
		p.Conn.End(end, evs, first)
	}
	rec.Duration = time.Since(rec.Started)
}

// decide asks the seat's bot for one decision and fills rec with what was decided and how.
func (g *game) decide(ctx context.Context, seat engine.Seat, answers <-chan Answer, rec *domain.DecisionRecord) error {
	p, clock := g.t.Players[seat], g.clocks[seat]
	last, fresh := g.last, g.fresh
	g.fresh = false
	*rec = domain.DecisionRecord{Seat: seat, Bot: p.Bot, Decision: g.st.Decision()}
	if clock.Forfeited() || p.Clock.Forfeited() {
		rec.Action, rec.Fallback = g.fallbackUnasked(), true
		return nil
	}
	select {
	case <-p.Conn.Gone():
		p.Clock.forfeit()
		rec.Action, rec.Fallback = g.fallbackUnasked(), true
		return nil
	default:
	}

	// The arena's share counts building and encoding the request. A Direct seat's decision
	// right after another's is asked when that one's bot returned (see last).
	start := last
	if !fresh || g.direct[seat] == nil {
		start = g.now()
	}
	rec.Asked = start
	g.requests++
	g.asked = append(g.asked, start)
	g.askedSeat = append(g.askedSeat, seat)
	rec.RequestID = requestID(g.requests)
	tc := g.t.TimeControl
	bank := clock.Bank()
	// One request per game, built afresh for each decision: the Conn uses it only during Ask
	// (and a resume while the request is open). The deadline goes out in whole µs (a bot
	// cannot use less), which keeps a compact deal record's clock fields a byte each
	// (arena/internal/store/record.go). The request carries the seat's events since its last
	// message, which count as sent from now on.
	if d := g.direct[seat]; d != nil && !d.Encodes() {
		g.sent[seat] = g.st.NumEvents() // nothing reads them: Build builds none
	}
	req := g.req
	req.build(g.st, g.rules, g.id, rec.RequestID, deadline(start, tc.PerDecision), bank, g.sent[seat])
	g.sent[seat] += len(req.Events)

	// The bot's clock starts when the request is handed to its connection (at once for a
	// Conn without a queue). Until then the wait is the arena's (the request queued behind
	// other work, on a busy host): a request that has not left the queue when its time is up
	// gets its time again (Retimed), and past maxRetimes its fallback is played, never with a
	// strike. A request the queue cannot take at all (a bot that stopped reading fills its
	// outbox) is late at once.
	allowed := tc.PerDecision + bank
	if d := g.direct[seat]; d != nil { // never opened: no resume asks for its pending request
		return g.decideDirect(d, rec, req, start, allowed)
	}
	return g.decideWire(ctx, p, clock, answers, rec, req, start, allowed)
}

// decideWire is decide for a seat over the wire (a function of its own: decide has no defer
// then, whose run at every return cost a Direct decision more than its check).
func (g *game) decideWire(ctx context.Context, p Player, clock *Clock, answers <-chan Answer, rec *domain.DecisionRecord, req *Request, start time.Time, allowed time.Duration) error {
	seat, tc, legal := rec.Seat, g.t.TimeControl, req.Legal
	g.setPending(seat, req)
	defer g.setPending(seat, nil)
	clockStart := start
	sent, handed, err := p.Conn.Ask(req)
	rec.Sent, rec.SentFromState = sent, len(sent) > 0 // the Conns encode req with encode.AppendRequest
	if err != nil {
		g.late(rec, legal, start, allowed)
		return nil
	}
	// The hand-off's moment is taken from handed when something needs it (an answer, the
	// timer, the bot gone), not waited for: the adapter puts it in handed's buffer before the
	// bot can have the request, so it is there when the answer comes, and waking this
	// goroutine just to note it cost a goroutine switch per decision. The timer is set from
	// the ask and, when it fires after a hand-off, set again for the rest of the time allowed
	// from the hand-off: the same deadline as a timer reset at the hand-off.
	hard := g.timer(allowed)
	defer hard.Stop()
	for {
		select {
		case a := <-answers:
			handed = g.takeHandOff(handed, rec, start, &clockStart)
			if action, ok := g.check(p, seat, rec, a, clockStart); ok {
				elapsed := a.At.Sub(clockStart)
				rec.Action, rec.Latency, rec.Think = action, elapsed, a.Think
				if over := elapsed - tc.PerDecision; over > 0 {
					clock.spend(over)
				}
				return nil
			}
		case <-hard.C:
			if handed = g.takeHandOff(handed, rec, start, &clockStart); handed != nil { // not handed over yet: the whole wait is the arena's
				if rec.Retimed < maxRetimes {
					rec.Retimed++
					hard.Reset(allowed)
					continue
				}
				rec.ArenaShare = time.Since(start)
				g.neverHanded(rec, legal)
				return nil
			}
			if left := allowed - time.Since(clockStart); left > 0 {
				hard.Reset(left)
				continue
			}
			g.late(rec, legal, clockStart, allowed)
			return nil
		case <-p.Conn.Gone():
			g.takeHandOff(handed, rec, start, &clockStart)
			p.Clock.forfeit()
			rec.Action, rec.Fallback, rec.Latency = Fallback(legal), true, time.Since(clockStart)
			return nil
		case <-ctx.Done():
			return fmt.Errorf("%w: %w", ErrAborted, ctx.Err())
		}
	}
}

// takeHandOff takes the moment the request was handed to the bot's connection from handed,
// if it has come, as the start of the bot's clock (the arena's share ends there), and
// returns what is left to wait for: nil once taken (or when there was nothing to wait for).
func (g *game) takeHandOff(handed <-chan time.Time, rec *domain.DecisionRecord, start time.Time, clockStart *time.Time) <-chan time.Time {
	if handed == nil {
		return nil
	}
	select {
	case at := <-handed:
		*clockStart = at
		rec.ArenaShare = at.Sub(start)
		g.asked[g.requests-1] = at
		return nil
	default:
		return handed
	}
}

// timer returns the game's decision timer set to fire after d: one timer for all the
// decisions of a deal over the wire, not one each.
func (g *game) timer(d time.Duration) *time.Timer {
	if g.hard == nil {
		g.hard = time.NewTimer(d)
		return g.hard
	}
	g.hard.Reset(d)
	return g.hard
}

// decideDirect is decide for a seat whose bot decides when asked (Direct), under the same
// clock rules as a bot over the wire: its clock starts at the hand-off (when the bot is
// given the request, once it is encoded: the time before is the arena's share), its answer
// is checked as one over the wire, and it is late when it came past the time allowed (the
// fallback and a strike from the game's or the match's clock, as the time control says). A
// Direct bot is handed its request at once, on this goroutine: it is never retimed, and
// never left unhanded. All of its time is its own (Think): no wire lies between.
//
// A bot that has not returned well past the time allowed is taken over from (takeover.go):
// another goroutine plays the fallback with a strike and goes on with the deal, and this one,
// when the bot returns at last, returns errTakenOver and touches the game no more.
func (g *game) decideDirect(d Direct, rec *domain.DecisionRecord, req *Request, start time.Time, allowed time.Duration) error {
	legal := req.Legal
	k := g.taking.deciding(start.Sub(g.epoch), allowed, int64(g.requests))
	sent, action, handed, err := d.Decide(req)
	at := g.now() // the bot's clock stops
	if !g.taking.returned(k) {
		return errTakenOver // rec is the goroutine's that took over: not touched
	}
	g.last, g.fresh = at, true
	if !g.t.Unrecorded {
		rec.Sent, rec.SentFromState = sent, len(sent) > 0
		if sent == nil && !d.Encodes() { // handed the observation: the record keeps the clock, a store rebuilds the request
			rec.Observed, rec.Deadline, rec.Overage = true, req.Deadline, req.OverageLeft
		}
	}
	if err != nil {
		g.late(rec, legal, start, allowed)
		return nil
	}
	if handed.IsZero() { // handed over as asked: nothing was encoded before
		handed = start
	}
	rec.ArenaShare = handed.Sub(start)
	g.asked[g.requests-1] = handed
	elapsed := at.Sub(handed)
	rec.Think = elapsed
	if !slices.Contains(legal, action) {
		// A Direct bot answers one of the legal actions; one that does not is refused as an
		// answer over the wire is, and as it cannot correct itself its fallback is played.
		reason := "not one of the legal actions"
		if err := g.st.Check(action); err != nil {
			reason = err.Error()
		}
		addAttempt(rec, domain.AnswerAttempt{Text: action.String(), After: elapsed, Rejected: reason})
		rec.Action, rec.Fallback, rec.Latency = Fallback(legal), true, elapsed
		return nil
	}
	if elapsed > allowed {
		// Late: the fallback at the deadline, and the answer recorded as one to a request
		// that is over, as a late answer over the wire is when it comes during the game
		// (its Think is the strike's attribution, as a late answer's over the wire).
		g.late(rec, legal, handed, allowed)
		if !g.t.Unrecorded {
			addAttempt(rec, domain.AnswerAttempt{Text: action.String(), After: elapsed, Rejected: duplicateReason(rec.RequestID)})
		}
		return nil
	}
	if !g.t.Unrecorded {
		rec.Attempts = g.sc.attempt(len(g.deal.Decisions), domain.AnswerAttempt{Text: action.String(), After: elapsed})
	}
	rec.Action, rec.Latency = action, elapsed
	if over := elapsed - g.t.TimeControl.PerDecision; over > 0 {
		g.clocks[rec.Seat].spend(over)
	}
	return nil
}

// scratch is a game's working storage, kept between deals (scratches) so that a deal grows
// none of it: the decisions as they are made, and when each request was asked and of whom;
// the request being asked (with its observation's storage), the accepted answers of Direct
// bots, and the end told to the seats.
type scratch struct {
	decisions []domain.DecisionRecord
	asked     []time.Time
	askedSeat []engine.Seat
	attempts  []domain.AnswerAttempt
	attemptOf []int    // the decision each of attempts is of
	req       *Request // left to a bot that was taken over from, replaced by a new one
	end       End
	done      chan played // how a deal with a Direct seat ended (takeover.go)
	game      *game       // the game of a deal that no one holds any more, for the next deal
}

// scratchDecisions is room for the decisions of a long deal (a whole modern deal has 40-odd).
const scratchDecisions = 64

var scratches = sync.Pool{New: func() any {
	return &scratch{
		decisions: make([]domain.DecisionRecord, 0, scratchDecisions),
		asked:     make([]time.Time, 0, scratchDecisions),
		askedSeat: make([]engine.Seat, 0, scratchDecisions),
		attempts:  make([]domain.AnswerAttempt, 0, scratchDecisions),
		req:       new(Request),
		done:      make(chan played, 1),
	}
}}

// attempt returns the attempts of decision i (the deal's next) holding only a, in the
// scratch's storage (a second attempt appended to them grows a slice of its own);
// copyDecisions moves them to the record.
func (sc *scratch) attempt(i int, a domain.AnswerAttempt) []domain.AnswerAttempt {
	n := len(sc.attempts)
	sc.attempts = append(sc.attempts, a)
	sc.attemptOf = append(sc.attemptOf, i)
	return sc.attempts[n : n+1 : n+1]
}

// copyDecisions returns the record's copy of the working decisions, with the attempts kept in
// the scratch copied into one slice of their own: two allocations a deal, not one a decision.
func (sc *scratch) copyDecisions(work []domain.DecisionRecord) []domain.DecisionRecord {
	out := slices.Clone(work)
	if len(sc.attempts) == 0 {
		return out
	}
	attempts := slices.Clone(sc.attempts)
	for j, i := range sc.attemptOf {
		if len(out[i].Attempts) == 1 { // still the scratch's: one appended to would have grown
			out[i].Attempts = attempts[j : j+1 : j+1]
		}
	}
	return out
}

// keep returns the storage to the pool, holding nothing of the deal.
func (sc *scratch) keep() {
	clear(sc.decisions)
	clear(sc.attempts)
	sc.decisions, sc.attempts, sc.attemptOf = sc.decisions[:0], sc.attempts[:0], sc.attemptOf[:0]
	// Events hold no pointers: their list is kept for the next deal's requests.
	sc.req.Events, sc.end = sc.req.Events[:0], End{}
	if g := sc.game; g != nil { // holding nothing of the deal
		*g = game{}
	}
	scratches.Put(sc)
}

// requestIDs are the names of a game's first requests, spelled once.
var requestIDs = func() []string {
	ids := make([]string, 128)
	for k := range ids {
		ids[k] = "r" + strconv.Itoa(k)
	}
	return ids
}()

// requestID names a game's k-th request: "r1", "r2", ...
func requestID(k int) string {
	if k < len(requestIDs) {
		return requestIDs[k]
	}
	return "r" + strconv.Itoa(k)
}

// fallbackUnasked is the fallback of a decision the referee does not ask (the bot forfeited
// or left): the request's storage holds the legal actions, as no request is open.
func (g *game) fallbackUnasked() engine.Action {
	g.req.Legal = g.st.LegalActions(g.req.Legal[:0])
	return Fallback(g.req.Legal)
}

// check validates one answer; a refused answer is recorded, and the bot is told why.
func (g *game) check(p Player, seat engine.Seat, rec *domain.DecisionRecord, a Answer, start time.Time) (engine.Action, bool) {
	attempt := domain.AnswerAttempt{Text: a.Action, After: a.At.Sub(start)}
	var rule, reason string
	var action engine.Action
	switch {
	case a.RequestID != rec.RequestID && g.closed(a.RequestID, seat):
		// The referee keeps no record of how each earlier request ended, only that it did.
		rule, reason = ReasonDuplicate, duplicateReason(a.RequestID)
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
		if len(rec.Attempts) == 0 { // the usual answer, right at once: in the scratch's storage
			rec.Attempts = g.sc.attempt(len(g.deal.Decisions), attempt)
		} else {
			rec.Attempts = append(rec.Attempts, attempt)
		}
		return action, true
	}
	attempt.Rejected = reason
	if a.RequestID == rec.RequestID {
		addAttempt(rec, attempt)
	} else if rule == ReasonDuplicate {
		g.recordLate(seat, a, reason)
	}
	p.Conn.Refuse(Refusal{GameID: g.id, RequestID: a.RequestID, Rule: rule, Reason: reason})
	return action, false
}

// traceLate records, once the deal is over, the answers still waiting for the referee (every
// one names a request that is over: they are late) and the answers the seats' connections
// refused themselves (FloodCounter), each with the decision it names, if it names one of its
// seat's: every answer a bot sent for a decision is in that decision's record, one by one or
// counted.
func (g *game) traceLate(answers []<-chan Answer) {
	for i, ch := range answers {
		seat := engine.Seat(i)
		for drained := false; !drained; {
			select {
			case a := <-ch:
				if g.closed(a.RequestID, seat) {
					g.recordLate(seat, a, duplicateReason(a.RequestID))
				}
			default:
				drained = true
			}
		}
		fc, ok := g.t.Players[i].Conn.(FloodCounter)
		if !ok {
			continue
		}
		for id, n := range fc.Flooded(g.id) {
			if d := g.decisionOf(seat, id); d != nil {
				d.Flooded += n
			}
		}
	}
}

// duplicateReason is why an answer to request id, which is over, is refused.
func duplicateReason(id string) string {
	return "request " + id + " is over: it was answered, or its deadline passed and the fallback was played"
}

// decisionOf is the recorded decision of seat whose request was id, or nil.
func (g *game) decisionOf(seat engine.Seat, id string) *domain.DecisionRecord {
	if id == "" {
		return nil
	}
	for i := len(g.deal.Decisions) - 1; i >= 0; i-- {
		if d := &g.deal.Decisions[i]; d.RequestID == id && d.Seat == seat {
			return d
		}
	}
	return nil
}

// recordLate adds an answer to a request that is over (answered, or played by the fallback)
// to that request's decision, with its time from that request: a bot's late answers show in
// the record of the decision they were meant for. closed() has checked that the request was
// the sender's seat's; the seat is checked again so that no answer can land in another seat's
// record.
func (g *game) recordLate(seat engine.Seat, a Answer, reason string) {
	k, _ := strconv.Atoi(strings.TrimPrefix(a.RequestID, "r")) // closed() checked the form
	if d := g.decisionOf(seat, a.RequestID); d != nil {
		if d.Fallback && d.Think == 0 {
			d.Think = a.Think // a strike's attribution: what the bot says it thought
		}
		addAttempt(d, domain.AnswerAttempt{Text: a.Action, After: a.At.Sub(g.asked[k-1]), Rejected: reason})
	}
}

// addAttempt records one answer of a decision; past maxAttempts the refused answers are
// counted (Flooded), not recorded one by one. (Deals recorded before Flooded counted them in
// their last attempt, whose reason says "PROTO-FLOOD: n more refused answers".)
func addAttempt(d *domain.DecisionRecord, a domain.AnswerAttempt) {
	if len(d.Attempts) < maxAttempts || a.Rejected == "" {
		d.Attempts = append(d.Attempts, a)
		return
	}
	d.Flooded++
}

// ReasonFlood refuses answers beyond what a decision records, or beyond what a session
// queues for a game.
const ReasonFlood = "PROTO-FLOOD"

// closed reports whether id names a request of this game for seat that is over (answered, or
// given its fallback): every request of the seat but the one open now.
func (g *game) closed(id string, seat engine.Seat) bool {
	n, ok := strings.CutPrefix(id, "r")
	k, err := strconv.Atoi(n)
	return ok && err == nil && k >= 1 && k < g.requests && strconv.Itoa(k) == n && g.askedSeat[k-1] == seat
}

// late plays the fallback for a late or missing answer and gives a strike.
func (g *game) late(rec *domain.DecisionRecord, legal []engine.Action, start time.Time, waited time.Duration) {
	p := g.t.Players[rec.Seat]
	strikes, forfeited, counted := g.clocks[rec.Seat].strike()
	rec.Action, rec.Fallback, rec.Strike, rec.Latency = Fallback(legal), true, counted, waited
	p.Conn.Fallback(FallbackPlayed{GameID: g.id, RequestID: rec.RequestID, Action: rec.Action, Strikes: strikes, Forfeited: forfeited})
}

// neverHanded plays the fallback for a request that never reached the bot's connection in
// all its retimes: the bot's clock never started, so there is no strike; the bot is told, as
// the request may still reach it.
func (g *game) neverHanded(rec *domain.DecisionRecord, legal []engine.Action) {
	p, clock := g.t.Players[rec.Seat], g.clocks[rec.Seat]
	rec.Action, rec.Fallback = Fallback(legal), true
	p.Conn.Fallback(FallbackPlayed{GameID: g.id, RequestID: rec.RequestID, Action: rec.Action, Strikes: clock.Strikes(), Forfeited: clock.Forfeited()})
}

func (g *game) started(seat engine.Seat) *Start {
	t := g.t
	st := &Start{
		GameID: g.id, MatchID: t.MatchID, Number: t.Number, Rules: t.Rules, Seat: seat,
		Players: make([]string, len(t.Players)), TimeControl: t.TimeControl,
		Hand: t.Deal.Hands[seat], Commitment: t.Commitment,
	}
	for i, p := range t.Players {
		st.Players[i] = p.Bot
	}
	return st
}

// newEvents returns the events the seat has not been sent yet, redacted for it, and the log
// index of the first; they count as sent from now on.
func (g *game) newEvents(seat engine.Seat) ([]engine.Event, int) {
	first := g.sent[seat]
	evs := g.st.EventsFor(seat, first)
	g.sent[seat] += len(evs)
	return evs, first
}

func (g *game) flushEvents(seat engine.Seat) {
	if evs, first := g.newEvents(seat); len(evs) > 0 {
		g.fresh = false // sending is not the next bot's time
		g.t.Players[seat].Conn.Events(g.id, evs, first)
	}
}

func (g *game) watch(from int) {
	if g.t.Watch == nil || g.t.Watching != nil && !g.t.Watching() {
		return
	}
	all := g.st.EventsSince(from)
	public := g.st.EventsFor(engine.NoSeat, from)
	g.fresh = g.fresh && len(all) == 0 // the watcher's time is not the next bot's
	for i := range all {
		g.t.Watch(g.t.Number, all[i], public[i:i+1])
	}
}

// setPending records the seat's open request; clearing it waits for a resume that uses it.
func (g *game) setPending(seat engine.Seat, req *Request) {
	g.mu.Lock()
	g.pending[seat] = req
	g.mu.Unlock()
}

// withPending calls use with the seat's open request, if one is open, for a bot that
// resumes; the game waits meanwhile, so the request and the state it refers to stay as sent.
func (g *game) withPending(seat engine.Seat, use func(*Request)) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if req := g.pending[seat]; req != nil {
		use(req)
	}
}

// abort tells every seat that the game ended without a result.
func (g *game) abort() {
	end := &End{GameID: g.id, Aborted: true}
	for _, p := range g.t.Players {
		p.Conn.End(end, nil, 0)
	}
}
