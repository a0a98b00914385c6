package match

import (
	"slices"
	"sync/atomic"
	"testing"
	"time"
)

// A group commit takes what waits and what comes within the linger, at most max, and stops
// early when the channel closes; without a linger it takes only what waits already.
func TestGather(t *testing.T) {
	t.Parallel()
	ch := make(chan int, 10)
	for i := 2; i <= 6; i++ {
		ch <- i
	}
	if got := Gather(1, ch, 4, 0, nil); !slices.Equal(got, []int{1, 2, 3, 4}) {
		t.Errorf("max 4: %v", got)
	}
	if got := Gather(0, ch, 10, 0, nil); !slices.Equal(got, []int{0, 5, 6}) {
		t.Errorf("no linger: %v, want what waited", got)
	}
	go func() { time.Sleep(20 * time.Millisecond); ch <- 7; close(ch) }()
	if got := Gather(0, ch, 10, 10*time.Second, nil); !slices.Equal(got, []int{0, 7}) {
		t.Errorf("linger until closed: %v", got)
	}
}

// A group commit stops lingering once no table is playing: nothing more is coming, and the
// last deals of a match or a league are stored at once, not a linger later.
func TestGatherStopsLingeringWhenIdle(t *testing.T) {
	t.Parallel()
	ch := make(chan int, 10)
	ch <- 1
	if got := Gather(0, ch, 10, time.Hour, func() bool { return true }); !slices.Equal(got, []int{0, 1}) {
		t.Errorf("idle from the start: %v, want what waited", got)
	}
	// The last table sends its deal and then stops playing: the deal is in the batch, and the
	// batch ends there.
	var playing atomic.Bool
	playing.Store(true)
	go func() { time.Sleep(20 * time.Millisecond); ch <- 2; playing.Store(false) }()
	if got := Gather(0, ch, 10, time.Hour, func() bool { return !playing.Load() }); !slices.Equal(got, []int{0, 2}) {
		t.Errorf("idle after the last deal: %v", got)
	}
}
