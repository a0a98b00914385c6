package referee

import (
	"testing"
	"time"
)

// A request's deadline is the time per decision from its asking, truncated to whole µs and
// without a monotonic reading (what the records keep and the wire carries), exactly as
// time.Time.Truncate gives it: the referee computes it without Truncate's division.
func TestDeadlineIsTheTruncatedTimePerDecision(t *testing.T) {
	t.Parallel()
	now := time.Now()
	for _, start := range []time.Time{
		now, now.Add(999), now.Add(1000), now.Add(-1), time.Unix(0, 1_999_999_999), time.Unix(-5, 123_456_789),
		time.Date(2026, 12, 2, 23, 59, 59, 999_999_999, time.UTC), time.Date(1, 1, 1, 0, 0, 0, 1_500, time.UTC),
	} {
		for _, per := range []time.Duration{0, time.Nanosecond, 999, 5 * time.Second, 100*time.Millisecond + 1} {
			got, want := deadline(start, per), start.Add(per).Truncate(time.Microsecond)
			if !got.Equal(want) || got != want {
				t.Errorf("deadline(%v, %v) = %v, want %v", start, per, got, want)
			}
		}
	}
}
