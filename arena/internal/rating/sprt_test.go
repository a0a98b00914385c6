package rating

import (
	"math"
	"testing"
)

// The reference values below were computed with fishtest's LLRcalc (server/fishtest/stats,
// LLR_normalized and LLR_logistic, with scipy's brentq) on the tallies shown; the ones that
// fastchess's tests also check (app/tests/sprt_test.cpp) agree to its two decimals. Two
// extremes do not: fastchess expects +2.97 for 16,700 draws and +2.94 for 104 pairs won
// twice ([0, 5] nElo), where its root finder (tolerance 1e−7 on the multiplier) cannot
// resolve the regularized frequencies of 6e−8; fishtest's LLRcalc, which this package
// follows, gives −3.45 and +2.09, and a tally of only draws can never favour H1 (its H0 fit
// is the observed distribution itself).
func TestGSPRTLLRReferenceValues(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		model      SPRTModel
		elo0, elo1 float64
		counts     []float64 // losses (or LL) first
		want       float64   // fishtest's LLRcalc
		fastchess  float64   // fastchess's test value (2 decimals), NaN when it has none
	}{
		{"trinomial 1", Normalized, 0, 2, []float64{36027, 68692, 36433}, 0.9232934509457336, 0.92},
		{"trinomial 2", Normalized, -1.75, 0.25, []float64{10650, 20431, 10871}, 2.297500407106383, 2.30},
		{"all draws (identical bots)", Normalized, 0, 5, []float64{0, 16700, 0}, -3.450539774139151, math.NaN()},
		{"all wins", Normalized, 0, 5, []float64{0, 0, 16700}, 238.59486579580923, math.NaN()},
		{"all losses", Normalized, 0, 5, []float64{16700, 0, 0}, -242.05316814957948, math.NaN()},
		{"all wins, 30 games, [0, 10]", Normalized, 0, 10, []float64{0, 0, 30}, 0.8509139435398019, math.NaN()},
		{"200 wins, [0, 2]", Normalized, 0, 2, []float64{0, 0, 200}, 1.1479696495851703, math.NaN()},
		{"92% wins", Normalized, 0, 10, []float64{2, 4, 92}, 2.6043989726622057, math.NaN()},
		{"all draws, [0, 10]", Normalized, 0, 10, []float64{0, 40, 0}, -0.029980243829407324, math.NaN()},
		{"logistic trinomial 1", Logistic, 0.5, 2.5, []float64{21184, 40708, 21404}, -1.5718887926943381, -1.57},
		{"logistic trinomial 2", Logistic, 0, 2, []float64{57030, 106593, 57433}, -2.593024163515815, -2.59},
		{"pentanomial 1", Normalized, 0, 2, []float64{365, 16618, 36229, 16974, 390}, 2.250367703548933, 2.25},
		{"pentanomial 2", Normalized, -1.75, 0.25, []float64{127, 4883, 10712, 5150, 104}, 3.010154196606051, 3.01},
		{"every pair won twice", Normalized, 0, 5, []float64{0, 0, 0, 0, 104}, 2.094954527648188, math.NaN()},
		{"every pair lost twice", Normalized, 0, 5, []float64{104, 0, 0, 0, 0}, -2.138024824792599, math.NaN()},
		{"every pair drawn", Normalized, 0, 5, []float64{0, 0, 104, 0, 0}, -0.03915574634610693, math.NaN()},
		{"every pair won twice, 30, [0, 10]", Normalized, 0, 10, []float64{0, 0, 0, 0, 30}, 1.1959788891792538, math.NaN()},
		{"fishtest stat_util example", Normalized, 0.764, 3.439, []float64{39, 2226, 31451, 2412, 40}, 2.162940869584568, math.NaN()},
		{"fishtest stat_util example, logistic", Logistic, 0.2, 0.9, []float64{39, 2226, 31451, 2412, 40}, 2.1625425800483593, math.NaN()},
		{"logistic pentanomial 1", Logistic, 0.5, 2.5, []float64{223, 9863, 21279, 10037, 246}, -3.0741264395890813, -3.07},
		{"logistic pentanomial 2", Logistic, 0, 2, []float64{871, 26175, 55983, 26678, 821}, -4.978672863444156, -4.98},
	}
	for _, tc := range tests {
		got, err := GSPRTLLR(tc.model, tc.elo0, tc.elo1, tc.counts)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if !near(got, tc.want, 1e-8*math.Max(1, math.Abs(tc.want))) {
			t.Errorf("%s: LLR %.12f, fishtest %.12f", tc.name, got, tc.want)
		}
		if !math.IsNaN(tc.fastchess) && round(got, 2) != tc.fastchess {
			t.Errorf("%s: LLR %.4f, fastchess %.2f", tc.name, got, tc.fastchess)
		}
	}
}

func TestGSPRTLLRRefusesBadTallies(t *testing.T) {
	t.Parallel()
	for _, counts := range [][]float64{nil, {1, 2}, {1, 2, 3, 4}, {1, -1, 3}, {1, math.NaN(), 1}} {
		if _, err := GSPRTLLR(Normalized, 0, 5, counts); err == nil {
			t.Errorf("%v: no error", counts)
		}
	}
	if llr, err := GSPRTLLR(Normalized, 0, 5, []float64{0, 0, 0}); err != nil || llr != 0 {
		t.Errorf("empty tally: %v, %v; want 0, nil", llr, err)
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

// A test fed the same games in several tallies holds their sum: the GSPRT depends only on
// the tally.
func TestSPRTTalliesAdd(t *testing.T) {
	t.Parallel()
	one, _ := NewSPRT(-1.75, 0.25, 0.05, 0.05)
	_ = one.AddWDL(WDL{W: 10871, D: 20431, L: 10650})
	chunks, _ := NewSPRT(-1.75, 0.25, 0.05, 0.05)
	for _, c := range []WDL{{W: 5000, D: 1, L: 0}, {W: 0, D: 20000, L: 10000}, {W: 5871, D: 430, L: 650}} {
		if err := chunks.AddWDL(c); err != nil {
			t.Fatal(err)
		}
	}
	if one.N() != 41952 || chunks.N() != 41952 || one.LLR() != chunks.LLR() || round(one.LLR(), 2) != 2.30 {
		t.Errorf("N %d / %d, LLR %v / %v; want 41952 and 2.30 both", one.N(), chunks.N(), one.LLR(), chunks.LLR())
	}
	if err := one.AddPairs(Penta{1, 2, 3, 4, 5}); err == nil {
		t.Error("a trinomial test took a pentanomial tally")
	}
	if err := one.AddWDL(WDL{W: -1}); err == nil || one.N() != 41952 {
		t.Errorf("negative count: err %v, N %d", err, one.N())
	}
}

func TestSPRTDecisions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		add    func(s *SPRT) error
		want   SPRTStatus
		wantAt int
	}{
		{"clearly better", func(s *SPRT) error { return s.AddWDL(WDL{W: 700, D: 600, L: 500}) }, SPRTAcceptH1, 1800},
		{"clearly worse", func(s *SPRT) error { return s.AddWDL(WDL{W: 500, D: 600, L: 700}) }, SPRTAcceptH0, 1800},
		{"too few games", func(s *SPRT) error { return s.AddWDL(WDL{W: 6, D: 5, L: 4}) }, SPRTContinue, 0},
		{"no games", func(s *SPRT) error { return s.AddWDL(WDL{}) }, SPRTContinue, 0},
		// The extremes stop: one pair at a time, as a running test feeds them.
		{"wins every game", func(s *SPRT) error { return oneByOne(s, WDL{W: 1}, 1000) }, SPRTAcceptH1, 207},
		{"identical to its baseline (every game drawn)", func(s *SPRT) error { return oneByOne(s, WDL{D: 1}, 100000) }, SPRTAcceptH0, 14256},
		{"wins every pair", func(s *SPRT) error { return pairsOneByOne(s, Penta{4: 1}, 1000) }, SPRTAcceptH1, 147},
	}
	for _, tc := range tests {
		s, err := NewSPRT(0, 5, 0.05, 0.05)
		if err != nil {
			t.Fatal(err)
		}
		if err := tc.add(s); err != nil {
			t.Fatal(err)
		}
		rep := s.Report()
		if rep.Status != tc.want || rep.DecidedAt != tc.wantAt {
			t.Errorf("%s: status %v at %d (LLR %.3f), want %v at %d",
				tc.name, rep.Status, rep.DecidedAt, rep.LLR, tc.want, tc.wantAt)
		}
	}
}

func oneByOne(s *SPRT, r WDL, n int) error {
	for range n {
		if err := s.AddWDL(r); err != nil || s.Status() != SPRTContinue {
			return err
		}
	}
	return nil
}

func pairsOneByOne(s *SPRT, p Penta, n int) error {
	for range n {
		if err := s.AddPairs(p); err != nil || s.Status() != SPRTContinue {
			return err
		}
	}
	return nil
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
	if _, err := NewSPRTModel(SPRTModel(9), 0, 5, 0.05, 0.05); err == nil {
		t.Error("unknown model: no error")
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

// fastchess's EloPentanomial tests (app/tests/elo_test.cpp), its Stats(LL, LD, WL, DD, WD,
// WW) folded into the five categories.
func TestEloFromPairs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		p                                     Penta
		nelo, neloMargin, elo, margin, losPct float64
	}{
		{Penta{34, 54, 31 + 32, 64, 75}, 57.94, 28.28, 55.58, 27.65, 100.00},
		{Penta{332, 433, 457 + 41, 333, 334}, -9.17, 10.96, -8.64, 10.33, 5.05},
		{Penta{7895, 8757, 5485 + 200, 568, 9999}, -19.01, 2.65, -21.04, 2.95, math.NaN()},
	}
	for _, tc := range tests {
		e := EloFromPairs(tc.p)
		got := []float64{e.NElo, e.NEloMargin, e.Elo, e.Margin}
		want := []float64{tc.nelo, tc.neloMargin, tc.elo, tc.margin}
		for i := range got {
			if math.Abs(got[i]-want[i]) > 0.01*math.Abs(want[i]) {
				t.Errorf("%v: figure %d is %.4f, want %.2f", tc.p, i, got[i], want[i])
			}
		}
		if !math.IsNaN(tc.losPct) && round(100*e.LOS, 2) != tc.losPct {
			t.Errorf("%v: LOS %.4f%%, want %.2f%%", tc.p, 100*e.LOS, tc.losPct)
		}
	}
	if e := EloFromPairs(Penta{}); e.Pairs != 0 || e.Score != 0.5 || e.LOS != 0.5 {
		t.Errorf("no pairs: %+v", e)
	}
}
