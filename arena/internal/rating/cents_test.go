package rating

import (
	"encoding/json"
	"math"
	"testing"
)

func TestStudentTQuantile(t *testing.T) {
	t.Parallel()
	// Reference values: standard t tables (e.g. NIST/SEMATECH e-Handbook 1.3.6.7.2), 9 dp.
	tests := []struct {
		p, df, want float64
	}{
		{0.975, 1, 12.706204736},
		{0.975, 2, 4.302652730},
		{0.975, 5, 2.570581836},
		{0.975, 10, 2.228138852},
		{0.975, 30, 2.042272456},
		{0.975, 100, 1.983971519},
		{0.95, 3, 2.353363435},
		{0.995, 4, 4.604094871},
		{0.025, 10, -2.228138852},
		{0.5, 7, 0},
		{0.975, math.Inf(1), Z975},
	}
	for _, tc := range tests {
		if got := StudentTQuantile(tc.p, tc.df); !near(got, tc.want, 1e-8) {
			t.Errorf("StudentTQuantile(%v, %v) = %.10f, want %.9f", tc.p, tc.df, got, tc.want)
		}
	}
	for _, bad := range [][2]float64{{0, 3}, {1, 3}, {0.5, 0}, {math.NaN(), 3}} {
		if got := StudentTQuantile(bad[0], bad[1]); !math.IsNaN(got) {
			t.Errorf("StudentTQuantile(%v, %v) = %v, want NaN", bad[0], bad[1], got)
		}
	}
}

func TestCentsPerDeal(t *testing.T) {
	t.Parallel()
	// 1..10: mean 5.5, s = √(82.5/9) = 3.0276504, se = 0.9574271, t_{0.975,9} = 2.2621572.
	oneToTen := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	large := make([]float64, 10000)
	for i := range large {
		large[i] = float64(i%2) * 20 // 0, 20, 0, 20, …: mean 10, s ≈ 10.0005
	}
	sLarge := math.Sqrt(1e6 / 9999)
	tests := []struct {
		name    string
		values  []float64
		want    Interval
		bounded bool
	}{
		{"no deals", nil, Interval{}, false},
		{"one deal", []float64{-250}, Interval{N: 1, Mean: -250, Lo: -250, Hi: -250}, false},
		{"two deals", []float64{0, 10}, Interval{
			N: 2, Mean: 5, SD: math.Sqrt(50), SE: 5, Crit: 12.706204736,
			Half: 63.53102368, Lo: 5 - 63.53102368, Hi: 5 + 63.53102368,
		}, true},
		// No spread: the uncertainty is unknown, not zero.
		{"constant", []float64{7, 7, 7}, Interval{
			N: 3, Mean: 7, Crit: 4.302652730, Lo: 7, Hi: 7,
		}, false},
		{"1..10", oneToTen, Interval{
			N: 10, Mean: 5.5, SD: 3.0276503541, SE: 0.9574271078, Crit: 2.2621571628,
			Half: 2.1658506, Lo: 5.5 - 2.1658506, Hi: 5.5 + 2.1658506,
		}, true},
		{"large n tends to 1.96", large, Interval{
			N: 10000, Mean: 10, SD: sLarge, SE: sLarge / 100, Crit: 1.9602012,
			Half: 1.9602012 * sLarge / 100, Lo: 10 - 1.9602012*sLarge/100, Hi: 10 + 1.9602012*sLarge/100,
		}, true},
	}
	for _, tc := range tests {
		got := CentsPerDeal(tc.values)
		if got.N != tc.want.N || got.Bounded() != tc.bounded {
			t.Errorf("%s: N %d bounded %v, want %d %v", tc.name, got.N, got.Bounded(), tc.want.N, tc.bounded)
		}
		fields := []struct {
			name      string
			got, want float64
		}{
			{"Mean", got.Mean, tc.want.Mean}, {"SD", got.SD, tc.want.SD}, {"SE", got.SE, tc.want.SE},
			{"Crit", got.Crit, tc.want.Crit}, {"Half", got.Half, tc.want.Half},
			{"Lo", got.Lo, tc.want.Lo}, {"Hi", got.Hi, tc.want.Hi},
		}
		for _, f := range fields {
			if !near(f.got, f.want, 1e-6) {
				t.Errorf("%s: %s = %.10f, want %.10f", tc.name, f.name, f.got, f.want)
			}
		}
		if _, err := json.Marshal(got); err != nil {
			t.Errorf("%s: not JSON-encodable: %v", tc.name, err)
		}
	}
}

func TestIntervalString(t *testing.T) {
	t.Parallel()
	tests := []struct {
		iv   Interval
		want string
	}{
		{CentsPerDeal([]float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}), "5.50 ± 2.17 (n=10)"},
		{CentsPerDeal([]float64{-3}), "-3.00 (n=1)"},
		{CentsPerDeal(nil), "0.00 (n=0)"},
	}
	for _, tc := range tests {
		if got := tc.iv.String(); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}

// TestIntervalLOSAgreesWithTheInterval: LOS comes from the interval's own t distribution —
// a two-unit match whose interval straddles zero has no LOS near 100% — and there is no LOS
// where there is no interval (one unit, or no spread at all).
func TestIntervalLOSAgreesWithTheInterval(t *testing.T) {
	t.Parallel()
	two := CentsPerDeal([]float64{-1.1, 37.1}) // mean 18, the issue's [−19, +55]-like case
	p, ok := two.LOS()
	if !ok || !(two.Lo < 0 && two.Hi > 0) || p > 0.975 || p < 0.5 {
		t.Errorf("two units: interval [%.1f, %.1f], LOS %.3f (ok %v): an interval across 0 needs LOS below 97.5%%", two.Lo, two.Hi, p, ok)
	}
	// At the interval's edge the LOS is exactly 97.5%: the same distribution.
	edge := Interval{N: 10, Mean: StudentTQuantile(0.975, 9), SE: 1}
	if p, _ := edge.LOS(); !near(p, 0.975, 1e-12) {
		t.Errorf("LOS at the interval's lower end at zero: %.15f, want 0.975", p)
	}
	for _, iv := range []Interval{CentsPerDeal(nil), CentsPerDeal([]float64{5}), CentsPerDeal([]float64{3, 3, 3})} {
		if p, ok := iv.LOS(); ok || p != 0.5 || iv.Bounded() {
			t.Errorf("%v: LOS %v ok %v bounded %v; want none", iv, p, ok, iv.Bounded())
		}
	}
}
