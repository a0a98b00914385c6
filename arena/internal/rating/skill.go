package rating

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// DefaultSkillRidge is the default ridge λ of [Skill], in deals: a prior that every bot is
// average, worth one deal of evidence. It keeps the estimate defined for bots that never met
// (separate groups) and changes a rating by less than 1/n of itself after n deals.
const DefaultSkillRidge = 1.0

// MinUnitsForLOS is the sample below which the headline figures are provisional: a bot with
// fewer complete units (duplicate groups, or deals without duplicate) has no likelihood of
// superiority on the board, because the cluster-robust variance needs many clusters to be
// trusted (with 2 units it is estimated from 1 degree of freedom).
const MinUnitsForLOS = 30

// VarianceKind selects how [Skill] estimates the covariance of its ratings.
type VarianceKind int

const (
	// ClusterRobust is the sandwich estimator with one cluster per unit (CR1, Liang & Zeger
	// 1986): the seats of a unit share its cards and, the game being zero-sum, their results
	// are strongly (negatively) correlated.
	ClusterRobust VarianceKind = iota
	// SeatsIndependent is deliberately wrong: the same sandwich with the covariances between
	// a unit's seats dropped, as if every seat's result were an independent observation. It
	// exists only so that the calibration test can show that it detects a wrong variance.
	SeatsIndependent
)

// SkillOptions tunes [Skill]; the zero value (or nil) selects the defaults.
type SkillOptions struct {
	Ridge    float64 // λ in deals (0 selects DefaultSkillRidge)
	Variance VarianceKind
}

// SkillResult is the headline rating of every bot: its expected result per deal, in the game's
// unit (cents in modern), against a field of average bots of the league.
type SkillResult struct {
	Bots   []string    // byte-wise sorted; every slice is indexed alike
	Rating []float64   // ŝ_i, summing to zero
	SE     []float64   // standard error of ŝ_i
	Lo, Hi []float64   // the 95% interval ŝ_i ∓ Z975·SE_i
	Cov    [][]float64 // covariance of the ratings
	Units  []int64     // complete units the bot played
	Deals  []int64     // deals of those units
	// LOS[i][j] = Φ((ŝ_i − ŝ_j)/sd(ŝ_i − ŝ_j)), the likelihood that bot i is stronger than bot
	// j under the same normal approximation as the intervals (½ on the diagonal).
	LOS [][]float64
}

// Index returns the position of a bot in Bots, or −1.
func (r *SkillResult) Index(bot string) int {
	i, ok := slices.BinarySearch(r.Bots, bot)
	if !ok {
		return -1
	}
	return i
}

// Provisional reports that bot i has fewer than MinUnitsForLOS units.
func (r *SkillResult) Provisional(i int) bool { return r.Units[i] < MinUnitsForLOS }

// Skill fits the least-squares skill model to the sufficient statistics of every table
// composition. In a unit of d deals at a table T of k bots, bot i's result per deal is
//
//	y_i = s_i − (1/(k−1))·Σ_{j∈T, j≠i} s_j + ε_i
//
// its skill minus the mean skill of the others at the table, so that s_i is what bot i wins
// per deal against a table of average bots (Σ s = 0). With x_i the row of that design, the
// estimate minimises Σ_units d·Σ_i (y_i − x_i·s)² + λ·|s|², whose normal equations
//
//	(Σ_T D_T·X_Tᵀ X_T + λI)·s = Σ_T X_Tᵀ N_T
//
// need only each composition's deals D_T and net totals N_T (d·y = net). The covariance is
// the cluster-robust sandwich M⁻¹·B·M⁻¹ with M the matrix above and the meat
//
//	B = G/(G−1) · Σ_T X_Tᵀ [Σ_u d_u²(y_u − μ_T)(y_u − μ_T)ᵀ] X_T,  μ_T = X_T·s,
//
// one cluster per unit (G units in all), where the bracket is Q − Pμᵀ − μPᵀ + D₂μμᵀ from the
// sums Q = Σ net·netᵀ, P = Σ d·net and D₂ = Σ d². Intervals and LOS are normal
// approximations from it. It returns an error for tables that are inconsistent (a slice of
// the wrong length) and an empty result for no tables.
func Skill(tables []*TableSums, opts *SkillOptions) (*SkillResult, error) {
	var o SkillOptions
	if opts != nil {
		o = *opts
	}
	if o.Ridge == 0 {
		o.Ridge = DefaultSkillRidge
	}
	if !(o.Ridge > 0) || math.IsInf(o.Ridge, 1) {
		return nil, fmt.Errorf("rating: skill ridge %v must be positive and finite", o.Ridge)
	}
	var bots []string
	var units int64
	for _, t := range tables {
		if err := t.check(); err != nil {
			return nil, err
		}
		if t.Units == 0 {
			continue
		}
		units += t.Units
		for _, b := range t.Bots {
			if !slices.Contains(bots, b) {
				bots = append(bots, b)
			}
		}
	}
	slices.Sort(bots)
	n := len(bots)
	res := &SkillResult{Bots: bots, Rating: make([]float64, n), SE: make([]float64, n), Lo: make([]float64, n),
		Hi: make([]float64, n), Cov: newMatrix(n), Units: make([]int64, n), Deals: make([]int64, n), LOS: newMatrix(n)}
	if n == 0 {
		return res, nil
	}
	type design struct {
		t   *TableSums
		idx []int       // bot index of each seat of the composition
		x   [][]float64 // k×k: x[a][b] is seat a's coefficient of the composition's bot b
	}
	var ds []design
	m := newMatrix(n)
	rhs := make([]float64, n)
	for _, t := range tables {
		if t.Units == 0 {
			continue
		}
		k := len(t.Bots)
		d := design{t: t, idx: make([]int, k), x: newMatrix(k)}
		for a, b := range t.Bots {
			d.idx[a] = res.Index(b)
			res.Units[d.idx[a]] += t.Units
			res.Deals[d.idx[a]] += t.Deals
			for c := range k {
				d.x[a][c] = -1 / float64(k-1)
			}
			d.x[a][a] = 1
		}
		for p := range k {
			for q := range k {
				var xtx float64
				for a := range k {
					xtx += d.x[a][p] * d.x[a][q]
				}
				m[d.idx[p]][d.idx[q]] += float64(t.Deals) * xtx
			}
			for a := range k {
				rhs[d.idx[p]] += d.x[a][p] * float64(t.Net[a])
			}
		}
		ds = append(ds, d)
	}
	for i := range n {
		m[i][i] += o.Ridge
	}
	l, ok := cholesky(m)
	if !ok {
		return nil, errors.New("rating: the skill model's normal equations are not positive definite")
	}
	s := l.solve(rhs)
	minv := l.inverse()

	meat := newMatrix(n)
	for _, d := range ds {
		t, k := d.t, len(d.t.Bots)
		mu := make([]float64, k)
		for a := range k {
			for c := range k {
				mu[a] += d.x[a][c] * s[d.idx[c]]
			}
		}
		sc := newMatrix(k) // Σ_u d²(y−μ)(y−μ)ᵀ
		for a := range k {
			for c := range k {
				if o.Variance == SeatsIndependent && a != c {
					continue
				}
				sc[a][c] = float64(t.Cross[CrossIndex(a, c, k)]) - float64(t.DealNet[a])*mu[c] -
					mu[a]*float64(t.DealNet[c]) + float64(t.DealsSq)*mu[a]*mu[c]
			}
		}
		for p := range k {
			for q := range k {
				var v float64
				for a := range k {
					for c := range k {
						v += d.x[a][p] * sc[a][c] * d.x[c][q]
					}
				}
				meat[d.idx[p]][d.idx[q]] += v
			}
		}
	}
	if units > 1 {
		f := float64(units) / float64(units-1)
		for i := range n {
			for j := range n {
				meat[i][j] *= f
			}
		}
	}
	cov := mul(mul(minv, meat), minv)
	for i := range n {
		res.Rating[i] = s[i]
		res.SE[i] = math.Sqrt(math.Max(cov[i][i], 0))
		res.Lo[i], res.Hi[i] = s[i]-Z975*res.SE[i], s[i]+Z975*res.SE[i]
		copy(res.Cov[i], cov[i])
	}
	for i := range n {
		for j := range n {
			res.LOS[i][j] = los(s[i]-s[j], cov[i][i]+cov[j][j]-2*cov[i][j])
		}
	}
	return res, nil
}

// los is Φ(diff/sd), ½ without variance and difference, and 1 or 0 for a difference without
// variance.
func los(diff, variance float64) float64 {
	if !(variance > 0) {
		switch {
		case diff > 0:
			return 1
		case diff < 0:
			return 0
		}
		return 0.5
	}
	return normalCDF(diff / math.Sqrt(variance))
}

func mul(a, b [][]float64) [][]float64 {
	n := len(a)
	out := newMatrix(n)
	for i := range n {
		for p := range n {
			if a[i][p] == 0 {
				continue
			}
			for j := range n {
				out[i][j] += a[i][p] * b[p][j]
			}
		}
	}
	return out
}

// RawPerDeal is a bot's plain payoff per deal over the tables it sat at, not adjusted for its
// opponents: the ratio Σnet/Σd, with the cluster-robust (one cluster per unit) 95% interval
// of a ratio (Student's t with G−1 degrees of freedom, as [CentsPerDeal]),
// Var = G/(G−1)·Σ_u (net_u − r·d_u)²/(Σd)² = G/(G−1)·(Σnet² − 2rΣd·net + r²Σd²)/(Σd)².
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
		len(s.Wins) != k*(k-1)/2 || len(s.Ties) != k*(k-1)/2 {
		return fmt.Errorf("rating: inconsistent table sums for %v", s.Bots)
	}
	return nil
}
