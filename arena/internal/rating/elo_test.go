package rating

import (
	"math"
	"testing"
)

func TestEloUpdateWikipedia(t *testing.T) {
	t.Parallel()
	// Wikipedia, "Elo rating system", Mathematical details: 1613 vs 1609 (L), 1477 (D),
	// 1388 (W), 1586 (W), 1720 (L); K = 32.
	opponents := []float64{1609, 1477, 1388, 1586, 1720}
	scores := []float64{0, 0.5, 1, 1, 0}
	got, expected, err := EloUpdate(1613, opponents, scores, 32)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		got, want float64
	}{
		{"expected score (3 dp)", round(expected, 3), 2.867},
		{"new rating (2 dp)", round(got, 2), 1601.27},
		{"new rating (rounded)", math.Round(got), 1601},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, tc.got, tc.want)
		}
	}
}

func TestEloUpdateErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		opponents []float64
		scores    []float64
	}{
		{"length mismatch", []float64{1500}, nil},
		{"score above 1", []float64{1500}, []float64{2}},
		{"negative score", []float64{1500}, []float64{-0.5}},
		{"NaN score", []float64{1500}, []float64{math.NaN()}},
	}
	for _, tc := range tests {
		if _, _, err := EloUpdate(1500, tc.opponents, tc.scores, 32); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}

func TestScoreToElo(t *testing.T) {
	t.Parallel()
	tests := []struct {
		score, want float64
	}{
		{0.5, 0},
		{10.0 / 11, 400},
		{1.0 / 11, -400},
		{0, math.Inf(-1)},
		{1, math.Inf(1)},
	}
	for _, tc := range tests {
		got := ScoreToElo(tc.score)
		if !near(got, tc.want, 1e-9) && got != tc.want {
			t.Errorf("ScoreToElo(%v) = %v, want %v", tc.score, got, tc.want)
		}
		if !math.IsInf(tc.want, 0) {
			if back := EloExpected(tc.want, 0); !near(back, tc.score, 1e-12) {
				t.Errorf("EloExpected(%v, 0) = %v, want %v", tc.want, back, tc.score)
			}
		}
	}
	if got := ScoreToElo(1.5); !math.IsNaN(got) {
		t.Errorf("ScoreToElo(1.5) = %v, want NaN", got)
	}
}

func TestEloFromWDLPublished(t *testing.T) {
	t.Parallel()
	// cutechess-cli / fastchess: W 136, L 96, D 111 → "Elo difference: 40.70 +/- 30.43,
	// LOS: 99.60 %".
	e := EloFromWDL(WDL{W: 136, D: 111, L: 96})
	tests := []struct {
		name      string
		got, want float64
	}{
		{"Elo", round(e.Elo, 2), 40.70},
		{"margin", round(e.Margin, 2), 30.43},
		{"LOS %", round(100*e.LOS, 2), 99.60},
		{"LOS wins/losses % (cutechess erf formula)", round(100*e.LOSWinsLosses, 2), 99.57},
		{"score", round(e.Score, 4), 0.5583},
		{"games", float64(e.N), 343},
		{"nElo margin", round(e.NEloMargin, 2), round(Z975/math.Sqrt(343)*800/math.Ln10, 2)},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, tc.got, tc.want)
		}
	}
}

func TestEloFromWDLEdgeCases(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name           string
		r              WDL
		wantElo        float64
		wantLOS        float64
		wantLOSWL      float64
		wantMarginZero bool
	}{
		{"empty", WDL{}, 0, 0.5, 0.5, true},
		{"negative count", WDL{W: -1, L: 3}, 0, 0.5, 0.5, true},
		{"all draws", WDL{D: 10}, 0, 0.5, 0.5, true},
		{"all wins", WDL{W: 5}, math.Inf(1), 1, 0.5 * (1 + math.Erf(5/math.Sqrt(10))), false},
		{"even", WDL{W: 3, D: 4, L: 3}, 0, 0.5, 0.5, false},
	}
	for _, tc := range tests {
		e := EloFromWDL(tc.r)
		if e.Elo != tc.wantElo || e.LOS != tc.wantLOS || !near(e.LOSWinsLosses, tc.wantLOSWL, 1e-15) {
			t.Errorf("%s: Elo %v LOS %v LOSWL %v, want %v %v %v",
				tc.name, e.Elo, e.LOS, e.LOSWinsLosses, tc.wantElo, tc.wantLOS, tc.wantLOSWL)
		}
		if (e.Margin == 0) != tc.wantMarginZero {
			t.Errorf("%s: margin %v, want zero %v", tc.name, e.Margin, tc.wantMarginZero)
		}
	}
}

func TestEloFromScoresMatchesWDL(t *testing.T) {
	t.Parallel()
	r := WDL{W: 136, D: 111, L: 96}
	var scores []float64
	for range r.W {
		scores = append(scores, 1)
	}
	for range r.D {
		scores = append(scores, 0.5)
	}
	for range r.L {
		scores = append(scores, 0)
	}
	got, err := EloFromScores(scores)
	if err != nil {
		t.Fatal(err)
	}
	want := EloFromWDL(r)
	tests := []struct {
		name      string
		got, want float64
	}{
		{"score", got.Score, want.Score},
		{"variance", got.Variance, want.Variance},
		{"Elo", got.Elo, want.Elo},
		{"margin", got.Margin, want.Margin},
		{"LOS", got.LOS, want.LOS},
		{"nElo", got.NElo, want.NElo},
	}
	for _, tc := range tests {
		if !near(tc.got, tc.want, 1e-9) {
			t.Errorf("%s: got %v, want %v", tc.name, tc.got, tc.want)
		}
	}
	if _, err := EloFromScores([]float64{0.5, 1.2}); err == nil {
		t.Error("score 1.2 accepted")
	}
}

func TestWDLMethods(t *testing.T) {
	t.Parallel()
	r := WDL{W: 3, D: 2, L: 1}
	tests := []struct {
		name      string
		got, want any
	}{
		{"games", r.Games(), 6},
		{"points", r.Points(), 4.0},
		{"score", r.Score(), 4.0 / 6},
		{"reverse", r.Reverse(), WDL{W: 1, D: 2, L: 3}},
		{"add", r.Add(WDL{1, 1, 1}), WDL{4, 3, 2}},
		{"empty score", WDL{}.Score(), 0.5},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, tc.got, tc.want)
		}
	}
}
