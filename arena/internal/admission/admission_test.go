package admission

import (
	"context"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

const per = 100 * time.Millisecond

// windows judges n windows of the measurements given: a scheduling lag, and each bot's
// decisions with that delay outside its thinking.
func windows(c *Controller, n int, lag time.Duration, delays map[string]time.Duration) {
	for range n {
		c.observeLag(lag)
		for bot, d := range delays {
			for range 50 {
				c.Observe(bot, 0, d+time.Millisecond, time.Millisecond)
			}
		}
		c.judge(time.Now())
	}
}

func TestRampsUpWhileHealthy(t *testing.T) {
	t.Parallel()
	var changes []Change
	c := New(Config{Tables: 200, PerDecision: per, Changed: func(ch Change) { changes = append(changes, ch) }})
	if got := c.Limit(); got != startTables {
		t.Fatalf("starts at %d tables, want %d", got, startTables)
	}
	windows(c, 10, time.Millisecond, map[string]time.Duration{"a": 2 * time.Millisecond})
	var got []int
	for _, ch := range changes {
		got = append(got, ch.To)
	}
	if want := []int{16, 32, 64, 128, 200}; !equal(got, want) || c.Limit() != 200 {
		t.Errorf("ramped through %v to %d, want %v", got, c.Limit(), want)
	}
}

// Answers that lose a third of their time outside the bots' thinking lower the tables at
// once, in proportion; the progress line says so; healthy windows raise them step by step.
func TestOverloadLowersTheTablesAndRecoveryRaisesThem(t *testing.T) {
	t.Parallel()
	var changes []Change
	c := New(Config{Tables: 200, PerDecision: per, Changed: func(ch Change) { changes = append(changes, ch) }})
	windows(c, 6, 0, map[string]time.Duration{"fast": 2 * time.Millisecond}) // ramped up to 200, the floor 2ms
	changes = nil
	windows(c, 1, 3*time.Millisecond, map[string]time.Duration{"fast": 5 * time.Millisecond, "slow#2": 60 * time.Millisecond})
	if len(changes) != 1 || changes[0].Reason != Overloaded || changes[0].From != 200 || changes[0].To != 50 {
		t.Fatalf("changes %+v, want one overload from 200 to 50 tables", changes)
	}
	ch := changes[0]
	if ch.Bot != "slow#2" || ch.Headroom < 0.39 || ch.Headroom > 0.41 {
		t.Errorf("the bot with least headroom: %s with %.2f, want slow#2 with 0.40", ch.Bot, ch.Headroom)
	}
	if s := ch.String(); !strings.HasPrefix(s, "host overloaded: 200 → 50 tables (scheduling lag 3ms, slow#2 has 40% of its time left)") {
		t.Errorf("progress line %q", s)
	}
	// Three healthy windows are not enough, the fourth raises the tables by a quarter.
	changes = nil
	windows(c, healthyWindows-1, 0, map[string]time.Duration{"fast": time.Millisecond})
	if len(changes) != 0 {
		t.Fatalf("raised after %d healthy windows: %+v", healthyWindows-1, changes)
	}
	windows(c, 1, 0, map[string]time.Duration{"fast": time.Millisecond})
	if len(changes) != 1 || changes[0].Reason != Recovered || changes[0].To != 62 {
		t.Fatalf("changes %+v, want a recovery to 62 tables", changes)
	}
	s := c.Summary()
	if s.Asked != 200 || s.Fewest != 50 || s.Lowered != 1 || s.Pauses != 0 || !s.Overloaded() {
		t.Errorf("summary %+v", s)
	}
}

// Overload lowers the tables to one at the fewest: a bot's slowness never stops a match.
// And a delay that stays what it is however few tables play is the host's floor, not the
// arena's load: it lowers nothing more.
func TestBotDelayNeverStopsTheMatch(t *testing.T) {
	t.Parallel()
	c := New(Config{Tables: 4, PerDecision: per})
	windows(c, 1, 0, map[string]time.Duration{"slow": 90 * time.Millisecond})
	if got := c.Limit(); got != 1 {
		t.Errorf("%d tables after a window of answers 90%% late, want 1", got)
	}
	for range 20 {
		windows(c, 1, 0, map[string]time.Duration{"slow": 90 * time.Millisecond})
		if c.Limit() < 1 {
			t.Fatalf("%d tables: a bot's slowness paused the match", c.Limit())
		}
	}
	if got := c.Limit(); got != 4 {
		t.Errorf("%d tables after 20 windows at the same delay, want all 4 again: the delay is the floor", got)
	}
}

// On a host whose floor is high (its wake-ups alone take 40% of a decision), the delay that
// stays near that floor is no overload: the tables ramp up and stay up.
func TestHighFloorIsNotOverload(t *testing.T) {
	t.Parallel()
	c := New(Config{Tables: 64, PerDecision: per})
	windows(c, 10, 20*time.Millisecond, map[string]time.Duration{"a": 40 * time.Millisecond})
	if got := c.Limit(); got != 64 {
		t.Fatalf("%d tables, want all 64: a delay at the host's floor is not the arena's load", got)
	}
	// Twice the floor, and beyond the threshold, is.
	windows(c, 1, 20*time.Millisecond, map[string]time.Duration{"a": 80 * time.Millisecond})
	if got := c.Limit(); got >= 64 {
		t.Errorf("%d tables after the delay doubled, want fewer", got)
	}
}

// A starved arena (its own timers more than a decision late, the bots' answers late too)
// pauses new deals: Acquire waits, and goes on once the lag is gone — or, however long the
// lag lasts, after maxPause, with one table. Tested in fake time.
func TestStarvedArenaPausesNewDeals(t *testing.T) {
	t.Parallel()
	for _, lagAfter := range []time.Duration{0, 120 * time.Millisecond} {
		synctest.Test(t, func(t *testing.T) {
			var changes []Change
			c := New(Config{Tables: 8, PerDecision: per, Changed: func(ch Change) { changes = append(changes, ch) }})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			windows(c, 1, 120*time.Millisecond, map[string]time.Duration{"a": 70 * time.Millisecond})
			if c.Limit() != 0 || len(changes) != 1 || changes[0].Reason != Paused {
				t.Fatalf("limit %d, changes %+v: want new deals paused", c.Limit(), changes)
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
				windows(c, 1, lagAfter, nil)
				if c.Limit() != 0 {
					t.Fatalf("lag %v: the pause ended at once", lagAfter)
				}
			}
			time.Sleep(wait)
			windows(c, 1, lagAfter, nil)
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
		var releases []func()
		for range startTables {
			r, err := c.Acquire(ctx)
			if err != nil {
				t.Fatal(err)
			}
			releases = append(releases, r)
		}
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
// load), holding tables back helps nobody: the controller learns that floor from the few
// decisions few tables give, stops pausing at one table and for a while after a pause that
// did not help, undoes the lowering that did not lower the delay and plays every table again
// (the per-game bank absorbs the host's delay).
// Tested in fake time.
func TestHostDelayTheTablesCannotLowerIsNotHeldBack(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		c := New(Config{Tables: 64, PerDecision: per})
		const delay, lag = 150 * time.Millisecond, 150 * time.Millisecond
		for i := range 200 { // 50 s of windows
			for range max(c.Limit(), 0) * 2 { // decisions come in proportion to the tables
				d := delay
				if i%10 == 9 {
					d = 2 * delay // the host's worse moments
				}
				c.Observe("a", 0, d+time.Millisecond, time.Millisecond)
			}
			c.observeLag(lag)
			time.Sleep(window)
			c.judge(time.Now())
		}
		s := c.Summary()
		if most := 1 + int(50*time.Second/noPauseAfterUndo); c.Limit() < 32 || s.Pauses > most {
			t.Errorf("limit %d after 50 s, summary %+v: want the tables back (at least 32 of 64) and at most %d pauses (one, and one per %v after it was undone)",
				c.Limit(), s, most, noPauseAfterUndo)
		}
	})
}
