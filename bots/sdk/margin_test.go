package sdk

import (
	"testing"
	"time"
)

// The SDK answers for the bot the larger of 20 ms and a tenth of the time left before the
// deadline, or what the bot configured.
func TestMarginScalesWithTheTimePerDecision(t *testing.T) {
	t.Parallel()
	defaults := Config{Margin: 20 * time.Millisecond, MarginFraction: 0.1}
	for _, c := range []struct {
		cfg  Config
		left time.Duration
		want time.Duration
	}{
		{defaults, 100 * time.Millisecond, 20 * time.Millisecond},
		{defaults, 200 * time.Millisecond, 20 * time.Millisecond},
		{defaults, time.Second, 100 * time.Millisecond},
		{defaults, 10 * time.Second, time.Second},
		{Config{Margin: 50 * time.Millisecond, MarginFraction: 0.25}, time.Second, 250 * time.Millisecond},
		{Config{Margin: 50 * time.Millisecond, MarginFraction: 0.25}, 100 * time.Millisecond, 50 * time.Millisecond},
	} {
		if got := margin(c.cfg, c.left); got != c.want {
			t.Errorf("margin(%v, %v) = %v, want %v", c.cfg.Margin, c.left, got, c.want)
		}
	}
}
