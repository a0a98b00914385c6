package memstore

import (
	"cmp"
	"context"
	"maps"
	"slices"

	"github.com/tapparena/tapp/arena/internal/board"
	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/rating"
)

// The leaderboard's sums (board.Source), kept as each deal is stored, as the SQL store keeps
// them: an accumulator of every stored deal, whose deal-source sums change cell by cell as
// units complete, so that a board reads them in proportion to the compositions and their
// pairs, not to the deals.

var _ board.HistoryStore = (*Memory)(nil)

// addToRatings adds a stored deal of match m to the sums (s.mu held). A deal the sums cannot
// take (one without results for 2 to 4 bots: the SQL store refuses it, tests store such deals
// here) is left out of them; a board recomputed from the raw deals says what is wrong with it.
// A deal that adds a deal source moves its league's rating-history clock (takeHistory).
func (s *Memory) addToRatings(m *domain.Match, d *domain.DealRecord) {
	if s.ratings == nil {
		s.ratings = board.NewAccumulator()
	}
	info, ok := s.infos[m.ID]
	if !ok { // spelled once a match: InfoOf spells its rules, which was a fifth of adding a deal
		if s.infos == nil {
			s.infos = map[string]board.MatchInfo{}
		}
		info = board.InfoOf(m)
		s.infos[m.ID] = info
	}
	lr := board.LeagueRules{League: info.League, Rules: info.Rules}
	before := s.ratings.SourceCount(lr)
	_ = s.ratings.AddDeal(info, d)
	if clock := s.ratings.SourceCount(lr); clock > before {
		if s.historyDue == nil {
			s.historyDue = map[board.LeagueRules]int64{}
		}
		s.historyDue[lr] = clock
	}
}

// takeHistory takes the rating-history points the deals just stored made due, as the SQL
// store does after its commit (s.mu not held: the points read the store).
func (s *Memory) takeHistory(ctx context.Context) {
	s.mu.Lock()
	due := s.historyDue
	s.historyDue = nil
	s.mu.Unlock()
	if len(due) == 0 || !s.historyMu.TryLock() { // another writer is taking one
		return
	}
	defer s.historyMu.Unlock()
	for lr, clock := range due {
		_, _ = board.RecordHistory(ctx, s, lr, s.lastHistoryClock(lr), clock) // a point that fails is taken at the next due deal
	}
}

// lastHistoryClock is the clock of the last point of lr's rating history, -1 when it has none
// (read without copying the history, which a point is taken against at every due deal).
func (s *Memory) lastHistoryClock(lr board.LeagueRules) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ps := s.history[lr]; len(ps) > 0 {
		return ps[len(ps)-1].Clock
	}
	return -1
}

func (s *Memory) historyOf(lr board.LeagueRules) []board.HistoryPoint {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.history[lr])
}

// RatingHistory implements board.HistoryStore.
func (s *Memory) RatingHistory(_ context.Context, lr board.LeagueRules) ([]board.HistoryPoint, error) {
	ps := s.historyOf(lr)
	for i := range ps {
		ps[i].Bots = slices.Clone(ps[i].Bots)
	}
	return ps, nil
}

// AddHistory implements board.HistoryStore.
func (s *Memory) AddHistory(_ context.Context, lr board.LeagueRules, p board.HistoryPoint, drop []int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.history == nil {
		s.history = map[board.LeagueRules][]board.HistoryPoint{}
	}
	ps := slices.DeleteFunc(s.history[lr], func(q board.HistoryPoint) bool { return slices.Contains(drop, q.Clock) })
	if i, found := slices.BinarySearchFunc(ps, p.Clock, func(q board.HistoryPoint, c int64) int { return cmp.Compare(q.Clock, c) }); !found {
		p.Bots = slices.Clone(p.Bots)
		ps = slices.Insert(ps, i, p)
	}
	s.history[lr] = ps
	return nil
}

// RatingSums implements board.Source: the sums of the filter's league and rule set, every
// match of them, and ledger k, rated in the order the matches finished.
func (s *Memory) RatingSums(_ context.Context, f domain.MatchFilter, k board.EloKey, o board.SumsRead) (*board.Sums, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ratings == nil {
		s.ratings = board.NewAccumulator()
	}
	sums := s.ratings.SumsOf(func(lr board.LeagueRules) bool {
		return (f.LeagueID == "" || lr.League == f.LeagueID) && (f.Rules == "" || lr.Rules == f.Rules)
	})
	for id, ms := range sums.Matches {
		board.SetMatchRow(ms, s.matches[id])
	}
	if o.RoleTotals {
		maps.DeleteFunc(sums.Roles, func(k board.RoleKey, _ *board.RoleSums) bool { return !board.IsTotalRole(k.Role) })
	}
	l, err := board.EloOf(sums.Matches, k, o.History)
	if err != nil {
		return nil, err
	}
	sums.Elo = l
	return sums, nil
}

// SourceCells implements board.CellSource.
func (s *Memory) SourceCells(_ context.Context, lr board.LeagueRules, sources []string) (map[string][]rating.Cell, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ratings == nil {
		return map[string][]rating.Cell{}, nil
	}
	return s.ratings.SourceCells(lr, sources), nil
}
