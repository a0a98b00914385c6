package rating

import (
	"fmt"
	"math"
)

// Running accumulates values one at a time, keeping only their count, mean and sum of
// squared deviations (Welford's update): the figures of CentsPerDeal and EloFromScores for
// a sequence that grows, at a constant cost per value instead of a pass over all of them.
// For the same values in the same order it gives exactly what those functions give. The zero
// value is an empty sequence.
type Running struct{ m moments }

// Add adds a value.
func (r *Running) Add(x float64) { r.m.add(x) }

// N is the number of values added.
func (r *Running) N() int { return int(r.m.n) }

// Interval is CentsPerDeal of the values added.
func (r *Running) Interval() Interval {
	iv := Interval{N: r.N(), Mean: r.m.mean}
	if iv.N < 2 {
		iv.Lo, iv.Hi = iv.Mean, iv.Mean
		return iv
	}
	iv.SD = math.Sqrt(r.m.m2 / float64(iv.N-1))
	iv.SE = iv.SD / math.Sqrt(float64(iv.N))
	iv.Crit = StudentTQuantile(0.975, float64(iv.N-1))
	iv.Half = iv.Crit * iv.SE
	iv.Lo, iv.Hi = iv.Mean-iv.Half, iv.Mean+iv.Half
	return iv
}

// AddScore adds a score in [0, 1] (for Elo); it refuses, adding nothing, any other value.
func (r *Running) AddScore(x float64) error {
	if !(x >= 0 && x <= 1) {
		return fmt.Errorf("rating: score %v outside [0, 1]", x)
	}
	r.m.add(x)
	return nil
}

// Elo is EloFromScores of the scores added.
func (r *Running) Elo() EloEstimate {
	if r.m.n == 0 {
		return EloEstimate{Score: 0.5, LOS: 0.5, LOSWinsLosses: 0.5}
	}
	e := estimate(int(r.m.n), r.m.mean, r.m.variance())
	e.LOSWinsLosses = e.LOS
	return e
}
