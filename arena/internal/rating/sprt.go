package rating

import (
	"errors"
	"fmt"
	"math"
)

// SPRTBounds returns the decision bounds of Wald's sequential probability ratio test for
// type I error α and type II error β (Wald 1945):
//
//	lower = ln(β/(1 − α)),  upper = ln((1 − β)/α)
//
// For α = β = 0.05 they are −2.944 and +2.944.
func SPRTBounds(alpha, beta float64) (lower, upper float64) {
	return math.Log(beta / (1 - alpha)), math.Log((1 - beta) / alpha)
}

// NEloPerT is fishtest's nelo_divided_by_nt, 800/ln 10 ≈ 347.44: normalized Elo per unit of
// the t-value per game, (score − ½)/σ_game.
const NEloPerT = 800 / math.Ln10

// SPRTModel is the hypothesis scale of a sequential test.
type SPRTModel int

const (
	// Normalized tests nElo0 against nElo1 in normalized Elo, the t-value of the per-game
	// score, t = (μ − ½)/σ (fishtest's and fastchess's "normalized" model): independent of the
	// draw rate.
	Normalized SPRTModel = iota
	// Logistic tests Elo0 against Elo1 in logistic Elo, the expected score
	// 1/(1 + 10^(−Elo/400)) (fishtest's and fastchess's "logistic" model).
	Logistic
)

// String returns "normalized" or "logistic".
func (m SPRTModel) String() string {
	switch m {
	case Normalized:
		return "normalized"
	case Logistic:
		return "logistic"
	}
	return fmt.Sprintf("SPRTModel(%d)", int(m))
}

// Trinomial and Pentanomial are the shapes of the tallies a test counts: one game per unit
// (loss, draw, win) or a pair of games per unit (LL, LD+DL, LW+DD+WL, DW+WD, WW), as fishtest
// and fastchess count them.
const (
	Trinomial   = 3
	Pentanomial = 5
)

// GSPRTLLR is the generalized log-likelihood ratio of H1 against H0 for a tally of units
// whose score takes the equally spaced values 0, 1/(m−1), …, 1 (counts[i] units scored
// i/(m−1)): m = 3 for single games (loss, draw, win), m = 5 for game pairs (the pentanomial
// LL, LD+DL, LW+DD+WL, DW+WD, WW). It is exactly what fishtest's LLRcalc computes
// (LLR_normalized and LLR_logistic; M. Van den Bergh, "Comments on normalized Elo",
// normalized_elo_practical.pdf §4.1, and "Multinomial MLE with a constraint on the
// expectation", support_MLE_multinomial.pdf Proposition 1.1):
//
//   - counts of zero are regularized to 1e−3 (LLRcalc.regularize, fastchess alike), so that
//     a tally of only wins or only draws has a finite ratio;
//   - for each hypothesis the multinomial distribution closest to the observed one (maximum
//     likelihood) under the constraint of the hypothesis is found: the expected score L(Elo)
//     for the logistic model, the t-value (μ − ½)/σ = t for the normalized model, with
//     t = nElo/NEloPerT per game and √(games per unit) times that per unit (√2 for pairs);
//   - LLR = N·Σ_i p̂_i·(ln p1_i − ln p0_i).
//
// The closed form (N/2)·ln(σ0²/σ1²) that this package used before is only the near-H0
// approximation (LLR_normalized_alt): at 92% wins it gave 3.01 against the exact 5.88, and 0
// for a tally of nothing but wins, so that such a test never stopped.
//
// It returns 0 for an empty tally and an error for an even or too short counts slice, or a
// negative count.
func GSPRTLLR(model SPRTModel, h0, h1 float64, counts []float64) (float64, error) {
	m := len(counts)
	if m < 3 || m%2 == 0 {
		return 0, fmt.Errorf("rating: a tally of %d categories (want an odd number ≥ 3)", m)
	}
	var n float64
	for _, c := range counts {
		if !(c >= 0) || math.IsInf(c, 1) {
			return 0, fmt.Errorf("rating: tally count %v", c)
		}
		n += c
	}
	if n == 0 {
		return 0, nil
	}
	a, p, total := tallyPDF(counts)
	var p0, p1 []float64
	var err error
	switch model {
	case Normalized:
		games := math.Sqrt(float64(m-1) / 2) // games per unit: 1 (trinomial), 2 (pairs)
		if p0, err = mleTValue(a, p, 0.5, h0/NEloPerT*games); err != nil {
			return 0, err
		}
		if p1, err = mleTValue(a, p, 0.5, h1/NEloPerT*games); err != nil {
			return 0, err
		}
	case Logistic:
		if p0, err = mleExpected(a, p, EloExpected(h0, 0)); err != nil {
			return 0, err
		}
		if p1, err = mleExpected(a, p, EloExpected(h1, 0)); err != nil {
			return 0, err
		}
	default:
		return 0, fmt.Errorf("rating: unknown SPRT model %v", model)
	}
	var llr float64
	for i := range p {
		llr += p[i] * (math.Log(p1[i]) - math.Log(p0[i]))
	}
	return total * llr, nil
}

// tallyPDF is LLRcalc.results_to_pdf: the score of each category, i/(m−1), and the observed
// frequencies after regularization, with their (regularized) total.
func tallyPDF(counts []float64) (a, p []float64, total float64) {
	m := len(counts)
	a, p = make([]float64, m), make([]float64, m)
	for i, c := range counts {
		if c == 0 {
			c = 1e-3
		}
		p[i] = c
		total += c
		a[i] = float64(i) / float64(m-1)
	}
	for i := range p {
		p[i] /= total
	}
	return a, p, total
}

// pdfStats is the mean and variance of the distribution p over the values a.
func pdfStats(a, p []float64) (mu, variance float64) {
	for i := range a {
		mu += p[i] * a[i]
	}
	for i := range a {
		variance += p[i] * (a[i] - mu) * (a[i] - mu)
	}
	return mu, variance
}

// mleExpected is LLRcalc.MLE_expected: the distribution of maximum likelihood for the observed
// frequencies p over the values a under the constraint that its expectation is s,
// p_i/(1 + x·(a_i − s)) with x the root of the secular equation.
func mleExpected(a, p []float64, s float64) ([]float64, error) {
	phi := make([]float64, len(a))
	for i := range a {
		phi[i] = a[i] - s
	}
	x, err := secular(phi, p)
	if err != nil {
		return nil, err
	}
	out := make([]float64, len(a))
	for i := range a {
		out[i] = p[i] / (1 + x*phi[i])
	}
	return out, nil
}

// mleTValue is LLRcalc.MLE_t_value: the distribution of maximum likelihood for the observed
// frequencies p under the constraint (μ − ref)/σ = t, by the fixed-point iteration of
// normalized_elo_practical.pdf §4.1 from the uniform distribution. LLRcalc stops after 10
// rounds or at a change below 1e−9; this runs until the change is below 1e−12 (at most 200
// rounds), which agrees with it wherever it has converged.
func mleTValue(a, p []float64, ref, t float64) ([]float64, error) {
	m := len(a)
	cur := make([]float64, m)
	for i := range cur {
		cur[i] = 1 / float64(m)
	}
	phi := make([]float64, m)
	for range mleRounds {
		mu, v := pdfStats(a, cur)
		sigma := math.Sqrt(v)
		if !(sigma > 0) {
			return nil, errors.New("rating: SPRT fit collapsed to a single score")
		}
		for i := range a {
			z := (mu - a[i]) / sigma
			phi[i] = a[i] - ref - t*sigma*(1+z*z)/2
		}
		x, err := secular(phi, p)
		if err != nil {
			return nil, err
		}
		change := 0.0
		for i := range a {
			next := p[i] / (1 + x*phi[i])
			change = math.Max(change, math.Abs(next-cur[i]))
			cur[i] = next
		}
		if change < mleTol {
			break
		}
	}
	return cur, nil
}

const mleRounds, mleTol = 200, 1e-12

// secular solves Σ_i p_i·φ_i/(1 + x·φ_i) = 0 for x in (−1/max φ, −1/min φ), where the sum
// falls strictly from +∞ to −∞ (LLRcalc.secular; brentq there, bisection refined by the
// secant here, to full precision).
func secular(phi, p []float64) (float64, error) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range phi {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	if !(lo < 0 && hi > 0) {
		return 0, errors.New("rating: SPRT hypothesis outside the range of the scores")
	}
	f := func(x float64) float64 {
		var s float64
		for i, v := range phi {
			s += p[i] * v / (1 + x*v)
		}
		return s
	}
	// f is decreasing on the open interval; shrink the ends by a relative epsilon as brentq
	// is given them, so that 1 + x·φ stays positive.
	a, b := -1/hi, -1/lo
	eps := 1e-9 * (b - a)
	a, b = a+eps, b-eps
	fa, fb := f(a), f(b)
	if fa < 0 || fb > 0 {
		// The root lies within eps of an end: take the end (a tally this lopsided is
		// regularized, so its frequencies keep every root well inside).
		if fa < 0 {
			return a, nil
		}
		return b, nil
	}
	for range 300 {
		mid := a + (b-a)/2
		if mid == a || mid == b {
			break
		}
		if fm := f(mid); fm > 0 {
			a, fa = mid, fm
		} else {
			b, fb = mid, fm
		}
	}
	if fa == fb {
		return a, nil
	}
	return a + (b-a)*fa/(fa-fb), nil
}

// SPRTStatus is the state of a sequential test.
type SPRTStatus int

// The states of a sequential test.
const (
	// SPRTContinue: the LLR is strictly between the bounds; keep playing.
	SPRTContinue SPRTStatus = iota
	// SPRTAcceptH1: the LLR reached the upper bound; accept H1 (Elo1 rather than Elo0).
	SPRTAcceptH1
	// SPRTAcceptH0: the LLR reached the lower bound; accept H0 (Elo0 rather than Elo1).
	SPRTAcceptH0
)

// String returns "continue", "accept H1" or "accept H0".
func (s SPRTStatus) String() string {
	switch s {
	case SPRTContinue:
		return "continue"
	case SPRTAcceptH1:
		return "accept H1"
	case SPRTAcceptH0:
		return "accept H0"
	}
	return fmt.Sprintf("SPRTStatus(%d)", int(s))
}

// SPRT is a sequential probability ratio test of a candidate against a baseline on units
// scored as single games (win, draw, loss: [SPRT.AddWDL]) or as game pairs ([SPRT.AddPairs],
// the pentanomial), with the exact GSPRT ratio of fishtest ([GSPRTLLR]) and Wald's bounds
// ([SPRTBounds]). One test counts one shape of unit.
//
// The decision is sticky: the test stops the first time the LLR reaches a bound after an Add
// call, and Status keeps reporting that decision (with the N at which it was made) even if
// further results, such as games still in flight, move the LLR back between the bounds.
//
// The zero value is not usable; create one with [NewSPRT]. An SPRT is not safe for concurrent use.
type SPRT struct {
	model        SPRTModel
	elo0, elo1   float64
	lower, upper float64
	counts       []float64 // by score, losses first; nil until the first Add
	status       SPRTStatus
	decidedAt    int
	llr          float64
}

// SPRTReport is a snapshot of an [SPRT].
type SPRTReport struct {
	Model SPRTModel
	// Elo0 and Elo1 are the hypotheses H0: Elo = Elo0 and H1: Elo = Elo1 on Model's scale
	// (normalized Elo per game, or logistic Elo).
	Elo0, Elo1 float64
	// LLR is the current log-likelihood ratio; Lower and Upper are the decision bounds.
	LLR, Lower, Upper float64
	// N is the number of units (games, or pairs) counted; Counts their tally by score, from
	// the lowest (L, or LL) to the highest (W, or WW).
	N      int
	Counts []int
	// Status is the (sticky) decision and DecidedAt the N at which it was made (0 while
	// continuing).
	Status    SPRTStatus
	DecidedAt int
}

// NewSPRT returns a normalized-Elo test (fishtest's usual model) of H0: nElo = nelo0 against
// H1: nElo = nelo1 with type I error α and type II error β (fishtest's usual setting is
// α = β = 0.05). It returns an error unless nelo0 < nelo1 and 0 < α, β with α + β < 1.
func NewSPRT(nelo0, nelo1, alpha, beta float64) (*SPRT, error) {
	return NewSPRTModel(Normalized, nelo0, nelo1, alpha, beta)
}

// NewSPRTModel is [NewSPRT] with the hypotheses on the given scale.
func NewSPRTModel(model SPRTModel, elo0, elo1, alpha, beta float64) (*SPRT, error) {
	if !(elo0 < elo1) || math.IsInf(elo0, 0) || math.IsInf(elo1, 0) {
		return nil, fmt.Errorf("rating: SPRT needs elo0 < elo1, got [%v, %v]", elo0, elo1)
	}
	if !(alpha > 0 && beta > 0 && alpha+beta < 1) {
		return nil, fmt.Errorf("rating: SPRT needs 0 < alpha, beta and alpha+beta < 1, got %v, %v", alpha, beta)
	}
	if model != Normalized && model != Logistic {
		return nil, fmt.Errorf("rating: unknown SPRT model %v", model)
	}
	lo, hi := SPRTBounds(alpha, beta)
	return &SPRT{model: model, elo0: elo0, elo1: elo1, lower: lo, upper: hi}, nil
}

// AddWDL adds a tally of single games. It returns an error, adding nothing, if a count is
// negative or the test counts pairs.
func (s *SPRT) AddWDL(r WDL) error {
	if err := r.validate(); err != nil {
		return err
	}
	return s.add([]int{r.L, r.D, r.W})
}

// AddPairs adds a pentanomial tally of game pairs. It returns an error, adding nothing, if a
// count is negative or the test counts single games.
func (s *SPRT) AddPairs(p Penta) error {
	return s.add(p[:])
}

func (s *SPRT) add(counts []int) error {
	for _, c := range counts {
		if c < 0 {
			return errors.New("rating: negative count in an SPRT tally")
		}
	}
	if s.counts != nil && len(s.counts) != len(counts) {
		return fmt.Errorf("rating: an SPRT of %d-category units given a %d-category tally", len(s.counts), len(counts))
	}
	next := make([]float64, len(counts))
	for i, c := range counts {
		next[i] = float64(c)
		if s.counts != nil {
			next[i] += s.counts[i]
		}
	}
	llr, err := GSPRTLLR(s.model, s.elo0, s.elo1, next)
	if err != nil {
		return err
	}
	s.counts, s.llr = next, llr
	if s.status == SPRTContinue {
		switch {
		case llr >= s.upper:
			s.status, s.decidedAt = SPRTAcceptH1, s.N()
		case llr <= s.lower:
			s.status, s.decidedAt = SPRTAcceptH0, s.N()
		}
	}
	return nil
}

// LLR returns the current log-likelihood ratio ([GSPRTLLR]).
func (s *SPRT) LLR() float64 { return s.llr }

// Bounds returns the lower and upper decision bounds ([SPRTBounds]).
func (s *SPRT) Bounds() (lower, upper float64) { return s.lower, s.upper }

// N returns the number of units counted.
func (s *SPRT) N() int {
	var n float64
	for _, c := range s.counts {
		n += c
	}
	return int(n)
}

// Status returns the decision (sticky; see [SPRT]).
func (s *SPRT) Status() SPRTStatus { return s.status }

// Report returns a snapshot of the test.
func (s *SPRT) Report() SPRTReport {
	r := SPRTReport{Model: s.model, Elo0: s.elo0, Elo1: s.elo1, LLR: s.llr, Lower: s.lower, Upper: s.upper,
		N: s.N(), Status: s.status, DecidedAt: s.decidedAt}
	for _, c := range s.counts {
		r.Counts = append(r.Counts, int(c))
	}
	return r
}

// Penta is a pentanomial tally of game pairs from one side's point of view: pairs scoring
// 0 (LL), ½ (LD or DL), 1 (WL, LW or DD), 1½ (WD or DW) and 2 (WW) points, in that order.
type Penta [5]int

// Pairs returns the number of pairs.
func (p Penta) Pairs() int { return p[0] + p[1] + p[2] + p[3] + p[4] }

// PentaEstimate is the Elo of a pentanomial tally as fastchess prints it (EloPentanomial):
// per game, from the pairs' score.
type PentaEstimate struct {
	Pairs int
	// Score is the mean score per game; Variance the variance of a pair's mean score.
	Score, Variance float64
	// Elo ± Margin (logistic, per game), NElo ± NEloMargin (normalized per game:
	// (Score − ½)/√(2·Variance)·NEloPerT), and LOS = Φ((Score − ½)/√(Variance/Pairs)).
	Elo, Margin, NElo, NEloMargin, LOS float64
}

// EloFromPairs is fastchess's EloPentanomial: with the pair frequencies f and
// μ = Σ f_i·i/4, σ² = Σ f_i·(i/4 − μ)² (per pair), the score interval μ ± Z975·σ/√pairs, the
// Elo difference −400·log10(1/μ − 1) with the half-width of the interval mapped to Elo, nElo
// with σ_game = √(2σ²), and LOS from the normal. Example: LL 34, LD 54, WL+DD 63, WD 64, WW 75
// gives Elo 55.58 ± 27.65 and nElo 57.94 ± 28.28.
func EloFromPairs(p Penta) PentaEstimate {
	n := p.Pairs()
	e := PentaEstimate{Pairs: n, Score: 0.5, LOS: 0.5}
	if n == 0 {
		return e
	}
	var mu, v float64
	for i, c := range p {
		mu += float64(c) * float64(i) / 4
	}
	mu /= float64(n)
	for i, c := range p {
		d := float64(i)/4 - mu
		v += float64(c) * d * d
	}
	v /= float64(n)
	e.Score, e.Variance = mu, v
	se := math.Sqrt(v / float64(n))
	hi, lo := mu+Z975*se, mu-Z975*se
	e.Elo = ScoreToElo(mu)
	e.Margin = (ScoreToElo(hi) - ScoreToElo(lo)) / 2
	if v > 0 {
		nelo := func(s float64) float64 { return (s - 0.5) / math.Sqrt(2*v) * NEloPerT }
		e.NElo = nelo(mu)
		e.NEloMargin = (nelo(hi) - nelo(lo)) / 2
		e.LOS = normalCDF((mu - 0.5) / se)
	}
	return e
}
