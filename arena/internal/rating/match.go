package rating

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Match is the raw result of one multiplayer match: the bots that took part and their final
// net totals in cents, index by index. Higher totals finish ahead; equal totals tie.
type Match struct {
	// ID is an opaque label (for example the stored match id), copied into [LedgerEntry].
	ID string
	// Bots names the participants; names must be non-empty and distinct.
	Bots []string
	// Cents holds each bot's final net total in cents, parallel to Bots.
	Cents []int64
}

// Validate reports whether the match can be rated: at least two bots, one total per bot,
// non-empty and distinct names.
func (m Match) Validate() error {
	if len(m.Bots) < 2 {
		return fmt.Errorf("rating: match %q has %d bots, need at least 2", m.ID, len(m.Bots))
	}
	if len(m.Cents) != len(m.Bots) {
		return fmt.Errorf("rating: match %q has %d bots but %d totals", m.ID, len(m.Bots), len(m.Cents))
	}
	seen := make(map[string]bool, len(m.Bots))
	for _, b := range m.Bots {
		if b == "" {
			return fmt.Errorf("rating: match %q has an empty bot name", m.ID)
		}
		if seen[b] {
			return fmt.Errorf("rating: match %q lists bot %q twice", m.ID, b)
		}
		seen[b] = true
	}
	return nil
}

// PairResult is the head-to-head tally of bot A against bot B, from A's point of view.
type PairResult struct {
	A, B string
	WDL
}

// PairwiseFromMatch splits a multiplayer match (typically 3 or 4 bots) into one pairwise
// result per pair of bots, for [BradleyTerry]: the bot with the higher net total wins, equal
// totals draw. Pairs come in match order (i < j) with A = Bots[i] and B = Bots[j]; each
// carries exactly one game. A 4-bot match yields 6 pairs, a 3-bot match 3.
func PairwiseFromMatch(m Match) ([]PairResult, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	n := len(m.Bots)
	out := make([]PairResult, 0, n*(n-1)/2)
	for i := range n {
		for j := i + 1; j < n; j++ {
			p := PairResult{A: m.Bots[i], B: m.Bots[j]}
			switch a, b := m.Cents[i], m.Cents[j]; {
			case a > b:
				p.W = 1
			case a < b:
				p.L = 1
			default:
				p.D = 1
			}
			out = append(out, p)
		}
	}
	return out, nil
}

// MergePairs sums pairwise tallies per unordered pair of bots. Each result is stored with
// A < B (byte-wise string order), reversing the tally when needed, and the output is sorted
// by (A, B), so it is deterministic whatever the input order. It returns an error for a
// result with A == B, an empty name, or a negative count.
func MergePairs(results []PairResult) ([]PairResult, error) {
	type key struct{ a, b string }
	sum := make(map[key]WDL)
	for _, r := range results {
		if err := r.check(); err != nil {
			return nil, err
		}
		k, t := key{r.A, r.B}, r.WDL
		if r.B < r.A {
			k, t = key{r.B, r.A}, t.Reverse()
		}
		sum[k] = sum[k].Add(t)
	}
	out := make([]PairResult, 0, len(sum))
	for k, t := range sum {
		out = append(out, PairResult{A: k.a, B: k.b, WDL: t})
	}
	slices.SortFunc(out, func(x, y PairResult) int {
		if c := strings.Compare(x.A, y.A); c != 0 {
			return c
		}
		return strings.Compare(x.B, y.B)
	})
	return out, nil
}

func (r PairResult) check() error {
	if r.A == "" || r.B == "" {
		return errors.New("rating: pair result with an empty bot name")
	}
	if r.A == r.B {
		return fmt.Errorf("rating: pair result of %q against itself", r.A)
	}
	if err := r.validate(); err != nil {
		return fmt.Errorf("%w (%q vs %q)", err, r.A, r.B)
	}
	return nil
}
