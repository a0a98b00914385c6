package board

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
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
}

// MatchGroup counts the matches of one composition and their deals.
type MatchGroup struct {
	Matches, Deals int64
	Duplicate      bool // some of them were played in duplicate
}

// NewSums returns empty sums.
func NewSums() *Sums {
	return &Sums{Tables: map[Scope]*rating.TableSums{}, Roles: map[RoleKey]*RoleSums{}, Groups: map[Scope]*MatchGroup{},
		Matches: map[string]*MatchSums{}, Elo: NewEloLedger(false)}
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

// Exclude takes the units and roles of part (the sums of some of s's matches) out of s and
// marks those matches excluded.
func (s *Sums) Exclude(part *Sums) {
	for sc, t := range part.Tables {
		if cur := s.Tables[sc]; cur != nil {
			cur.Sub(t)
		}
	}
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

// MatchInfo is what adding a deal needs of its match.
type MatchInfo struct {
	ID, League, Rules string // Rules: canonical text
	Duplicate         bool
	Players           int
}

// InfoOf returns a stored match's MatchInfo.
func InfoOf(m *domain.Match) MatchInfo {
	return MatchInfo{ID: m.ID, League: m.Spec.LeagueID, Rules: m.Spec.Rules.String(), Duplicate: m.Spec.Duplicate,
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
	dd := &DealDelta{Scope: sc, Comp: comp, Net: make([]int64, len(comp)), Decisions: int64(len(d.Decisions))}
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
// complete aside: [Recompute] uses it, and so do tests.
type Accumulator struct {
	Sums *Sums
	open map[groupKey]*openGroup
}

type groupKey struct {
	match string
	group int
}

type openGroup struct {
	deals int64
	net   []int64
}

// NewAccumulator returns an Accumulator with empty sums.
func NewAccumulator() *Accumulator {
	return &Accumulator{Sums: NewSums(), open: map[groupKey]*openGroup{}}
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
	if want == 1 {
		return a.addUnit(dd.Scope, dd.Comp, 1, dd.Net)
	}
	k := groupKey{m.ID, d.Group}
	og := a.open[k]
	if og == nil {
		og = &openGroup{net: make([]int64, len(dd.Comp))}
		a.open[k] = og
		s.OpenGroups++
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
	return a.addUnit(dd.Scope, dd.Comp, og.deals, og.net)
}

func (a *Accumulator) addUnit(sc Scope, comp []string, deals int64, net []int64) error {
	t := a.Sums.Tables[sc]
	if t == nil {
		var err error
		if t, err = rating.NewTableSums(comp); err != nil {
			return err
		}
		a.Sums.Tables[sc] = t
	}
	t.AddUnit(deals, net)
	return nil
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
	return a.Sums, nil
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
			setMatchRow(ms, m)
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

// setMatchRow copies what the board needs of a match's stored row.
func setMatchRow(ms *MatchSums, m *domain.Match) {
	ms.Duplicate, ms.Status, ms.Started, ms.Finished, ms.Forfeited = m.Spec.Duplicate, m.Status, m.Started, m.Finished, m.Forfeited
}

// Source is a store that keeps the sums up to date as it stores deals (arena/internal/store does):
// the compositions, roles and match counts of the filter's league and rule set (not narrowed
// to f.Bot), every tainted match, and the ledger k.
type Source interface {
	RatingSums(ctx context.Context, f domain.MatchFilter, k EloKey, history bool) (*Sums, error)
}

// LoadOptions says how Load reads the sums.
type LoadOptions struct {
	Recompute      bool // from raw results even when the store keeps the sums
	IncludeTainted bool // keep tainted matches in the ratings
	History        bool // the multiplayer Elo after every match, not only the last
	Progress       func(done, total int)
}

// Load reads the sums of the results of the filter's league and rule set (Compute narrows
// them to f.Bot): the store's aggregates when it keeps them (rows in proportion to
// compositions, roles and tainted matches), else or when asked a recomputation from raw
// results. Unless tainted matches are included, their units and roles are recomputed from
// their raw deals (only theirs) and taken out.
func Load(ctx context.Context, st domain.Store, f domain.MatchFilter, o LoadOptions) (*Sums, error) {
	f.Bot, f.Limit = "", 0
	key := BoardEloKey(f, o.IncludeTainted)
	var sums *Sums
	var err error
	src, ok := st.(Source)
	if ok && !o.Recompute && f.MatchID == "" && f.Since.IsZero() { // the sums are kept per league and rules
		sums, err = src.RatingSums(ctx, f, key, o.History)
	} else {
		sums, err = Recompute(ctx, st, f, o.Progress)
		if err == nil {
			sums.Elo, err = replayElo(ctx, st, sums, key, o.History)
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
	sums.Exclude(part.Sums)
	return sums, nil
}

// replayElo computes ledger k from the recomputed matches, in the order the store rated them
// when it records one (EloOrderSource), else in the order they finished.
func replayElo(ctx context.Context, st domain.Store, sums *Sums, k EloKey, history bool) (*EloLedger, error) {
	var order []string
	if src, ok := st.(EloOrderSource); ok {
		var err error
		if order, err = src.EloOrder(ctx, k); err != nil {
			return nil, err
		}
	} else {
		var ms []*MatchSums
		for _, m := range sums.Matches {
			if k.Counts(m) {
				ms = append(ms, m)
			}
		}
		slices.SortFunc(ms, func(a, b *MatchSums) int {
			return cmp.Or(a.Finished.Compare(b.Finished), strings.Compare(a.ID, b.ID))
		})
		for _, m := range ms {
			order = append(order, m.ID)
		}
	}
	l := NewEloLedger(history)
	for _, id := range order {
		m := sums.Matches[id]
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
