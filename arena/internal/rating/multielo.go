package rating

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
)

// Default multiplayer-Elo parameters (those of the multielo reference implementation).
const (
	// DefaultK is the K-factor, per opponent: a match moves a rating by at most K·(N − 1).
	DefaultK = 32.0
	// DefaultD is the logistic scale: a D-point rating gap means 10:1 expected-score odds.
	DefaultD = 400.0
	// DefaultInitialRating is the rating a bot has before its first match in a [Ledger].
	DefaultInitialRating = 1500.0
)

// Places converts final scores (higher is better, e.g. cents won in a match) into 1-based
// finishing places, tied entries sharing the average of the places they occupy: scores
// [5, 5, −10] give [1.5, 1.5, 3]; [3, 9, 3, 1] give [2.5, 1, 2.5, 4]. The result has the same
// order as the input.
func Places[T cmp.Ordered](scores []T) []float64 {
	n := len(scores)
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	// Stable sort, best first; ties keep input order, which does not affect the result.
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(scores[b], scores[a]) })
	places := make([]float64, n)
	for i := 0; i < n; {
		j := i + 1
		for j < n && cmp.Compare(scores[idx[j]], scores[idx[i]]) == 0 {
			j++
		}
		// Entries idx[i..j) occupy places i+1 .. j; their average is (i+1+j)/2.
		avg := float64(i+1+j) / 2
		for _, k := range idx[i:j] {
			places[k] = avg
		}
		i = j
	}
	return places
}

// MultiEloExpected returns each player's expected score in a multiplayer match under the
// pairwise-logistic model of the multielo package (D. Cunningham, "Developing a generalized
// Elo rating system for multiplayer games", 2019):
//
//	E_i = Σ_{j≠i} 1/(1 + 10^((R_j − R_i)/D)) / (N(N−1)/2)
//
// The expected scores sum to 1. A single player expects 1; no players give an empty slice.
func MultiEloExpected(ratings []float64, d float64) []float64 {
	n := len(ratings)
	e := make([]float64, n)
	if n == 1 {
		e[0] = 1
	}
	if n < 2 {
		return e
	}
	pairs := float64(n*(n-1)) / 2
	for i, ri := range ratings {
		sum := 0.0
		for j, rj := range ratings {
			if j != i {
				sum += 1 / (1 + math.Pow(10, (rj-ri)/d))
			}
		}
		e[i] = sum / pairs
	}
	return e
}

// MultiEloScores returns each player's actual score from its finishing place with the linear
// score function of the multielo package: S(p) = (N − p)/(N(N−1)/2), so that first place in a
// 3-player match scores 2/3, second 1/3, last 0. places holds finishing positions, lower is
// better; only their order and ties matter (1,1,3 and 1,1,2 and 1.5,1.5,3 all mean "two tied
// for first"), and tied players share the average of the scores of the places they occupy
// (since S is linear, that is S of their average place). nil means the players are listed in
// finishing order without ties. The scores sum to 1 (a single player scores 1).
func MultiEloScores(n int, places []float64) ([]float64, error) {
	if places != nil && len(places) != n {
		return nil, fmt.Errorf("rating: %d places for %d players", len(places), n)
	}
	for _, p := range places {
		if math.IsNaN(p) {
			return nil, errors.New("rating: NaN place")
		}
	}
	s := make([]float64, n)
	if n == 1 {
		s[0] = 1
	}
	if n < 2 {
		return s, nil
	}
	var avg []float64
	if places == nil {
		avg = make([]float64, n)
		for i := range avg {
			avg[i] = float64(i + 1)
		}
	} else {
		neg := make([]float64, n) // Places ranks "higher is better"
		for i, p := range places {
			neg[i] = -p
		}
		avg = Places(neg)
	}
	pairs := float64(n*(n-1)) / 2
	for i, p := range avg {
		s[i] = (float64(n) - p) / pairs
	}
	return s, nil
}

// MultiElo updates the ratings of the N players of one multiplayer match (the multielo
// package's MultiElo.get_new_ratings with the linear score function):
//
//	R'_i = R_i + K·(N − 1)·(S_i − E_i)
//
// with E_i from [MultiEloExpected] and S_i from [MultiEloScores] (see there for places and
// ties). The (N − 1) factor makes K the per-opponent step, as in two-player Elo; the updates
// sum to zero. Example (K 32, D 400, finishing order): [1200, 1000, 900] →
// [1208.346, 1002.553, 889.100]. It returns an error if k or d is not positive and finite or
// the places do not match the ratings.
func MultiElo(ratings []float64, places []float64, k, d float64) ([]float64, error) {
	if !(k > 0) || math.IsInf(k, 1) || !(d > 0) || math.IsInf(d, 1) {
		return nil, fmt.Errorf("rating: K %v and D %v must be positive and finite", k, d)
	}
	s, err := MultiEloScores(len(ratings), places)
	if err != nil {
		return nil, err
	}
	e := MultiEloExpected(ratings, d)
	out := make([]float64, len(ratings))
	scale := k * float64(len(ratings)-1)
	for i, r := range ratings {
		out[i] = r + scale*(s[i]-e[i])
	}
	return out, nil
}
