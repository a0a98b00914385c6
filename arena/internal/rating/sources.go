package rating

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"slices"
)

// The statistical unit is the deal source: one deal's cards, played at every table and under
// every seating that shares them. The tables of a league round all play the same deal
// sources, and bots that play the same cards the same way (every built-in bot is a pure
// function of its seed and what it sees) make those tables' results strongly correlated; the
// sources are independent of each other. So every sum below runs over sources, and the
// covariance of any figure is clustered by source (see [SourceSums]).

// Cell is what one table composition played of one deal source: the deals of its complete
// units there (a duplicate group under every seating, or one deal), and each bot's net over
// them, by composition index. Two matches of one composition on the same cards make one cell.
type Cell struct {
	Bots  []string // the composition, sorted
	Deals int64
	Net   []int64
}

// PairSums are the sums over the deal sources that two compositions A and B (A's key sorts
// first) both played: what ties their results together. With Y_gA the nets of A's cell of
// source g and d_gA its deals:
//
//	Sources = Σ_g 1, DD = Σ d_gA·d_gB, ND_i = Σ Y_gA,i·d_gB, DN_j = Σ d_gA·Y_gB,j,
//	NN_ij = Σ Y_gA,i·Y_gB,j (row-major, k_A × k_B)
//
// and the same of the Bradley–Terry points π (doubled, so integers: 2 for a win over a
// table-mate, 1 for a tie, summed over the table-mates): PP_ij = Σ 2π_gA,i·2π_gB,j,
// PC_i = Σ 2π_gA,i, CP_j = Σ 2π_gB,j.
type PairSums struct {
	A, B    []string // the compositions, sorted; CompositionKey(A) < CompositionKey(B)
	Sources int64
	DD      int64
	ND, DN  []int64
	NN      []int64
	PC, CP  []int64
	PP      []int64
}

// newPairSums returns empty sums of compositions a and b.
func newPairSums(a, b []string) *PairSums {
	ka, kb := len(a), len(b)
	return &PairSums{A: a, B: b, ND: make([]int64, ka), DN: make([]int64, kb), NN: make([]int64, ka*kb),
		PC: make([]int64, ka), CP: make([]int64, kb), PP: make([]int64, ka*kb)}
}

// Add adds the sums o of the same two compositions.
func (p *PairSums) Add(o *PairSums) {
	p.Sources += o.Sources
	p.DD += o.DD
	for _, v := range [][2][]int64{{p.ND, o.ND}, {p.DN, o.DN}, {p.NN, o.NN}, {p.PC, o.PC}, {p.CP, o.CP}, {p.PP, o.PP}} {
		addInts(v[0], v[1])
	}
}

// Clone returns a deep copy.
func (p *PairSums) Clone() *PairSums {
	c := *p
	c.A, c.B = slices.Clone(p.A), slices.Clone(p.B)
	c.ND, c.DN, c.NN = slices.Clone(p.ND), slices.Clone(p.DN), slices.Clone(p.NN)
	c.PC, c.CP, c.PP = slices.Clone(p.PC), slices.Clone(p.CP), slices.Clone(p.PP)
	return &c
}

// PairKey names the pair of compositions a, b in the order PairSums keeps them.
func PairKey(a, b string) [2]string {
	if b < a {
		a, b = b, a
	}
	return [2]string{a, b}
}

// SourceSums are the sufficient statistics of a set of deal sources (one league and rule
// set, or several: sources never span two): per composition its [TableSums] over the cells
// it played, per pair of compositions that shared sources their [PairSums], the number of
// sources and, per bot, the sources it sat in. Every figure of the board — the headline, its
// cluster-robust covariance, Bradley–Terry and its covariance, the fit of the model — is a
// function of these, and they are sums of integers, so that sums kept as deals are stored
// equal a recomputation exactly and the contributions of sources simply add.
type SourceSums struct {
	Tables     map[string]*TableSums   // by CompositionKey
	Pairs      map[[2]string]*PairSums // by PairKey
	Sources    int64
	BotSources map[string]int64
}

// NewSourceSums returns empty sums.
func NewSourceSums() *SourceSums {
	return &SourceSums{Tables: map[string]*TableSums{}, Pairs: map[[2]string]*PairSums{}, BotSources: map[string]int64{}}
}

// AddSource adds (sign +1) or removes (−1) the contribution of one deal source, given its
// cells (any order; cells of one composition are merged). Keeping sums as results arrive is
// then: remove the source's contribution before a new cell, add it after; taking a match out
// is the same with its cells left out.
func (s *SourceSums) AddSource(cells []Cell, sign int64) {
	cs := mergeCells(cells)
	if len(cs) == 0 {
		return
	}
	s.Sources += sign
	seen := map[string]bool{}
	pts := make([][]int64, len(cs))
	for i, c := range cs {
		for _, b := range c.Bots {
			if !seen[b] {
				seen[b] = true
				s.BotSources[b] += sign
			}
		}
		pts[i] = cellPoints(c.Net)
		key := CompositionKey(c.Bots)
		t := s.Tables[key]
		if t == nil {
			t, _ = NewTableSums(c.Bots)
			s.Tables[key] = t
		}
		t.addCell(c.Deals, c.Net, pts[i], sign)
	}
	for i := range cs {
		for j := i + 1; j < len(cs); j++ {
			s.addPair(cs[i], pts[i], cs[j], pts[j], sign)
		}
	}
}

// addPair adds (sign +1) or removes (−1) the products of two cells of one source (of different
// compositions) to their pair's sums.
func (s *SourceSums) addPair(a Cell, pa []int64, b Cell, pb []int64, sign int64) {
	ka, kb := CompositionKey(a.Bots), CompositionKey(b.Bots)
	if kb < ka {
		a, b, pa, pb = b, a, pb, pa
		ka, kb = kb, ka
	}
	k := [2]string{ka, kb}
	p := s.Pairs[k]
	if p == nil {
		p = newPairSums(slices.Sorted(slices.Values(a.Bots)), slices.Sorted(slices.Values(b.Bots)))
		s.Pairs[k] = p
	}
	p.DD += sign * a.Deals * b.Deals
	nb := len(b.Bots)
	for x := range a.Bots {
		p.ND[x] += sign * a.Net[x] * b.Deals
		p.PC[x] += sign * pa[x]
		for y := range b.Bots {
			p.NN[x*nb+y] += sign * a.Net[x] * b.Net[y]
			p.PP[x*nb+y] += sign * pa[x] * pb[y]
		}
	}
	for y := range b.Bots {
		p.DN[y] += sign * a.Deals * b.Net[y]
		p.CP[y] += sign * pb[y]
	}
	// Sources counts the sources both played: one per source, counted with the products'
	// sign only when a cell appears or goes (see ChangeCell), so here with every AddSource.
	p.Sources += sign
}

// ChangeCell keeps s up to date as one cell of a deal source changes: the cell of composition
// cur.Bots goes from old (nil: the composition had not played the source) to cur, and others
// are the source's cells of the other compositions (sorted names, nets in that order). It
// changes exactly what AddSource(others + old, −1) then AddSource(others + cur, +1) would, at
// the cost of the changed cell's pairs only: that is how sums kept as deals are stored (the
// store and the accumulator) stay equal to a recomputation.
func (s *SourceSums) ChangeCell(others []Cell, old *Cell, cur Cell) {
	if old == nil {
		if len(others) == 0 {
			s.Sources++
		}
		for _, b := range cur.Bots {
			seen := false
			for _, o := range others {
				if slices.Contains(o.Bots, b) {
					seen = true
					break
				}
			}
			if !seen {
				s.BotSources[b]++
			}
		}
	}
	key := CompositionKey(cur.Bots)
	t := s.Tables[key]
	if t == nil {
		t, _ = NewTableSums(cur.Bots)
		s.Tables[key] = t
	}
	curPts := cellPoints(cur.Net)
	var oldPts []int64
	if old != nil {
		oldPts = cellPoints(old.Net)
		t.addCell(old.Deals, old.Net, oldPts, -1)
	}
	t.addCell(cur.Deals, cur.Net, curPts, 1)
	for _, o := range others {
		op := cellPoints(o.Net)
		if old != nil {
			s.addPair(*old, oldPts, o, op, -1)
		}
		s.addPair(cur, curPts, o, op, 1)
	}
}

// Add adds the sums o (of other sources).
func (s *SourceSums) Add(o *SourceSums) {
	s.Sources += o.Sources
	for b, n := range o.BotSources {
		s.BotSources[b] += n
	}
	for k, t := range o.Tables {
		if cur := s.Tables[k]; cur != nil {
			cur.Add(t)
		} else {
			s.Tables[k] = t.Clone()
		}
	}
	for k, p := range o.Pairs {
		if cur := s.Pairs[k]; cur != nil {
			cur.Add(p)
		} else {
			s.Pairs[k] = p.Clone()
		}
	}
}

// Clone returns a deep copy.
func (s *SourceSums) Clone() *SourceSums {
	c := NewSourceSums()
	c.Add(s)
	return c
}

// mergeCells merges the cells of one composition, in key order.
func mergeCells(cells []Cell) []Cell {
	by := map[string]*Cell{}
	for _, c := range cells {
		key := CompositionKey(c.Bots)
		m := by[key]
		if m == nil {
			m = &Cell{Bots: slices.Sorted(slices.Values(c.Bots)), Net: make([]int64, len(c.Bots))}
			by[key] = m
		}
		m.Deals += c.Deals
		addInts(m.Net, c.Net)
	}
	out := make([]Cell, 0, len(by))
	for _, k := range slices.Sorted(mapKeys(by)) {
		out = append(out, *by[k])
	}
	return out
}

// cellPoints is each bot's Bradley–Terry points in a cell, doubled: 2 per table-mate whose
// net it beat, 1 per tie.
func cellPoints(net []int64) []int64 {
	out := make([]int64, len(net))
	for i := range net {
		for j := range net {
			switch {
			case i == j:
			case net[i] > net[j]:
				out[i] += 2
			case net[i] == net[j]:
				out[i]++
			}
		}
	}
	return out
}

// addCell adds one cell (sign +1) or takes it out (−1).
func (s *TableSums) addCell(deals int64, net, pts []int64, sign int64) {
	k := len(s.Bots)
	s.Units += sign
	s.Deals += sign * deals
	s.DealsSq += sign * deals * deals
	for i := range k {
		s.Net[i] += sign * net[i]
		s.DealNet[i] += sign * deals * net[i]
		s.Points[i] += sign * pts[i]
		for j := i; j < k; j++ {
			s.Cross[CrossIndex(i, j, k)] += sign * net[i] * net[j]
			s.PointsCross[CrossIndex(i, j, k)] += sign * pts[i] * pts[j]
		}
		for j := i + 1; j < k; j++ {
			switch p := PairIndex(i, j, k); {
			case net[i] > net[j]:
				s.Wins[p] += sign
			case net[i] == net[j]:
				s.Ties[p] += sign
			}
		}
	}
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// SourceKey names a deal source in storage and in an accumulator: 16 hex digits of the
// SHA-256 of its deal in the engine's notation (every table and seating of one source plays
// the same deal; two sources with the same cards are one source). 64 bits keep the kept sums'
// rows small; two of ten million sources share a key with a probability of 3·10⁻⁶, and then
// count as one source (one cluster: a slightly wider interval, never a narrower one).
func SourceKey(deal string) string {
	return SourceKeyOf([]byte(deal))
}

// SourceKeyOf is SourceKey of a deal's text in bytes (the store keys every deal it stores
// with one, from a buffer it keeps no string of).
func SourceKeyOf(deal []byte) string {
	sum := sha256.Sum256(bytes.TrimSpace(deal))
	return hex.EncodeToString(sum[:8])
}
