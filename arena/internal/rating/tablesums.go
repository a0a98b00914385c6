package rating

import (
	"fmt"
	"slices"
	"strings"
)

// MaxSeats is the largest table the sufficient statistics describe (Tapp has 3 or 4 seats).
const MaxSeats = 4

// TableSums are the sufficient statistics of every complete unit (a duplicate group, or one
// deal without duplicate) played by one table composition: the same set of bots, in any
// seating. Unit u has d_u deals and a net total net_u,i per bot i (its payoff summed over the
// unit's deals). Everything the headline [Skill] model, its cluster-robust variance, the
// raw payoff per deal and Bradley–Terry need is a sum over units of integers, so sums kept
// incrementally equal a recomputation from raw results exactly, and adding two TableSums of
// the same composition is the TableSums of their units together.
type TableSums struct {
	Bots    []string // the composition, byte-wise sorted; every slice below is indexed alike
	Units   int64    // complete units
	Deals   int64    // Σ d_u
	DealsSq int64    // Σ d_u²
	Net     []int64  // Σ net_u,i
	DealNet []int64  // Σ d_u·net_u,i
	Cross   []int64  // Σ net_u,i·net_u,j for i ≤ j, packed row by row (see PairIndex)
	Wins    []int64  // units in which i's net exceeded j's, for i < j (packed, see PairIndex)
	Ties    []int64  // units in which i's and j's nets were equal, for i < j
}

// NewTableSums returns empty sums for a composition (any order; it is sorted). It fails for
// fewer than 2 or more than MaxSeats bots, or a bot named twice.
func NewTableSums(bots []string) (*TableSums, error) {
	b := slices.Clone(bots)
	slices.Sort(b)
	if len(b) < 2 || len(b) > MaxSeats {
		return nil, fmt.Errorf("rating: a table of %d bots (want 2..%d)", len(b), MaxSeats)
	}
	if len(slices.Compact(slices.Clone(b))) != len(b) {
		return nil, fmt.Errorf("rating: a table that seats one bot twice: %s", strings.Join(b, ","))
	}
	k := len(b)
	return &TableSums{Bots: b, Net: make([]int64, k), DealNet: make([]int64, k),
		Cross: make([]int64, k*(k+1)/2), Wins: make([]int64, k*(k-1)/2), Ties: make([]int64, k*(k-1)/2)}, nil
}

// CompositionKey is the text that names a composition in storage: the sorted names joined by
// a comma (bot names never hold one).
func CompositionKey(bots []string) string {
	b := slices.Clone(bots)
	slices.Sort(b)
	return strings.Join(b, ",")
}

// CrossIndex is the position of (i, j), i ≤ j, in Cross for a table of k bots.
func CrossIndex(i, j, k int) int {
	if i > j {
		i, j = j, i
	}
	return i*k - i*(i-1)/2 + (j - i)
}

// PairIndex is the position of (i, j), i < j, in Wins and Ties for a table of k bots.
func PairIndex(i, j, k int) int {
	return i*(k-1) - i*(i-1)/2 + (j - i - 1)
}

// AddUnit adds one complete unit: deals deals, and each bot's net total in the order of
// s.Bots.
func (s *TableSums) AddUnit(deals int64, net []int64) {
	k := len(s.Bots)
	s.Units++
	s.Deals += deals
	s.DealsSq += deals * deals
	for i := range k {
		s.Net[i] += net[i]
		s.DealNet[i] += deals * net[i]
		for j := i; j < k; j++ {
			s.Cross[CrossIndex(i, j, k)] += net[i] * net[j]
		}
		for j := i + 1; j < k; j++ {
			switch p := PairIndex(i, j, k); {
			case net[i] > net[j]:
				s.Wins[p]++
			case net[i] == net[j]:
				s.Ties[p]++
			}
		}
	}
}

// Add adds the sums o of the same composition.
func (s *TableSums) Add(o *TableSums) {
	s.Units += o.Units
	s.Deals += o.Deals
	s.DealsSq += o.DealsSq
	addInts(s.Net, o.Net)
	addInts(s.DealNet, o.DealNet)
	addInts(s.Cross, o.Cross)
	addInts(s.Wins, o.Wins)
	addInts(s.Ties, o.Ties)
}

// Sub removes the sums o (a part of s, of the same composition), e.g. a tainted match's.
func (s *TableSums) Sub(o *TableSums) {
	neg := o.Clone()
	neg.Units, neg.Deals, neg.DealsSq = -neg.Units, -neg.Deals, -neg.DealsSq
	for _, v := range [][]int64{neg.Net, neg.DealNet, neg.Cross, neg.Wins, neg.Ties} {
		for i := range v {
			v[i] = -v[i]
		}
	}
	s.Add(neg)
}

// Clone returns a deep copy.
func (s *TableSums) Clone() *TableSums {
	c := *s
	c.Bots = slices.Clone(s.Bots)
	c.Net, c.DealNet, c.Cross = slices.Clone(s.Net), slices.Clone(s.DealNet), slices.Clone(s.Cross)
	c.Wins, c.Ties = slices.Clone(s.Wins), slices.Clone(s.Ties)
	return &c
}

// Pairs returns the head-to-head tallies of the composition for [BradleyTerry]: in each unit
// the bot with the higher net beats the other, equal nets draw.
func (s *TableSums) Pairs() []PairResult {
	k := len(s.Bots)
	var out []PairResult
	for i := range k {
		for j := i + 1; j < k; j++ {
			p := PairIndex(i, j, k)
			w, d := s.Wins[p], s.Ties[p]
			if s.Units == 0 {
				continue
			}
			out = append(out, PairResult{A: s.Bots[i], B: s.Bots[j], WDL: WDL{W: int(w), D: int(d), L: int(s.Units - w - d)}})
		}
	}
	return out
}

func addInts(dst, src []int64) {
	for i := range dst {
		dst[i] += src[i]
	}
}
