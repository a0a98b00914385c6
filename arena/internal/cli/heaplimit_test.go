package cli

import "testing"

// The soft memory limit caps a small heap's target at the floor and leaves a large heap room
// to collect at twice its size or more, never near the live heap itself.
func TestHeapLimit(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		live uint64
		want int64
	}{
		{0, 48 << 20},
		{8 << 20, 48 << 20},    // a league of random bots: GOGC=400 would aim at 40 MB, up to 100 in spikes
		{16 << 20, 48 << 20},   // the floor is three times this
		{100 << 20, 300 << 20}, // a big league: GOGC=200-like, far from the live heap
	} {
		if got := heapLimit(c.live); got != c.want {
			t.Errorf("heapLimit(%d MiB) = %d MiB, want %d MiB", c.live>>20, got>>20, c.want>>20)
		}
	}
}
