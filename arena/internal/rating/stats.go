package rating

import (
	"math"
)

// Z975 is the 0.975 quantile of the standard normal distribution, Φ⁻¹(0.975), the critical
// value of a two-sided 95% normal interval (cutechess and fastchess use the same constant).
const Z975 = 1.959963984540054

// EloPerLogit is the number of Elo points per logit (unit of natural-log odds): 400/ln 10.
// A Bradley–Terry strength difference of x logits corresponds to x·EloPerLogit Elo.
const EloPerLogit = 400 / math.Ln10

// normalCDF is the standard normal distribution function Φ(x) = ½·erfc(−x/√2).
func normalCDF(x float64) float64 {
	return 0.5 * math.Erfc(-x/math.Sqrt2)
}

// StudentTQuantile returns the p-quantile of Student's t distribution with df degrees of
// freedom (df > 0, 0 < p < 1), e.g. StudentTQuantile(0.975, 9) ≈ 2.262157. It returns NaN
// for arguments outside those ranges.
//
// The distribution function is evaluated exactly through the regularized incomplete beta
// function, F(t) = 1 − ½·I_{ν/(ν+t²)}(ν/2, ½) for t ≥ 0 (Abramowitz & Stegun 26.7.1 with
// 26.5.27), and the quantile is found by bisection to full float64 precision.
func StudentTQuantile(p, df float64) float64 {
	if !(p > 0 && p < 1) || !(df > 0) || math.IsInf(df, 1) {
		if p > 0 && p < 1 && math.IsInf(df, 1) {
			return math.Sqrt2 * math.Erfinv(2*p-1)
		}
		return math.NaN()
	}
	if p == 0.5 {
		return 0
	}
	if p < 0.5 {
		return -StudentTQuantile(1-p, df)
	}
	// Bracket the quantile: F(0) = ½ < p; double hi until F(hi) ≥ p.
	lo, hi := 0.0, 1.0
	for studentTCDF(hi, df) < p {
		lo = hi
		hi *= 2
		if math.IsInf(hi, 1) {
			return hi
		}
	}
	for range 200 {
		mid := lo + (hi-lo)/2
		if mid == lo || mid == hi {
			break
		}
		if studentTCDF(mid, df) < p {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo + (hi-lo)/2
}

// studentTCDF is the distribution function of Student's t with df degrees of freedom.
func studentTCDF(t, df float64) float64 {
	x := df / (df + t*t)
	tail := 0.5 * regIncBeta(df/2, 0.5, x)
	if t >= 0 {
		return 1 - tail
	}
	return tail
}

// regIncBeta is the regularized incomplete beta function I_x(a, b), evaluated with the
// continued fraction of Numerical Recipes §6.4 (modified Lentz), using the symmetry
// I_x(a,b) = 1 − I_{1−x}(b,a) where the fraction converges faster.
func regIncBeta(a, b, x float64) float64 {
	switch {
	case x <= 0:
		return 0
	case x >= 1:
		return 1
	}
	la, _ := math.Lgamma(a)
	lb, _ := math.Lgamma(b)
	lab, _ := math.Lgamma(a + b)
	front := math.Exp(lab - la - lb + a*math.Log(x) + b*math.Log1p(-x))
	if x < (a+1)/(a+b+2) {
		return front * betaCF(a, b, x) / a
	}
	return 1 - front*betaCF(b, a, 1-x)/b
}

// betaCF evaluates the continued fraction for the incomplete beta function.
func betaCF(a, b, x float64) float64 {
	const (
		tiny = 1e-300
		eps  = 1e-16
	)
	qab, qap, qam := a+b, a+1, a-1
	c := 1.0
	d := 1 - qab*x/qap
	if math.Abs(d) < tiny {
		d = tiny
	}
	d = 1 / d
	h := d
	for m := 1; m <= 10000; m++ {
		fm := float64(m)
		m2 := 2 * fm
		aa := fm * (b - fm) * x / ((qam + m2) * (a + m2))
		d = 1 + aa*d
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = 1 + aa/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		h *= d * c
		aa = -(a + fm) * (qab + fm) * x / ((a + m2) * (qap + m2))
		d = 1 + aa*d
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = 1 + aa/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		del := d * c
		h *= del
		if math.Abs(del-1) < eps {
			break
		}
	}
	return h
}
