package rating

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// publishedBT is the three-player example: 30 games per pair, draws count half a win.
var publishedBT = []PairResult{
	{A: "A", B: "B", WDL: WDL{W: 18, D: 9, L: 3}},
	{A: "B", B: "C", WDL: WDL{W: 18, D: 9, L: 3}},
	{A: "A", B: "C", WDL: WDL{W: 24, D: 6, L: 0}},
}

func TestBradleyTerryPublished(t *testing.T) {
	t.Parallel()
	res, err := BradleyTerry(publishedBT, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, b, c := res.Index("A"), res.Index("B"), res.Index("C")
	// Independent derivation: β = (ln 3, 0, −ln 3); the information matrix has eigenpairs
	// 11.025 on (1, 0, −1)/√2 and 16.875 on (1, −2, 1)/√6, so
	// Var(A) = ½/11.025 + ⅙/16.875, Var(B) = ⅔/16.875, Var(A−C) = 2/11.025,
	// Var(A−B) = ½/11.025 + 1.5/16.875 (logits²; ×(400/ln 10)² for Elo²).
	s := EloPerLogit
	varA := 0.5/11.025 + (1.0/6)/16.875
	varB := (2.0 / 3) / 16.875
	tests := []struct {
		name      string
		got, want float64
		tol       float64
	}{
		{"A rating (2 dp)", round(res.Ratings[a], 2), 190.85, 0},
		{"B rating (2 dp)", round(res.Ratings[b], 2), 0, 0},
		{"C rating (2 dp)", round(res.Ratings[c], 2), -190.85, 0},
		{"A rating = ln 3 logits", res.Ratings[a], math.Log(3) * s, 1e-9},
		{"A SE", res.SE[a], math.Sqrt(varA) * s, 1e-9},
		{"B SE", res.SE[b], math.Sqrt(varB) * s, 1e-9},
		{"C SE", res.SE[c], math.Sqrt(varA) * s, 1e-9},
		{"A CI95 (2 dp)", round(res.CI95[a], 2), 80.02, 0},
		{"B CI95 (2 dp)", round(res.CI95[b], 2), 67.67, 0},
		{"Cov(A, C)", res.Cov[a][c], (-0.5/11.025 + (1.0/6)/16.875) * s * s, 1e-6},
		{"LOS A>B", res.LOS[a][b], normalCDF(math.Log(3) / math.Sqrt(0.5/11.025+1.5/16.875)), 1e-12},
		{"LOS B>A", res.LOS[b][a], 1 - normalCDF(math.Log(3)/math.Sqrt(0.5/11.025+1.5/16.875)), 1e-12},
		{"LOS A>C", res.LOS[a][c], normalCDF(2 * math.Log(3) / math.Sqrt(2/11.025)), 1e-12},
		{"LOS diagonal", res.LOS[b][b], 0.5, 0},
		{"A games", float64(res.Games[a]), 60, 0},
		{"A points", res.Points[a], 49.5, 0},
	}
	for _, tc := range tests {
		if !near(tc.got, tc.want, tc.tol) {
			t.Errorf("%s: got %.12g, want %.12g", tc.name, tc.got, tc.want)
		}
	}
	if res.Regularized {
		t.Error("regularized, but the MLE exists")
	}
}

func TestBradleyTerryInputOrientation(t *testing.T) {
	t.Parallel()
	// Same data, reversed orientation and split into several entries.
	alt := []PairResult{
		{A: "B", B: "A", WDL: WDL{W: 3, D: 9, L: 18}},
		{A: "C", B: "B", WDL: WDL{W: 1, D: 4, L: 10}},
		{A: "B", B: "C", WDL: WDL{W: 8, D: 5, L: 2}},
		{A: "C", B: "A", WDL: WDL{W: 0, D: 6, L: 24}},
	}
	want, _ := BradleyTerry(publishedBT, nil)
	got, err := BradleyTerry(alt, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want.Ratings {
		if !near(got.Ratings[i], want.Ratings[i], 1e-9) || !near(got.SE[i], want.SE[i], 1e-9) {
			t.Errorf("player %s: got %v ± %v, want %v ± %v", got.Players[i],
				got.Ratings[i], got.SE[i], want.Ratings[i], want.SE[i])
		}
	}
}

// At the MLE every player's expected points equal its actual points, and the ratings sum to
// zero (the likelihood equations of Zermelo/Hunter).
func TestBradleyTerryScoreEquations(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	results := randomRoundRobin(rng, 8, 10)
	res, err := BradleyTerry(results, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Regularized {
		t.Fatal("random round robin unexpectedly regularized")
	}
	expected := make([]float64, len(res.Players))
	sum := 0.0
	for _, r := range results {
		i, j := res.Index(r.A), res.Index(r.B)
		p := EloExpected(res.Ratings[i], res.Ratings[j])
		expected[i] += float64(r.Games()) * p
		expected[j] += float64(r.Games()) * (1 - p)
	}
	for i := range res.Players {
		sum += res.Ratings[i]
		if !near(expected[i], res.Points[i], 1e-8) {
			t.Errorf("%s: expected points %v, actual %v", res.Players[i], expected[i], res.Points[i])
		}
		for j := range res.Players {
			if i != j && !near(res.LOS[i][j]+res.LOS[j][i], 1, 1e-12) {
				t.Errorf("LOS[%d][%d] + LOS[%d][%d] = %v, want 1", i, j, j, i, res.LOS[i][j]+res.LOS[j][i])
			}
		}
	}
	if !near(sum, 0, 1e-9) {
		t.Errorf("ratings sum to %v, want 0", sum)
	}
}

func TestBradleyTerryDegenerate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		results []PairResult
		// order lists players from strongest to weakest.
		order []string
	}{
		{
			name: "unbeaten player",
			results: []PairResult{
				{A: "A", B: "B", WDL: WDL{W: 10}},
				{A: "B", B: "C", WDL: WDL{W: 6, D: 2, L: 2}},
				{A: "A", B: "C", WDL: WDL{W: 10}},
			},
			order: []string{"A", "B", "C"},
		},
		{
			name: "winless player",
			results: []PairResult{
				{A: "A", B: "B", WDL: WDL{W: 5, D: 2, L: 3}},
				{A: "C", B: "A", WDL: WDL{L: 4}},
				{A: "C", B: "B", WDL: WDL{L: 4}},
			},
			order: []string{"A", "B", "C"},
		},
		{
			name: "two groups that never met",
			results: []PairResult{
				{A: "A", B: "B", WDL: WDL{W: 7, D: 1, L: 2}},
				{A: "C", B: "D", WDL: WDL{W: 2, D: 1, L: 7}},
			},
			order: nil,
		},
		{
			name:    "single decisive game",
			results: []PairResult{{A: "X", B: "Y", WDL: WDL{W: 1}}},
			order:   []string{"X", "Y"},
		},
		{
			name:    "pair that never played",
			results: []PairResult{{A: "X", B: "Y"}},
			order:   nil,
		},
	}
	for _, tc := range tests {
		res, err := BradleyTerry(tc.results, nil)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if !res.Regularized || res.Prior != DefaultBTPrior {
			t.Errorf("%s: Regularized %v Prior %v, want true %v", tc.name, res.Regularized, res.Prior, DefaultBTPrior)
		}
		sum := 0.0
		for i := range res.Players {
			sum += res.Ratings[i]
			for _, v := range []float64{res.Ratings[i], res.SE[i], res.CI95[i]} {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Errorf("%s: %s has non-finite value %v", tc.name, res.Players[i], v)
				}
			}
			for j := range res.Players {
				if v := res.LOS[i][j]; !(v >= 0 && v <= 1) {
					t.Errorf("%s: LOS[%d][%d] = %v", tc.name, i, j, v)
				}
			}
		}
		if !near(sum, 0, 1e-6) {
			t.Errorf("%s: ratings sum to %v", tc.name, sum)
		}
		for k := 1; k < len(tc.order); k++ {
			hi, lo := res.Index(tc.order[k-1]), res.Index(tc.order[k])
			if !(res.Ratings[hi] > res.Ratings[lo]) {
				t.Errorf("%s: %s (%.1f) not above %s (%.1f)", tc.name,
					tc.order[k-1], res.Ratings[hi], tc.order[k], res.Ratings[lo])
			}
		}
	}
}

func TestBradleyTerryDisconnectedGroupsCentred(t *testing.T) {
	t.Parallel()
	res, err := BradleyTerry([]PairResult{
		{A: "A", B: "B", WDL: WDL{W: 7, D: 1, L: 2}},
		{A: "C", B: "D", WDL: WDL{W: 2, D: 1, L: 7}},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, b, c, d := res.Index("A"), res.Index("B"), res.Index("C"), res.Index("D")
	tests := []struct {
		name      string
		got, want float64
		tol       float64
	}{
		{"group AB centred", res.Ratings[a] + res.Ratings[b], 0, 1e-9},
		{"group CD centred", res.Ratings[c] + res.Ratings[d], 0, 1e-9},
		{"mirror image", res.Ratings[a], res.Ratings[d], 1e-9},
		{"A above B", math.Copysign(1, res.Ratings[a]-res.Ratings[b]), 1, 0},
		// Across groups only the prior speaks: A vs C is close to a coin toss.
		{"LOS A>C near ½", res.LOS[a][c], 0.5, 0.1},
	}
	for _, tc := range tests {
		if !near(tc.got, tc.want, tc.tol) {
			t.Errorf("%s: got %v, want %v", tc.name, tc.got, tc.want)
		}
	}
}

func TestBradleyTerryAlwaysPrior(t *testing.T) {
	t.Parallel()
	plain, _ := BradleyTerry(publishedBT, nil)
	tiny, err := BradleyTerry(publishedBT, &BTOptions{Prior: 1e-9, AlwaysPrior: true})
	if err != nil {
		t.Fatal(err)
	}
	strong, _ := BradleyTerry(publishedBT, &BTOptions{Prior: 1, AlwaysPrior: true})
	a := plain.Index("A")
	tests := []struct {
		name string
		ok   bool
	}{
		{"tiny prior is regularized", tiny.Regularized && tiny.Prior == 1e-9},
		{"tiny prior barely moves A", near(tiny.Ratings[a], plain.Ratings[a], 1e-4)},
		{"strong prior shrinks A", strong.Ratings[a] < plain.Ratings[a]-1},
	}
	for _, tc := range tests {
		if !tc.ok {
			t.Errorf("%s: failed (plain %v, tiny %v, strong %v)", tc.name,
				plain.Ratings[a], tiny.Ratings[a], strong.Ratings[a])
		}
	}
}

func TestBradleyTerryErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		results []PairResult
		opts    *BTOptions
	}{
		{"self pair", []PairResult{{A: "A", B: "A", WDL: WDL{W: 1}}}, nil},
		{"empty name", []PairResult{{A: "", B: "A", WDL: WDL{W: 1}}}, nil},
		{"negative count", []PairResult{{A: "A", B: "B", WDL: WDL{W: -1}}}, nil},
		{"negative prior", publishedBT, &BTOptions{Prior: -1}},
	}
	for _, tc := range tests {
		if _, err := BradleyTerry(tc.results, tc.opts); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
	res, err := BradleyTerry(nil, nil)
	if err != nil || len(res.Players) != 0 || res.Index("A") != -1 {
		t.Errorf("empty input: %+v, %v", res, err)
	}
}

// randomRoundRobin plays every pair of n players g games with hidden strengths.
func randomRoundRobin(rng *rand.Rand, n, g int) []PairResult {
	strength := make([]float64, n)
	for i := range strength {
		strength[i] = rng.NormFloat64() * 150
	}
	var out []PairResult
	for i := range n {
		for j := i + 1; j < n; j++ {
			p := EloExpected(strength[i], strength[j])
			var r WDL
			for range g {
				switch u := rng.Float64(); {
				case u < 0.3:
					r.D++
				case u < 0.3+0.7*p:
					r.W++
				default:
					r.L++
				}
			}
			out = append(out, PairResult{A: fmt.Sprintf("bot%02d", i), B: fmt.Sprintf("bot%02d", j), WDL: r})
		}
	}
	return out
}

func BenchmarkBradleyTerry(b *testing.B) {
	rng := rand.New(rand.NewPCG(20, 20))
	results := randomRoundRobin(rng, 20, 30)
	b.ReportAllocs()
	iterations := 0
	for b.Loop() {
		res, err := BradleyTerry(results, nil)
		if err != nil {
			b.Fatal(err)
		}
		iterations = res.Iterations
	}
	b.ReportMetric(float64(iterations), "newton-iters")
}

// A strict dominance order (every game won by the better player) has no MLE; with the
// default prior, and even with a prior so weak that the information matrix is badly
// ill-conditioned, the iteration must still converge to finite, correctly ordered ratings.
func TestBradleyTerryDominanceChainConverges(t *testing.T) {
	t.Parallel()
	var results []PairResult
	for i := range 20 {
		for j := i + 1; j < 20; j++ {
			results = append(results, PairResult{A: fmt.Sprintf("p%02d", i), B: fmt.Sprintf("p%02d", j), WDL: WDL{W: 30}})
		}
	}
	tests := []struct {
		name  string
		prior float64
	}{
		{"default prior", 0},
		{"prior 1e-12", 1e-12},
	}
	for _, tc := range tests {
		res, err := BradleyTerry(results, &BTOptions{Prior: tc.prior})
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		for i := 1; i < len(res.Players); i++ {
			if !(res.Ratings[i-1] > res.Ratings[i]) || math.IsInf(res.Ratings[i], 0) || math.IsNaN(res.SE[i]) {
				t.Errorf("%s: %s %.1f ± %.1f not above %s %.1f", tc.name, res.Players[i-1],
					res.Ratings[i-1], res.SE[i-1], res.Players[i], res.Ratings[i])
			}
		}
	}
}
