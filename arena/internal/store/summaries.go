package store

import (
	"context"

	"github.com/tapparena/tapp/arena/internal/domain"
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
	return s.loadDeals(ctx, matchID, nil, false)
}
