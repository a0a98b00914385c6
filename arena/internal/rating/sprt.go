package rating

import (
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

// SPRTLLR is the generalized (GSPRT) log-likelihood ratio of H1: nElo = nelo1 against
// H0: nElo = nelo0 for n units whose scores in [0, 1] have empirical mean μ and population
// variance σ², in the normalized-Elo model of fishtest and fastchess (M. Van den Bergh,
// "Multinomial MLE with a constraint on the expectation", support_MLE_multinomial.pdf;
// fastchess src/matchmaking/sprt/sprt.cpp, model "normalized"):
//
//	s_k  = ½ + nelo_k·σ/(800/ln 10)     (score implied by nelo_k at the observed σ)
//	σ_k² = σ² + (μ − s_k)²              (= Σ f_x·(x − s_k)², the variance about s_k)
//	LLR  = (n/2)·ln(σ_0²/σ_1²)
//
// For win/draw/loss results (scores 1, ½, 0) this is exactly fastchess's trinomial LLR. It
// returns 0 when n = 0 or a variance is zero (no information yet).
func SPRTLLR(n float64, mean, variance, nelo0, nelo1 float64) float64 {
	if !(n > 0) || !(variance > 0) {
		return 0
	}
	sd := math.Sqrt(variance)
	scale := 800 / math.Ln10
	s0 := 0.5 + nelo0*sd/scale
	s1 := 0.5 + nelo1*sd/scale
	v0 := variance + (mean-s0)*(mean-s0)
	v1 := variance + (mean-s1)*(mean-s1)
	if v0 == 0 || v1 == 0 {
		return 0
	}
	return 0.5 * n * math.Log(v0/v1)
}

// SPRTLLRWDL is [SPRTLLR] for a win/draw/loss tally: μ = w + d/2 and
// σ² = w(1−μ)² + d(½−μ)² + l(0−μ)² with w, d, l the observed frequencies. Example: W 10871,
// L 10650, D 20431 with nElo bounds [−1.75, 0.25] gives LLR 2.30.
func SPRTLLRWDL(r WDL, nelo0, nelo1 float64) float64 {
	m := wdlMoments(r)
	return SPRTLLR(m.n, m.mean, m.variance(), nelo0, nelo1)
}

func wdlMoments(r WDL) moments {
	n := r.Games()
	if n <= 0 || r.validate() != nil {
		return moments{}
	}
	fn := float64(n)
	mu := r.Points() / fn
	m2 := float64(r.W)*(1-mu)*(1-mu) + float64(r.D)*(0.5-mu)*(0.5-mu) + float64(r.L)*mu*mu
	return moments{n: fn, mean: mu, m2: m2}
}

// SPRTStatus is the state of a sequential test.
type SPRTStatus int

// The states of a sequential test.
const (
	// SPRTContinue: the LLR is strictly between the bounds; keep playing.
	SPRTContinue SPRTStatus = iota
	// SPRTAcceptH1: the LLR reached the upper bound; accept H1 (nElo = nelo1 rather than nelo0).
	SPRTAcceptH1
	// SPRTAcceptH0: the LLR reached the lower bound; accept H0 (nElo = nelo0 rather than nelo1).
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

// SPRT is a normalized-Elo sequential probability ratio test of a candidate against a
// baseline (see [SPRTLLR] for the statistic and [SPRTBounds] for the bounds). It accumulates
// per-unit scores in [0, 1] from the candidate's point of view: single games (win 1, draw ½,
// loss 0, or [SPRT.AddWDL] for a tally) or duplicate groups whose score is the fraction of
// points the candidate won, which may be fractional. The statistic depends only on the number
// of units and the empirical mean and variance of their scores, so W/D/L input reproduces the
// trinomial GSPRT exactly. nElo is then measured in units of the per-unit standard deviation.
//
// The decision is sticky: the test stops the first time the LLR reaches a bound after an Add
// call, and Status keeps reporting that decision (with the N at which it was made) even if
// further results, such as games still in flight, move the LLR back between the bounds.
//
// The zero value is not usable; create one with [NewSPRT]. An SPRT is not safe for concurrent use.
type SPRT struct {
	nelo0, nelo1 float64
	lower, upper float64
	m            moments
	status       SPRTStatus
	decidedAt    int
}

// SPRTReport is a snapshot of an [SPRT].
type SPRTReport struct {
	// NElo0 and NElo1 are the hypotheses H0: nElo = NElo0 and H1: nElo = NElo1.
	NElo0, NElo1 float64
	// LLR is the current log-likelihood ratio; Lower and Upper are the decision bounds.
	LLR, Lower, Upper float64
	// N is the number of units (games or groups) accumulated.
	N int
	// Mean and Variance are the empirical per-unit score mean and population variance.
	Mean, Variance float64
	// Status is the (sticky) decision and DecidedAt the N at which it was made (0 while
	// continuing).
	Status    SPRTStatus
	DecidedAt int
}

// NewSPRT returns a test of H0: nElo = nelo0 against H1: nElo = nelo1 with type I error α
// and type II error β (fishtest's usual setting is α = β = 0.05). It returns an error unless
// nelo0 < nelo1 and 0 < α, β with α + β < 1.
func NewSPRT(nelo0, nelo1, alpha, beta float64) (*SPRT, error) {
	if !(nelo0 < nelo1) || math.IsInf(nelo0, 0) || math.IsInf(nelo1, 0) {
		return nil, fmt.Errorf("rating: SPRT needs nelo0 < nelo1, got [%v, %v]", nelo0, nelo1)
	}
	if !(alpha > 0 && beta > 0 && alpha+beta < 1) {
		return nil, fmt.Errorf("rating: SPRT needs 0 < alpha, beta and alpha+beta < 1, got %v, %v", alpha, beta)
	}
	lo, hi := SPRTBounds(alpha, beta)
	return &SPRT{nelo0: nelo0, nelo1: nelo1, lower: lo, upper: hi}, nil
}

// AddWDL adds a tally of single games (win 1, draw ½, loss 0). It returns an error, adding
// nothing, if a count is negative.
func (s *SPRT) AddWDL(r WDL) error {
	if err := r.validate(); err != nil {
		return err
	}
	s.m.merge(wdlMoments(r))
	s.update()
	return nil
}

// AddScores adds per-unit scores in [0, 1]. It returns an error, adding nothing, if any
// score is outside [0, 1].
func (s *SPRT) AddScores(scores ...float64) error {
	for _, x := range scores {
		if !(x >= 0 && x <= 1) {
			return fmt.Errorf("rating: SPRT score %v outside [0, 1]", x)
		}
	}
	for _, x := range scores {
		s.m.add(x)
	}
	s.update()
	return nil
}

func (s *SPRT) update() {
	if s.status != SPRTContinue {
		return
	}
	switch llr := s.LLR(); {
	case llr >= s.upper:
		s.status, s.decidedAt = SPRTAcceptH1, s.N()
	case llr <= s.lower:
		s.status, s.decidedAt = SPRTAcceptH0, s.N()
	}
}

// LLR returns the current log-likelihood ratio ([SPRTLLR]).
func (s *SPRT) LLR() float64 {
	return SPRTLLR(s.m.n, s.m.mean, s.m.variance(), s.nelo0, s.nelo1)
}

// Bounds returns the lower and upper decision bounds ([SPRTBounds]).
func (s *SPRT) Bounds() (lower, upper float64) { return s.lower, s.upper }

// N returns the number of units accumulated.
func (s *SPRT) N() int { return int(s.m.n) }

// Status returns the decision (sticky; see [SPRT]).
func (s *SPRT) Status() SPRTStatus { return s.status }

// Report returns a snapshot of the test.
func (s *SPRT) Report() SPRTReport {
	return SPRTReport{
		NElo0: s.nelo0, NElo1: s.nelo1,
		LLR: s.LLR(), Lower: s.lower, Upper: s.upper,
		N: s.N(), Mean: s.m.mean, Variance: s.m.variance(),
		Status: s.status, DecidedAt: s.decidedAt,
	}
}
