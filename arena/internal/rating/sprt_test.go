package rating

import (
	"math"
	"testing"
)

func TestSPRTPublished(t *testing.T) {
	t.Parallel()
	// fishtest / fastchess normalized-Elo SPRT: W 10871, L 10650, D 20431, nElo [−1.75, 0.25],
	// α = β = 0.05 → LLR 2.30 within bounds (−2.94, 2.94).
	r := WDL{W: 10871, D: 20431, L: 10650}
	s, err := NewSPRT(-1.75, 0.25, 0.05, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.AddWDL(r); err != nil {
		t.Fatal(err)
	}
	lo, hi := s.Bounds()
	rep := s.Report()
	tests := []struct {
		name      string
		got, want any
	}{
		{"LLR (function)", round(SPRTLLRWDL(r, -1.75, 0.25), 2), 2.30},
		{"LLR (type)", round(s.LLR(), 2), 2.30},
		{"lower bound", round(lo, 2), -2.94},
		{"upper bound", round(hi, 2), 2.94},
		{"N", s.N(), 41952},
		{"status", s.Status(), SPRTContinue},
		{"report LLR", rep.LLR, s.LLR()},
		{"report N", rep.N, 41952},
		{"report decided at", rep.DecidedAt, 0},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, tc.got, tc.want)
		}
	}
}

func TestSPRTBounds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		alpha, beta, lo, hi float64
	}{
		{0.05, 0.05, math.Log(0.05 / 0.95), math.Log(0.95 / 0.05)},
		{0.05, 0.10, math.Log(0.10 / 0.95), math.Log(0.90 / 0.05)},
	}
	for _, tc := range tests {
		lo, hi := SPRTBounds(tc.alpha, tc.beta)
		if !near(lo, tc.lo, 1e-14) || !near(hi, tc.hi, 1e-14) {
			t.Errorf("SPRTBounds(%v, %v) = %v, %v, want %v, %v", tc.alpha, tc.beta, lo, hi, tc.lo, tc.hi)
		}
	}
}

// Feeding the same games as individual scores 1, ½, 0 (interleaved), or as several
// tallies, must reproduce the trinomial LLR: the GSPRT depends only on N, mean and variance.
func TestSPRTScoresReduceToTrinomial(t *testing.T) {
	t.Parallel()
	r := WDL{W: 10871, D: 20431, L: 10650}
	want := SPRTLLRWDL(r, -1.75, 0.25)

	one, _ := NewSPRT(-1.75, 0.25, 0.05, 0.05)
	left := r
	for left.Games() > 0 {
		if left.W > 0 {
			_ = one.AddScores(1)
			left.W--
		}
		if left.D > 0 {
			_ = one.AddScores(0.5)
			left.D--
		}
		if left.L > 0 {
			_ = one.AddScores(0)
			left.L--
		}
	}

	chunks, _ := NewSPRT(-1.75, 0.25, 0.05, 0.05)
	for _, c := range []WDL{{W: 5000, D: 1, L: 0}, {W: 0, D: 20000, L: 10000}, {W: 5871, D: 430, L: 650}} {
		if err := chunks.AddWDL(c); err != nil {
			t.Fatal(err)
		}
	}

	tests := []struct {
		name string
		s    *SPRT
	}{
		{"one score at a time", one},
		{"three tallies", chunks},
	}
	for _, tc := range tests {
		if tc.s.N() != r.Games() {
			t.Errorf("%s: N = %d, want %d", tc.name, tc.s.N(), r.Games())
		}
		if got := tc.s.LLR(); !near(got, want, 1e-9) {
			t.Errorf("%s: LLR %.12f, want %.12f", tc.name, got, want)
		}
	}
}

func TestSPRTDecisions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		r      WDL
		want   SPRTStatus
		wantAt int
	}{
		{"clearly better", WDL{W: 700, D: 600, L: 500}, SPRTAcceptH1, 1800},
		{"clearly worse", WDL{W: 500, D: 600, L: 700}, SPRTAcceptH0, 1800},
		{"too few games", WDL{W: 6, D: 5, L: 4}, SPRTContinue, 0},
		{"no games", WDL{}, SPRTContinue, 0},
	}
	for _, tc := range tests {
		s, err := NewSPRT(0, 5, 0.05, 0.05)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.AddWDL(tc.r); err != nil {
			t.Fatal(err)
		}
		rep := s.Report()
		if rep.Status != tc.want || rep.DecidedAt != tc.wantAt {
			t.Errorf("%s: status %v at %d (LLR %.3f), want %v at %d",
				tc.name, rep.Status, rep.DecidedAt, rep.LLR, tc.want, tc.wantAt)
		}
	}
}

func TestSPRTStickyDecision(t *testing.T) {
	t.Parallel()
	s, _ := NewSPRT(0, 5, 0.05, 0.05)
	_ = s.AddWDL(WDL{W: 700, D: 600, L: 500})
	if s.Status() != SPRTAcceptH1 {
		t.Fatalf("status %v (LLR %.3f), want accept H1", s.Status(), s.LLR())
	}
	// Games still in flight drag the LLR back inside the bounds; the decision stands.
	_ = s.AddWDL(WDL{W: 100, D: 100, L: 300})
	lo, hi := s.Bounds()
	if llr := s.LLR(); llr >= hi || llr <= lo {
		t.Fatalf("test setup: LLR %.3f not between bounds", llr)
	}
	if got := s.Report(); got.Status != SPRTAcceptH1 || got.DecidedAt != 1800 || got.N != 2300 {
		t.Errorf("report %+v, want accept H1 decided at 1800 with N 2300", got)
	}
}

func TestSPRTFractionalGroupScores(t *testing.T) {
	t.Parallel()
	// Duplicate groups: fractional per-group scores. The LLR must equal SPRTLLR on their
	// empirical mean and population variance.
	scores := []float64{0.75, 0.5, 0.25, 1, 0.625, 0.5, 0.875, 0.375, 0.5, 0.625}
	s, _ := NewSPRT(-1, 3, 0.05, 0.05)
	if err := s.AddScores(scores...); err != nil {
		t.Fatal(err)
	}
	mean, ss := 0.0, 0.0
	for _, x := range scores {
		mean += x
	}
	mean /= float64(len(scores))
	for _, x := range scores {
		ss += (x - mean) * (x - mean)
	}
	want := SPRTLLR(float64(len(scores)), mean, ss/float64(len(scores)), -1, 3)
	if got := s.LLR(); !near(got, want, 1e-12) {
		t.Errorf("LLR %v, want %v", got, want)
	}
	if err := s.AddScores(0.5, 1.5); err == nil || s.N() != len(scores) {
		t.Errorf("out-of-range score: err %v, N %d (want error, N %d)", err, s.N(), len(scores))
	}
}

func TestNewSPRTErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name                      string
		nelo0, nelo1, alpha, beta float64
	}{
		{"reversed hypotheses", 5, 0, 0.05, 0.05},
		{"equal hypotheses", 0, 0, 0.05, 0.05},
		{"zero alpha", 0, 5, 0, 0.05},
		{"alpha+beta ≥ 1", 0, 5, 0.5, 0.5},
	}
	for _, tc := range tests {
		if _, err := NewSPRT(tc.nelo0, tc.nelo1, tc.alpha, tc.beta); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}

func TestSPRTStatusString(t *testing.T) {
	t.Parallel()
	tests := []struct {
		s    SPRTStatus
		want string
	}{
		{SPRTContinue, "continue"},
		{SPRTAcceptH1, "accept H1"},
		{SPRTAcceptH0, "accept H0"},
		{SPRTStatus(7), "SPRTStatus(7)"},
	}
	for _, tc := range tests {
		if got := tc.s.String(); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}
