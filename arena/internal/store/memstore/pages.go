package memstore

import (
	"context"
	"fmt"
	"time"

	"github.com/tapparena/tapp/arena/internal/board"
	"github.com/tapparena/tapp/arena/internal/domain"
)

// What the dashboard reads a page at a time (arena/internal/web): the SQL store reads each in
// proportion to what it returns; here they look through the match's deals.

// DealSpan counts the match's stored deals and gives the first and last of their numbers
// (-1, -1 when none is stored).
func (s *Memory) DealSpan(_ context.Context, matchID string) (n, first, last int, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	nums := sortedKeys(s.deals[matchID])
	if len(nums) == 0 {
		return 0, -1, -1, nil
	}
	return len(nums), nums[0], nums[len(nums)-1], nil
}

// DealSummaryPage is a page of DealSummaries: at most limit of the match's stored deals
// numbered first or more, in number order, and whether more follow.
func (s *Memory) DealSummaryPage(_ context.Context, matchID string, first, limit int) ([]domain.DealRecord, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.matches[matchID]; !ok {
		return nil, false, fmt.Errorf("match %s: %w", matchID, domain.ErrNotFound)
	}
	var out []domain.DealRecord
	for _, n := range sortedKeys(s.deals[matchID]) {
		if n < first {
			continue
		}
		if len(out) == limit {
			return out, true, nil
		}
		out = append(out, dealCopy(s.deals[matchID][n], s.matches[matchID].Spec.Rules, false))
	}
	return out, false, nil
}

// MatchNets is each bot's net payoff over the match's stored deals.
func (s *Memory) MatchNets(_ context.Context, matchID string) (map[string]int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]int64{}
	for _, d := range s.deals[matchID] {
		for _, r := range d.Results {
			out[r.Bot] += int64(r.Payoff)
		}
	}
	return out, nil
}

// EloHistory implements board.EloHistorySource by replaying ledger k from the stored results.
func (s *Memory) EloHistory(ctx context.Context, k board.EloKey, points int) ([]board.BotEloHistory, error) {
	f := domain.MatchFilter{LeagueID: k.League, Rules: k.Rules}
	if f.LeagueID == board.AllScopes {
		f.LeagueID = ""
	}
	if f.Rules == board.AllScopes {
		f.Rules = ""
	}
	sums, err := board.Load(ctx, s, f, board.LoadOptions{IncludeTainted: k.Tainted, History: true})
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return board.LedgerHistory(sums.Elo, points, func(id string) time.Time {
		if m := s.matches[id]; m != nil {
			return m.Finished
		}
		return time.Time{}
	}), nil
}

// ScoreBefore is each bot's net over the match's stored deals numbered below number, and how
// many they are; an unknown match is domain.ErrNotFound.
func (s *Memory) ScoreBefore(_ context.Context, matchID string, number int) (map[string]int64, int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.matches[matchID]; !ok {
		return nil, 0, fmt.Errorf("match %s: %w", matchID, domain.ErrNotFound)
	}
	net, counted := map[string]int64{}, 0
	for n, d := range s.deals[matchID] {
		if n >= number {
			continue
		}
		counted++
		for _, r := range d.Results {
			net[r.Bot] += int64(r.Payoff)
		}
	}
	return net, counted, nil
}
