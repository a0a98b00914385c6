package sleuth

import (
	"context"
	"testing"
	"time"

	"github.com/tapparena/tapp/bots"
	"github.com/tapparena/tapp/bots/internal/bottest"
	"github.com/tapparena/tapp/engine"
)

// firstOf returns the first observation of a decision kind (and, for a card, of a contract
// with or without a declarer) in random games.
func firstOf(t *testing.T, want func(*engine.Observation) bool) *engine.Observation {
	t.Helper()
	for _, o := range observations(t, bottest.RuleSets(t)["modern"], 20, 3) {
		if want(&o) {
			return &o
		}
	}
	t.Fatal("no such decision in 20 random deals")
	return nil
}

// The clock stops a decision halfway through its own time; a bid may run on into a tenth
// of the overage bank, an ordinary card not at all; never past half the time to the end of
// the bank or of the context; and a caller without a clock gets half the time to the context's deadline, as
// before the bots had clocks.
func TestClockSpendsTheBankOnBids(t *testing.T) {
	t.Parallel()
	bid := firstOf(t, func(o *engine.Observation) bool { return o.Decision == engine.DecideBid })
	b := New(Config{})
	ordinary := firstOf(t, func(o *engine.Observation) bool {
		return o.Decision == engine.DecideCard && (&decision{b: b, obs: o}).importance() == 1
	})
	now := time.Now()
	own := now.Add(230 * time.Millisecond) // 200 ms of it usable: less deadlineMargin
	for _, c := range []struct {
		name  string
		obs   *engine.Observation
		clock bots.Clock
		end   time.Time     // the context's (zero: the clock's end)
		want  time.Duration // from now
	}{
		{"bid, 10 s bank", bid, bots.Clock{Deadline: own, Overage: 10 * time.Second}, time.Time{}, 100*time.Millisecond + time.Second},
		{"bid, no bank", bid, bots.Clock{Deadline: own}, time.Time{}, 100 * time.Millisecond},
		{"bid, a context that ends first", bid, bots.Clock{Deadline: own, Overage: 10 * time.Second}, own.Add(400 * time.Millisecond), 300 * time.Millisecond},
		{"ordinary card, 10 s bank", ordinary, bots.Clock{Deadline: own, Overage: 10 * time.Second}, time.Time{}, 100 * time.Millisecond},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := &decision{b: b, obs: c.obs}
			end := c.end
			if end.IsZero() {
				end = c.clock.End()
			}
			ctx, cancel := context.WithDeadline(bots.WithClock(context.Background(), c.clock), end)
			defer cancel()
			stop, ok := d.clockStop(ctx, now)
			if !ok || stop.Sub(now) != c.want {
				t.Errorf("stops %v after the start (%v), want %v", stop.Sub(now), ok, c.want)
			}
		})
	}
	d := &decision{b: b, obs: bid}
	ctx, cancel := context.WithDeadline(context.Background(), own)
	defer cancel()
	if stop, ok := d.clockStop(ctx, now); !ok || stop.Sub(now) != 100*time.Millisecond {
		t.Errorf("without a clock: stops %v after the start (%v), want 100ms", stop.Sub(now), ok)
	}
	if _, ok := d.clockStop(context.Background(), now); ok {
		t.Error("a stop with neither a clock nor a deadline")
	}
}
