package match

import (
	"slices"
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
	if got := Gather(1, ch, 4, 0); !slices.Equal(got, []int{1, 2, 3, 4}) {
		t.Errorf("max 4: %v", got)
	}
	if got := Gather(0, ch, 10, 0); !slices.Equal(got, []int{0, 5, 6}) {
		t.Errorf("no linger: %v, want what waited", got)
	}
	go func() { time.Sleep(20 * time.Millisecond); ch <- 7; close(ch) }()
	if got := Gather(0, ch, 10, 10*time.Second); !slices.Equal(got, []int{0, 7}) {
		t.Errorf("linger until closed: %v", got)
	}
}
