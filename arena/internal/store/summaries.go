package store

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/rating"
)

// summaryDecisionColumns are decisionColumns with the request as sent read as an empty string:
// the request is the bulk of a deal record, and a listing does not need it. (Deals stored
// before schema version 4 only: newer ones have their decisions in their decision log.)
const summaryDecisionColumns = `deal_number, idx, seat, bot, decision, request_id, '' AS sent, attempts, action,
	latency_us, strike, fallback`

// DealSummaries returns every stored deal of a match in number order, like Deals, but
// without each decision's Sent: what a listing of a long match needs (contracts, results,
// strikes) at a fraction of the memory. domain.ErrNotFound for an unknown match; an empty list
// for a match without finished deals.
func (s *Store) DealSummaries(ctx context.Context, matchID string) ([]domain.DealRecord, error) {
	return s.loadDeals(ctx, matchID, allDeals, false)
}

// DealSummaryPage is a page of DealSummaries: at most limit of the match's stored deals
// numbered first or more, in number order (two ranges of the primary key), and whether more
// deals follow the page. domain.ErrNotFound for an unknown match.
func (s *Store) DealSummaryPage(ctx context.Context, matchID string, first, limit int) ([]domain.DealRecord, bool, error) {
	info, err := s.cachedMatchInfo(ctx, matchID)
	if err != nil {
		return nil, false, err
	}
	// The page's range of numbers, and one more to know whether a deal follows it.
	rows, err := s.r.QueryContext(ctx, s.rebind(`SELECT number FROM deals WHERE match_id = ? AND number >= ? ORDER BY number LIMIT ?`),
		matchID, first, limit+1)
	nums, err := s.scanNumbers(matchID, rows, err)
	if err != nil || len(nums) == 0 {
		return nil, false, err
	}
	more := len(nums) > limit
	if more {
		nums = nums[:limit]
	}
	deals, err := s.loadDealsFrom(ctx, s.r, info, matchID, dealRange{first: nums[0], last: nums[len(nums)-1]}, false)
	return deals, more, err
}

// DealSpan counts the match's stored deals and gives the first and last of their numbers
// (-1, -1 when none is stored): one range of the primary key.
func (s *Store) DealSpan(ctx context.Context, matchID string) (n, first, last int, err error) {
	var lo, hi sql.NullInt64
	err = s.r.QueryRowContext(ctx, s.rebind(`SELECT count(*), min(number), max(number) FROM deals WHERE match_id = ?`), matchID).
		Scan(&n, &lo, &hi)
	if err != nil || n == 0 {
		return 0, -1, -1, s.wrap("count the deals of match "+matchID, err)
	}
	return n, int(lo.Int64), int(hi.Int64), nil
}

// MatchNets is each bot's net payoff over the match's stored deals, from the sums kept as
// they are stored (rating_matches): one row, however many deals. A match without stored
// deals has none.
func (s *Store) MatchNets(ctx context.Context, matchID string) (map[string]int64, error) {
	var comp string
	net := make([]int64, rating.MaxSeats)
	err := s.r.QueryRowContext(ctx, s.rebind(`SELECT bots, net0, net1, net2, net3 FROM rating_matches WHERE match_id = ?`), matchID).
		Scan(&comp, &net[0], &net[1], &net[2], &net[3])
	if errors.Is(err, sql.ErrNoRows) {
		return map[string]int64{}, nil
	}
	if err != nil {
		return nil, s.wrap("read the net of match "+matchID, err)
	}
	out := map[string]int64{}
	for i, b := range strings.Split(comp, ",") {
		if i < len(net) {
			out[b] = net[i]
		}
	}
	return out, nil
}
