package rating

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// league is a simulated league: the true skills of its bots (summing to zero) and the
// sufficient statistics of what they played.
type league struct {
	truth  []float64
	tables []*TableSums
}

// leagueShape says how a simulated league is scheduled.
type leagueShape struct {
	bots, seats int
	units       int
	duplicate   bool // a unit is every seating of one deal's cards
	lopsided    bool // bot 0 sits at every table, the others at random with unequal weights
}

func (sh leagueShape) String() string {
	return fmt.Sprintf("%d bots, %d seats, dup=%v, lopsided=%v", sh.bots, sh.seats, sh.duplicate, sh.lopsided)
}

// seatLuck draws one deal's zero-sum luck by seat, in the shape of Tapp's payoffs: one seat
// declares (or, one deal in ten, nobody does and the deal is a Ramsch of small sums); the
// declarer wins or loses (k−1)·v cents and each defender the opposite v.
func seatLuck(rng *rand.Rand, k int) []float64 {
	luck := make([]float64, k)
	if rng.IntN(10) == 0 {
		loser := rng.IntN(k)
		for s := range k {
			luck[s] = 5
		}
		luck[loser] = -5 * float64(k-1)
		return luck
	}
	stakes := []float64{10, 10, 20, 20, 30, 50, 80}
	v := stakes[rng.IntN(len(stakes))]
	if rng.Float64() < 0.45 {
		v = -v
	}
	decl := rng.IntN(k)
	for s := range k {
		luck[s] = -v
	}
	luck[decl] = v * float64(k-1)
	return luck
}

// stochasticRound rounds x to an integer without bias: up with probability frac(x).
func stochasticRound(rng *rand.Rand, x float64) int64 {
	f := math.Floor(x)
	if rng.Float64() < x-f {
		f++
	}
	return int64(f)
}

// simulate plays a league from the planted model: at a table T the seat of bot i gets, per
// deal, s_i − mean of the others' skills plus the deal's luck (shared by every seating of a
// duplicate group's cards) plus a smaller luck of its own.
func simulate(rng *rand.Rand, sh leagueShape) league {
	lg := league{truth: make([]float64, sh.bots)}
	var mean float64
	for i := range lg.truth {
		lg.truth[i] = 3 * rng.NormFloat64()
		mean += lg.truth[i] / float64(sh.bots)
	}
	for i := range lg.truth {
		lg.truth[i] -= mean
	}
	names := make([]string, sh.bots)
	for i := range names {
		names[i] = fmt.Sprintf("b%d", i)
	}
	weights := make([]float64, sh.bots)
	for i := range weights {
		weights[i] = 1
		if sh.lopsided {
			weights[i] = float64(i + 1) // later bots sit more often
		}
	}
	byComp := map[string]*TableSums{}
	for range sh.units {
		table := pickTable(rng, sh, weights)
		k := len(table)
		var seatings [][]int // seat → table member
		if sh.duplicate {
			seatings = permutations(k)
			if k == 4 {
				seatings = seatings[:0]
				for r := range 4 { // the 4 rotations, as the arena plays them
					seatings = append(seatings, []int{r, (r + 1) % 4, (r + 2) % 4, (r + 3) % 4})
				}
			}
		} else {
			seatings = [][]int{rng.Perm(k)}
		}
		cards := seatLuck(rng, k)
		net := make([]int64, k)
		for _, seating := range seatings {
			own := seatLuck(rng, k)
			for seat, member := range seating {
				i := table[member]
				var others float64
				for _, j := range table {
					if j != i {
						others += lg.truth[j]
					}
				}
				mu := lg.truth[i] - others/float64(k-1)
				net[member] += stochasticRound(rng, mu+cards[seat]+0.5*own[seat])
			}
		}
		bots := make([]string, k)
		for m, i := range table {
			bots[m] = names[i]
		}
		key := CompositionKey(bots)
		if byComp[key] == nil {
			byComp[key], _ = NewTableSums(bots)
		}
		ts := byComp[key]
		sorted := make([]int64, k) // the nets in the order of ts.Bots
		for m := range table {
			sorted[slices.Index(ts.Bots, bots[m])] = net[m]
		}
		ts.AddUnit(int64(len(seatings)), sorted)
	}
	for _, key := range slices.Sorted(mapsKeys(byComp)) {
		lg.tables = append(lg.tables, byComp[key])
	}
	return lg
}

func mapsKeys(m map[string]*TableSums) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// pickTable draws a table of sh.seats distinct bots.
func pickTable(rng *rand.Rand, sh leagueShape, weights []float64) []int {
	var table []int
	if sh.lopsided {
		table = append(table, 0)
	}
	for len(table) < sh.seats {
		var total float64
		for i, w := range weights {
			if !slices.Contains(table, i) {
				total += w
			}
		}
		x := rng.Float64() * total
		for i, w := range weights {
			if slices.Contains(table, i) {
				continue
			}
			if x -= w; x < 0 {
				table = append(table, i)
				break
			}
		}
		if len(table) == 0 || x >= 0 && len(table) < sh.seats { // rounding: take the last free bot
			for i := sh.bots - 1; i >= 0; i-- {
				if !slices.Contains(table, i) {
					table = append(table, i)
					break
				}
			}
		}
	}
	return table
}

func permutations(k int) [][]int {
	if k == 1 {
		return [][]int{{0}}
	}
	var out [][]int
	for _, p := range permutations(k - 1) {
		for at := 0; at <= len(p); at++ {
			q := slices.Insert(slices.Clone(p), at, k-1)
			out = append(out, q)
		}
	}
	return out
}

// calibration is what the simulated leagues showed.
type calibration struct {
	intervals, covered int
	clearPairs, right  int // pairs whose true gap exceeds 2 SE of the estimated difference
}

func calibrate(t *testing.T, seed uint64, perShape int, variance VarianceKind) calibration {
	t.Helper()
	shapes := []leagueShape{
		{bots: 5, seats: 3, units: 600},
		{bots: 5, seats: 3, units: 150, duplicate: true, lopsided: true},
		{bots: 6, seats: 4, units: 120, duplicate: true},
		{bots: 6, seats: 4, units: 600, lopsided: true},
	}
	rng := rand.New(rand.NewPCG(seed, 16))
	var c calibration
	for _, sh := range shapes {
		for range perShape {
			lg := simulate(rng, sh)
			r, err := Skill(&SkillInput{Tables: lg.tables}, &SkillOptions{Variance: variance})
			if err != nil {
				t.Fatalf("%v: %v", sh, err)
			}
			if len(r.Bots) != sh.bots {
				t.Fatalf("%v: %d bots rated, want %d", sh, len(r.Bots), sh.bots)
			}
			// The planted model is additive: the headline's truth is s_i − mean of the others.
			truth := make([]float64, sh.bots)
			for i := range truth {
				truth[i] = roundRobinResult(lg.truth, i, sh.seats, 0)
			}
			for i := range r.Bots { // b0 … b(n−1) sort as their index for n ≤ 10
				c.intervals++
				if r.Lo[i] <= truth[i] && truth[i] <= r.Hi[i] {
					c.covered++
				}
				for j := i + 1; j < len(r.Bots); j++ {
					gap := truth[i] - truth[j]
					sd := math.Sqrt(r.Cov[i][i] + r.Cov[j][j] - 2*r.Cov[i][j])
					if math.Abs(gap) > 2*sd {
						c.clearPairs++
						if (r.Rating[i]-r.Rating[j])*gap > 0 {
							c.right++
						}
					}
				}
			}
		}
	}
	return c
}

func (c calibration) coverage() float64 { return float64(c.covered) / float64(c.intervals) }

// TestSkillCalibration plays 240 leagues from a planted additive model whose units are
// independent (every unit its own deal source; the real engine's leagues, whose tables share
// sources, are in package board's calibration): balanced and lopsided schedules, 3 and 4
// seats, with and without duplicate. The 95% intervals must cover the true headline in
// 93–97% of cases, and bots further apart than two standard errors must come out in
// the right order at least 95% of the time.
func TestSkillCalibration(t *testing.T) {
	t.Parallel()
	c := calibrate(t, 2026, 60, ClusterRobust)
	t.Logf("coverage %.2f%% of %d intervals; %d of %d clearly separated pairs ordered right",
		100*c.coverage(), c.intervals, c.right, c.clearPairs)
	if cov := c.coverage(); cov < 0.93 || cov > 0.97 {
		t.Errorf("95%% intervals cover the truth in %.2f%% of %d cases, want 93–97%%", 100*cov, c.intervals)
	}
	if c.clearPairs < 100 {
		t.Fatalf("only %d pairs further apart than 2 SE: the simulation tests nothing", c.clearPairs)
	}
	if got := float64(c.right) / float64(c.clearPairs); got < 0.95 {
		t.Errorf("%.2f%% of %d pairs further apart than 2 SE ordered right, want ≥ 95%%", 100*got, c.clearPairs)
	}
}

// TestSkillCalibrationDetectsWrongVariance runs the same leagues with the variance that
// ignores the noise of the compositions' means the headline is corrected by: its intervals
// are too narrow and the calibration band must reject them, which shows that the band can
// fail.
func TestSkillCalibrationDetectsWrongVariance(t *testing.T) {
	t.Parallel()
	c := calibrate(t, 2026, 60, MeansIgnored)
	t.Logf("coverage with the means taken as exact: %.2f%%", 100*c.coverage())
	if cov := c.coverage(); cov >= 0.93 && cov <= 0.97 {
		t.Errorf("the wrong variance covers %.2f%%, inside the 93–97%% band: the calibration test cannot tell", 100*cov)
	}
}

// TestSkillExact checks the models on sums whose least-squares solution is known: one
// table of three bots whose nets per deal are exactly +6, 0, −6 has skills 4, 0, −4 (y = 1.5·s
// for a sum-zero s at one table of three), less the ridge's shrinkage of 1e−6 deal in 2250,
// and so headlines 6, 0, −6 (s_i − mean of the other two = 1.5·s_i): the only table there is.
// Results without noise have no spread: SE ≈ 0, and so no interval and no LOS.
func TestSkillExact(t *testing.T) {
	t.Parallel()
	ts, err := NewTableSums([]string{"c", "a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	for range 1000 {
		ts.AddUnit(1, []int64{6, 0, -6}) // a, b, c
	}
	for _, model := range []SkillModel{Additive, TableEffect} {
		r, err := Skill(&SkillInput{Tables: []*TableSums{ts}}, &SkillOptions{Model: model})
		if err != nil {
			t.Fatal(err)
		}
		want := []float64{4, 0, -4}
		for i, w := range want {
			shrunk := w * 2250 / (2250 + DefaultSkillRidge) // XᵀX = 2.25 on sum-zero skills: (2.25·D + λ)·s = Xᵀ·N = 9·D
			if model == Additive && math.Abs(r.Skill[i]-shrunk) > 1e-9 || math.Abs(r.Rating[i]-1.5*w) > 1e-6 {
				t.Errorf("%v %s: skill %v, headline %v, want %v and %v", model, r.Bots[i], r.Skill[i], r.Rating[i], shrunk, 1.5*w)
			}
			if r.SE[i] > 1e-6 || r.HasInterval[i] {
				t.Errorf("%v %s: SE %v of results without noise (interval %v), want ≈ 0 and none", model, r.Bots[i], r.SE[i], r.HasInterval[i])
			}
		}
		if r.LOS[0][2] != 0.5 {
			t.Errorf("%v: LOS a>c = %v without an interval, want ½ (none)", model, r.LOS[0][2])
		}
	}
}

// TestSkillIsTheRoundRobinWhereEveryCompositionWasPlayed: where every composition of the
// bots was played (here: 5 bots at 3 seats, the 10 compositions played unequally often), the
// headline is the plain mean, over the compositions that seat the bot, of its result per deal
// there — what a complete round robin measures — whatever the model says, and the model
// changes nothing.
func TestSkillIsTheRoundRobinWhereEveryCompositionWasPlayed(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 7))
	for n := range 5 {
		lg := simulate(rng, leagueShape{bots: 5, seats: 3, units: 400, duplicate: true})
		if len(lg.tables) != 10 {
			t.Fatalf("league %d: %d compositions played, want all 10", n, len(lg.tables))
		}
		for _, model := range []SkillModel{Additive, TableEffect} {
			r, err := Skill(&SkillInput{Tables: lg.tables}, &SkillOptions{Model: model})
			if err != nil {
				t.Fatal(err)
			}
			for i, b := range r.Bots {
				var sum float64
				var comps int
				for _, ts := range lg.tables {
					if a := slices.Index(ts.Bots, b); a >= 0 {
						sum += float64(ts.Net[a]) / float64(ts.Deals)
						comps++
					}
				}
				if want := sum / float64(comps); math.Abs(r.Rating[i]-want) > 1e-9 {
					t.Errorf("league %d, %v: %s rated %.12f, the mean of its %d compositions is %.12f", n, model, b, r.Rating[i], comps, want)
				}
			}
		}
	}
}

func TestRawPerDeal(t *testing.T) {
	t.Parallel()
	ts, _ := NewTableSums([]string{"a", "b", "c"})
	for _, net := range [][]int64{{10, -5, -5}, {-20, 10, 10}, {30, -15, -15}, {0, 0, 0}} {
		ts.AddUnit(1, net)
	}
	got := RawPerDeal([]*TableSums{ts}, "a")
	want := CentsPerDeal([]float64{10, -20, 30, 0}) // one deal per unit: the plain mean
	if math.Abs(got.Mean-want.Mean) > 1e-12 || math.Abs(got.Half-want.Half) > 1e-9 || got.N != 4 {
		t.Errorf("RawPerDeal = %+v, want %+v", got, want)
	}
}

func TestTableSumsIndexes(t *testing.T) {
	t.Parallel()
	for k := 2; k <= MaxSeats; k++ {
		seen := map[int]bool{}
		for i := range k {
			for j := i; j < k; j++ {
				seen[CrossIndex(i, j, k)] = true
			}
		}
		if len(seen) != k*(k+1)/2 || seen[-1] {
			t.Errorf("k=%d: CrossIndex covers %d slots, want %d", k, len(seen), k*(k+1)/2)
		}
		for x := range k * (k + 1) / 2 {
			if !seen[x] {
				t.Errorf("k=%d: CrossIndex misses %d", k, x)
			}
		}
		pairs := map[int]bool{}
		for i := range k {
			for j := i + 1; j < k; j++ {
				pairs[PairIndex(i, j, k)] = true
			}
		}
		for x := range k * (k - 1) / 2 {
			if !pairs[x] {
				t.Errorf("k=%d: PairIndex misses %d", k, x)
			}
		}
	}
	if _, err := NewTableSums([]string{"a", "a", "b"}); err == nil {
		t.Error("a table seating one bot twice was accepted")
	}
}

// Hall's transformation is increasing and hallInverse undoes it; without skewness both are
// the identity, and a right-skewed sum's interval reaches further above the estimate (an
// estimate that missed the rare large values has a small standard error too).
func TestHallTransformation(t *testing.T) {
	t.Parallel()
	for _, g := range []float64{-0.5, -0.1, 0, 0.2, 0.5} {
		prev := math.Inf(-1)
		for w := -4.0; w <= 4; w += 0.25 {
			y := hall(w, g)
			if y <= prev || math.Abs(hallInverse(y, g)-w) > 1e-9 {
				t.Errorf("γ %v: hall(%v) = %v after %v, inverse %v", g, w, y, prev, hallInverse(y, g))
			}
			prev = y
		}
	}
	if hall(1.5, 0) != 1.5 || hallInverse(-2, 0) != -2 {
		t.Error("without skewness the transformation is not the identity")
	}
	if lo, hi := hallInverse(2, 0.3), hallInverse(-2, 0.3); !(lo < 2 && -hi > 2) {
		t.Errorf("γ 0.3: g⁻¹(±2) = %v, %v", lo, hi)
	}
}
