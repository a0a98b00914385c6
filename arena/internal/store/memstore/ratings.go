package memstore

import (
	"context"

	"github.com/tapparena/tapp/arena/internal/board"
	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/rating"
)

// The leaderboard's sums (board.Source), kept as each deal is stored, as the SQL store keeps
// them: an accumulator of every stored deal, whose deal-source sums change cell by cell as
// units complete, so that a board reads them in proportion to the compositions and their
// pairs, not to the deals.

var _ board.Source = (*Memory)(nil)

// addToRatings adds a stored deal of match m to the sums (s.mu held). A deal the sums cannot
// take (one without results for 2 to 4 bots: the SQL store refuses it, tests store such deals
// here) is left out of them; a board recomputed from the raw deals says what is wrong with it.
func (s *Memory) addToRatings(m *domain.Match, d *domain.DealRecord) {
	if s.ratings == nil {
		s.ratings = board.NewAccumulator()
	}
	_ = s.ratings.AddDeal(board.InfoOf(m), d)
}

// RatingSums implements board.Source: the sums of the filter's league and rule set, every
// match of them, and ledger k, rated in the order the matches finished.
func (s *Memory) RatingSums(_ context.Context, f domain.MatchFilter, k board.EloKey, history bool) (*board.Sums, error) {
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
	l, err := board.EloOf(sums.Matches, k, history)
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
