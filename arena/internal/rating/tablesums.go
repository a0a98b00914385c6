package rating

import (
	"fmt"
	"slices"
	"strings"
)

// MaxSeats is the largest table the sufficient statistics describe (Tapp has 3 or 4 seats).
const MaxSeats = 4

// TableSums are the sufficient statistics of the cells one table composition (the same set
// of bots, in any seating) played: one cell per deal source, holding its complete units
// there (see [Cell]). Cell u has d_u deals and a net total net_u,i per bot i (its payoff
// summed over the cell's deals). What the headline [Skill] model, its cluster-robust
// variance, the raw payoff per deal and Bradley–Terry need of one composition is a sum over
// cells of integers; what ties two compositions together is in their [PairSums].
type TableSums struct {
	Bots    []string // the composition, byte-wise sorted; every slice below is indexed alike
	Units   int64    // cells: the deal sources this composition played
	Deals   int64    // Σ d_u
	DealsSq int64    // Σ d_u²
	Net     []int64  // Σ net_u,i
	DealNet []int64  // Σ d_u·net_u,i
	Cross   []int64  // Σ net_u,i·net_u,j for i ≤ j, packed row by row (see PairIndex)
	Wins    []int64  // cells in which i's net exceeded j's, for i < j (packed, see PairIndex)
	Ties    []int64  // cells in which i's and j's nets were equal, for i < j
	// Points and PointsCross are Σ 2π_u,i and Σ 2π_u,i·2π_u,j (i ≤ j, packed as Cross) of
	// each bot's doubled Bradley–Terry points in a cell (2 per table-mate beaten, 1 per tie):
	// the meat of Bradley–Terry's covariance. Nil in sums that do not keep them.
	Points      []int64
	PointsCross []int64
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
		Cross: make([]int64, k*(k+1)/2), Wins: make([]int64, k*(k-1)/2), Ties: make([]int64, k*(k-1)/2),
		Points: make([]int64, k), PointsCross: make([]int64, k*(k+1)/2)}, nil
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

// AddUnit adds one cell that shares its deal source with no other: deals deals, and each
// bot's net total in the order of s.Bots.
func (s *TableSums) AddUnit(deals int64, net []int64) {
	if s.Points == nil {
		s.Points, s.PointsCross = make([]int64, len(s.Bots)), make([]int64, len(s.Cross))
	}
	s.addCell(deals, net, cellPoints(net), 1)
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
	if s.Points != nil && o.Points != nil {
		addInts(s.Points, o.Points)
		addInts(s.PointsCross, o.PointsCross)
	} else {
		s.Points, s.PointsCross = nil, nil
	}
}

// Sub removes the sums o (a part of s, of the same composition), e.g. a tainted match's.
func (s *TableSums) Sub(o *TableSums) {
	neg := o.Clone()
	neg.Units, neg.Deals, neg.DealsSq = -neg.Units, -neg.Deals, -neg.DealsSq
	for _, v := range [][]int64{neg.Net, neg.DealNet, neg.Cross, neg.Wins, neg.Ties, neg.Points, neg.PointsCross} {
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
	c.Points, c.PointsCross = slices.Clone(s.Points), slices.Clone(s.PointsCross)
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
