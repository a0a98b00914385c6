// Package admission keeps an overloaded host from taking its bots' time. A Controller hands
// out the tables a match or a league may play at once: it measures every bot's headroom (how
// much of its time per decision an answer leaves, apart from the bot's own thinking) and
// whether the tables queue (the median delay above the host's floor), and when the bots are
// threatened by the arena's own load it lowers the tables in flight, multiplicatively; every
// other window raises them again, up to what was asked for (AIMD). A busy host's tail, which
// comes however few tables play, holds nothing back. Only a starved arena (its own timers
// late by more than a decision) pauses new deals. It holds new deals back only: a deal in
// play is never touched, so overload slows a match down and never forfeits a bot.
package admission

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/tapparena/tapp/arena/internal/domain"
)

// The controller's timing: the lag probe ticks every probeEvery, and the measurements of a
// window are judged together.
const (
	probeEvery = 5 * time.Millisecond
	window     = 250 * time.Millisecond
	// startTables is where a controller starts before its first judgement: tables are added
	// as the measurements allow (doubling while healthy, as TCP's slow start does), rather
	// than every table's first request at the same instant.
	startTables = 8
	// maxSamples bounds the decisions one window keeps for its quantiles (a quarter of a
	// second of the fastest arena's decisions).
	maxSamples = 16384
	// minSamples is the decisions a window needs to be judged: a window of fewer (few tables,
	// a slow host) keeps them for the next, up to maxWindows windows.
	minSamples = 40
	maxWindows = 8
)

// The law (AIMD on the bots' headroom, with a queueing test). A decision's delay is what its
// answer took outside the bot's own thinking: the arena's share, the transport, and both
// processes waiting for a CPU. Two quantiles of a window's delays judge it:
//
//   - the target quantile (targetQuantile, the 95th percentile) says whether the bots lose
//     time: beyond targetShare of the time per decision they are threatened;
//   - the median says whether the tables queue: the delay the arena's own load adds is the
//     median's rise above the host's floor (the lowest median of the last floorWindows
//     windows, what the host gives however little the arena plays), beyond queueShare of the
//     time per decision.
//
// Only a window that is both threatened and queueing lowers the tables, multiplicatively (to
// targetShare / the quantile's share, by decreaseMost at the most, decreaseLeast at the
// least): the tail of a busy host (its wake-ups, other jobs preempting the processes) comes
// whatever the arena plays, and holding tables back does not shorten it. Every other window
// raises them: doubling until the first lowering (slow start), then by an eighth (at least
// one). The tables never go below the floor of tables: half the most tables in flight in a
// window that did not lower them, of the last floorWindows windows — what the host has shown it serves, so the
// floor grows as it does. A lowering waits cooldown while more deals are in flight than the
// new limit: their measurements are those of the old load.
//
// The arena's own scheduling lag (how late its timers fire) pauses new deals, for at most
// maxPause or until the lag falls below lagHealthy, only when it exceeds a whole decision
// (lagPause) in a window that lowers the tables and whose quantile is beyond delaySevere: the
// arena is starved. After a pause, noPauseAfter passes before the next: a pause that does not
// help (the host's doing) is not repeated window after window. At one table nothing pauses.
const (
	targetQuantile = 0.95
	targetShare    = 0.5
	queueShare     = 0.03
	decreaseMost   = 0.5
	decreaseLeast  = 0.8
	increaseShare  = 8   // the step after slow start: limit/increaseShare
	floorWindows   = 120 // 30 s of windows
	cooldown       = time.Second
	lagPause       = 1.0
	lagHealthy     = 0.5
	delaySevere    = 1.0
	maxPause       = 2 * time.Second
	noPauseAfter   = 30 * time.Second
)

// Config says what a Controller admits.
type Config struct {
	Tables      int           // the most tables in flight: what the match or the league asks for
	PerDecision time.Duration // the time per decision lag and headroom are judged against
	Log         *zap.Logger
	// Changed, when set, is told every change of the tables the controller allows (for the
	// progress line). It is called without the controller's lock held.
	Changed func(Change)
}

// Change is a change of the tables the controller allows, and why.
type Change struct {
	From, To int
	Reason   Reason
	Lag      time.Duration // the arena's scheduling lag in the window judged (its worst probe)
	Delay    time.Duration // the target quantile (95th percentile) of the decisions' delay outside the bots' thinking
	Median   time.Duration // their median
	Bot      string        // the bot with the least headroom in the window ("" without decisions)
	Headroom float64       // that bot's headroom: 1 − its delay at the target quantile / the time per decision
}

// Reason is why the tables in flight changed.
type Reason int

// The reasons of a Change.
const (
	Ramp       Reason = iota // starting up: the measurements allow more tables
	Overloaded               // the host is overloaded: fewer tables
	Paused                   // the arena itself is starved: no new deal until it recovers
	Recovered                // the host has recovered: more tables again
)

func (r Reason) String() string {
	return [...]string{"ramping up", "host overloaded", "host overloaded, new deals paused", "host recovered"}[r]
}

// String says the change as the progress line shows it: "host overloaded: 200 → 48 tables
// (scheduling lag 31ms, random#2 has 41% of its time left)".
func (c Change) String() string {
	s := fmt.Sprintf("%s: %d → %d tables (scheduling lag %v", c.Reason, c.From, c.To, c.Lag.Round(100*time.Microsecond))
	if c.Bot != "" {
		s += fmt.Sprintf(", %s has %.0f%% of its time left", c.Bot, 100*c.Headroom)
	}
	return s + ")"
}

// Controller admits tables; see the package comment. It is safe for concurrent use.
type Controller struct {
	cfg Config
	log *zap.Logger

	mu       sync.Mutex
	limit    int
	inFlight int
	wake     chan struct{} // closed and replaced when a table may be free
	ramping  bool          // no lowering yet: doubling while healthy

	// The window being measured.
	lag     time.Duration
	samples []sample
	carried int // windows whose samples were too few and were kept for this one

	history     []judged  // the last floorWindows judged windows: the floors come from them
	lowered     time.Time // when the tables were last lowered
	noPause     time.Time // no pause before this
	pausedSince time.Time // when new deals were paused (zero: not paused)

	sum          domain.Admission
	flight       time.Duration // ∫ tables in flight dt, for the mean
	since        time.Time     // start of the time the means cover
	changed      time.Time     // last change of inFlight
	allowed      time.Duration // ∫ tables allowed dt, for the mean allowed
	allowedLimit int           // the limit allowedSince began with
	allowedSince time.Time     // last change of the limit
}

// judged is what a judged window leaves for the floors: its median delay, and the tables it
// played if it did not lower them (0 if it did).
type judged struct {
	median time.Duration
	served int
}

type sample struct {
	bot   string
	delay time.Duration
}

// New returns a controller for cfg; Run measures and adjusts it.
func New(cfg Config) *Controller {
	cfg.Tables = max(cfg.Tables, 1)
	if cfg.PerDecision <= 0 {
		cfg.PerDecision = domain.DefaultTimeControl.PerDecision
	}
	if cfg.Log == nil {
		cfg.Log = zap.NewNop()
	}
	now := time.Now()
	c := &Controller{cfg: cfg, log: cfg.Log, limit: min(cfg.Tables, startTables), wake: make(chan struct{}), ramping: true,
		since: now, changed: now, allowedSince: now}
	c.allowedLimit = c.limit
	c.sum.Asked, c.sum.Fewest = cfg.Tables, cfg.Tables
	return c
}

// Run measures the scheduling lag and judges the measurements every window until ctx ends.
func (c *Controller) Run(ctx context.Context) {
	probe := time.NewTimer(probeEvery)
	defer probe.Stop()
	next := time.Now().Add(probeEvery)
	judge := next.Add(window)
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-probe.C:
			c.observeLag(now.Sub(next))
			if !now.Before(judge) {
				c.judge(now)
				judge = now.Add(window)
			}
			next = now.Add(probeEvery)
			probe.Reset(probeEvery)
		}
	}
}

// Acquire waits for a table to play a deal at, and returns the function that gives it back
// (call it once the deal is over). It returns ctx's error if ctx ends first.
func (c *Controller) Acquire(ctx context.Context) (release func(), err error) {
	c.mu.Lock()
	for c.inFlight >= c.limit {
		wake := c.wake
		c.mu.Unlock()
		select {
		case <-wake:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		c.mu.Lock()
	}
	c.account(time.Now())
	c.inFlight++
	c.sum.Most = max(c.sum.Most, c.inFlight)
	c.mu.Unlock()
	var once sync.Once
	return func() { once.Do(c.release) }, nil
}

func (c *Controller) release() {
	c.mu.Lock()
	c.account(time.Now())
	c.inFlight--
	c.wakeLocked()
	c.mu.Unlock()
}

// account adds the tables in flight since the last change to the mean's integral.
func (c *Controller) account(now time.Time) {
	c.flight += time.Duration(c.inFlight) * now.Sub(c.changed)
	c.changed = now
}

// accountAllowed adds the tables allowed since the limit's last change to the integral of the
// mean allowed, and starts the next stretch at the limit as it is now.
func (c *Controller) accountAllowed(now time.Time) {
	c.allowed += time.Duration(c.allowedLimit) * now.Sub(c.allowedSince)
	c.allowedLimit, c.allowedSince = c.limit, now
}

func (c *Controller) wakeLocked() {
	close(c.wake)
	c.wake = make(chan struct{})
}

// Observe takes one decision's measurements: the bot, how long the arena held the request
// before its connection took it (arenaShare), how long the answer took from then (latency),
// and the bot's own thinking as it reported it. What is left — transport, and the two
// processes waiting for a CPU — is the delay an overloaded host adds.
func (c *Controller) Observe(bot string, arenaShare, latency, think time.Duration) {
	delay := arenaShare + max(latency-think, 0)
	c.mu.Lock()
	if len(c.samples) < maxSamples {
		c.samples = append(c.samples, sample{bot, delay})
	}
	c.mu.Unlock()
}

// ObserveDecision is Observe for a decision as the referee records it (referee.Table's
// Decided): those the bot was asked and answered, in time or not.
func (c *Controller) ObserveDecision(d *domain.DecisionRecord) {
	if d.RequestID != "" && (!d.Fallback || d.Strike) {
		c.Observe(d.Bot, d.ArenaShare, d.Latency, d.Think)
	}
}

func (c *Controller) observeLag(lag time.Duration) {
	c.mu.Lock()
	c.lag = max(c.lag, lag)
	c.mu.Unlock()
}

// InFlight is the number of tables handed out and not given back.
func (c *Controller) InFlight() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.inFlight
}

// Limit is the number of tables the controller allows now.
func (c *Controller) Limit() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.limit
}

// Summary is how the controller ran so far, for the match record.
func (c *Controller) Summary() domain.Admission {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Now()
	c.account(now)
	c.accountAllowed(now)
	s := c.sum
	if c.pausedSince != (time.Time{}) {
		s.Paused += now.Sub(c.pausedSince)
	}
	if d := now.Sub(c.since); d > 0 {
		s.Mean = float64(c.flight) / float64(d)
		s.AllowedMean = float64(c.allowed) / float64(d)
	}
	return s
}

// judge judges the window that ends now and changes the tables allowed if it must.
func (c *Controller) judge(now time.Time) {
	c.mu.Lock()
	ch, ok := c.judgeLocked(now)
	c.mu.Unlock()
	if ok {
		c.report(ch)
	}
}

// floors returns the host's floor of delay (the lowest median of the windows kept) and the
// floor of tables (half the most tables a window served unthreatened, at least one).
func (c *Controller) floors() (time.Duration, int) {
	median, served := time.Duration(-1), 0
	for _, j := range c.history {
		if median < 0 || j.median < median {
			median = j.median
		}
		served = max(served, j.served)
	}
	return max(median, 0), max(1, served/2)
}

func (c *Controller) judgeLocked(now time.Time) (Change, bool) {
	per := float64(c.cfg.PerDecision)
	ch := Change{From: c.limit, Lag: c.lag}
	lag := float64(c.lag) / per
	c.lag = 0
	if c.limit == 0 { // paused: no decision to judge
		return c.endPause(now, lag, ch)
	}
	if len(c.samples) < minSamples && c.carried < maxWindows && len(c.samples) > 0 {
		c.carried++ // too few to judge: they count with the next window's
		return ch, false
	}
	if len(c.samples) == 0 {
		// Nothing played in the window (a start, a store that holds deals back): the lag
		// alone says whether the arena keeps time, and while starting it may ramp up.
		if !c.ramping || lag >= lagHealthy || c.limit >= c.cfg.Tables {
			return ch, false
		}
		return c.raise(ch, Ramp)
	}
	ch.Delay, ch.Median, ch.Bot, ch.Headroom = c.quantiles()
	c.samples, c.carried = c.samples[:0], 0
	floorDelay, floorTables := c.floors()
	threatened := float64(ch.Delay) > targetShare*per
	queueing := float64(ch.Median-floorDelay) > queueShare*per
	served := min(c.inFlight, c.limit)
	if threatened && queueing {
		served = 0
	}
	if len(c.history) == floorWindows {
		c.history = c.history[1:]
	}
	c.history = append(c.history, judged{ch.Median, served})

	switch {
	case !threatened || !queueing:
		if c.limit >= c.cfg.Tables {
			c.ramping = false
			return ch, false
		}
		reason := Recovered
		if c.ramping {
			reason = Ramp
		}
		return c.raise(ch, reason)
	case lag > lagPause && float64(ch.Delay) > delaySevere*per && c.limit > 1 && !now.Before(c.noPause):
		c.ramping, c.limit, ch.Reason, c.lowered = false, 0, Paused, now
		c.pausedSince, c.noPause = now, now.Add(noPauseAfter)
		c.sum.Pauses++
	default:
		if c.inFlight > c.limit && now.Sub(c.lowered) < cooldown {
			return ch, false // the last lowering has not taken effect yet
		}
		factor := min(max(targetShare*per/float64(ch.Delay), decreaseMost), decreaseLeast)
		to := max(floorTables, int(float64(c.limit)*factor))
		if to >= c.limit {
			return ch, false // at the floor of tables: the host has served them
		}
		c.ramping, c.limit, ch.Reason, c.lowered = false, to, Overloaded, now
		c.sum.Lowered++
	}
	return c.changedLocked(ch), true
}

// raise adds tables: doubling while ramping up, else an eighth (at least one).
func (c *Controller) raise(ch Change, reason Reason) (Change, bool) {
	if reason == Ramp {
		c.limit = min(c.cfg.Tables, max(2*c.limit, 1))
	} else {
		c.limit = min(c.cfg.Tables, c.limit+max(1, c.limit/increaseShare))
	}
	ch.Reason = reason
	return c.changedLocked(ch), true
}

// endPause ends a pause once the arena's timers keep time again, or after maxPause: a lag the
// host's other work causes does not go away by waiting. Play resumes at the floor of tables,
// ramping up as after a start.
func (c *Controller) endPause(now time.Time, lag float64, ch Change) (Change, bool) {
	if lag >= lagHealthy && now.Sub(c.pausedSince) < maxPause {
		return ch, false
	}
	c.sum.Paused += now.Sub(c.pausedSince)
	c.pausedSince = time.Time{}
	_, c.limit = c.floors()
	c.samples, c.carried, c.ramping = c.samples[:0], 0, true // from the floor, doubling again as after a start
	ch.Reason = Recovered
	return c.changedLocked(ch), true
}

// changedLocked records a change of the limit and wakes those waiting for a table.
func (c *Controller) changedLocked(ch Change) Change {
	if c.limit < c.sum.Fewest && ch.Reason != Ramp {
		c.sum.Fewest = c.limit
	}
	ch.To = c.limit
	c.accountAllowed(time.Now())
	c.wakeLocked()
	return ch
}

// quantiles returns the window's target quantile and median of delay, and the bot with the
// least headroom (the highest target quantile of its own decisions) with that headroom.
func (c *Controller) quantiles() (q, median time.Duration, bot string, headroom float64) {
	all := make([]time.Duration, len(c.samples))
	byBot := map[string][]time.Duration{}
	for i, s := range c.samples {
		all[i] = s.delay
		byBot[s.bot] = append(byBot[s.bot], s.delay)
	}
	q, median = percentile(all, targetQuantile), percentile(all, 0.5)
	worst := time.Duration(-1)
	for b, ds := range byBot {
		if p := percentile(ds, targetQuantile); p > worst || (p == worst && b < bot) {
			bot, worst = b, p
		}
	}
	return q, median, bot, 1 - float64(worst)/float64(c.cfg.PerDecision)
}

// percentile returns the q-quantile of ds (sorted here), the nearest rank.
func percentile(ds []time.Duration, q float64) time.Duration {
	slices.Sort(ds)
	i := int(q*float64(len(ds))+0.999999) - 1
	return ds[min(max(i, 0), len(ds)-1)]
}

// report logs a change and tells Config.Changed.
func (c *Controller) report(ch Change) {
	fields := []zap.Field{zap.Int("from", ch.From), zap.Int("to", ch.To), zap.Duration("scheduling_lag", ch.Lag),
		zap.Duration("delay_p95", ch.Delay), zap.Duration("delay_median", ch.Median)}
	if ch.Bot != "" {
		fields = append(fields, zap.String("bot", ch.Bot), zap.Float64("headroom", ch.Headroom))
	}
	switch ch.Reason {
	case Overloaded, Paused:
		c.log.Warn(ch.String(), fields...)
	case Recovered:
		if ch.From == 0 { // the end of a pause; each step up after a lowering is debug
			c.log.Info(ch.String(), fields...)
		} else {
			c.log.Debug(ch.String(), fields...)
		}
	default:
		c.log.Debug(ch.String(), fields...)
	}
	if c.cfg.Changed != nil {
		c.cfg.Changed(ch)
	}
}
