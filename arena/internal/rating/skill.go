package rating

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// DefaultSkillRidge is the default ridge λ of [Skill], in deals: a prior that every bot is
// average, worth a millionth of a deal of evidence. It only keeps the estimate defined where
// the data leave it open (bots that never met: separate groups, whose means it sets to 0);
// any more would bias the comparisons it should not touch — a ridge of one deal shrinks a bot
// with fewer deals more, and so set two copies of one program in a gauntlet 0.01 cents apart,
// which their identical results at every shared table make a separation "beyond chance".
const DefaultSkillRidge = 1e-6

// legacySkillRidge is the ridge of earlier versions (SkillOptions.Legacy).
const legacySkillRidge = 1.0

// MinUnitsForLOS is the sample below which a bot's figures are marked provisional: fewer
// deal sources than this and the cluster-robust variance rests on few clusters (its own
// uncertainty is wide, which the t critical value accounts for, but the figures still move a
// lot with the next results).
const MinUnitsForLOS = 30

// MinSourcesForInterval is the fewest deal sources a bot needs for an interval (and so an
// LOS) at all: with fewer, the variance of its rating is estimated from almost nothing and no
// interval covers reliably (the calibration in docs/ratings.md shows it), so none is shown.
const MinSourcesForInterval = 5

// VarianceKind selects how [Skill] estimates the covariance of its ratings.
type VarianceKind int

const (
	// ClusterRobust is the sandwich estimator with one cluster per deal source (Liang & Zeger
	// 1986), every table and seating of the source in one cluster.
	ClusterRobust VarianceKind = iota
	// MeansIgnored is deliberately wrong: the covariance of the model's part of the headline
	// only, as if the compositions' means it is corrected by were known exactly. It exists
	// only so that the calibration can show that it detects a wrong variance.
	MeansIgnored
)

// SkillModel is the model [Skill] fits to the table compositions.
type SkillModel int

const (
	// TableEffect is the default: bot i's expected result per deal at a table T of k bots is
	//
	//	μ_i = κ·e_i + β·(e_i² − E2/k),  e_i = s_i − mean_T(s),  E2 = Σ_T e²,  κ = k/(k−1)
	//
	// with one β per rule set. It is the most general payoff, to second order in the skill
	// differences, of a zero-sum game whose seats are exchangeable and whose results do not
	// change when every skill moves alike: the first-order term is the additive model, and
	// the only second-order term with those symmetries is β's (for any k). Built-in bots
	// need it: two heuristic bots take 22 cents a deal from one random bot, one heuristic
	// takes 19 from two (β < 0, the odd one out does worse), which the additive model cannot
	// express, so that it bent every rating by the schedule.
	TableEffect SkillModel = iota
	// Additive is μ_i = κ·e_i: the model of earlier versions, kept for comparison.
	Additive
)

// SkillOptions tunes [Skill]; the zero value (or nil) selects the defaults.
type SkillOptions struct {
	Ridge    float64 // λ in deals (0 selects DefaultSkillRidge)
	Variance VarianceKind
	Model    SkillModel
	// Legacy reproduces the figures of earlier versions, for the calibration's comparison:
	// the skill s_i itself as the headline, normal critical values, one small-sample factor
	// G/(G−1) for all.
	Legacy bool
}

// SkillInput is what [Skill] fits: the compositions' sums, the rule set of each (the model
// has one table-effect coefficient per rule set; "" for all alike), the pair sums of the
// compositions that shared deal sources, and the number of deal sources each bot sat in
// (nil when every cell was a source of its own: then a bot's cells are its sources).
type SkillInput struct {
	Tables     []*TableSums
	Kinds      []string
	Pairs      []*PairSums
	Sources    int64
	BotSources map[string]int64
	// Sample is the cells of a uniform sample of the deal sources (source keys are hashes: the
	// first ones by key), each cell by the index of its table in Tables: the skewness of the
	// headlines' sampling distribution is estimated from them (see Skill). Nil: none, and the
	// intervals are symmetric.
	Sample [][]SampleCell
	// SampleWeight is how many deal sources each sampled one stands for (its league's sources
	// over its league's sampled ones), parallel to Sample; nil: all alike, Sources over the
	// sample's size.
	SampleWeight []float64
}

// SampleCell is one cell of a sampled deal source: its table (an index in SkillInput.Tables),
// its deals and each bot's net in the table's order.
type SampleCell struct {
	Table int
	Deals int64
	Net   []int64
}

// SampleSources is how many deal sources of each league and rule set the skewness of the
// headline is estimated from: the first this many by key (a uniform sample, the keys being
// hashes), read with their cells in proportion to it and to the compositions, never to the
// deals.
const SampleSources = 256

// maxSkew bounds the estimated skewness of a headline's sampling distribution: beyond it the
// expansion the correction rests on says nothing.
const maxSkew = 0.5

// SkillResult is the headline rating of every bot, in the game's unit (cents in modern):
// its expected result per deal at a table whose other seats are taken by bots drawn at
// random from the other bots rated ([Skill]).
type SkillResult struct {
	Bots   []string  // byte-wise sorted; every slice is indexed alike
	Rating []float64 // the headline R_i
	SE     []float64 // standard error of R_i
	// DF is the degrees of freedom of R_i's t interval (Welch–Satterthwaite's over the strata of
	// the sampled deal sources, at most the bot's deal sources − 1; +Inf with Legacy), and Lo, Hi the 95% interval R_i ∓ t·SE_i. Where a bot has no interval
	// (fewer than MinSourcesForInterval sources) Lo = Hi = R_i and HasInterval is false.
	DF          []float64
	Lo, Hi      []float64
	HasInterval []bool
	Cov         [][]float64 // covariance of the headlines
	Skill       []float64   // the model's skills s_i (Σ s = 0 up to the ridge)
	Units       []int64     // cells: deal sources per composition, summed over the bot's compositions
	Sources     []int64     // deal sources the bot sat in
	Deals       []int64     // deals of its complete units
	// Coef is the table-effect coefficient β of each rule set (TableEffect), by Kinds' values.
	Coef map[string]float64
	// LOS[i][j] = F_t((R_i − R_j)/sd(R_i − R_j)), the degrees of freedom those of the difference
	// (as DF's, at most min(G_i, G_j) − 1): the
	// likelihood that bot i is stronger than bot j, from the same distribution as the
	// intervals (½ on the diagonal and where either bot has no interval). Where the variance
	// of the difference from Cov is not positive — two headlines that differ only by the
	// model's filling-in, whose terms Cov's leverage corrections no longer let cancel — it is
	// the sample's sum of the squared influences of the difference, never negative.
	LOS [][]float64
	// Fit tests the model against the composition means it was fitted to.
	Fit FitTest
	// Skew is the skewness of each headline's sampling distribution, estimated from the sample
	// of deal sources (SkillInput.Sample; 0 without one, and for a provisional bot): the
	// interval is Hall's, R̂ − SE·g⁻¹(±t): with positive skewness (rare large wins) longer above
	// the headline, as a headline that missed them has a small standard error too.
	Skew []float64
}

// FitTest is the test of the model's fit: whether the mean result of each bot at each table
// composition (with enough sources) departs from the model more than chance allows, as the
// cluster-robust covariance of those departures measures chance. Q = Σ ρ²/Var(ρ) over the
// compositions' seats, referred to the scaled χ² of Satterthwaite (the departures are
// correlated: the seats of a table sum to zero, and the tables share deal sources).
type FitTest struct {
	Tested bool    // false when there is too little to test, or too much (Reason says)
	Reason string  // why it was not tested
	Q, DF  float64 // the statistic and its effective degrees of freedom
	P      float64 // its p-value
	Seats  int     // composition seats tested
}

// FitAlpha is the level at which the board warns that the data reject the model.
const FitAlpha = 0.01

// Rejected reports that the test rejects the model at FitAlpha.
func (f FitTest) Rejected() bool { return f.Tested && f.P < FitAlpha }

// Index returns the position of a bot in Bots, or −1.
func (r *SkillResult) Index(bot string) int {
	i, ok := slices.BinarySearch(r.Bots, bot)
	if !ok {
		return -1
	}
	return i
}

// Provisional reports that bot i has fewer than MinUnitsForLOS deal sources.
func (r *SkillResult) Provisional(i int) bool { return r.Sources[i] < MinUnitsForLOS }

// Skill fits the model (see [SkillModel]) to the compositions' sums and reports the headline
// of every bot: R_i, what the model says bot i wins per deal at a table of k seats whose other
// k−1 seats are taken by bots drawn at random, without replacement, from the other bots of
// these results — the long-run raw result per deal of bot i in a complete round robin of
// them, whatever the schedule that produced the data. Two copies of one program get the
// same R in expectation on any schedule the model fits.
//
// The fit is weighted least squares on the cells (weights: deals), Σ_cells d·Σ_i (y_i − μ_i)²
// + λ|s|² (+ a ridge of one deal's worth on β), which needs each composition's deals and nets
// only; it is solved by Gauss–Newton (exactly, in one step, for the additive model). The
// covariance is the sandwich A⁻¹·B·A⁻¹ with A the derivative of the estimating equations
// and the meat
//
//	B = Σ_g ψ_g ψ_gᵀ,  ψ_g = Σ_{T∈g} J_Tᵀ (Y_gT − d_gT·μ_T)
//
// over deal sources g: every table and seating of a source in one cluster. Its blocks come
// from the TableSums (T = T′) and the PairSums (T ≠ T′). A bot's small-sample factor is
// G_i/(G_i − 1), G_i its deal sources, and its interval and LOS use Student's t with the
// Welch–Satterthwaite degrees of freedom of their variance over the strata of deal sources
// (sourceStrata.df: G_i − 1 in a round robin, as few as the few sources that carry most of
// the variance in a lopsided schedule). The headline's covariance is ∇R·V·∇Rᵀ.
func Skill(in *SkillInput, opts *SkillOptions) (*SkillResult, error) {
	var o SkillOptions
	if opts != nil {
		o = *opts
	}
	switch {
	case o.Ridge == 0 && o.Legacy:
		o.Ridge = legacySkillRidge
	case o.Ridge == 0:
		o.Ridge = DefaultSkillRidge
	}
	if !(o.Ridge > 0) || math.IsInf(o.Ridge, 1) {
		return nil, fmt.Errorf("rating: skill ridge %v must be positive and finite", o.Ridge)
	}
	if in == nil {
		in = &SkillInput{}
	}
	m, err := newSkillModel(in, o)
	if err != nil {
		return nil, err
	}
	res := m.result()
	if m.n == 0 {
		return res, nil
	}
	if err := m.fit(); err != nil {
		return nil, err
	}
	if err := m.covariance(); err != nil {
		return nil, err
	}
	m.headline(res)
	res.Fit = m.fitTest()
	return res, nil
}

// skillModel holds one fit.
type skillModel struct {
	o      SkillOptions
	in     *SkillInput
	bots   []string
	n, p   int
	tables []modelTable
	kinds  []string // the rule sets with a table-effect coefficient, sorted
	pairs  []modelPair
	theta  []float64 // s (n), then β per kind
	ridge  []float64 // per parameter
	a      [][]float64
	ainv   [][]float64
	b      [][]float64 // the meat Σ_g ψ_g ψ_gᵀ of theta
	// per bot: deal sources, cells, deals
	sources, units, deals []int64
	totalSources          int64
	kindDeals             map[string]float64
	kindSeats             map[string]int
	modelIndex            map[int]int // SkillInput.Tables index → tables index
}

type modelTable struct {
	t    *TableSums
	idx  []int // bot index of each seat
	beta int   // parameter index of the table's β, or −1
	kind string
	mu   []float64
	j    [][]float64 // k × p
	// cols are the columns of j that can be nonzero: the table's bots and its β. The normal
	// equations visit only these (a table has at most MaxSeats + 1 of the p), which leaves
	// every sum as it was: the other columns add exact zeros.
	cols []int
}

type modelPair struct {
	p    *PairSums
	a, b int // table indexes
}

func newSkillModel(in *SkillInput, o SkillOptions) (*skillModel, error) {
	m := &skillModel{o: o, in: in, kindDeals: map[string]float64{}, kindSeats: map[string]int{}, modelIndex: map[int]int{}}
	byKey := map[string]int{}
	for i, t := range in.Tables {
		if err := t.check(); err != nil {
			return nil, err
		}
		if t.Units == 0 {
			continue
		}
		kind := ""
		if i < len(in.Kinds) {
			kind = in.Kinds[i]
		}
		for _, b := range t.Bots {
			if !slices.Contains(m.bots, b) {
				m.bots = append(m.bots, b)
			}
		}
		byKey[kind+"\x00"+CompositionKey(t.Bots)] = len(m.tables)
		m.modelIndex[i] = len(m.tables)
		m.tables = append(m.tables, modelTable{t: t, kind: kind, beta: -1})
		m.kindDeals[kind] += float64(t.Deals)
		m.kindSeats[kind] = len(t.Bots)
	}
	slices.Sort(m.bots)
	m.n = len(m.bots)
	m.p = m.n
	if o.Model == TableEffect {
		for _, k := range slices.Sorted(mapKeys(m.kindSeats)) {
			if m.kindSeats[k] >= 3 {
				m.kinds = append(m.kinds, k)
			}
		}
		slices.Sort(m.kinds)
		m.p += len(m.kinds)
	}
	m.sources, m.units, m.deals = make([]int64, m.n), make([]int64, m.n), make([]int64, m.n)
	for ti := range m.tables {
		mt := &m.tables[ti]
		for _, b := range mt.t.Bots {
			i, _ := slices.BinarySearch(m.bots, b)
			mt.idx = append(mt.idx, i)
			m.units[i] += mt.t.Units
			m.deals[i] += mt.t.Deals
		}
		if bi := slices.Index(m.kinds, mt.kind); bi >= 0 {
			mt.beta = m.n + bi
		}
		m.totalSources += mt.t.Units
	}
	if in.BotSources != nil {
		m.totalSources = in.Sources
		for i, b := range m.bots {
			m.sources[i] = in.BotSources[b]
		}
	} else {
		copy(m.sources, m.units)
	}
	// Pairs between tables of one kind (sources never span rule sets).
	for _, p := range in.Pairs {
		if p.Sources == 0 {
			continue
		}
		for _, kind := range slices.Sorted(mapKeys(m.kindDeals)) {
			a, okA := byKey[kind+"\x00"+CompositionKey(p.A)]
			b, okB := byKey[kind+"\x00"+CompositionKey(p.B)]
			if okA && okB {
				m.pairs = append(m.pairs, modelPair{p: p, a: a, b: b})
				break
			}
		}
	}
	m.theta = make([]float64, m.p)
	m.ridge = make([]float64, m.p)
	for i := range m.n {
		m.ridge[i] = o.Ridge
	}
	return m, nil
}

func (m *skillModel) result() *SkillResult {
	n := m.n
	r := &SkillResult{Bots: m.bots, Rating: make([]float64, n), SE: make([]float64, n), DF: make([]float64, n),
		Lo: make([]float64, n), Hi: make([]float64, n), HasInterval: make([]bool, n), Cov: newMatrix(n),
		Skill: make([]float64, n), Units: m.units, Sources: m.sources, Deals: m.deals, Coef: map[string]float64{},
		LOS: newMatrix(n)}
	return r
}

// eval sets each table's μ and Jacobian at theta.
func (m *skillModel) eval(theta []float64) { m.evalAt(theta, true) }

// evalAt sets each table's μ at theta, and with jacobian its Jacobian (the objective needs
// μ only; μ comes out the same either way).
func (m *skillModel) evalAt(theta []float64, jacobian bool) {
	for ti := range m.tables {
		mt := &m.tables[ti]
		k := len(mt.idx)
		fk := float64(k)
		kappa := fk / (fk - 1)
		var mean float64
		for _, i := range mt.idx {
			mean += theta[i]
		}
		mean /= fk
		var eb [MaxSeats]float64
		e := eb[:k]
		var e2 float64
		for a, i := range mt.idx {
			e[a] = theta[i] - mean
			e2 += e[a] * e[a]
		}
		beta := 0.0
		if mt.beta >= 0 {
			beta = theta[mt.beta]
		}
		if mt.mu == nil {
			mt.mu = make([]float64, k)
			mt.j = newMatrixRect(k, m.p)
			mt.cols = make([]int, 0, len(mt.idx)+1)
			for _, i := range mt.idx {
				if !slices.Contains(mt.cols, i) {
					mt.cols = append(mt.cols, i)
				}
			}
			if mt.beta >= 0 {
				mt.cols = append(mt.cols, mt.beta)
			}
		}
		for a := range k {
			mt.mu[a] = kappa*e[a] + beta*(e[a]*e[a]-e2/fk)
			if !jacobian {
				continue
			}
			row := mt.j[a]
			for _, q := range mt.cols { // the others stay 0
				row[q] = 0
			}
			for c, i := range mt.idx {
				d := -1 / fk
				if a == c {
					d += 1
				}
				row[i] += kappa*d + beta*(2*e[a]*d-2*e[c]/fk)
			}
			if mt.beta >= 0 {
				row[mt.beta] = e[a]*e[a] - e2/fk
			}
		}
	}
}

// objective is Σ_T Σ_a (D μ_a² − 2 μ_a N_a) + Σ ridge·θ² (the least-squares criterion up to
// a constant).
func (m *skillModel) objective(theta []float64) float64 {
	m.evalAt(theta, false)
	var f float64
	for _, mt := range m.tables {
		d := float64(mt.t.Deals)
		for a, mu := range mt.mu {
			f += d*mu*mu - 2*mu*float64(mt.t.Net[a])
		}
	}
	for q, x := range theta {
		f += m.ridge[q] * x * x
	}
	return f
}

// fit solves the estimating equations by damped Gauss–Newton.
func (m *skillModel) fit() error {
	if len(m.kinds) > 0 {
		// A ridge on β worth one deal of the average information about it at the additive
		// fit, so that β stays defined when the bots are alike.
		add := *m
		add.o.Model = Additive
		add.p, add.kinds = m.n, nil
		add.tables = slices.Clone(m.tables)
		for i := range add.tables {
			add.tables[i].beta, add.tables[i].mu, add.tables[i].j = -1, nil, nil
		}
		add.theta, add.ridge = make([]float64, m.n), m.ridge[:m.n]
		if err := add.gaussNewton(); err != nil {
			return err
		}
		copy(m.theta, add.theta)
		info, deals := map[string]float64{}, map[string]float64{}
		for _, mt := range add.tables {
			k := float64(len(mt.idx))
			var mean, e2 float64
			for _, i := range mt.idx {
				mean += add.theta[i]
			}
			mean /= k
			es := make([]float64, len(mt.idx))
			for a, i := range mt.idx {
				es[a] = add.theta[i] - mean
				e2 += es[a] * es[a]
			}
			for _, e := range es {
				x := e*e - e2/k
				info[mt.kind] += float64(mt.t.Deals) * x * x
			}
			deals[mt.kind] += float64(mt.t.Deals)
		}
		for bi, kind := range m.kinds {
			r := m.o.Ridge * info[kind] / math.Max(deals[kind], 1)
			if !(r > 0) {
				r = m.o.Ridge
			}
			m.ridge[m.n+bi] = r
		}
	}
	return m.gaussNewton()
}

func (m *skillModel) gaussNewton() error {
	obj := m.objective(m.theta)
	last := math.Inf(1) // the last step's change of θ
	for range 200 {
		g, h := m.normal(m.theta, false)
		l, ok := cholesky(h)
		if !ok {
			return errors.New("rating: the skill model's normal equations are not positive definite")
		}
		step := l.solve(g)
		// The Gauss–Newton decrement gᵀ·step: twice the decrease the step promises.
		var dec float64
		for q := range g {
			dec += g[q] * step[q]
		}
		t := 1.0
		next := make([]float64, m.p)
		var nextObj float64
		for range 60 {
			for q := range next {
				next[q] = m.theta[q] + t*step[q]
			}
			if nextObj = m.objective(next); nextObj <= obj+1e-12*math.Abs(obj) {
				break
			}
			t /= 2
		}
		var change, size float64
		for q := range next {
			change = math.Max(change, math.Abs(next[q]-m.theta[q]))
			size = math.Max(size, math.Abs(next[q]))
		}
		// Done when θ stops moving; or when it has reached the floor of the sums' rounding: the
		// step promised nothing the objective can show (a hundred or so units in its last
		// place) and θ moved no less than the step before, where a fit still converging (in
		// the nearly flat direction of a common shift of the skills, which only the ridge
		// holds) moves a fraction of it. A fit at that floor otherwise stepped about in the
		// rounding until all 200 iterations were spent, on every board.
		floor := dec <= 1e-14*math.Abs(obj) && change > last/2
		m.theta, obj, last = next, nextObj, change
		if change <= 1e-12*(1+size) || floor {
			break
		}
	}
	m.eval(m.theta)
	return nil
}

// normal returns the estimating equations ψ(θ) = Σ J_Tᵀ(N_T − D_T·μ_T) − ridge·θ and their
// negated derivative: the Gauss–Newton matrix Σ D·JᵀJ + ridge, plus with exact the terms of
// the model's curvature, −Σ_T Σ_a (N_a − D·μ_a)·∂²μ_a.
func (m *skillModel) normal(theta []float64, exact bool) ([]float64, [][]float64) {
	m.eval(theta)
	g := make([]float64, m.p)
	h := newMatrix(m.p)
	for _, mt := range m.tables {
		d := float64(mt.t.Deals)
		k := len(mt.idx)
		for a := range k {
			res := float64(mt.t.Net[a]) - d*mt.mu[a]
			row := mt.j[a]
			for _, q := range mt.cols {
				x := row[q]
				if x == 0 {
					continue
				}
				g[q] += x * res
				hq := h[q]
				for _, r := range mt.cols {
					hq[r] += d * x * row[r]
				}
			}
			if exact && mt.beta >= 0 {
				m.curvature(mt, a, theta, res, h)
			}
		}
	}
	for q := range g {
		g[q] -= m.ridge[q] * theta[q]
		h[q][q] += m.ridge[q]
	}
	return g, h
}

// curvature subtracts res·∂²μ_a/∂θ² of seat a of table mt from h.
func (m *skillModel) curvature(mt modelTable, a int, theta []float64, res float64, h [][]float64) {
	k := len(mt.idx)
	fk := float64(k)
	beta := theta[mt.beta]
	var mean float64
	for _, i := range mt.idx {
		mean += theta[i]
	}
	mean /= fk
	e := func(c int) float64 { return theta[mt.idx[c]] - mean }
	dl := func(x, y int) float64 {
		if x == y {
			return 1 - 1/fk
		}
		return -1 / fk
	}
	for c, i := range mt.idx {
		for dd, j := range mt.idx {
			kron := 0.0
			if c == dd {
				kron = 1
			}
			h[i][j] -= res * beta * 2 * (dl(a, c)*dl(a, dd) - (kron-1/fk)/fk)
		}
		x := 2*e(a)*dl(a, c) - 2*e(c)/fk
		h[i][mt.beta] -= res * x
		h[mt.beta][i] -= res * x
	}
}

// covariance computes the bread A (the estimating equations' derivative, with the model's
// curvature where it is positive definite) and the meat Σ_g ψ_g ψ_gᵀ of theta at the fit.
func (m *skillModel) covariance() error {
	_, a := m.normal(m.theta, true)
	l, ok := cholesky(a)
	if !ok {
		if _, a = m.normal(m.theta, false); true {
			if l, ok = cholesky(a); !ok {
				return errors.New("rating: the skill model's information is not positive definite")
			}
		}
	}
	m.a, m.ainv = a, l.inverse()
	m.eval(m.theta)
	m.b = m.meat()
	return nil
}

// meat is Σ_g ψ_g ψ_gᵀ from the tables' and pairs' sums at the current μ.
func (m *skillModel) meat() [][]float64 {
	jac := func(t int) [][]float64 { return m.tables[t].j }
	mu := func(t int) []float64 { return m.tables[t].mu }
	return m.crossMeat(m.p, m.p, jac, mu, jac, mu, nil)
}

// crossMeat is Σ_g a_g b_gᵀ over the deal sources g, for the scores
//
//	a_g = Σ_T ja(T)ᵀ (Y_gT − d_gT·ca(T)),  b_g = Σ_T jb(T)ᵀ (Y_gT − d_gT·cb(T))
//
// (ja(T): k × qa, one row per seat of table T; ca(T): a centre per seat), from the tables'
// sums (the terms of one table, T = T′) and the pairs' (T ≠ T′); fac, when set, scales the
// terms of a's table T and b's table T′ (a leverage correction).
func (m *skillModel) crossMeat(qa, qb int, ja func(int) [][]float64, ca func(int) []float64,
	jb func(int) [][]float64, cb func(int) []float64, fac func(ta, tb int) float64) [][]float64 {
	scale := func(ta, tb int, s [][]float64) [][]float64 {
		if fac == nil {
			return s
		}
		f := fac(ta, tb)
		for _, row := range s {
			for y := range row {
				row[y] *= f
			}
		}
		return s
	}
	out := newMatrixRect(qa, qb)
	for ti, mt := range m.tables {
		t, k := mt.t, len(mt.idx)
		ma, mb := ca(ti), cb(ti)
		s := newMatrix(k)
		for x := range k {
			for y := range k {
				s[x][y] = float64(t.Cross[CrossIndex(x, y, k)]) - float64(t.DealNet[x])*mb[y] -
					ma[x]*float64(t.DealNet[y]) + float64(t.DealsSq)*ma[x]*mb[y]
			}
		}
		addSandwich(out, ja(ti), scale(ti, ti, s), jb(ti))
	}
	for _, pr := range m.pairs {
		p := pr.p
		ka, kb := len(m.tables[pr.a].idx), len(m.tables[pr.b].idx)
		// Σ_g r_gA r_gBᵀ with A's seats centred as a's scores and B's as b's, and the other way
		aa, bb := ca(pr.a), cb(pr.b)
		ab, ba := ca(pr.b), cb(pr.a)
		s1, s2 := newMatrixRect(ka, kb), newMatrixRect(kb, ka)
		for x := range ka {
			for y := range kb {
				nn, nd, dn, dd := float64(p.NN[x*kb+y]), float64(p.ND[x]), float64(p.DN[y]), float64(p.DD)
				s1[x][y] = nn - nd*bb[y] - aa[x]*dn + dd*aa[x]*bb[y]
				s2[y][x] = nn - ab[y]*nd - dn*ba[x] + dd*ab[y]*ba[x]
			}
		}
		addSandwich(out, ja(pr.a), scale(pr.a, pr.b, s1), jb(pr.b))
		addSandwich(out, ja(pr.b), scale(pr.b, pr.a, s2), jb(pr.a))
	}
	return out
}

// addSandwich adds Jaᵀ·S·Jb to b.
func addSandwich(b, ja, s, jb [][]float64) {
	if len(b) == 0 {
		return
	}
	q := len(b[0])
	// tmp = S·Jb (ka × q)
	tmp := newMatrixRect(len(ja), q)
	for x := range s {
		for y, v := range s[x] {
			if v == 0 {
				continue
			}
			for r, w := range jb[y] {
				if w != 0 {
					tmp[x][r] += v * w
				}
			}
		}
	}
	for x, row := range ja {
		for qq, u := range row {
			if u == 0 {
				continue
			}
			for r, w := range tmp[x] {
				b[qq][r] += u * w
			}
		}
	}
}

// headlineOf is R(θ): each bot's expected result per deal against k−1 bots drawn at random
// from the others, weighted by the deals of each rule set.
func (m *skillModel) headlineOf(theta []float64) []float64 {
	n := m.n
	out := make([]float64, n)
	if m.o.Legacy {
		copy(out, theta[:n])
		return out
	}
	kinds := slices.Sorted(mapKeys(m.kindDeals)) // a fixed order: the sums must not depend on a map's
	var total float64
	for _, kind := range kinds {
		total += m.kindDeals[kind]
	}
	for _, kind := range kinds {
		w := m.kindDeals[kind] / total
		k := m.kindSeats[kind]
		beta := 0.0
		if bi := slices.Index(m.kinds, kind); bi >= 0 {
			beta = theta[m.n+bi]
		}
		for i := range n {
			out[i] += w * roundRobinResult(theta[:n], i, k, beta)
		}
	}
	return out
}

// roundRobinResult is E[μ_i] over the tables of k seats that seat bot i with k−1 of the other
// bots drawn at random without replacement (the average over every such table), in closed
// form: with A the sum and B the sum of squares of the drawn skills,
//
//	μ_i = s_i − A/(k−1) + β·[(k−1)(k−2)s_i² − 2(k−2)s_i·A + 2A² − k·B]/k²
//
// and E[A] = qμ₁, E[A²] = q·σ²·(m−q)/(m−1) + (qμ₁)², E[B] = qμ₂ for q = k−1 draws from the
// m others with mean μ₁, mean square μ₂ and variance σ² = μ₂ − μ₁².
func roundRobinResult(s []float64, i, k int, beta float64) float64 {
	m := len(s) - 1
	q := k - 1
	if m < q || q < 1 {
		return s[i]
	}
	var m1, m2 float64
	for j, x := range s {
		if j != i {
			m1 += x
			m2 += x * x
		}
	}
	m1 /= float64(m)
	m2 /= float64(m)
	fq := float64(q)
	ea := fq * m1
	varA := 0.0
	if m > 1 {
		varA = fq * (m2 - m1*m1) * float64(m-q) / float64(m-1)
	}
	ea2 := varA + ea*ea
	eb := fq * m2
	fk := float64(k)
	si := s[i]
	lin := si - ea/fq
	quad := ((fk-1)*(fk-2)*si*si - 2*(fk-2)*si*ea + 2*ea2 - fk*eb) / (fk * fk)
	return lin + beta*quad
}

// observedCell is one composition of one rule set that was played, pooled over the leagues
// whose tables seated it: its deals and each seat's net.
type observedCell struct {
	kind  string
	t     int     // a table of it (its μ and Jacobian; every table of the composition has the same)
	deals float64 // Σ deals over its tables
	units float64 // Σ cells over its tables: the deal sources it played
	net   []float64
}

// minCellSources is the fewest deal sources a composition needs for its own mean to enter the
// headline (with one, the spread of its results cannot be estimated at all): with fewer the
// model's prediction stands for it, as for a composition never played.
const minCellSources = 2

// observed pools the tables by rule set and composition.
func (m *skillModel) observed() (cells []*observedCell, of []int) {
	at := map[string]int{}
	of = make([]int, len(m.tables))
	for ti, mt := range m.tables {
		key := mt.kind + "\x00" + CompositionKey(mt.t.Bots)
		c, ok := at[key]
		if !ok {
			c = len(cells)
			at[key] = c
			cells = append(cells, &observedCell{kind: mt.kind, t: ti, net: make([]float64, len(mt.idx))})
		}
		of[ti] = c
		cells[c].deals += float64(mt.t.Deals)
		cells[c].units += float64(mt.t.Units)
		for a, v := range mt.t.Net {
			cells[c].net[a] += float64(v)
		}
	}
	return cells, of
}

// kindWeights is each rule set's weight in the headline (its share of the deals) and the
// weight π = 1/C(n−1, k−1) of one composition among the round robin's that seat a bot.
func (m *skillModel) kindWeights() (w, pi map[string]float64) {
	w, pi = map[string]float64{}, map[string]float64{}
	var total float64
	for _, d := range m.kindDeals {
		total += d
	}
	for kind, d := range m.kindDeals {
		w[kind] = d / total
		pi[kind] = 1 / binomial(m.n-1, m.kindSeats[kind]-1)
	}
	return w, pi
}

func binomial(n, k int) float64 {
	if k < 0 || k > n {
		return 0
	}
	r := 1.0
	for i := range k {
		r = r * float64(n-i) / float64(i+1)
	}
	return r
}

// headline fills the result's figures from the fit. The headline is model-assisted:
//
//	R̂_i = Σ_rules w·[ RR_i(θ̂) + π·Σ_{T played, i ∈ T} (ȳ_i(T) − μ_i(T; θ̂)) ]
//
// the model's round robin (headlineOf) corrected, at every composition that was played (from
// minCellSources deal sources), by what the bot actually won there beyond the model. In a
// complete round robin this is the plain mean of the compositions' results, whatever the
// model; the model only fills in the compositions a schedule left out (a gauntlet's, a
// ladder's), so that its own estimation noise — β is barely identified among near-equal
// bots — does not enter where the data speak for themselves.
//
// Its covariance is the sandwich of the joint estimating equations of θ and the
// compositions' means, clustered by deal source: with Z = ∇_θR̂·A⁻¹ and v_g the scores of the
// means (π·w·(Y_gT,i − d_gT·ȳ_i(T))/D_T),
//
//	Cov = Σ_g (Z ψ_g + v_g)(Z ψ_g + v_g)ᵀ = Z B Zᵀ + Z Σψvᵀ + Σvψᵀ Zᵀ + Σv vᵀ
//
// with a bias-reduced (CR2-type) meat: each composition's mean is a parameter of its own, and
// its residuals, centred on it, are smaller than the errors by its leverage. With n_T the
// sources of composition T and m its sources shared with T′, E[Σ_g r_gT r_gT′] is the sum of
// the errors' products times 1 − 1/n_T − 1/n_T′ + m/(n_T·n_T′) (for T = T′: 1 − 1/n_T), and
// 1 − 1/n_T′ for a model residual against a mean's; the meat's terms are divided by these.
// The model's part Z B Zᵀ takes each bot's small-sample factor √(G_i/(G_i − 1)).
func (m *skillModel) headline(res *SkillResult) {
	n := m.n
	w, pi := m.kindWeights()
	var cells []*observedCell
	of := make([]int, len(m.tables)) // the pooled composition of each table, or −1
	for ti := range of {
		of[ti] = -1
	}
	if !m.o.Legacy {
		all, at := m.observed()
		index := make([]int, len(all))
		for c, oc := range all {
			index[c] = -1
			if oc.units >= minCellSources {
				index[c] = len(cells)
				cells = append(cells, oc)
			}
		}
		for ti := range of {
			of[ti] = index[at[ti]]
		}
	}
	// f(θ): the part of R̂ that depends on θ.
	f := func(theta []float64) []float64 {
		out := m.headlineOf(theta)
		for _, c := range cells {
			mt := m.tables[c.t]
			mu := m.muAt(theta, mt)
			for a, i := range mt.idx {
				out[i] -= w[c.kind] * pi[c.kind] * mu[a]
			}
		}
		return out
	}
	r := f(m.theta)
	for _, c := range cells {
		for a, i := range m.tables[c.t].idx {
			r[i] += w[c.kind] * pi[c.kind] * c.net[a] / c.deals
		}
	}
	// ∇f by central differences: f is a polynomial of degree 3 in θ, so the error is of the
	// order of h² (1e−8 of the scale).
	grad := newMatrixRect(n, m.p)
	for q := range m.p {
		h := 1e-4 * math.Max(1, math.Abs(m.theta[q]))
		plus, minus := slices.Clone(m.theta), slices.Clone(m.theta)
		plus[q] += h
		minus[q] -= h
		rp, rm := f(plus), f(minus)
		for i := range n {
			grad[i][q] = (rp[i] - rm[i]) / (2 * h)
		}
	}
	m.eval(m.theta)
	z := mulRect(grad, m.ainv) // n × p
	cov := mul(mul(z, m.b), transpose(z))
	// The model's part: each bot's small-sample factor G_i/(G_i − 1) (Legacy: G/(G − 1)).
	fac := make([]float64, n)
	for i := range n {
		g := float64(m.totalSources)
		if !m.o.Legacy {
			g = float64(m.sources[i])
		}
		fac[i] = 1
		if g > 1 {
			fac[i] = math.Sqrt(g / (g - 1))
		}
	}
	for i := range n {
		for j := range n {
			cov[i][j] *= fac[i] * fac[j]
		}
	}
	ev, ybar := m.meansScores(cells, of, w, pi)
	if len(cells) > 0 && m.o.Variance != MeansIgnored {
		m.addMeansCovariance(cov, z, cells, of, ev, ybar)
	}
	for i := range n {
		copy(res.Cov[i], cov[i])
	}
	infl, strata := m.sampleInfluence(z, of, ev, ybar)
	skewOf := func(i int) float64 { // of bot i's headline
		if len(infl) < MinUnitsForLOS || m.sources[i] < MinUnitsForLOS || m.o.Legacy {
			return 0 // provisional: the sample's skewness would be mostly noise
		}
		var s2, s3 float64
		for _, f := range infl {
			s2 += f[i] * f[i]
			s3 += f[i] * f[i] * f[i]
		}
		if !(s2 > 0) {
			return 0
		}
		// The skewness of the sum over all G sources from the sample's K:
		// (G/K)Σ f³ / ((G/K)Σ f²)^{3/2} = √(K/G)·Σ f³/(Σ f²)^{3/2}.
		g := math.Sqrt(float64(len(infl))/float64(max(m.totalSources, int64(len(infl))))) * s3 / math.Pow(s2, 1.5)
		return math.Max(-maxSkew, math.Min(maxSkew, g))
	}
	res.Skew = make([]float64, n)
	for i := range n {
		res.Rating[i] = r[i]
		res.Skill[i] = m.theta[i]
		res.SE[i] = math.Sqrt(math.Max(res.Cov[i][i], 0))
		res.DF[i] = math.Inf(1)
		if !m.o.Legacy {
			res.DF[i] = strata.df(infl, func(f []float64) float64 { return f[i] }, float64(m.sources[i]-1))
		}
		res.Lo[i], res.Hi[i] = r[i], r[i]
		res.HasInterval[i] = res.SE[i] > noSpread*(1+math.Abs(r[i])) &&
			(m.o.Legacy && m.sources[i] >= 2 || m.sources[i] >= MinSourcesForInterval)
		if res.HasInterval[i] {
			res.Skew[i] = skewOf(i)
			t := StudentTQuantile(0.975, res.DF[i])
			res.Lo[i], res.Hi[i] = r[i]-res.SE[i]*hallInverse(t, res.Skew[i]), r[i]-res.SE[i]*hallInverse(-t, res.Skew[i])
		}
	}
	for bi, kind := range m.kinds {
		res.Coef[kind] = m.theta[m.n+bi]
	}
	for i := range n {
		for j := range n {
			res.LOS[i][j] = 0.5
			if i == j || !res.HasInterval[i] || !res.HasInterval[j] {
				continue
			}
			v := res.Cov[i][i] + res.Cov[j][j] - 2*res.Cov[i][j]
			df := math.Inf(1)
			if !m.o.Legacy {
				df = strata.df(infl, func(f []float64) float64 { return f[i] - f[j] }, float64(min(m.sources[i], m.sources[j])-1))
			}
			if !(v > 0) && !m.o.Legacy {
				v = strata.variance(infl, func(f []float64) float64 { return f[i] - f[j] })
			}
			res.LOS[i][j] = losT(r[i]-r[j], v, df)
		}
	}
}

// hall is Hall's (1992) transformation of a studentized sum whose terms have skewness γ (of
// the sum: γ_pop/√G), g(w) = w + γw²/3 + γ²w³/27 + γ/6 = ((1 + γw/3)³ − 1)/(γ/3) + γ/6: g(T) is
// Student's t to a smaller error than T, the skewness of the sum removed. It is increasing.
func hall(w, gamma float64) float64 {
	if gamma == 0 {
		return w
	}
	c := gamma / 3
	u := 1 + c*w
	return (u*u*u-1)/(3*c) + gamma/6
}

// hallInverse is the inverse of hall in w.
func hallInverse(y, gamma float64) float64 {
	if gamma == 0 {
		return y
	}
	c := gamma / 3
	return (math.Cbrt(1+3*c*(y-gamma/6)) - 1) / c
}

// meansScores are the weights of the compositions' means in the headlines: seat a of table t
// is bot i's, weighted π·w/D_T, and centred on the composition's mean ȳ (of maps each table to
// its pooled composition in cells, −1: none, whose weights are 0).
func (m *skillModel) meansScores(cells []*observedCell, of []int, w, pi map[string]float64) (ev [][][]float64, ybar [][]float64) {
	ev = make([][][]float64, len(m.tables))
	ybar = make([][]float64, len(m.tables))
	for ti, mt := range m.tables {
		ev[ti] = newMatrixRect(len(mt.idx), m.n)
		ybar[ti] = make([]float64, len(mt.idx))
		if of[ti] < 0 {
			continue
		}
		c := cells[of[ti]]
		for a, i := range mt.idx {
			ev[ti][a][i] = w[c.kind] * pi[c.kind] / c.deals
			ybar[ti][a] = c.net[a] / c.deals
		}
	}
	return ev, ybar
}

// sampleInfluence is each sampled deal source's influence on the headlines (SkillInput.Sample):
// Z·ψ_g + v_g, the terms whose sum over all sources is R̂ − R to first order; and the sources'
// strata (see sourceStrata).
func (m *skillModel) sampleInfluence(z [][]float64, of []int, ev [][][]float64, ybar [][]float64) ([][]float64, sourceStrata) {
	var out [][]float64
	st := sourceStrata{index: map[string]int{}}
	for si, src := range m.in.Sample {
		psi := make([]float64, m.p)
		v := make([]float64, m.n)
		any := false
		var key []byte
		for _, c := range src {
			ti, ok := m.modelIndex[c.Table]
			if !ok || len(c.Net) != len(m.tables[ti].idx) {
				continue
			}
			any = true
			key = fmt.Appendf(key, "%d,", ti)
			mt := m.tables[ti]
			for a, i := range mt.idx {
				d := float64(c.Deals)
				res := float64(c.Net[a]) - d*mt.mu[a]
				for q, x := range mt.j[a] {
					psi[q] += x * res
				}
				if of[ti] >= 0 {
					v[i] += ev[ti][a][i] * (float64(c.Net[a]) - d*ybar[ti][a])
				}
			}
		}
		if !any {
			continue
		}
		f := make([]float64, m.n)
		for i := range m.n {
			f[i] = v[i]
			for q, x := range psi {
				f[i] += z[i][q] * x
			}
		}
		out = append(out, f)
		w := float64(m.totalSources) / float64(max(len(m.in.Sample), 1))
		if len(m.in.SampleWeight) == len(m.in.Sample) {
			w = m.in.SampleWeight[si]
		}
		st.add(string(key), w)
	}
	return out, st
}

// sourceStrata groups the sampled deal sources by the compositions that played them (sources
// played by the same tables have errors of one distribution: a round's, in a league), for
// the degrees of freedom of a headline's t (df).
type sourceStrata struct {
	index  map[string]int // composition set → stratum
	of     []int          // each sampled source's stratum
	weight []float64      // each sampled source's weight (SkillInput.SampleWeight)
	n      int            // strata
}

func (st *sourceStrata) add(key string, weight float64) {
	s, ok := st.index[key]
	if !ok {
		s = st.n
		st.index[key] = s
		st.n++
	}
	st.of, st.weight = append(st.of, s), append(st.weight, weight)
}

// df is the degrees of freedom of the t of an estimate whose influence of source g is
// part(infl[g]), at most most. The cluster-robust variance is Σ_g f_g² = Σ_s V_s over the
// strata s of sources (those played by the same tables: a round's, in a league), each V_s
// estimated from its W_s sources less the means fitted from them, W_s − 1 degrees of freedom,
// and Welch–Satterthwaite's approximation of the sum's distribution has (Σ V_s)²/Σ V_s²/(W_s −
// 1). A round robin is one stratum: G − 1, exact. When a few sources carry most of the
// variance — a composition played in one round of many, whose mean the headline weighs like
// the others' — it is about as few as those sources (G − 1 there made the intervals of such
// schedules too short and flagged identical bots too often: measured in docs/ratings.md).
// V_s comes from the sample, each sampled source weighted by what it stands for; a stratum
// sampled from n_s < W_s sources has the added noise of its estimate, (1 + 2/n_s)/(1 + 2/W_s)
// (E[σ̂⁴] = σ⁴(1 + 2/n) for a mean of n squares of normal terms). Without a sample: most.
func (st sourceStrata) df(infl [][]float64, part func([]float64) float64, most float64) float64 {
	if len(infl) == 0 || most < 1 {
		return math.Max(most, 1)
	}
	sum2, wsum, count := make([]float64, st.n), make([]float64, st.n), make([]float64, st.n)
	for g, f := range infl {
		x := part(f)
		s := st.of[g]
		sum2[s] += st.weight[g] * x * x
		wsum[s] += st.weight[g]
		count[s]++
	}
	var v, v2, sources float64
	for s := range st.n {
		if !(wsum[s] > 0) || !(sum2[s] > 0) {
			continue
		}
		vs := sum2[s] // the stratum's part of the variance
		v += vs
		// its degrees of freedom: its sources less the mean fitted from them (Welch), and the
		// noise of estimating σ_s⁴ from count[s] sampled sources beyond the full data's
		noise := (1 + 2/count[s]) / (1 + 2/wsum[s])
		v2 += vs * vs / (noise * math.Max(wsum[s]-1, 1))
		sources += wsum[s]
	}
	if !(v2 > 0) || sources <= 1 {
		return math.Max(most, 1)
	}
	return math.Max(1, math.Min(most, v*v/v2))
}

// variance is the cluster-robust variance of an estimate whose influence of source g is
// part(infl[g]), from the sample alone: Σ_g w_g·part(f_g)², each sampled source weighted by
// what it stands for, without leverage corrections — a sum of squares, so never negative.
func (st sourceStrata) variance(infl [][]float64, part func([]float64) float64) float64 {
	var v float64
	for g, f := range infl {
		x := part(f)
		v += st.weight[g] * x * x
	}
	return v
}

// addMeansCovariance adds to cov the terms of the compositions' means, Z Σψvᵀ + Σvψᵀ Zᵀ +
// Σv vᵀ, with their leverage corrections (see headline); of maps each table to its pooled
// composition in cells (−1: none), ev and ybar are meansScores'.
func (m *skillModel) addMeansCovariance(cov, z [][]float64, cells []*observedCell, of []int, ev [][][]float64, ybar [][]float64) {
	n := m.n
	// Sources shared by two pooled compositions (sources never span leagues: only pairs).
	shared := map[[2]int]float64{}
	for _, pr := range m.pairs {
		ca, cb := of[pr.a], of[pr.b]
		if ca >= 0 && cb >= 0 {
			shared[[2]int{ca, cb}] += float64(pr.p.Sources)
			shared[[2]int{cb, ca}] += float64(pr.p.Sources)
		}
	}
	meanMean := func(ta, tb int) float64 { // 1/E-factor of two means' residuals
		ca, cb := of[ta], of[tb]
		if ca < 0 || cb < 0 {
			return 0
		}
		na, nb := cells[ca].units, cells[cb].units
		var f float64
		if ca == cb {
			f = 1 - 1/na
		} else {
			f = 1 - 1/na - 1/nb + shared[[2]int{ca, cb}]/(na*nb)
		}
		if !(f > 0) {
			return 0
		}
		return 1 / f
	}
	modelMean := func(_, tb int) float64 { // a model residual against a mean's
		cb := of[tb]
		if cb < 0 {
			return 0
		}
		return 1 / (1 - 1/cells[cb].units)
	}
	jac := func(t int) [][]float64 { return m.tables[t].j }
	mu := func(t int) []float64 { return m.tables[t].mu }
	evOf := func(t int) [][]float64 { return ev[t] }
	ybarOf := func(t int) []float64 { return ybar[t] }
	zpv := mul(z, m.crossMeat(m.p, n, jac, mu, evOf, ybarOf, modelMean)) // Z Σ ψ vᵀ
	vv := m.crossMeat(n, n, evOf, ybarOf, evOf, ybarOf, meanMean)
	for i := range n {
		for j := range n {
			cov[i][j] += zpv[i][j] + zpv[j][i] + vv[i][j]
		}
	}
}

// noSpread is the relative standard error below which results have no spread (rounding
// error of results without noise): no interval.
const noSpread = 1e-9

// muAt is the model's μ at the seats of table mt for parameters theta (without touching the
// tables' state).
func (m *skillModel) muAt(theta []float64, mt modelTable) []float64 {
	k := len(mt.idx)
	fk := float64(k)
	var mean float64
	for _, i := range mt.idx {
		mean += theta[i]
	}
	mean /= fk
	e := make([]float64, k)
	var e2 float64
	for a, i := range mt.idx {
		e[a] = theta[i] - mean
		e2 += e[a] * e[a]
	}
	beta := 0.0
	if mt.beta >= 0 {
		beta = theta[mt.beta]
	}
	out := make([]float64, k)
	for a := range k {
		out[a] = fk/(fk-1)*e[a] + beta*(e[a]*e[a]-e2/fk)
	}
	return out
}

// losT is F_t(diff/sd) with df degrees of freedom; ½ without variance and difference, and 1
// or 0 for a difference without variance. The difference of two headlines is taken as
// symmetric: the skewness of each bot's errors largely cancels in it, and its estimate from
// the sample would be mostly noise (it made identical bots' LOS cross 97.5% more often).
func losT(diff, variance, df float64) float64 {
	if !(variance > 0) {
		switch {
		case diff > 0:
			return 1
		case diff < 0:
			return 0
		}
		return 0.5
	}
	return StudentTCDF(diff/math.Sqrt(variance), df)
}

// maxFitSeats bounds the composition seats the fit test works on (its cost grows with their
// square times the parameters, lowRankSandwich): a round robin of 10 bots at 3 seats has 360.
const maxFitSeats = 600

// minFitSources is the fewest deal sources a composition needs to be tested.
const minFitSources = 10

// fitTest tests the composition means against the model (see FitTest).
func (m *skillModel) fitTest() FitTest {
	type slot struct{ t, a int }
	var slots []slot
	for ti, mt := range m.tables {
		if mt.t.Units < minFitSources {
			continue
		}
		for a := range mt.idx {
			slots = append(slots, slot{ti, a})
		}
	}
	switch {
	case m.o.Model == Additive && m.o.Legacy:
		return FitTest{Reason: "not tested (legacy model)"}
	case len(slots) == 0:
		return FitTest{Reason: fmt.Sprintf("no composition has %d deal sources yet", minFitSources)}
	case len(slots) > maxFitSeats:
		return FitTest{Reason: fmt.Sprintf("%d composition seats: too many to test", len(slots))}
	}
	ns := len(slots)
	rho := make([]float64, ns)
	jstack := newMatrixRect(ns, m.p)
	for x, sl := range slots {
		mt := m.tables[sl.t]
		rho[x] = float64(mt.t.Net[sl.a])/float64(mt.t.Deals) - mt.mu[sl.a]
		copy(jstack[x], mt.j[sl.a])
	}
	// W: the slot-space meat Σ_g r_g r_gᵀ, from the tables' and pairs' sums.
	pos := map[[2]int]int{}
	for x, sl := range slots {
		pos[[2]int{sl.t, sl.a}] = x
	}
	w := newMatrix(ns)
	for ti, mt := range m.tables {
		t, k := mt.t, len(mt.idx)
		for a := range k {
			x, ok := pos[[2]int{ti, a}]
			if !ok {
				continue
			}
			for c := range k {
				y, ok := pos[[2]int{ti, c}]
				if !ok {
					continue
				}
				w[x][y] = float64(t.Cross[CrossIndex(a, c, k)]) - float64(t.DealNet[a])*mt.mu[c] -
					mt.mu[a]*float64(t.DealNet[c]) + float64(t.DealsSq)*mt.mu[a]*mt.mu[c]
			}
		}
	}
	for _, pr := range m.pairs {
		ta, tb := m.tables[pr.a], m.tables[pr.b]
		kb := len(tb.idx)
		for a := range ta.idx {
			x, ok := pos[[2]int{pr.a, a}]
			if !ok {
				continue
			}
			for c := range tb.idx {
				y, ok := pos[[2]int{pr.b, c}]
				if !ok {
					continue
				}
				v := float64(pr.p.NN[a*kb+c]) - float64(pr.p.ND[a])*tb.mu[c] - ta.mu[a]*float64(pr.p.DN[c]) +
					float64(pr.p.DD)*ta.mu[a]*tb.mu[c]
				w[x][y], w[y][x] = v, v
			}
		}
	}
	// M = Dinv − Jstack·A⁻¹·Jstackᵀ (the departures' influence per unit of residual), and
	// Var(ρ) = M·W·Mᵀ, with the small-sample factor G/(G − 1).
	za := mulRect(jstack, m.ainv) // ns × p
	dinv := make([]float64, ns)
	for x := range ns {
		dinv[x] = 1 / float64(m.tables[slots[x].t].t.Deals)
	}
	vr := lowRankSandwich(dinv, za, jstack, w)
	if g := float64(m.totalSources); g > 1 {
		for x := range vr {
			for y := range vr {
				vr[x][y] *= g / (g - 1)
			}
		}
	}
	var q, tr, tr2 float64
	sd := make([]float64, ns)
	for x := range ns {
		sd[x] = math.Sqrt(math.Max(vr[x][x], 0))
	}
	used := 0
	for x := range ns {
		if !(sd[x] > 0) {
			continue
		}
		used++
		q += rho[x] * rho[x] / vr[x][x]
		tr++
		for y := range ns {
			if sd[y] > 0 {
				c := vr[x][y] / (sd[x] * sd[y])
				tr2 += c * c
			}
		}
	}
	if used == 0 || !(tr2 > 0) {
		return FitTest{Reason: "no spread to test against"}
	}
	scale, df := tr2/tr, tr*tr/tr2
	return FitTest{Tested: true, Q: q, DF: df, P: chiSquareSurvival(q/scale, df), Seats: used}
}

func newMatrixRect(r, c int) [][]float64 {
	m := make([][]float64, r)
	cells := make([]float64, r*c)
	for i := range m {
		m[i] = cells[i*c : (i+1)*c : (i+1)*c]
	}
	return m
}

func mulRect(a, b [][]float64) [][]float64 {
	if len(a) == 0 {
		return nil
	}
	out := newMatrixRect(len(a), len(b[0]))
	for i := range a {
		for p, x := range a[i] {
			if x == 0 {
				continue
			}
			for j, y := range b[p] {
				out[i][j] += x * y
			}
		}
	}
	return out
}

func transpose(a [][]float64) [][]float64 {
	if len(a) == 0 {
		return nil
	}
	out := newMatrixRect(len(a[0]), len(a))
	for i := range a {
		for j, x := range a[i] {
			out[j][i] = x
		}
	}
	return out
}

func mul(a, b [][]float64) [][]float64 { return mulRect(a, b) }

// RawPerDeal is a bot's plain payoff per deal over the tables it sat at, not adjusted for its
// opponents: the ratio Σnet/Σd, with the cluster-robust 95% interval of a ratio clustered by
// the composition's cells (Student's t with G−1 degrees of freedom, as [CentsPerDeal]),
// Var = G/(G−1)·Σ_u (net_u − r·d_u)²/(Σd)² = G/(G−1)·(Σnet² − 2rΣd·net + r²Σd²)/(Σd)². The
// compositions' shared sources are left out: it is descriptive.
func RawPerDeal(tables []*TableSums, bot string) Interval {
	var g, deals, dsq int64
	var net, sq, dnet float64
	for _, t := range tables {
		a := slices.Index(t.Bots, bot)
		if a < 0 || t.Units == 0 {
			continue
		}
		k := len(t.Bots)
		g += t.Units
		deals += t.Deals
		dsq += t.DealsSq
		net += float64(t.Net[a])
		dnet += float64(t.DealNet[a])
		sq += float64(t.Cross[CrossIndex(a, a, k)])
	}
	if deals == 0 {
		return Interval{}
	}
	r := net / float64(deals)
	iv := Interval{N: int(g), Mean: r, Lo: r, Hi: r}
	if g >= 2 {
		v := math.Max(sq-2*r*dnet+r*r*float64(dsq), 0) / (float64(deals) * float64(deals)) * float64(g) / float64(g-1)
		iv.SE = math.Sqrt(v)
		iv.Crit = StudentTQuantile(0.975, float64(g-1))
		iv.Half = iv.Crit * iv.SE
		iv.Lo, iv.Hi = r-iv.Half, r+iv.Half
	}
	return iv
}

// check reports sums whose slices do not fit the composition.
func (s *TableSums) check() error {
	k := len(s.Bots)
	if k < 2 || k > MaxSeats || len(s.Net) != k || len(s.DealNet) != k || len(s.Cross) != k*(k+1)/2 ||
		len(s.Wins) != k*(k-1)/2 || len(s.Ties) != k*(k-1)/2 ||
		s.Points != nil && (len(s.Points) != k || len(s.PointsCross) != k*(k+1)/2) {
		return fmt.Errorf("rating: inconsistent table sums for %v", s.Bots)
	}
	return nil
}

// chiSquareSurvival is P(X > x) for X ~ χ²(df): the regularized upper incomplete gamma
// Q(df/2, x/2).
func chiSquareSurvival(x, df float64) float64 {
	if !(x > 0) {
		return 1
	}
	return 1 - regGammaP(df/2, x/2)
}

// regGammaP is the regularized lower incomplete gamma P(a, x), by its series for x < a + 1
// and its continued fraction otherwise (Numerical Recipes §6.2).
func regGammaP(a, x float64) float64 {
	if x <= 0 {
		return 0
	}
	lg, _ := math.Lgamma(a)
	if x < a+1 {
		sum, term := 1/a, 1/a
		for n := 1; n < 10000; n++ {
			term *= x / (a + float64(n))
			sum += term
			if math.Abs(term) < math.Abs(sum)*1e-16 {
				break
			}
		}
		return sum * math.Exp(-x+a*math.Log(x)-lg)
	}
	const tiny = 1e-300
	b := x + 1 - a
	c := 1 / tiny
	d := 1 / b
	h := d
	for i := 1; i < 10000; i++ {
		an := -float64(i) * (float64(i) - a)
		b += 2
		d = an*d + b
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = b + an/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		del := d * c
		h *= del
		if math.Abs(del-1) < 1e-16 {
			break
		}
	}
	return 1 - math.Exp(-x+a*math.Log(x)-lg)*h
}
