package admission

import (
	"context"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

const per = 100 * time.Millisecond

// judgeOne judges one window of n decisions of bot, 90% of them with the delay median outside
// the bot's thinking and 10% with tail (so that the median is median and the 95th percentile
// tail), after a scheduling lag of lag.
func judgeOne(c *Controller, lag time.Duration, bot string, n int, median, tail time.Duration) {
	c.observeLag(lag)
	for i := range n {
		d := median
		if i%10 == 9 {
			d = tail
		}
		c.Observe(bot, 0, d+time.Millisecond, time.Millisecond) // a millisecond of the bot's own thinking
	}
	c.judge(time.Now())
}

// windows judges k windows of 100 decisions of one bot.
func windows(c *Controller, k int, lag, median, tail time.Duration) {
	for range k {
		judgeOne(c, lag, "a", 100, median, tail)
	}
}

// hold takes n tables from c (the deals in flight the floor of tables counts).
func hold(t *testing.T, c *Controller, n int) []func() {
	t.Helper()
	var rs []func()
	for range n {
		r, err := c.Acquire(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	return rs
}

func recorder() (*[]Change, func(Change)) {
	var changes []Change
	return &changes, func(ch Change) { changes = append(changes, ch) }
}

func limits(changes []Change) []int {
	var got []int
	for _, ch := range changes {
		got = append(got, ch.To)
	}
	return got
}

func TestRampsUpWhileHealthy(t *testing.T) {
	t.Parallel()
	changes, changed := recorder()
	c := New(Config{Tables: 200, PerDecision: per, Changed: changed})
	if got := c.Limit(); got != startTables {
		t.Fatalf("starts at %d tables, want %d", got, startTables)
	}
	windows(c, 10, time.Millisecond, time.Millisecond, 2*time.Millisecond)
	if got, want := limits(*changes), []int{16, 32, 64, 128, 200}; !equal(got, want) || c.Limit() != 200 {
		t.Errorf("ramped through %v to %d, want %v", got, c.Limit(), want)
	}
}

// Answers whose 95th percentile loses 80% of the time per decision while the median shows the
// tables queueing (20 ms above the host's floor of 1 ms) lower the tables at once, in
// proportion (to 50% / 80% of them); the progress line says so; then every window that is
// not both raises them by an eighth — the additive increase of AIMD.
func TestQueueingThreatLowersInProportionAndRecoveryRaisesByAnEighth(t *testing.T) {
	t.Parallel()
	changes, changed := recorder()
	c := New(Config{Tables: 200, PerDecision: per, Changed: changed})
	windows(c, 6, 0, time.Millisecond, 2*time.Millisecond) // ramped up to 200, the floor 1 ms
	*changes = nil
	c.observeLag(3 * time.Millisecond)
	for range 10 {
		c.Observe("fast", 0, 21*time.Millisecond, time.Millisecond)
	}
	judgeOne(c, 0, "slow#2", 90, 20*time.Millisecond, 80*time.Millisecond)
	if len(*changes) != 1 || (*changes)[0].Reason != Overloaded || (*changes)[0].From != 200 || (*changes)[0].To != 125 {
		t.Fatalf("changes %+v, want one overload from 200 to 125 tables", *changes)
	}
	ch := (*changes)[0]
	if ch.Bot != "slow#2" || ch.Headroom < 0.19 || ch.Headroom > 0.21 {
		t.Errorf("the bot with least headroom: %s with %.2f, want slow#2 with 0.20", ch.Bot, ch.Headroom)
	}
	if s := ch.String(); !strings.HasPrefix(s, "host overloaded: 200 → 125 tables (scheduling lag 3ms, slow#2 has 20% of its time left)") {
		t.Errorf("progress line %q", s)
	}
	*changes = nil
	windows(c, 2, 0, 2*time.Millisecond, 20*time.Millisecond)
	if got, want := limits(*changes), []int{140, 157}; !equal(got, want) {
		t.Errorf("recovered through %v, want %v", got, want)
	}
	s := c.Summary()
	if s.Asked != 200 || s.Fewest != 125 || s.Lowered != 1 || s.Pauses != 0 || !s.Overloaded() {
		t.Errorf("summary %+v", s)
	}
}

// A busy host's tail — a 95th percentile at 90% of the time per decision while the median
// stays at the floor — comes whatever the arena plays: it lowers nothing, and the tables ramp
// up to all of them. The same tail with the median 10 ms above the floor (queueing) lowers them.
func TestHostTailWithoutQueueingIsNotOverload(t *testing.T) {
	t.Parallel()
	c := New(Config{Tables: 64, PerDecision: per})
	windows(c, 10, 20*time.Millisecond, 2*time.Millisecond, 90*time.Millisecond)
	if got := c.Limit(); got != 64 {
		t.Fatalf("%d tables, want all 64: a tail at the host's floor is not the arena's load", got)
	}
	windows(c, 1, 20*time.Millisecond, 12*time.Millisecond, 90*time.Millisecond)
	if got := c.Limit(); got >= 64 {
		t.Errorf("%d tables after the median rose 10 ms above the floor with the bots threatened, want fewer", got)
	}
}

// Queueing alone, with the bots' 95th percentile within half their time, is no threat: the
// tables stay up. That is what keeps a 200-table match from turning into a serial one.
func TestQueueingWithinTheTargetIsNotOverload(t *testing.T) {
	t.Parallel()
	c := New(Config{Tables: 200, PerDecision: per})
	windows(c, 10, 0, 30*time.Millisecond, 45*time.Millisecond)
	if got := c.Limit(); got != 200 {
		t.Errorf("%d tables, want all 200: the bots keep more than half their time", got)
	}
}

// The tables never go below half the most in flight in a window that did not lower them: the
// floor of tables grows with what the host has shown it serves, however often the bots are
// threatened after.
func TestFloorOfTablesGrowsWithWhatTheHostServed(t *testing.T) {
	t.Parallel()
	c := New(Config{Tables: 100, PerDecision: per})
	windows(c, 3, 0, time.Millisecond, 2*time.Millisecond) // ramped to 64
	if c.Limit() != 64 {
		t.Fatalf("limit %d, want 64", c.Limit())
	}
	releases := hold(t, c, 64)
	windows(c, 1, 0, time.Millisecond, 2*time.Millisecond) // 64 tables served unthreatened
	for _, r := range releases[40:] {
		r() // 40 in flight: the lowering takes effect at once
	}
	for range 10 {
		windows(c, 1, 0, 40*time.Millisecond, 200*time.Millisecond)
	}
	if got := c.Limit(); got != 32 {
		t.Errorf("%d tables after ten threatened windows, want the floor of 32 (half of the 64 served)", got)
	}
	if s := c.Summary(); s.Fewest != 32 || s.Most != 64 {
		t.Errorf("summary %+v, want fewest 32 and most 64", s)
	}
}

// A window of fewer decisions than minSamples is not judged: its decisions count with the
// next. One slow answer of a table or two is not a load.
func TestFewDecisionsWaitForMore(t *testing.T) {
	t.Parallel()
	changes, changed := recorder()
	c := New(Config{Tables: 100, PerDecision: per, Changed: changed})
	judgeOne(c, 0, "a", minSamples/2, 90*time.Millisecond, 90*time.Millisecond)
	if len(*changes) != 0 {
		t.Fatalf("judged a window of %d decisions: %+v", minSamples/2, *changes)
	}
	judgeOne(c, 0, "a", minSamples/2, 90*time.Millisecond, 90*time.Millisecond)
	if len(*changes) != 1 || (*changes)[0].Reason != Overloaded {
		t.Errorf("changes %+v, want the two windows judged together (their 95th percentile is 90 ms)", *changes)
	}
}

// Overload lowers the tables to one at the fewest: a bot's slowness never stops a match. And
// a delay that stays what it is however few tables play is the host's floor, not the
// arena's load: the tables come back.
func TestBotDelayNeverStopsTheMatch(t *testing.T) {
	t.Parallel()
	c := New(Config{Tables: 4, PerDecision: per})
	windows(c, 1, 0, 90*time.Millisecond, 90*time.Millisecond)
	if got := c.Limit(); got != 2 {
		t.Errorf("%d tables after a window of answers 90%% late, want 2", got)
	}
	for range 20 {
		windows(c, 1, 0, 90*time.Millisecond, 90*time.Millisecond)
		if c.Limit() < 1 {
			t.Fatalf("%d tables: a bot's slowness paused the match", c.Limit())
		}
	}
	if got := c.Limit(); got != 4 {
		t.Errorf("%d tables after 20 windows at the same delay, want all 4 again: the delay is the floor", got)
	}
}

// A starved arena (its own timers more than a decision late, the bots' answers later than a
// decision and queueing) pauses new deals: Acquire waits, and goes on once the lag is gone —
// or, however long the lag lasts, after maxPause, with one table. A second starvation within
// noPauseAfter only lowers the tables. Tested in fake time.
func TestStarvedArenaPausesNewDeals(t *testing.T) {
	t.Parallel()
	for _, lagAfter := range []time.Duration{0, 120 * time.Millisecond} {
		synctest.Test(t, func(t *testing.T) {
			changes, changed := recorder()
			c := New(Config{Tables: 8, PerDecision: per, Changed: changed})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			windows(c, 1, 120*time.Millisecond, 70*time.Millisecond, 120*time.Millisecond)
			if c.Limit() != 0 || len(*changes) != 1 || (*changes)[0].Reason != Paused {
				t.Fatalf("limit %d, changes %+v: want new deals paused", c.Limit(), *changes)
			}
			got := make(chan func(), 1)
			go func() {
				release, err := c.Acquire(ctx)
				if err != nil {
					t.Error(err)
					return
				}
				got <- release
			}()
			synctest.Wait()
			select {
			case <-got:
				t.Fatal("a table was handed out while paused")
			default:
			}
			wait := time.Second
			if lagAfter > 0 {
				wait = maxPause // the lag stays: the pause ends by itself
				c.observeLag(lagAfter)
				c.judge(time.Now())
				if c.Limit() != 0 {
					t.Fatalf("lag %v: the pause ended at once", lagAfter)
				}
			}
			time.Sleep(wait)
			c.observeLag(lagAfter)
			c.judge(time.Now())
			synctest.Wait()
			select {
			case release := <-got:
				release()
			default:
				t.Fatalf("lag %v: no table after %v of pause (limit %d)", lagAfter, wait, c.Limit())
			}
			if s := c.Summary(); s.Pauses != 1 || s.Paused != wait || s.Fewest != 0 || c.Limit() != 1 {
				t.Errorf("lag %v: summary %+v, limit %d; want one pause of %v, then one table", lagAfter, s, c.Limit(), wait)
			}
			windows(c, 3, 0, time.Millisecond, time.Millisecond) // back to 4 tables
			windows(c, 1, 120*time.Millisecond, 70*time.Millisecond, 120*time.Millisecond)
			if s := c.Summary(); s.Pauses != 1 || c.Limit() == 0 {
				t.Errorf("lag %v: a second starvation within %v: summary %+v, limit %d; want it lowered, not paused", lagAfter, noPauseAfter, s, c.Limit())
			}
		})
	}
}

// Run measures the lag itself: on a host that keeps up (fake time has none) it ramps up to
// every table asked for, and Acquire hands out no more than the limit.
func TestRunRampsUpAndAcquireHoldsTheLimit(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		c := New(Config{Tables: 40, PerDecision: per})
		ctx, cancel := context.WithCancel(context.Background())
		go c.Run(ctx)
		releases := hold(t, c, startTables)
		blocked := make(chan struct{})
		go func() {
			if r, err := c.Acquire(ctx); err == nil {
				r()
			}
			close(blocked)
		}()
		synctest.Wait()
		select {
		case <-blocked:
			t.Fatal("a ninth table was handed out before the first judgement")
		default:
		}
		time.Sleep(4 * window)
		synctest.Wait()
		<-blocked
		if got := c.Limit(); got != 40 {
			t.Errorf("%d tables after four healthy windows, want 40", got)
		}
		for _, r := range releases {
			r()
			r() // a second release is a no-op
		}
		cancel()
		if s := c.Summary(); s.Most != startTables+1 && s.Most != startTables {
			t.Errorf("most in flight %d, want %d", s.Most, startTables)
		}
	})
}

func equal(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// On a host so busy that even one table's answers take 1.5 decisions outside the bots'
// thinking and the arena's timers fire 150 ms late (the host's other work, not the arena's
// load), holding tables back helps nobody: that delay is the host's floor, so the tables
// stay up, and at most one pause per noPauseAfter is tried. Tested in fake time.
func TestHostDelayTheTablesCannotLowerIsNotHeldBack(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		c := New(Config{Tables: 64, PerDecision: per})
		const delay, lag = 150 * time.Millisecond, 150 * time.Millisecond
		for i := range 200 { // 50 s of windows
			d := delay
			if i%10 == 9 {
				d = 2 * delay // the host's worse moments
			}
			for range max(c.Limit(), 0) * 2 { // decisions come in proportion to the tables
				c.Observe("a", 0, d+time.Millisecond, time.Millisecond)
			}
			c.observeLag(lag)
			time.Sleep(window)
			c.judge(time.Now())
		}
		s := c.Summary()
		if most := 1 + int(50*time.Second/noPauseAfter); c.Limit() < 32 || s.Pauses > most {
			t.Errorf("limit %d after 50 s, summary %+v: want the tables back (at least 32 of 64) and at most %d pauses",
				c.Limit(), s, most)
		}
	})
}

// The summary's mean allowed is the time-mean of the limit: 8 tables for a second, then 16
// for a second, is 12 — told apart from the mean in flight (here none), so that a record says
// whether the admission control or something else kept the tables down. Tested in fake time.
func TestSummaryMeanAllowedIsTheLimitsTimeMean(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		c := New(Config{Tables: 16, PerDecision: per})
		time.Sleep(time.Second)
		windows(c, 1, 0, time.Millisecond, 2*time.Millisecond) // healthy: doubled to 16
		if c.Limit() != 16 {
			t.Fatalf("limit %d, want 16", c.Limit())
		}
		time.Sleep(time.Second)
		if s := c.Summary(); s.AllowedMean != 12 || s.Mean != 0 {
			t.Errorf("summary %+v: want 12 tables allowed and none in flight on average", s)
		}
	})
}
