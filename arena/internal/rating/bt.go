package rating

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// DefaultBTPrior is the default precision λ (per squared logit) of the Gaussian ridge prior
// [BradleyTerry] adds when the plain maximum-likelihood estimate does not exist: a prior
// N(0, 1/λ) on each strength, standard deviation 10 logits ≈ 1737 Elo, weak enough to leave
// well-determined ratings practically unchanged yet keep every rating finite.
const DefaultBTPrior = 0.01

// BTOptions tunes [BradleyTerry]. The zero value (or nil) selects the defaults.
type BTOptions struct {
	// Prior is the precision λ of the ridge prior used when the MLE does not exist
	// (0 selects DefaultBTPrior).
	Prior float64
	// AlwaysPrior applies the prior even when the MLE exists (a MAP estimate throughout).
	AlwaysPrior bool
	// MaxIter caps the Newton iterations (0 selects 1000; typical data needs fewer than 15,
	// while an unbeaten player under a very weak prior can need a few hundred).
	MaxIter int
	// Tol is the convergence tolerance on the largest strength step, in logits (0 selects
	// 1e-10). The iteration also stops once every player's expected points match its actual
	// points (the score equations, plus the prior term) to within 1e-9 points, which is what
	// ends it when an extremely weak prior leaves the information matrix ill-conditioned.
	Tol float64
}

// BTResult holds Bradley–Terry ratings on the Elo scale, centred on zero.
type BTResult struct {
	// Players lists the bots in byte-wise name order; every other slice is indexed alike.
	Players []string
	// Ratings are the strengths in Elo (EloPerLogit per logit), summing to zero.
	Ratings []float64
	// SE is the standard error of each rating, in Elo.
	SE []float64
	// CI95 is the half-width of each rating's 95% interval, Z975·SE.
	CI95 []float64
	// Cov is the covariance matrix of the centred ratings, in Elo².
	Cov [][]float64
	// LOS[i][j] is the likelihood that Players[i] is stronger than Players[j],
	// Φ((r_i − r_j)/sd(r_i − r_j)) with Var(r_i − r_j) = Cov_ii + Cov_jj − 2·Cov_ij; ½ on the
	// diagonal (and wherever the difference has no variance).
	LOS [][]float64
	// Games and Points are each player's number of games and points (wins + draws/2).
	Games  []int
	Points []float64
	// Regularized reports that the ridge prior was applied, with precision Prior. Without
	// AlwaysPrior that happens exactly when the MLE does not exist: some group of players won
	// (or lost) every game against the rest, or the players form separate groups that never
	// met. The ratings are then maximum-a-posteriori estimates: finite, but the strength of
	// an unbeaten player is set by the prior, and its interval is wide. Each group that never
	// met the others is centred on zero separately, and LOS across groups is ≈ ½.
	Regularized bool
	Prior       float64
	// Iterations is the number of Newton steps taken.
	Iterations int
	// DF is each rating's degrees of freedom when the covariance is clustered by deal source
	// (BradleyTerrySources: the bot's sources − 1); nil for BradleyTerry's normal intervals.
	DF []float64
}

// Index returns the position of a player in Players, or −1.
func (r *BTResult) Index(player string) int {
	i, ok := slices.BinarySearch(r.Players, player)
	if !ok {
		return -1
	}
	return i
}

// BradleyTerry fits Bradley–Terry strengths by maximum likelihood to all pairwise results
// (Bradley & Terry 1952; Hunter, "MM algorithms for generalized Bradley–Terry models", Ann.
// Statist. 32, 2004). Player i beats j with probability p_ij = 1/(1 + e^(β_j − β_i)); a draw
// counts as half a win for each side, so with n_ij games and s_ij points of i against j the
// log-likelihood is
//
//	ℓ(β) = Σ_{i<j} [ s_ij·ln p_ij + (n_ij − s_ij)·ln(1 − p_ij) ]
//
// It is maximised by Newton's method with step halving under the constraint Σβ_i = 0
// (strengths are only defined up to a common shift). The observed Fisher information is the
// weighted graph Laplacian H = Σ_{i<j} n_ij·p_ij(1 − p_ij)·(e_i − e_j)(e_i − e_j)ᵀ (for this
// model it equals the expected information); the covariance of the centred strengths is its
// inverse restricted to the sum-to-zero subspace, Cov = P·(H + 11ᵀ/k)⁻¹·P with P = I − 11ᵀ/k
// for k players. Ratings, SE and Cov are reported on the Elo scale, β·400/ln 10.
//
// The MLE exists and is finite exactly when the "scored against" graph (i → j when i has any
// points against j) is strongly connected (Ford 1957; Hunter 2004, Assumption 1). Otherwise —
// a bot that won or lost everything, or groups that never met — a Gaussian ridge prior
// β_i ~ N(0, 1/λ) is added (ℓ − λ/2·Σβ², information H + λI; see [BTOptions.Prior] and
// [BTResult.Regularized]).
//
// Example, 30 games per pair: A–B +18 =9 −3, B–C +18 =9 −3, A–C +24 =6 −0 gives A +190.85,
// B 0, C −190.85 (exactly ±ln 3 logits).
//
// Results may list a pair several times and in either orientation; they are summed. An empty
// input gives an empty result. It returns an error for an invalid [PairResult] or if the
// iterations do not converge.
func BradleyTerry(results []PairResult, opts *BTOptions) (*BTResult, error) {
	var o BTOptions
	if opts != nil {
		o = *opts
	}
	if o.Prior == 0 {
		o.Prior = DefaultBTPrior
	}
	if !(o.Prior > 0) || math.IsInf(o.Prior, 1) {
		return nil, fmt.Errorf("rating: Bradley–Terry prior %v must be positive and finite", o.Prior)
	}
	if o.MaxIter <= 0 {
		o.MaxIter = 1000
	}
	if !(o.Tol > 0) {
		o.Tol = 1e-10
	}
	merged, err := MergePairs(results)
	if err != nil {
		return nil, err
	}

	// Players in name order.
	var players []string
	for _, r := range merged {
		players = append(players, r.A, r.B)
	}
	slices.Sort(players)
	players = slices.Compact(players)
	k := len(players)
	res := &BTResult{Players: players}
	if k == 0 {
		return res, nil
	}
	index := make(map[string]int, k)
	for i, p := range players {
		index[p] = i
	}
	// games[i][j] = n_ij, points[i][j] = s_ij.
	games := newMatrix(k)
	points := newMatrix(k)
	res.Games = make([]int, k)
	res.Points = make([]float64, k)
	for _, r := range merged {
		i, j := index[r.A], index[r.B]
		n := float64(r.Games())
		games[i][j] += n
		games[j][i] += n
		points[i][j] += r.Points()
		points[j][i] += r.Reverse().Points()
		res.Games[i] += r.Games()
		res.Games[j] += r.Games()
		res.Points[i] += r.Points()
		res.Points[j] += r.Reverse().Points()
	}

	lambda := 0.0
	if o.AlwaysPrior || !stronglyConnected(points) {
		lambda = o.Prior
		res.Regularized, res.Prior = true, lambda
	}

	beta := make([]float64, k)
	obj := btObjective(beta, games, points, lambda)
	converged := false
	for it := 0; it < o.MaxIter; it++ {
		g, h := btGradHess(beta, games, points, lambda)
		if maxAbs(g) <= btGradTol {
			converged = true
			break
		}
		// Solve (H + 11ᵀ/k)·step = g; g sums to zero, so the step does too.
		for i := range h {
			for j := range h[i] {
				h[i][j] += 1 / float64(k)
			}
		}
		chol, ok := cholesky(h)
		if !ok {
			return nil, errors.New("rating: Bradley–Terry information matrix is not positive definite")
		}
		step := chol.solve(g)
		res.Iterations = it + 1
		// Step halving keeps the iteration monotone far from the optimum.
		t := 1.0
		next := make([]float64, k)
		var nextObj float64
		for range 60 {
			for i := range beta {
				next[i] = beta[i] + t*step[i]
			}
			nextObj = btObjective(next, games, points, lambda)
			if nextObj >= obj-1e-12*math.Abs(obj) {
				break
			}
			t /= 2
		}
		maxStep := 0.0
		for i := range beta {
			maxStep = math.Max(maxStep, math.Abs(next[i]-beta[i]))
		}
		beta, next = next, beta
		obj = nextObj
		if maxStep < o.Tol {
			converged = true
			break
		}
	}
	if !converged {
		return nil, fmt.Errorf("rating: Bradley–Terry did not converge in %d iterations", o.MaxIter)
	}
	centre(beta)

	// Covariance at the optimum: P·(H + 11ᵀ/k)⁻¹·P.
	_, h := btGradHess(beta, games, points, lambda)
	for i := range h {
		for j := range h[i] {
			h[i][j] += 1 / float64(k)
		}
	}
	chol, ok := cholesky(h)
	if !ok {
		return nil, errors.New("rating: Bradley–Terry information matrix is not positive definite")
	}
	inv := chol.inverse()
	cov := project(inv)

	scale := EloPerLogit
	res.Ratings = make([]float64, k)
	res.SE = make([]float64, k)
	res.CI95 = make([]float64, k)
	res.Cov = newMatrix(k)
	for i := range k {
		res.Ratings[i] = beta[i] * scale
		for j := range k {
			res.Cov[i][j] = cov[i][j] * scale * scale
		}
		res.SE[i] = math.Sqrt(math.Max(0, res.Cov[i][i]))
		res.CI95[i] = Z975 * res.SE[i]
	}
	res.LOS = newMatrix(k)
	for i := range k {
		for j := range k {
			v := res.Cov[i][i] + res.Cov[j][j] - 2*res.Cov[i][j]
			if i == j || !(v > 0) {
				res.LOS[i][j] = 0.5
				continue
			}
			res.LOS[i][j] = normalCDF((res.Ratings[i] - res.Ratings[j]) / math.Sqrt(v))
		}
	}
	return res, nil
}

// btGradTol is the tolerance on the score equations, in points.
const btGradTol = 1e-9

func maxAbs(v []float64) float64 {
	m := 0.0
	for _, x := range v {
		m = math.Max(m, math.Abs(x))
	}
	return m
}

// logSigmoid returns ln(1/(1 + e^(−x))) without overflow.
func logSigmoid(x float64) float64 {
	if x >= 0 {
		return -math.Log1p(math.Exp(-x))
	}
	return x - math.Log1p(math.Exp(x))
}

// sigmoid returns 1/(1 + e^(−x)).
func sigmoid(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + math.Exp(-x))
	}
	e := math.Exp(x)
	return e / (1 + e)
}

// btObjective is the penalised log-likelihood ℓ(β) − λ/2·Σβ².
func btObjective(beta []float64, games, points [][]float64, lambda float64) float64 {
	sum := 0.0
	for i := range beta {
		for j := i + 1; j < len(beta); j++ {
			if games[i][j] == 0 {
				continue
			}
			d := beta[i] - beta[j]
			sum += points[i][j]*logSigmoid(d) + points[j][i]*logSigmoid(-d)
		}
		sum -= lambda / 2 * beta[i] * beta[i]
	}
	return sum
}

// btGradHess returns the gradient of the penalised log-likelihood and the negated Hessian
// (the information matrix, a weighted Laplacian plus λI).
func btGradHess(beta []float64, games, points [][]float64, lambda float64) ([]float64, [][]float64) {
	k := len(beta)
	g := make([]float64, k)
	h := newMatrix(k)
	for i := range k {
		for j := i + 1; j < k; j++ {
			n := games[i][j]
			if n == 0 {
				continue
			}
			p := sigmoid(beta[i] - beta[j])
			r := points[i][j] - n*p // i's surplus over expectation
			g[i] += r
			g[j] -= r
			w := n * p * (1 - p)
			h[i][i] += w
			h[j][j] += w
			h[i][j] -= w
			h[j][i] -= w
		}
		g[i] -= lambda * beta[i]
		h[i][i] += lambda
	}
	return g, h
}

// stronglyConnected reports whether every player can reach every other along edges
// i → j where points[i][j] > 0 (i scored against j).
func stronglyConnected(points [][]float64) bool {
	k := len(points)
	reach := func(forward bool) bool {
		seen := make([]bool, k)
		stack := []int{0}
		seen[0] = true
		count := 1
		for len(stack) > 0 {
			i := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for j := range k {
				w := points[i][j]
				if !forward {
					w = points[j][i]
				}
				if w > 0 && !seen[j] {
					seen[j] = true
					count++
					stack = append(stack, j)
				}
			}
		}
		return count == k
	}
	return reach(true) && reach(false)
}

func centre(v []float64) {
	mean := 0.0
	for _, x := range v {
		mean += x
	}
	mean /= float64(len(v))
	for i := range v {
		v[i] -= mean
	}
}

func newMatrix(k int) [][]float64 {
	m := make([][]float64, k)
	cells := make([]float64, k*k)
	for i := range m {
		m[i] = cells[i*k : (i+1)*k : (i+1)*k]
	}
	return m
}

// project returns P·a·P with P = I − 11ᵀ/k (double centring of a symmetric matrix).
func project(a [][]float64) [][]float64 {
	k := len(a)
	rowMean := make([]float64, k)
	total := 0.0
	for i := range k {
		for j := range k {
			rowMean[i] += a[i][j]
		}
		total += rowMean[i]
		rowMean[i] /= float64(k)
	}
	total /= float64(k * k)
	out := newMatrix(k)
	for i := range k {
		for j := range k {
			// a is symmetric, so the column mean of column j equals rowMean[j].
			out[i][j] = a[i][j] - rowMean[i] - rowMean[j] + total
		}
	}
	return out
}

// choleskyFactor is the lower-triangular L with A = L·Lᵀ.
type choleskyFactor [][]float64

func cholesky(a [][]float64) (choleskyFactor, bool) {
	k := len(a)
	l := newMatrix(k)
	for j := range k {
		sum := a[j][j]
		for p := range j {
			sum -= l[j][p] * l[j][p]
		}
		if !(sum > 0) {
			return nil, false
		}
		l[j][j] = math.Sqrt(sum)
		for i := j + 1; i < k; i++ {
			s := a[i][j]
			for p := range j {
				s -= l[i][p] * l[j][p]
			}
			l[i][j] = s / l[j][j]
		}
	}
	return l, true
}

// solve returns x with L·Lᵀ·x = b.
func (l choleskyFactor) solve(b []float64) []float64 {
	k := len(l)
	y := make([]float64, k)
	for i := range k {
		s := b[i]
		for p := range i {
			s -= l[i][p] * y[p]
		}
		y[i] = s / l[i][i]
	}
	x := make([]float64, k)
	for i := k - 1; i >= 0; i-- {
		s := y[i]
		for p := i + 1; p < k; p++ {
			s -= l[p][i] * x[p]
		}
		x[i] = s / l[i][i]
	}
	return x
}

// inverse returns (L·Lᵀ)⁻¹, symmetrised.
func (l choleskyFactor) inverse() [][]float64 {
	k := len(l)
	inv := newMatrix(k)
	e := make([]float64, k)
	for j := range k {
		clear(e)
		e[j] = 1
		col := l.solve(e)
		for i := range k {
			inv[i][j] = col[i]
		}
	}
	for i := range k {
		for j := i + 1; j < k; j++ {
			m := (inv[i][j] + inv[j][i]) / 2
			inv[i][j], inv[j][i] = m, m
		}
	}
	return inv
}
