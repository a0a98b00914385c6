package rating

import (
	"fmt"
)

// Interval is a sample mean with a two-sided 95% confidence interval, for example a bot's
// cents per deal. For finite input every field is finite (no NaN or ±Inf, even for N < 2), so
// an Interval marshals to JSON as is.
type Interval struct {
	// N is the number of values (deals, or duplicate groups when results are grouped).
	N int
	// Mean is the sample mean (0 when N = 0).
	Mean float64
	// SD is the sample standard deviation s = √(Σ(x − mean)²/(N − 1)) (0 when N < 2).
	SD float64
	// SE is the standard error of the mean, s/√N (0 when N < 2).
	SE float64
	// Crit is the critical value used: Student's t quantile t_{0.975, N−1} (0 when N < 2).
	Crit float64
	// Half is the half-width Crit·SE, and Lo, Hi = Mean ∓ Half (Lo = Hi = Mean when N < 2).
	Half, Lo, Hi float64
}

// Bounded reports whether the interval is meaningful, that is N ≥ 2. With N = 0 or 1 the
// spread is unknown and Half is reported as 0, not as a claim of precision.
func (iv Interval) Bounded() bool { return iv.N >= 2 }

// String formats the interval as "mean ± half (n=N)" with two decimals, or "mean (n=N)"
// when it is not [Interval.Bounded].
func (iv Interval) String() string {
	if !iv.Bounded() {
		return fmt.Sprintf("%.2f (n=%d)", iv.Mean, iv.N)
	}
	return fmt.Sprintf("%.2f ± %.2f (n=%d)", iv.Mean, iv.Half, iv.N)
}

// CentsPerDeal returns the mean of per-unit values with its 95% confidence interval. The
// units are whatever the caller aggregates: one value per deal, or one per duplicate group
// (the mean over the group's seatings) when deals are played in duplicate, which makes the
// units independent.
//
// The textbook large-sample interval is mean ± 1.96·s/√n. Since leagues often start with a
// handful of deals, the critical value is Student's t quantile with n − 1 degrees of freedom,
// t_{0.975, n−1} (12.71 at n = 2, 2.262 at n = 10, 2.010 at n = 50, 1.984 at n = 100), which is
// exact for normally distributed values and tends to 1.96 as n grows; the interval is
// mean ± t·s/√n with s the (n − 1) sample standard deviation.
//
// n = 0 returns the zero Interval; n = 1 returns the value as the mean with zero spread and
// [Interval.Bounded] false. NaN or infinite values are not checked and propagate.
func CentsPerDeal(values []float64) Interval {
	var r Running
	for _, x := range values {
		r.Add(x)
	}
	return r.Interval()
}
