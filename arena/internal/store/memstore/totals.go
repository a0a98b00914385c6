package memstore

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/match"
	"github.com/tapparena/tapp/arena/internal/rating"
)

// memoryTotals are a league's running totals in a Memory store, kept as each deal is stored,
// as the database store keeps them (arena/internal/store/aggregates.go): the deals stored,
// every unit with deals stored (by round) and the pairwise results of the complete ones by
// round.
type memoryTotals struct {
	deals    int
	bots     map[string]*domain.LeagueBot
	units    map[memoryUnit]*domain.LeagueUnit
	byRound  map[int][]memoryUnit             // the units of each round, in the order first stored
	maxRound int                              // the last round with a unit
	pairs    map[int]map[[2]string]rating.WDL // round → (A, B) with A < B → tally
}

type memoryUnit struct {
	match string
	group int
}

// addToTotals adds a stored deal of match m to its league's totals (s.mu held).
func (s *Memory) addToTotals(m *domain.Match, d *domain.DealRecord) {
	league := m.Spec.LeagueID
	if league == "" {
		return
	}
	if s.totals == nil {
		s.totals = map[string]*memoryTotals{}
	}
	t := s.totals[league]
	if t == nil {
		t = &memoryTotals{units: map[memoryUnit]*domain.LeagueUnit{}, byRound: map[int][]memoryUnit{}, pairs: map[int]map[[2]string]rating.WDL{},
			bots: map[string]*domain.LeagueBot{}}
		s.totals[league] = t
	}
	t.deals++
	if b := m.Spec.Board; b != "" && b != league { // a ladder's epoch: its deals count on the ladder's row too
		if s.boardDeals == nil {
			s.boardDeals = map[string]int{}
		}
		s.boardDeals[b]++
	}
	for name, add := range domain.LeagueBotOf(d) {
		b := t.bots[name]
		if b == nil {
			b = &domain.LeagueBot{Bot: name}
			t.bots[name] = b
		}
		b.Deals += add.Deals
		b.Decisions += add.Decisions
		b.Strikes += add.Strikes
		b.Fallbacks += add.Fallbacks
		b.Forfeited += add.Forfeited
	}
	round, ok := s.rounds[m.ID]
	if !ok {
		return
	}
	bots := m.Spec.Bots
	k := memoryUnit{m.ID, d.Group}
	u := t.units[k]
	if u == nil {
		u = &domain.LeagueUnit{Round: round, MatchID: m.ID, Group: d.Group, Net: make([]int64, len(bots))}
		t.units[k] = u
		t.byRound[round] = append(t.byRound[round], k)
		t.maxRound = max(t.maxRound, round)
	}
	u.Deals++
	for _, r := range d.Results {
		if i := slices.Index(bots, r.Bot); i >= 0 {
			u.Net[i] += int64(r.Payoff)
		}
	}
	want := 1
	if m.Spec.Duplicate {
		want = len(match.Seatings(m.Spec.Rules.Players))
	}
	if u.Deals != want { // incomplete, or its pairs are counted already (a deal is stored once)
		return
	}
	ps, err := rating.PairwiseFromMatch(rating.Match{ID: m.ID, Bots: bots, Cents: u.Net})
	if err != nil {
		return
	}
	if t.pairs[round] == nil {
		t.pairs[round] = map[[2]string]rating.WDL{}
	}
	for _, p := range ps {
		key, w := [2]string{p.A, p.B}, p.WDL
		if p.B < p.A {
			key, w = [2]string{p.B, p.A}, w.Reverse()
		}
		t.pairs[round][key] = t.pairs[round][key].Add(w)
	}
}

// LadderPairs implements leaguestore.Store.
func (s *Memory) LadderPairs(_ context.Context, league string, from, to int) ([]rating.PairResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.totals[league]
	if t == nil {
		return nil, nil
	}
	var ps []rating.PairResult
	for r, pairs := range t.pairs {
		if r < from || r >= to {
			continue
		}
		for k, w := range pairs {
			ps = append(ps, rating.PairResult{A: k[0], B: k[1], WDL: w})
		}
	}
	return rating.MergePairs(ps)
}

// LeagueDeals implements leaguestore.Store.
func (s *Memory) LeagueDeals(_ context.Context, league string) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t := s.totals[league]; t != nil {
		return t.deals, nil
	}
	return 0, nil
}

// BoardDeals is LeagueDeals with the deals other leagues' matches play onto the league's
// board (a standing ladder's epochs onto the ladder's row), as the SQL store's.
func (s *Memory) BoardDeals(ctx context.Context, league string) (int, error) {
	n, _ := s.LeagueDeals(ctx, league)
	s.mu.Lock()
	defer s.mu.Unlock()
	return n + s.boardDeals[league], nil
}

// RoundCounts implements leaguestore.Queue.
func (s *Memory) RoundCounts(ctx context.Context, league string) ([]domain.RoundCounts, error) {
	return s.RoundCountsFrom(ctx, league, 0)
}

// LeagueUnits implements leaguestore.Store.
func (s *Memory) LeagueUnits(_ context.Context, league string, from int) ([]domain.LeagueUnit, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.totals[league]
	if t == nil {
		return nil, nil
	}
	var out []domain.LeagueUnit
	for r := max(from, 0); r <= t.maxRound; r++ {
		for _, k := range t.byRound[r] {
			u := *t.units[k]
			u.Net = slices.Clone(u.Net)
			out = append(out, u)
		}
	}
	slices.SortFunc(out, func(a, b domain.LeagueUnit) int {
		return cmp.Or(cmp.Compare(a.Round, b.Round), strings.Compare(a.MatchID, b.MatchID), cmp.Compare(a.Group, b.Group))
	})
	return out, nil
}

// LeagueBots returns the league's running totals per bot, by name.
func (s *Memory) LeagueBots(_ context.Context, league string) ([]domain.LeagueBot, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.totals[league]
	if t == nil {
		return nil, nil
	}
	out := make([]domain.LeagueBot, 0, len(t.bots))
	for _, b := range t.bots {
		out = append(out, *b)
	}
	slices.SortFunc(out, func(a, b domain.LeagueBot) int { return strings.Compare(a.Bot, b.Bot) })
	return out, nil
}
