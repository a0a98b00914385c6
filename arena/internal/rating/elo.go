package rating

import (
	"errors"
	"fmt"
	"math"
)

// EloExpected returns the expected score of a player rated r against an opponent rated opp
// under the logistic Elo model (Elo 1978; FIDE Handbook B.02.8.1):
//
//	E = 1 / (1 + 10^((opp − r)/400))
func EloExpected(r, opp float64) float64 {
	return 1 / (1 + math.Pow(10, (opp-r)/400))
}

// EloUpdate applies one rating period of classical Elo to a player rated r who met the given
// opponents with the given scores (1 win, ½ draw, 0 loss, index by index):
//
//	E  = Σ_i 1/(1 + 10^((opp_i − r)/400))
//	R' = r + K·(Σ_i score_i − E)
//
// It returns the new rating (unrounded) and the total expected score E. This is the worked
// example of the Wikipedia article "Elo rating system" (section "Mathematical details"): a
// 1613 player against 1609, 1477, 1388, 1586 and 1720 scoring 0, ½, 1, 1, 0 expects 2.867
// and, with K = 32, ends at 1601.27 (1601 rounded).
func EloUpdate(r float64, opponents, scores []float64, k float64) (newRating, expected float64, err error) {
	if len(opponents) != len(scores) {
		return r, 0, fmt.Errorf("rating: %d opponents but %d scores", len(opponents), len(scores))
	}
	actual := 0.0
	for i, o := range opponents {
		if s := scores[i]; !(s >= 0 && s <= 1) {
			return r, 0, fmt.Errorf("rating: score %v outside [0, 1]", s)
		}
		expected += EloExpected(r, o)
		actual += scores[i]
	}
	return r + k*(actual-expected), expected, nil
}

// ScoreToElo converts an expected score s in [0, 1] to the logistic Elo difference that
// produces it, the inverse of [EloExpected]: Δ = −400·log10(1/s − 1). It is −Inf at s = 0 and
// +Inf at s = 1, NaN outside [0, 1].
func ScoreToElo(s float64) float64 {
	switch {
	case s == 0:
		return math.Inf(-1)
	case s == 1:
		return math.Inf(1)
	case !(s > 0 && s < 1):
		return math.NaN()
	}
	return -400 * math.Log10(1/s-1)
}

// WDL counts wins, draws and losses from one side's point of view.
type WDL struct {
	W, D, L int
}

// Games returns W + D + L.
func (r WDL) Games() int { return r.W + r.D + r.L }

// Points returns W + D/2, the score with a draw worth half a win.
func (r WDL) Points() float64 { return float64(r.W) + float64(r.D)/2 }

// Score returns the score fraction (W + D/2)/(W + D + L), or 0.5 when no game was played.
func (r WDL) Score() float64 {
	n := r.Games()
	if n == 0 {
		return 0.5
	}
	return r.Points() / float64(n)
}

// Add returns the element-wise sum of two tallies.
func (r WDL) Add(o WDL) WDL { return WDL{r.W + o.W, r.D + o.D, r.L + o.L} }

// Reverse returns the same results from the opponent's point of view (wins and losses swapped).
func (r WDL) Reverse() WDL { return WDL{W: r.L, D: r.D, L: r.W} }

func (r WDL) validate() error {
	if r.W < 0 || r.D < 0 || r.L < 0 {
		return errors.New("rating: negative win/draw/loss count")
	}
	return nil
}

// EloEstimate is a match-level Elo difference estimate, as printed by cutechess-cli and
// fastchess at the end of a head-to-head match ("Elo difference: 40.70 +/- 30.43, LOS: 99.60 %").
// Ratings are from the point of view of the first player: positive means it is stronger.
// Elo, EloLo, EloHi and Margin are ±Inf when the score (or an end of its interval) is 0 or 1;
// encoding/json rejects infinities, so callers that serialise an estimate should check.
type EloEstimate struct {
	// N is the number of units (games, or duplicate groups for [EloFromScores]).
	N int
	// Score is the mean score per unit in [0, 1].
	Score float64
	// Variance is the per-unit score variance σ² = Σ f_x·(x − Score)² (population form, the
	// frequencies f_x being those observed); the variance of Score is Variance/N.
	Variance float64
	// Elo is the logistic Elo difference ScoreToElo(Score).
	Elo float64
	// EloLo and EloHi map the 95% normal interval of the score, Score ± Z975·√(Variance/N),
	// through ScoreToElo (the interval is asymmetric in Elo; ±Inf when it reaches 0 or 1).
	EloLo, EloHi float64
	// Margin is the symmetric "±" figure (EloHi − EloLo)/2, as cutechess and fastchess print it.
	Margin float64
	// LOS is the likelihood of superiority Φ((Score − ½)/√(Variance/N)), the normal
	// approximation on the score mean used by fastchess (EloWDL::los). It counts draws through
	// the variance. It is 0.5 when the variance is zero and the score is ½ (or nothing was played),
	// and 0 or 1 when the variance is zero otherwise.
	LOS float64
	// LOSWinsLosses is the cutechess-cli likelihood of superiority, computed from decisive
	// games only: ½·(1 + erf((W − L)/√(2(W + L)))) (Rémi Coulom's LOS formula). It is set only
	// by [EloFromWDL] (0.5 when W + L = 0); [EloFromScores] leaves it equal to LOS.
	LOSWinsLosses float64
	// NElo is the normalized Elo difference (fishtest / fastchess):
	// nElo = (Score − ½)/σ · 800/ln 10, with σ = √Variance the per-unit standard deviation.
	// It is 0 when σ = 0.
	NElo float64
	// NEloMargin is the 95% half-width of NElo: Z975·√(1/N)·800/ln 10 (σ cancels).
	NEloMargin float64
}

// EloFromWDL estimates the Elo difference, its 95% error margin and the likelihood of
// superiority from a win/draw/loss tally, with the formulas of cutechess-cli (src/elo.cpp) and
// fastchess (src/matchmaking/elo/elo_wdl.cpp):
//
//	n = W + D + L,  w, d, l = W/n, D/n, L/n
//	μ = w + d/2                                   (score)
//	σ² = w(1−μ)² + d(½−μ)² + l(0−μ)²              (per-game variance)
//	Elo = −400·log10(1/μ − 1)
//	Margin = (Elo(μ + 1.959964·σ/√n) − Elo(μ − 1.959964·σ/√n)) / 2
//	LOS = Φ((μ − ½)/(σ/√n))                        (fastchess)
//	LOSWinsLosses = ½·(1 + erf((W − L)/√(2(W + L)))) (cutechess)
//
// Example: W 136, L 96, D 111 gives Elo 40.70 ± 30.43, LOS 99.60% (LOSWinsLosses 99.57%).
// A zero tally (or one with a negative count) returns N = 0, Score ½, Elo 0, LOS ½ and zero
// margins.
func EloFromWDL(r WDL) EloEstimate {
	n := r.Games()
	if n == 0 || r.validate() != nil {
		return EloEstimate{Score: 0.5, LOS: 0.5, LOSWinsLosses: 0.5}
	}
	fn := float64(n)
	w, d, l := float64(r.W)/fn, float64(r.D)/fn, float64(r.L)/fn
	mu := w + d/2
	variance := w*(1-mu)*(1-mu) + d*(0.5-mu)*(0.5-mu) + l*mu*mu
	e := estimate(n, mu, variance)
	if r.W+r.L == 0 {
		e.LOSWinsLosses = 0.5
	} else {
		e.LOSWinsLosses = 0.5 * (1 + math.Erf(float64(r.W-r.L)/math.Sqrt(2*float64(r.W+r.L))))
	}
	return e
}

// EloFromScores is [EloFromWDL] for generic per-unit scores in [0, 1] (for example duplicate
// groups whose score is the fraction of points won, which may be fractional): μ is the mean
// score and σ² = (1/n)·Σ(x_i − μ)² the population variance of the scores, so that scores of 1,
// ½ and 0 give exactly the win/draw/loss figures. LOSWinsLosses is set equal to LOS. It
// returns an error if a score is outside [0, 1].
func EloFromScores(scores []float64) (EloEstimate, error) {
	for _, x := range scores {
		if !(x >= 0 && x <= 1) {
			return EloEstimate{}, fmt.Errorf("rating: score %v outside [0, 1]", x)
		}
	}
	var r Running
	for _, x := range scores {
		r.Add(x)
	}
	return r.Elo(), nil
}

func estimate(n int, mu, variance float64) EloEstimate {
	if variance < 0 {
		variance = 0
	}
	e := EloEstimate{N: n, Score: mu, Variance: variance, Elo: ScoreToElo(mu)}
	se := math.Sqrt(variance / float64(n))
	lo := math.Max(0, mu-Z975*se)
	hi := math.Min(1, mu+Z975*se)
	e.EloLo, e.EloHi = ScoreToElo(lo), ScoreToElo(hi)
	e.Margin = (e.EloHi - e.EloLo) / 2
	switch {
	case se > 0:
		e.LOS = normalCDF((mu - 0.5) / se)
	case mu > 0.5:
		e.LOS = 1
	case mu < 0.5:
		e.LOS = 0
	default:
		e.LOS = 0.5
	}
	if variance > 0 {
		scale := 800 / math.Ln10
		e.NElo = (mu - 0.5) / math.Sqrt(variance) * scale
		e.NEloMargin = Z975 / math.Sqrt(float64(n)) * scale
	}
	return e
}

// moments accumulates count, mean and sum of squared deviations with Welford's algorithm.
type moments struct {
	n    float64
	mean float64
	m2   float64
}

func (m *moments) add(x float64) {
	m.n++
	delta := x - m.mean
	m.mean += delta / m.n
	m.m2 += delta * (x - m.mean)
}

// variance returns the population variance m2/n (0 when n = 0).
func (m *moments) variance() float64 {
	if m.n == 0 {
		return 0
	}
	v := m.m2 / m.n
	if v < 0 {
		return 0
	}
	return v
}
