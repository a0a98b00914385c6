// Package admission keeps an overloaded host from taking its bots' time. A Controller hands
// out the tables a match or a league may play at once: it measures the arena's own
// scheduling lag (how late a timer of this process fires) and every bot's headroom (how
// much of its time per decision an answer leaves, apart from the bot's own thinking), and
// when either runs short it lowers the tables in flight, or pauses new deals altogether,
// before bots lose time; as the host recovers it raises them again, up to what was asked
// for. It holds new deals back only: a deal in play is never touched, so overload slows a
// match down and never forfeits a bot.
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
	// maxSamples bounds the decisions one window keeps for its percentile (a quarter of a
	// second of the fastest arena's decisions).
	maxSamples = 16384
)

// The thresholds, as shares of the time per decision. What decides is the decisions' delay
// outside the bots' thinking (their headroom), at its 99th percentile in a window. It is
// judged against the time per decision and against the host's floor: the lowest such
// percentile of the last floorWindows windows, what the host gives however little the arena
// plays (on a host busy with other work, the processes' wake-ups alone take tens of ms).
// Beyond delayOverloaded, and loadedFloor times the floor, the delay is the arena's load:
// the tables in flight are lowered. Below delayHealthy, or near the floor (healthyFloor),
// for healthyWindows windows, they are raised. The arena's own scheduling lag alone lowers
// nothing — a host busy with other work delays the arena's timers whatever it plays, and
// only the delay says whether that costs the bots time — but a lag beyond a whole decision
// (lagPause) with the decisions threatened too (delaySevere) holds every new deal back, for
// at most maxPause or until the lag is below lagHealthy; while starting, with no decisions to
// judge, a lag below lagHealthy counts as healthy. A lowering or a pause after which the
// delay does not fall (undoneShare) was the host's doing, not the arena's load: it is undone
// and that delay is the floor from then on (after an undone pause, for noPauseAfterUndo
// only lowering holds deals back); at one table nothing pauses.
const (
	lagPause        = 1.0
	lagHealthy      = 0.5
	delayOverloaded = 0.30
	delayHealthy    = 0.12
	delaySevere     = 0.60
	loadedFloor     = 1.5
	healthyFloor    = 1.2
	healthyWindows  = 4
	maxPause        = 2 * time.Second
	floorWindows    = 120 // 30 s of windows
	floorSamples    = 20  // decisions a window needs to count for the floor
	// undoneShare: a lowering after which the delay stays above this share of what it was
	// did not help, and is undone (the delay is the host's).
	undoneShare = 0.8
	// noPauseAfterUndo is how long after an undone pause the controller only lowers.
	noPauseAfterUndo = 30 * time.Second
	// cooldown is how long after lowering the tables the controller waits before it lowers
	// them again while the deals in flight still exceed the new limit: their measurements
	// are those of the old load.
	cooldown = 2 * time.Second
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
	Delay    time.Duration // the 99th percentile of the decisions' delay outside the bots' thinking
	Bot      string        // the bot with the least headroom in the window ("" without decisions)
	Headroom float64       // that bot's headroom: 1 − its delay at the 99th percentile / the time per decision
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
	ramping  bool          // no overload seen yet: doubling while healthy

	// The window being measured.
	lag     time.Duration
	samples []sample

	healthy     int             // consecutive healthy windows
	floors      []time.Duration // the 99th percentiles of the last windows (floorWindows at most)
	lowered     time.Time       // when the tables were last lowered
	loweredFrom int             // the tables before that
	loweredAt   time.Duration   // and the delay that lowered them
	pausedLast  bool            // the last hold-back was a pause
	noPause     time.Time       // no pause before this: the last one did not help
	pausedSince time.Time       // when new deals were paused (zero: not paused)

	sum     domain.Admission
	flight  time.Duration // ∫ tables in flight dt, for the mean
	since   time.Time     // start of the time the mean covers
	changed time.Time     // last change of inFlight
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
		since: now, changed: now}
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
	s := c.sum
	if c.pausedSince != (time.Time{}) {
		s.Paused += now.Sub(c.pausedSince)
	}
	if d := now.Sub(c.since); d > 0 {
		s.Mean = float64(c.flight) / float64(d)
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

func (c *Controller) judgeLocked(now time.Time) (Change, bool) {
	per := float64(c.cfg.PerDecision)
	ch := Change{From: c.limit, Lag: c.lag}
	ch.Delay, ch.Bot, ch.Headroom = c.worst()
	decided, enough := len(c.samples) > 0, len(c.samples) >= floorSamples
	floor := 0.0 // none known yet: the thresholds alone judge
	if len(c.floors) > 0 {
		floor = float64(slices.Min(c.floors)) / per
	}
	if enough {
		if len(c.floors) == floorWindows {
			c.floors = c.floors[1:]
		}
		c.floors = append(c.floors, ch.Delay)
	}
	lag, delay := float64(c.lag)/per, float64(ch.Delay)/per
	// A window of few decisions (few tables) keeps them for the next, until there are enough
	// to show the floor: at one table on a busy host that floor may exceed a decision.
	c.lag = 0
	if enough || !decided {
		c.samples = c.samples[:0]
	}
	// A lowering that did not lower the delay was the host's, not the arena's load: the host
	// gives that delay however few tables play. Its floor is that delay from now on, and the
	// tables lowered for it come back.
	if enough && c.loweredFrom > c.limit && c.limit > 0 && c.inFlight <= c.limit && now.Sub(c.lowered) >= cooldown &&
		ch.Delay >= time.Duration(float64(c.loweredAt)*undoneShare) {
		c.floors = append(c.floors[:0], ch.Delay)
		c.limit, ch.Reason, c.healthy, c.loweredFrom = c.loweredFrom, Recovered, 0, 0
		if c.pausedLast { // pausing did not help either: lowering judges for a while
			c.noPause = now.Add(noPauseAfterUndo)
		}
		ch.To = c.limit
		c.wakeLocked()
		return ch, true
	}
	// Until a window has shown the floor, only a delay that threatens the bots lowers the
	// tables: the first windows play the few tables a start has, and their delay is the floor.
	// A window of few decisions judges on a threatening delay only: one slow answer (a
	// collection, a hiccup of the host) is not a load.
	overloaded := delay > delayOverloaded && delay > loadedFloor*floor && ((floor > 0 && enough) || delay > delaySevere)

	switch {
	case c.limit == 0:
		// Paused: no decision to judge. The pause ends when the arena's timers keep time
		// again, and never lasts longer than maxPause: a lag the host's other work causes does
		// not go away by waiting, and one table more tells whether the bots are losing time.
		if lag >= lagHealthy && now.Sub(c.pausedSince) < maxPause {
			return ch, false
		}
		c.sum.Paused += now.Sub(c.pausedSince)
		c.pausedSince = time.Time{}
		c.limit, ch.Reason, c.healthy = 1, Recovered, 0
	case lag > lagPause && decided && delay > delaySevere && delay > loadedFloor*floor && c.limit > 1 && !now.Before(c.noPause):
		// At one table the lag and the delay are the host's: pausing would not lower them.
		c.healthy = 0
		if c.loweredFrom <= c.limit { // what undoing restores (see above)
			c.loweredFrom, c.loweredAt = c.limit, ch.Delay
		}
		c.ramping, c.limit, ch.Reason, c.lowered, c.pausedLast = false, 0, Paused, now, true
		c.pausedSince = now
		c.sum.Pauses++
	case overloaded:
		c.healthy = 0
		if c.limit <= 1 || (c.inFlight > c.limit && now.Sub(c.lowered) < cooldown) {
			return ch, false // the last decrease has not taken effect yet
		}
		// The delay of a queue grows with its load: aim at the healthy band, or the floor.
		factor := min(max(max(delayHealthy, healthyFloor*floor)/delay, 0.25), 0.75)
		c.ramping, c.lowered, ch.Reason = false, now, Overloaded
		if c.loweredFrom <= c.limit { // the first of a run of lowerings: what undoing restores
			c.loweredFrom, c.loweredAt = c.limit, ch.Delay
		}
		c.pausedLast = false
		c.limit = max(1, int(float64(c.limit)*factor))
		c.sum.Lowered++
	case (decided && ((delay < delayHealthy && lag < lagPause) || delay < healthyFloor*floor)) ||
		(!decided && lag < lagHealthy && c.ramping):
		c.healthy++
		if c.limit >= c.cfg.Tables || (!c.ramping && c.healthy < healthyWindows) {
			if c.limit >= c.cfg.Tables {
				c.ramping = false
			}
			return ch, false
		}
		ch.Reason = Recovered
		if c.ramping {
			ch.Reason = Ramp
			c.limit = min(c.cfg.Tables, max(2*c.limit, 1))
		} else {
			c.limit = min(c.cfg.Tables, c.limit+max(1, c.limit/4))
		}
		c.healthy = 0
	default:
		c.healthy = 0
		return ch, false
	}
	c.samples = c.samples[:0] // a change: the next judgement is of the new tables
	if c.limit < c.sum.Fewest && ch.Reason != Ramp {
		c.sum.Fewest = c.limit
	}
	ch.To = c.limit
	c.wakeLocked()
	return ch, true
}

// worst returns the window's 99th percentile of delay, and the bot with the least headroom
// (the highest 99th percentile of its own decisions) with that headroom.
func (c *Controller) worst() (time.Duration, string, float64) {
	if len(c.samples) == 0 {
		return 0, "", 0
	}
	all := make([]time.Duration, len(c.samples))
	byBot := map[string][]time.Duration{}
	for i, s := range c.samples {
		all[i] = s.delay
		byBot[s.bot] = append(byBot[s.bot], s.delay)
	}
	p99 := percentile(all, 0.99)
	bot, worst := "", time.Duration(-1)
	for b, ds := range byBot {
		if p := percentile(ds, 0.99); p > worst || (p == worst && b < bot) {
			bot, worst = b, p
		}
	}
	return p99, bot, 1 - float64(worst)/float64(c.cfg.PerDecision)
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
		zap.Duration("delay_p99", ch.Delay)}
	if ch.Bot != "" {
		fields = append(fields, zap.String("bot", ch.Bot), zap.Float64("headroom", ch.Headroom))
	}
	switch ch.Reason {
	case Overloaded, Paused:
		c.log.Warn(ch.String(), fields...)
	case Recovered:
		c.log.Info(ch.String(), fields...)
	default:
		c.log.Debug(ch.String(), fields...)
	}
	if c.cfg.Changed != nil {
		c.cfg.Changed(ch)
	}
}
