package board

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// A history taken as a league's clock runs to a million deal sources, by steps of every size
// a store sees (one deal, a batch, a round), keeps at most MaxHistoryPoints + 1 points, the
// first and the last among them, evenly spaced: no gap wider than two strides.
func TestHistoryStaysBoundedAndEven(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	var points []int64
	last, clock := int64(-1), int64(0)
	taken := 0
	for clock < 1_000_000 {
		clock += 1 + rng.Int64N([]int64{1, 8, 200, 5000}[rng.IntN(4)])
		if !HistoryDue(last, clock) {
			continue
		}
		drop := HistoryDrop(points, clock)
		points = slices.DeleteFunc(points, func(c int64) bool { return slices.Contains(drop, c) })
		points = append(points, clock)
		last = clock
		taken++
		if len(points) > MaxHistoryPoints+1 {
			t.Fatalf("clock %d: %d points", clock, len(points))
		}
	}
	s := HistoryStride(clock)
	for i := 1; i < len(points); i++ {
		if gap := points[i] - points[i-1]; gap > 2*s+5000 {
			t.Errorf("points %d and %d are %d apart, stride %d", points[i-1], points[i], gap, s)
		}
	}
	if len(points) < MaxHistoryPoints/2 || points[len(points)-1] != clock {
		t.Errorf("%d points, the last at %d (clock %d): want at least %d, the last at the clock", len(points), points[len(points)-1], clock, MaxHistoryPoints/2)
	}
	if taken > 40*MaxHistoryPoints {
		t.Errorf("%d points taken over the run (a board computed each): want a few per doubling of the clock", taken)
	}
}

func TestHistoryStride(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ clock, want int64 }{{1, 1}, {64, 1}, {65, 2}, {128, 2}, {129, 4}, {1 << 20, 1 << 14}, {1<<20 + 1, 1 << 15}} {
		if got := HistoryStride(c.clock); got != c.want {
			t.Errorf("stride at %d = %d, want %d", c.clock, got, c.want)
		}
	}
}
