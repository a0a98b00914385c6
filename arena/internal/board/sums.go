package board

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/rating"
	"github.com/tapparena/tapp/engine"
)

// Scope names one table composition within a league and a rule set: the key of its
// [rating.TableSums].
type Scope struct {
	League string // "" for stand-alone matches
	Rules  string // the canonical rule-set text
	Bots   string // the composition, rating.CompositionKey
}

// RoleKey names one role counter of one bot of a composition.
type RoleKey struct {
	Scope
	Bot  int    // the bot's index in the sorted composition
	Role string // one of the Role… names below
}

// The roles a deal counts in, for each bot at the table.
const (
	RoleDeclarer   = "declarer"   // the bot declared; Made counts the contracts it made
	RoleNoDeclarer = "none"       // nobody declared: a Ramsch, or a deal thrown in
	RoleDefendVs   = "defend-vs:" // + the declarer's index in the composition: the bot defended against it
	RoleContract   = "contract:"  // + the contract (engine.Contract's name): the bot declared it; Made as above
	RoleSeat       = "seat:"      // + the bot's seat (0 = forehand … players−1 = dealer): every deal
)

// The role names by index, made once (Delta runs for every stored deal).
var roleDefendVs, roleSeat = func() (d, s [rating.MaxSeats]string) {
	for i := range rating.MaxSeats {
		d[i], s[i] = fmt.Sprintf("%s%d", RoleDefendVs, i), fmt.Sprintf("%s%d", RoleSeat, i)
	}
	return d, s
}()

// RoleSums counts a role's deals, the bot's payoff summed over them and its square summed,
// and (declarer roles) the contracts made.
type RoleSums struct {
	Deals, Total, TotalSq, Made int64
}

// NewMatchSums starts the sums of match m, whose deals seat the composition comp.
func NewMatchSums(m MatchInfo, comp []string) *MatchSums {
	return &MatchSums{ID: m.ID, League: m.League, Rules: m.Rules, Bots: comp, Net: make([]int64, len(comp)), Duplicate: m.Duplicate}
}

// AddDeal adds one deal of the match (its Delta) to the match's counters.
func (ms *MatchSums) AddDeal(dd *DealDelta) {
	ms.Deals++
	ms.Decisions += dd.Decisions
	ms.Fallbacks += dd.Fallbacks
	for i, v := range dd.Net {
		ms.Net[i] += v
	}
}

// AddRoles adds a deal's role counters to roles, creating the missing ones.
func AddRoles(roles map[RoleKey]*RoleSums, ds []RoleDelta) {
	for _, r := range ds {
		if roles[r.Key] == nil {
			roles[r.Key] = &RoleSums{}
		}
		roles[r.Key].add(r.RoleSums, 1)
	}
}

func (r *RoleSums) add(o RoleSums, sign int64) {
	r.Deals += sign * o.Deals
	r.Total += sign * o.Total
	r.TotalSq += sign * o.TotalSq
	r.Made += sign * o.Made
}

// MatchSums is what the board needs of one match: its composition, its deals, its decisions
// and the arena's fallbacks among them (for tainting), and each bot's net total (for the
// multiplayer Elo); the rest comes from the match's stored row.
type MatchSums struct {
	ID, League, Rules string
	Bots              []string // the composition, sorted
	Deals             int64
	Decisions         int64
	Fallbacks         int64
	Net               []int64 // by composition index
	// From the match's row:
	Duplicate bool
	Status    domain.MatchStatus
	Started   time.Time
	Finished  time.Time
	Forfeited []string
	// Excluded: a tainted match whose units and roles were taken out of the sums.
	Excluded bool
}

// MaxFallbackShare is the share of a match's decisions the arena may have played for its
// bots (fallbacks: late, missing or gone) before the match is tainted.
const MaxFallbackShare = 0.01

// Tainted reports a match whose results say more about the arena or a broken bot than about
// strength: a bot forfeited, or more than 1% of the decisions were fallbacks.
func (ms *MatchSums) Tainted() bool {
	return len(ms.Forfeited) > 0 || float64(ms.Fallbacks) > MaxFallbackShare*float64(ms.Decisions)
}

// Sums are the sufficient statistics of a set of stored results.
type Sums struct {
	Tables map[Scope]*rating.TableSums
	Roles  map[RoleKey]*RoleSums
	// Groups counts the matches and deals of each composition (all of them, tainted too).
	Groups map[Scope]*MatchGroup
	// Matches holds the matches whose own figures the board needs: at least every tainted one
	// (a recomputation has all).
	Matches map[string]*MatchSums
	// OpenGroups counts the duplicate groups not yet stored under every seating (left out).
	OpenGroups int
	// Elo is the multiplayer-Elo ledger the board shows (see BoardEloKey).
	Elo *EloLedger
	// BySource says that Tables hold one cell per deal source, and Pairs, SourceCounts and
	// BotSources the rest of the deal-source sums (rating.SourceSums): the variance is then
	// clustered by deal source. Without it every complete unit is a cell of its own
	// (Accumulator.UnitSources: the calibration's estimator of earlier versions).
	BySource     bool
	Pairs        map[PairScope]*rating.PairSums
	SourceCounts map[LeagueRules]int64
	BotSources   map[LeagueRules]map[string]int64
	// Sample holds the cells of the first rating.SampleSources deal sources by key of each
	// league and rule set (a uniform sample: the keys are hashes), by source: the skewness of
	// the headlines' errors is estimated from them.
	Sample map[LeagueRules]map[string][]rating.Cell
}

// LeagueRules names the deal sources of one league (or of the stand-alone matches) under one
// rule set: sources never span two.
type LeagueRules struct{ League, Rules string }

// PairScope names the pair sums of two compositions of one league and rule set
// (rating.PairKey order).
type PairScope struct {
	League, Rules string
	A, B          string
}

// MatchGroup counts the matches of one composition and their deals.
type MatchGroup struct {
	Matches, Deals int64
	Duplicate      bool // some of them were played in duplicate
}

// NewSums returns empty sums.
func NewSums() *Sums {
	return &Sums{Tables: map[Scope]*rating.TableSums{}, Roles: map[RoleKey]*RoleSums{}, Groups: map[Scope]*MatchGroup{},
		Matches: map[string]*MatchSums{}, Elo: NewEloLedger(false), Pairs: map[PairScope]*rating.PairSums{},
		SourceCounts: map[LeagueRules]int64{}, BotSources: map[LeagueRules]map[string]int64{},
		Sample: map[LeagueRules]map[string][]rating.Cell{}}
}

// AddTable adds a composition's sums under its scope.
func (s *Sums) AddTable(sc Scope, t *rating.TableSums) {
	if cur := s.Tables[sc]; cur != nil {
		cur.Add(t)
		return
	}
	s.Tables[sc] = t.Clone()
}

// AddRole adds a role counter.
func (s *Sums) AddRole(k RoleKey, r RoleSums) {
	AddRoles(s.Roles, []RoleDelta{{Key: k, RoleSums: r}})
}

// Exclude takes the roles and open groups of part (the sums of some of s's matches) out of s
// and marks those matches excluded. Their units are taken out of the deal-source sums apart
// (Accumulator.Finish, or ExcludeSources for kept sums): each source they played is added
// again without them.
func (s *Sums) Exclude(part *Sums) {
	for k, r := range part.Roles {
		if cur := s.Roles[k]; cur != nil {
			cur.add(*r, -1)
		}
	}
	for id := range part.Matches {
		if m := s.Matches[id]; m != nil {
			m.Excluded = true
		}
	}
	s.OpenGroups -= part.OpenGroups
}

// AddSourceSums adds the deal-source sums of one league and rule set (or a change of them).
func (s *Sums) AddSourceSums(lr LeagueRules, ss *rating.SourceSums) {
	for key, t := range ss.Tables {
		s.AddTable(Scope{League: lr.League, Rules: lr.Rules, Bots: key}, t)
	}
	for key, p := range ss.Pairs {
		ps := PairScope{League: lr.League, Rules: lr.Rules, A: key[0], B: key[1]}
		if cur := s.Pairs[ps]; cur != nil {
			cur.Add(p)
		} else {
			s.Pairs[ps] = p.Clone()
		}
	}
	s.SourceCounts[lr] += ss.Sources
	if len(ss.BotSources) > 0 && s.BotSources[lr] == nil {
		s.BotSources[lr] = map[string]int64{}
	}
	for b, n := range ss.BotSources {
		s.BotSources[lr][b] += n
	}
}

// CellSource is a store that reads the cells of deal sources it keeps: what taking a
// tainted match out of kept sums needs (ExcludeSources).
type CellSource interface {
	SourceCells(ctx context.Context, lr LeagueRules, sources []string) (map[string][]rating.Cell, error)
}

// ExcludeSources takes the complete units of the matches part holds (recomputed from their
// raw deals: Replay) out of kept deal-source sums s: each source they played is taken out with
// all its cells, as st keeps them, and added again without theirs.
func (s *Sums) ExcludeSources(ctx context.Context, st CellSource, part *Accumulator) error {
	byLR := map[LeagueRules][]string{}
	for _, k := range part.order {
		byLR[k.LeagueRules] = append(byLR[k.LeagueRules], k.source)
	}
	for _, lr := range slices.SortedFunc(maps.Keys(byLR), compareLeagueRules) {
		keys := byLR[lr]
		stored, err := st.SourceCells(ctx, lr, keys)
		if err != nil {
			return err
		}
		d := rating.NewSourceSums()
		for _, key := range keys {
			all := stored[key]
			rest := subtractCells(all, part.sources[sourceKey{lr, key}].cells)
			d.AddSource(all, -1)
			d.AddSource(rest, 1)
			if _, sampled := s.Sample[lr][key]; sampled {
				if len(rest) == 0 {
					delete(s.Sample[lr], key)
				} else {
					s.Sample[lr][key] = rest
				}
			}
		}
		s.AddSourceSums(lr, d)
	}
	return nil
}

// subtractCells is the cells all less the parts of them in part (by composition).
func subtractCells(all []rating.Cell, part map[string]*rating.Cell) []rating.Cell {
	var out []rating.Cell
	for _, c := range all {
		p := part[rating.CompositionKey(c.Bots)]
		if p == nil {
			out = append(out, c)
			continue
		}
		rest := rating.Cell{Bots: c.Bots, Deals: c.Deals - p.Deals, Net: slices.Clone(c.Net)}
		for i := range rest.Net {
			rest.Net[i] -= p.Net[i]
		}
		if rest.Deals > 0 {
			out = append(out, rest)
		}
	}
	return out
}

func compareLeagueRules(a, b LeagueRules) int {
	return cmp.Or(strings.Compare(a.League, b.League), strings.Compare(a.Rules, b.Rules))
}

// MatchInfo is what adding a deal needs of its match.
type MatchInfo struct {
	ID, League, Rules string // Rules: canonical text
	Duplicate         bool
	Players           int
}

// InfoOf returns a stored match's MatchInfo. Its League is the board the match counts on:
// its league's, or the one its spec names (MatchSpec.Board, a standing ladder's epochs).
func InfoOf(m *domain.Match) MatchInfo {
	return MatchInfo{ID: m.ID, League: cmp.Or(m.Spec.Board, m.Spec.LeagueID), Rules: m.Spec.Rules.String(), Duplicate: m.Spec.Duplicate,
		Players: m.Spec.Rules.Players}
}

// UnitDeals is the number of deals of a complete unit of the match: every seating of a deal
// source in duplicate play (6 for 3 players, the 4 rotations for 4, as arena/internal/match plays
// them), one deal otherwise.
func (m MatchInfo) UnitDeals() int {
	switch {
	case !m.Duplicate:
		return 1
	case m.Players == 3:
		return 6
	default:
		return m.Players
	}
}

// DealDelta is what one stored deal adds to the sums, before its unit is complete.
type DealDelta struct {
	Scope     Scope
	Source    string   // the deal source (rating.SourceKey of the deal)
	Comp      []string // the composition, sorted
	Net       []int64  // the deal's payoff by composition index
	Roles     []RoleDelta
	Decisions int64
	Fallbacks int64
}

// RoleDelta is one role counter a deal adds to.
type RoleDelta struct {
	Key RoleKey
	RoleSums
}

// Delta computes what deal d of the match adds. It fails for a deal whose results do not
// name 2 to 4 distinct bots.
func Delta(m MatchInfo, d *domain.DealRecord) (*DealDelta, error) {
	comp := make([]string, len(d.Results))
	for i, r := range d.Results {
		comp[i] = r.Bot
	}
	slices.Sort(comp)
	if len(comp) < 2 || len(comp) > rating.MaxSeats || comp[0] == "" || len(slices.Compact(slices.Clone(comp))) != len(comp) {
		return nil, fmt.Errorf("board: deal %d of match %s: results for %v, want 2 to %d distinct bots", d.Number, d.MatchID, comp, rating.MaxSeats)
	}
	sc := Scope{League: m.League, Rules: m.Rules, Bots: rating.CompositionKey(comp)}
	dd := &DealDelta{Scope: sc, Comp: comp, Net: make([]int64, len(comp)), Decisions: int64(len(d.Decisions)),
		Source: SourceOf(m, d)}
	for _, x := range d.Decisions {
		if x.Fallback {
			dd.Fallbacks++
		}
	}
	declarer := -1 // composition index of the declarer
	for _, r := range d.Results {
		if r.Declarer {
			declarer = slices.Index(comp, r.Bot)
		}
	}
	contract := d.Outcome.Contract.String()
	for _, r := range d.Results {
		i := slices.Index(comp, r.Bot)
		p := int64(r.Payoff)
		dd.Net[i] += p
		one := RoleSums{Deals: 1, Total: p, TotalSq: p * p}
		role := func(name string, made bool) {
			rs := one
			if made {
				rs.Made = 1
			}
			dd.Roles = append(dd.Roles, RoleDelta{Key: RoleKey{Scope: sc, Bot: i, Role: name}, RoleSums: rs})
		}
		switch {
		case declarer < 0:
			role(RoleNoDeclarer, false)
		case declarer == i:
			role(RoleDeclarer, d.Outcome.DeclarerWon)
			role(RoleContract+contract, d.Outcome.DeclarerWon)
		default:
			role(roleDefendVs[declarer], false)
		}
		if r.Seat >= 0 && int(r.Seat) < len(roleSeat) {
			role(roleSeat[r.Seat], false)
		}
	}
	return dd, nil
}

// Accumulator adds deals to sums in memory, keeping the duplicate groups that are not yet
// complete aside and the deal-source sums up to date as each unit completes (cell by cell, as
// a store keeps them): [Recompute] uses it, the memory store keeps one, and so do tests.
type Accumulator struct {
	Sums *Sums
	open map[groupKey]*openGroup
	// openScopes counts the open groups of each composition.
	openScopes map[Scope]int
	// bySource holds the deal-source sums of each league and rule set; sources every source's
	// cells and the units they hold (which match gave what), in the order first seen.
	bySource map[LeagueRules]*rating.SourceSums
	sources  map[sourceKey]*sourceState
	order    []sourceKey
	// first holds the first rating.SampleSources sources of each league and rule set by key
	// (the skewness sample, Sums.Sample), kept as sources come: a board of the memory store,
	// taken for every point of the rating history, sorted every source's key before.
	first map[LeagueRules][]string
	// matchSources lists the sources each match has complete units in; matchHas holds the
	// same as a set (a match's list was searched for every unit it completed: quadratic in
	// the deals of a long match without duplicates, whose every deal is a source).
	matchSources map[string][]sourceKey
	matchHas     map[matchSource]bool
	// Unit keys the deal sources by (match, group) instead: every unit its own source, as the
	// variance was clustered before deal sources (the calibration's comparison).
	UnitSources bool
}

type groupKey struct {
	match string
	group int
}

type openGroup struct {
	deals  int64
	net    []int64
	source string
	scope  Scope
}

type sourceKey struct {
	LeagueRules
	source string
}

type matchSource struct {
	match string
	sourceKey
}

// sourceState is one deal source: its cell per composition (key) and its complete units.
type sourceState struct {
	cells map[string]*rating.Cell
	units []sourceUnit
}

type sourceUnit struct {
	match string
	cell  rating.Cell
}

// NewAccumulator returns an Accumulator with empty sums.
func NewAccumulator() *Accumulator {
	return &Accumulator{Sums: NewSums(), open: map[groupKey]*openGroup{}, openScopes: map[Scope]int{},
		bySource: map[LeagueRules]*rating.SourceSums{}, sources: map[sourceKey]*sourceState{},
		matchSources: map[string][]sourceKey{}, matchHas: map[matchSource]bool{}}
}

// AddDeal adds one stored deal of the match.
func (a *Accumulator) AddDeal(m MatchInfo, d *domain.DealRecord) error {
	dd, err := Delta(m, d)
	if err != nil {
		return err
	}
	s := a.Sums
	ms := s.Matches[m.ID]
	if ms == nil {
		ms = NewMatchSums(m, dd.Comp)
		s.Matches[m.ID] = ms
	}
	if !slices.Equal(ms.Bots, dd.Comp) {
		return fmt.Errorf("board: deal %d of match %s seats %v, its earlier deals %v", d.Number, m.ID, dd.Comp, ms.Bots)
	}
	g := s.Groups[dd.Scope]
	if g == nil {
		g = &MatchGroup{}
		s.Groups[dd.Scope] = g
	}
	if ms.Deals == 0 {
		g.Matches++
	}
	g.Deals++
	g.Duplicate = g.Duplicate || m.Duplicate
	ms.AddDeal(dd)
	AddRoles(s.Roles, dd.Roles)
	want := int64(m.UnitDeals())
	source := dd.Source
	if a.UnitSources {
		source = fmt.Sprintf("%s\x00%d", m.ID, d.Group)
	}
	if want == 1 {
		if a.UnitSources {
			source = fmt.Sprintf("%s\x00%d", m.ID, d.Number)
		}
		a.addUnit(dd.Scope, source, m.ID, dd.Comp, 1, dd.Net)
		return nil
	}
	k := groupKey{m.ID, d.Group}
	og := a.open[k]
	if og == nil {
		og = &openGroup{net: make([]int64, len(dd.Comp)), source: source, scope: dd.Scope}
		a.open[k] = og
		s.OpenGroups++
		a.openScopes[dd.Scope]++
	}
	og.deals++
	for i, v := range dd.Net {
		og.net[i] += v
	}
	if og.deals < want {
		return nil
	}
	delete(a.open, k)
	s.OpenGroups--
	a.openScopes[dd.Scope]--
	a.addUnit(dd.Scope, og.source, m.ID, dd.Comp, og.deals, og.net)
	return nil
}

// addUnit adds a complete unit to its source's cell of its composition.
func (a *Accumulator) addUnit(sc Scope, source, match string, comp []string, deals int64, net []int64) {
	lr := LeagueRules{sc.League, sc.Rules}
	k := sourceKey{lr, source}
	st := a.sources[k]
	if st == nil {
		st = &sourceState{cells: map[string]*rating.Cell{}}
		a.sources[k] = st
		a.order = append(a.order, k)
		a.keepFirst(lr, source)
	}
	ss := a.bySource[lr]
	if ss == nil {
		ss = rating.NewSourceSums()
		a.bySource[lr] = ss
	}
	ChangeCell(ss, st.cells, rating.Cell{Bots: comp, Deals: deals, Net: net})
	if ms := (matchSource{match, k}); !a.matchHas[ms] {
		a.matchHas[ms] = true
		a.matchSources[match] = append(a.matchSources[match], k)
	}
	st.units = append(st.units, sourceUnit{match: match, cell: rating.Cell{Bots: comp, Deals: deals, Net: slices.Clone(net)}})
}

// ChangeCell adds a complete unit (its composition sorted, its nets in that order) to the
// cells of its deal source (by composition key), keeping ss up to date: the change the store
// makes in the transaction that completes the unit, and the accumulator in memory.
func ChangeCell(ss *rating.SourceSums, cells map[string]*rating.Cell, unit rating.Cell) {
	key := rating.CompositionKey(unit.Bots)
	var others []rating.Cell
	for _, ck := range slices.Sorted(maps.Keys(cells)) {
		if ck != key {
			others = append(others, *cells[ck])
		}
	}
	old := cells[key]
	cur := rating.Cell{Bots: slices.Clone(unit.Bots), Deals: unit.Deals, Net: slices.Clone(unit.Net)}
	if old != nil {
		cur.Deals += old.Deals
		for i := range cur.Net {
			cur.Net[i] += old.Net[i]
		}
	}
	ss.ChangeCell(others, old, cur)
	cells[key] = &cur
}

// Finish puts the deal-source sums in the Sums' tables, pairs and counts, leaving out the
// units of the matches for which skip is true (nil: none): each source they played is added
// again without them. It may be called again (with another skip), and more deals added
// after; each call replaces the tables and pairs.
func (a *Accumulator) Finish(skip func(match string) bool) *Sums {
	s := a.Sums
	s.BySource = !a.UnitSources
	s.Tables, s.Pairs = map[Scope]*rating.TableSums{}, map[PairScope]*rating.PairSums{}
	s.SourceCounts, s.BotSources = map[LeagueRules]int64{}, map[LeagueRules]map[string]int64{}
	for _, lr := range slices.SortedFunc(maps.Keys(a.bySource), compareLeagueRules) {
		s.AddSourceSums(lr, a.bySource[lr])
	}
	s.Sample = a.sample(func(LeagueRules) bool { return true }, skip)
	if skip == nil {
		return s
	}
	affected := map[sourceKey]bool{}
	for m, keys := range a.matchSources {
		if skip(m) {
			for _, k := range keys {
				affected[k] = true
			}
		}
	}
	delta := map[LeagueRules]*rating.SourceSums{}
	for _, k := range a.order {
		if !affected[k] {
			continue
		}
		d := delta[k.LeagueRules]
		if d == nil {
			d = rating.NewSourceSums()
			delta[k.LeagueRules] = d
		}
		st := a.sources[k]
		var all, kept []rating.Cell
		for _, c := range st.cells {
			all = append(all, *c)
		}
		for _, u := range st.units {
			if !skip(u.match) {
				kept = append(kept, u.cell)
			}
		}
		d.AddSource(all, -1)
		d.AddSource(kept, 1)
	}
	for _, lr := range slices.SortedFunc(maps.Keys(delta), compareLeagueRules) {
		s.AddSourceSums(lr, delta[lr])
	}
	return s
}

// sample is the cells of the first rating.SampleSources deal sources by key of the leagues
// and rule sets keep selects, the units of the matches skip selects left out (a source left
// without cells is left out).
func (a *Accumulator) sample(keep func(LeagueRules) bool, skip func(string) bool) map[LeagueRules]map[string][]rating.Cell {
	out := map[LeagueRules]map[string][]rating.Cell{}
	for lr, ks := range a.first {
		if !keep(lr) {
			continue
		}
		out[lr] = map[string][]rating.Cell{}
		for _, key := range ks {
			st := a.sources[sourceKey{lr, key}]
			var cells []rating.Cell
			if skip == nil {
				for _, ck := range slices.Sorted(maps.Keys(st.cells)) {
					c := st.cells[ck]
					cells = append(cells, rating.Cell{Bots: c.Bots, Deals: c.Deals, Net: slices.Clone(c.Net)})
				}
			} else {
				var units []rating.Cell
				for _, u := range st.units {
					if !skip(u.match) {
						units = append(units, u.cell)
					}
				}
				cells = mergeCells(units)
			}
			if len(cells) > 0 {
				out[lr][key] = cells
			}
		}
	}
	return out
}

// keepFirst takes a new source of lr into the first sources by key (a.first).
func (a *Accumulator) keepFirst(lr LeagueRules, source string) {
	ks := a.first[lr]
	if len(ks) == rating.SampleSources && source >= ks[len(ks)-1] {
		return
	}
	i, _ := slices.BinarySearch(ks, source)
	ks = slices.Insert(ks, i, source)
	if len(ks) > rating.SampleSources {
		ks = ks[:rating.SampleSources]
	}
	if a.first == nil {
		a.first = map[LeagueRules][]string{}
	}
	a.first[lr] = ks
}

// mergeCells merges cells of one composition (sorted bots, nets in that order), in key order.
func mergeCells(cells []rating.Cell) []rating.Cell {
	by := map[string]*rating.Cell{}
	for _, c := range cells {
		k := rating.CompositionKey(c.Bots)
		m := by[k]
		if m == nil {
			m = &rating.Cell{Bots: c.Bots, Net: make([]int64, len(c.Net))}
			by[k] = m
		}
		m.Deals += c.Deals
		for i, v := range c.Net {
			m.Net[i] += v
		}
	}
	var out []rating.Cell
	for _, k := range slices.Sorted(maps.Keys(by)) {
		out = append(out, *by[k])
	}
	return out
}

// SourceCells returns the cells of the given deal sources of one league and rule set, as the
// accumulator holds them (a memory store's CellSource).
func (a *Accumulator) SourceCells(lr LeagueRules, sources []string) map[string][]rating.Cell {
	out := map[string][]rating.Cell{}
	for _, src := range sources {
		st := a.sources[sourceKey{lr, src}]
		if st == nil {
			continue
		}
		for _, ck := range slices.Sorted(maps.Keys(st.cells)) {
			c := st.cells[ck]
			out[src] = append(out[src], rating.Cell{Bots: slices.Clone(c.Bots), Deals: c.Deals, Net: slices.Clone(c.Net)})
		}
	}
	return out
}

// EachSource calls f with every deal source's cells (by composition key), in the order first
// seen: what a store writes when it rebuilds its kept sums.
func (a *Accumulator) EachSource(f func(lr LeagueRules, source string, cells []rating.Cell) error) error {
	for _, k := range a.order {
		st := a.sources[k]
		var cs []rating.Cell
		for _, ck := range slices.Sorted(maps.Keys(st.cells)) {
			cs = append(cs, *st.cells[ck])
		}
		if err := f(k.LeagueRules, k.source, cs); err != nil {
			return err
		}
	}
	return nil
}

// SumsOf is a copy of the accumulated sums of the leagues and rule sets for which keep is
// true, as a store that keeps them gives them (Source.RatingSums): tables, pairs, deal
// sources, roles, compositions, open groups and every match, without an Elo ledger.
func (a *Accumulator) SumsOf(keep func(LeagueRules) bool) *Sums {
	out := NewSums()
	out.BySource = !a.UnitSources
	for _, lr := range slices.SortedFunc(maps.Keys(a.bySource), compareLeagueRules) {
		if keep(lr) {
			out.AddSourceSums(lr, a.bySource[lr])
		}
	}
	in := func(sc Scope) bool { return keep(LeagueRules{sc.League, sc.Rules}) }
	for k, r := range a.Sums.Roles {
		if in(k.Scope) {
			c := *r
			out.Roles[k] = &c
		}
	}
	for sc, g := range a.Sums.Groups {
		if in(sc) {
			c := *g
			out.Groups[sc] = &c
		}
	}
	for id, m := range a.Sums.Matches {
		if keep(LeagueRules{m.League, m.Rules}) {
			c := *m
			c.Bots, c.Net, c.Forfeited = slices.Clone(m.Bots), slices.Clone(m.Net), slices.Clone(m.Forfeited)
			out.Matches[id] = &c
		}
	}
	out.OpenGroups = a.OpenIn(in)
	out.Sample = a.sample(keep, nil)
	return out
}

// SourceCount is the deal sources of a league and rule set the accumulator holds.
func (a *Accumulator) SourceCount(lr LeagueRules) int64 {
	if ss := a.bySource[lr]; ss != nil {
		return ss.Sources
	}
	return 0
}

// OpenIn counts the open groups of the compositions for which keep is true.
func (a *Accumulator) OpenIn(keep func(Scope) bool) int {
	n := 0
	for sc, c := range a.openScopes {
		if keep(sc) {
			n += c
		}
	}
	return n
}

// parsedRules caches the rule sets sourceOf formats deals with, by their canonical text.
var parsedRules sync.Map

// SourceOf is the deal source of a stored deal (rating.SourceKey): its cards in the engine's
// notation (every table and seating of one source plays the same deal), or, for a deal stored
// without its cards, its match's group.
func SourceOf(m MatchInfo, d *domain.DealRecord) string {
	if d.Deal == (engine.Deal{}) {
		return rating.SourceKey(fmt.Sprintf("%s\x00%d", m.ID, d.Group))
	}
	r, ok := parsedRules.Load(m.Rules)
	if !ok {
		rs, err := engine.ParseRuleSet(m.Rules)
		if err != nil {
			return rating.SourceKey(fmt.Sprintf("%s\x00%d", m.ID, d.Group))
		}
		r, _ = parsedRules.LoadOrStore(m.Rules, rs)
	}
	var buf [160]byte // a deal's text, formatted for its key and dropped
	return rating.SourceKeyOf(d.Deal.AppendFormat(buf[:0], r.(engine.RuleSet)))
}

// Recompute derives the sums of the matches the filter selects from their raw stored deals
// (every deal is read: the slow path, for `tapp ratings --recompute` and for stores that keep
// no aggregates). progress, when set, is called after each match.
func Recompute(ctx context.Context, st domain.Store, f domain.MatchFilter, progress func(done, total int)) (*Sums, error) {
	f.Limit = 0
	ms, err := st.ListMatches(ctx, f)
	if err != nil {
		return nil, err
	}
	a, err := Replay(ctx, st, ms, progress)
	if err != nil {
		return nil, err
	}
	return a.Finish(nil), nil
}

// summaryLister is a store that lists a match's deals without the requests sent (the SQL
// store, whose compact records would otherwise rebuild every request): the sums need results
// and decisions' flags only.
type summaryLister interface {
	DealSummaries(ctx context.Context, matchID string) ([]domain.DealRecord, error)
}

// Replay adds every stored deal of the given matches to a new Accumulator.
func Replay(ctx context.Context, st domain.Store, ms []domain.Match, progress func(done, total int)) (*Accumulator, error) {
	a := NewAccumulator()
	load := st.Deals
	if sl, ok := st.(summaryLister); ok {
		load = sl.DealSummaries
	}
	for n := range ms {
		m := &ms[n]
		deals, err := load(ctx, m.ID)
		if err != nil {
			return nil, err
		}
		info := InfoOf(m)
		for i := range deals {
			if err := a.AddDeal(info, &deals[i]); err != nil {
				return nil, err
			}
		}
		if ms := a.Sums.Matches[m.ID]; ms != nil {
			SetMatchRow(ms, m)
		}
		if progress != nil {
			progress(n+1, len(ms))
		}
	}
	return a, nil
}

// OpenGroup is a duplicate group some of whose seatings are stored, not yet all.
type OpenGroup struct {
	Match string
	Group int
	Deals int64
	Net   []int64 // by composition index
}

// Open lists the accumulator's open groups by match and group.
func (a *Accumulator) Open() []OpenGroup {
	var out []OpenGroup
	for k, g := range a.open {
		out = append(out, OpenGroup{Match: k.match, Group: k.group, Deals: g.deals, Net: slices.Clone(g.net)})
	}
	slices.SortFunc(out, func(x, y OpenGroup) int {
		return cmp.Or(strings.Compare(x.Match, y.Match), cmp.Compare(x.Group, y.Group))
	})
	return out
}

// SetMatchRow copies what the board needs of a match's stored row.
func SetMatchRow(ms *MatchSums, m *domain.Match) {
	ms.Duplicate, ms.Status, ms.Started, ms.Finished, ms.Forfeited = m.Spec.Duplicate, m.Status, m.Started, m.Finished, m.Forfeited
}

// Source is a store that keeps the sums up to date as it stores deals (arena/internal/store
// and the memory store do): the compositions, their pairs, deal sources, roles and match
// counts of the filter's league and rule set (not narrowed to f.Bot), every tainted match,
// and the ledger k; and the cells of the deal sources a tainted match played.
type Source interface {
	RatingSums(ctx context.Context, f domain.MatchFilter, k EloKey, o SumsRead) (*Sums, error)
	CellSource
}

// SumsRead says what of the kept sums a Source reads beyond the board's figures.
type SumsRead struct {
	History bool // the Elo ledger's matches in order (its history), not only its ratings
	// RoleTotals reads only the roles of the totals (IsTotalRole), not those by contract or
	// seat: a third of the role rows.
	RoleTotals bool
}

// IsTotalRole reports whether role is one of a bot's totals by role: as declarer, as
// defender (against each seat of the composition), with no declarer.
func IsTotalRole(role string) bool {
	return role == RoleDeclarer || role == RoleNoDeclarer || strings.HasPrefix(role, RoleDefendVs)
}

// LoadOptions says how Load reads the sums.
type LoadOptions struct {
	Recompute      bool // from raw results even when the store keeps the sums (the same sums)
	IncludeTainted bool // keep tainted matches in the ratings
	History        bool // the multiplayer Elo after every match, not only the last
	// RoleTotals keeps only each bot's totals by role (declarer, defender, no declarer: what
	// the dashboard's columns show), not its figures by contract and seat (Roles.Contracts
	// and Roles.Seats stay empty): a store that keeps the sums reads a third of its role rows.
	RoleTotals bool
	Progress   func(done, total int)
}

// Load reads the sums of the results of the filter's league and rule set (Compute narrows
// them to f.Bot): the store's aggregates when it keeps them (rows in proportion to
// compositions, their pairs, roles and tainted matches), else or when asked a recomputation
// from raw results. Unless tainted matches are included, their units and roles are
// recomputed from their raw deals (only theirs) and taken out.
func Load(ctx context.Context, st domain.Store, f domain.MatchFilter, o LoadOptions) (*Sums, error) {
	f.Bot, f.Limit = "", 0
	key := BoardEloKey(f, o.IncludeTainted)
	var sums *Sums
	var acc *Accumulator
	var err error
	src, kept := st.(Source)
	kept = kept && !o.Recompute && f.MatchID == "" && f.Since.IsZero() // the sums are kept per league and rules
	if kept {
		sums, err = src.RatingSums(ctx, f, key, SumsRead{History: o.History, RoleTotals: o.RoleTotals})
	} else {
		var ms []domain.Match
		if ms, err = st.ListMatches(ctx, domain.MatchFilter{MatchID: f.MatchID, LeagueID: f.LeagueID, Rules: f.Rules, Since: f.Since}); err == nil {
			if acc, err = Replay(ctx, st, ms, o.Progress); err == nil {
				sums = acc.Finish(nil)
				sums.Elo, err = replayElo(ctx, st, sums, key, o.History)
			}
		}
		if err == nil && o.RoleTotals { // as a store that keeps the sums reads them
			maps.DeleteFunc(sums.Roles, func(k RoleKey, _ *RoleSums) bool { return !IsTotalRole(k.Role) })
		}
	}
	if err != nil || o.IncludeTainted {
		return sums, err
	}
	var tainted []domain.Match
	for _, id := range slices.Sorted(mapKeys(sums.Matches)) {
		if ms := sums.Matches[id]; ms.Tainted() {
			m, err := st.GetMatch(ctx, id)
			if err != nil {
				return nil, err
			}
			tainted = append(tainted, *m)
		}
	}
	if len(tainted) == 0 {
		return sums, nil
	}
	part, err := Replay(ctx, st, tainted, nil)
	if err != nil {
		return nil, err
	}
	sums.Exclude(part.Finish(nil))
	if !kept {
		acc.Finish(func(match string) bool { m := sums.Matches[match]; return m != nil && m.Excluded })
		return sums, nil
	}
	return sums, sums.ExcludeSources(ctx, src, part)
}

// replayElo computes ledger k from the recomputed matches, in the order the store rated them
// when it records one (EloOrderSource), else in the order they finished.
func replayElo(ctx context.Context, st domain.Store, sums *Sums, k EloKey, history bool) (*EloLedger, error) {
	src, ok := st.(EloOrderSource)
	if !ok {
		return EloOf(sums.Matches, k, history)
	}
	order, err := src.EloOrder(ctx, k)
	if err != nil {
		return nil, err
	}
	return eloInOrder(sums.Matches, order, k, history)
}

// EloOf is ledger k of the matches, rated in the order they finished (then by id).
func EloOf(matches map[string]*MatchSums, k EloKey, history bool) (*EloLedger, error) {
	var ms []*MatchSums
	for _, m := range matches {
		if k.Counts(m) {
			ms = append(ms, m)
		}
	}
	slices.SortFunc(ms, func(a, b *MatchSums) int {
		return cmp.Or(a.Finished.Compare(b.Finished), strings.Compare(a.ID, b.ID))
	})
	order := make([]string, len(ms))
	for i, m := range ms {
		order[i] = m.ID
	}
	return eloInOrder(matches, order, k, history)
}

func eloInOrder(matches map[string]*MatchSums, order []string, k EloKey, history bool) (*EloLedger, error) {
	l := NewEloLedger(history)
	for _, id := range order {
		m := matches[id]
		if m == nil || !k.Counts(m) {
			continue
		}
		if err := l.Apply(m.ID, m.Bots, m.Net); err != nil {
			return nil, err
		}
	}
	return l, nil
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

// variantUnit is the unit of a rule set's payoffs.
func variantUnit(rules string) string {
	r, err := engine.ParseRuleSet(rules)
	if err == nil && r.Variant != engine.Modern {
		return "points"
	}
	return "cents"
}
