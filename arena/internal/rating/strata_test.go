package rating

import (
	"math"
	"testing"
)

// TestStrataDegreesOfFreedom: a headline whose variance comes evenly from G deal sources of one
// kind (a round robin: every source played by the same tables) keeps Student's G − 1 degrees
// of freedom, exact for its plain mean; one whose variance comes mostly from a few sources (a
// composition played in one round of many) gets about as many as those few, not G − 1, which
// made such intervals too short.
func TestStrataDegreesOfFreedom(t *testing.T) {
	t.Parallel()
	even := sourceStrata{index: map[string]int{}}
	var evenInfl [][]float64
	for g := range 40 {
		even.add("0,1,2,3,", 1)
		evenInfl = append(evenInfl, []float64{float64(g%7) - 3})
	}
	if df := even.df(evenInfl, func(f []float64) float64 { return f[0] }, 39); df != 39 {
		t.Errorf("one stratum of 40 sources: %v degrees of freedom, want 39", df)
	}
	few := sourceStrata{index: map[string]int{}}
	var fewInfl [][]float64
	for g := range 100 {
		x := 1.0
		key := "0,1,"
		if g < 5 { // five sources of a composition played once, each ten times the others' spread
			x, key = 10, "2,3,"
		}
		if g%2 == 0 {
			x = -x
		}
		few.add(key, 1)
		fewInfl = append(fewInfl, []float64{x})
	}
	df := few.df(fewInfl, func(f []float64) float64 { return f[0] }, 99)
	// Welch–Satterthwaite: (500 + 95)² / (500²/4 + 95²/94) ≈ 5.7 — nearly the few sources' 4
	if want := 595.0 * 595 / (500.0*500/4 + 95.0*95/94); math.Abs(df-want) > 1e-9 || df > 6 {
		t.Errorf("five sources carrying most of the variance among 100: %v degrees of freedom, want %.2f (not 99)", df, want)
	}
	if df := few.df(nil, func(f []float64) float64 { return f[0] }, 99); df != 99 {
		t.Errorf("without a sample: %v degrees of freedom, want the sources' 99", df)
	}
}
