package rating

import "math"

// round rounds x to the given number of decimals, for comparing with published figures.
func round(x float64, decimals int) float64 {
	p := math.Pow(10, float64(decimals))
	return math.Round(x*p) / p
}

func near(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol
}
