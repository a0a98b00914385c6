package rating

import (
	"fmt"
	"math"
)

// Interval is a sample mean with a two-sided 95% confidence interval, for example a bot's
// cents per deal, or an analysis's error per deal: the one interval type of the arena. For
// finite input every field is finite (no NaN or ±Inf, even for N < 2), so an Interval
// marshals to JSON as is.
type Interval struct {
	// N is the number of values (deals, or duplicate groups when results are grouped).
	N int `json:"n"`
	// Mean is the sample mean (0 when N = 0).
	Mean float64 `json:"mean"`
	// SD is the sample standard deviation s = √(Σ(x − mean)²/(N − 1)) (0 when N < 2).
	SD float64 `json:"sd"`
	// SE is the standard error of the mean, s/√N (0 when N < 2).
	SE float64 `json:"se"`
	// Crit is the critical value used: Student's t quantile t_{0.975, N−1} (0 when N < 2).
	Crit float64 `json:"crit"`
	// Half is the half-width Crit·SE, and Lo, Hi = Mean ∓ Half (Lo = Hi = Mean when N < 2).
	Half float64 `json:"half"`
	Lo   float64 `json:"lo"`
	Hi   float64 `json:"hi"`
}

// Bounded reports whether the interval is meaningful: N ≥ 2 values that are not all equal.
// With N = 0 or 1, or no spread at all, the uncertainty is unknown (not zero) and Half is
// reported as 0, not as a claim of precision.
func (iv Interval) Bounded() bool { return iv.N >= 2 && iv.SE > 0 }

// LOS is the likelihood that the true mean is above zero, from the same Student t
// distribution (N − 1 degrees of freedom) as the interval, so that the two never disagree:
// P = F_t((Mean)/SE). ok is false, and the value ½, where the interval is not
// [Interval.Bounded]: no LOS where there is no interval.
func (iv Interval) LOS() (p float64, ok bool) {
	if !iv.Bounded() {
		return 0.5, false
	}
	return StudentTCDF(iv.Mean/iv.SE, float64(iv.N-1)), true
}

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

// StudentTCDF is the distribution function of Student's t with df > 0 degrees of freedom
// (the normal's for df = +Inf), exact through the regularized incomplete beta function.
func StudentTCDF(t, df float64) float64 {
	if math.IsInf(df, 1) {
		return normalCDF(t)
	}
	return studentTCDF(t, df)
}
