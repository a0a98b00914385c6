package store

import (
	"context"
	"fmt"

	"github.com/tapparena/tapp/arena"
)

// summaryDecisionColumns are decisionColumns with the request as sent read as an empty string:
// the request is the bulk of a deal record, and a listing does not need it.
const summaryDecisionColumns = `deal_number, idx, seat, bot, decision, request_id, '' AS sent, attempts, action,
	latency_us, strike, fallback`

// DealSummaries returns every stored deal of a match in number order, like Deals, but
// without each decision's Sent: what a listing of a long match needs (contracts, results,
// strikes) at a fraction of the memory. arena.ErrNotFound for an unknown match; an empty list
// for a match without finished deals.
func (s *Store) DealSummaries(ctx context.Context, matchID string) ([]arena.DealRecord, error) {
	op := "read the deals of match " + matchID
	rulesText, _, err := s.matchInfo(ctx, matchID)
	if err != nil {
		return nil, err
	}
	rules, err := parseRules(rulesText)
	if err != nil {
		return nil, s.wrap(op, err)
	}
	rows, err := s.r.QueryContext(ctx, s.rebind(`SELECT `+dealColumns+` FROM deals d WHERE d.match_id = ? ORDER BY d.number`), matchID)
	if err != nil {
		return nil, s.wrap(op, err)
	}
	var deals []arena.DealRecord
	at := map[int]int{} // deal number → index in deals
	for rows.Next() {
		d, err := scanDeal(rows, rules)
		if err != nil {
			rows.Close()
			return nil, s.wrap(op, fmt.Errorf("deal: %w", err))
		}
		at[d.Number] = len(deals)
		deals = append(deals, *d)
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(deals) == 0 {
		return deals, s.wrap(op, err)
	}
	rows, err = s.r.QueryContext(ctx, s.rebind(`SELECT `+summaryDecisionColumns+` FROM decisions WHERE match_id = ?
ORDER BY deal_number, idx`), matchID)
	if err != nil {
		return nil, s.wrap(op, err)
	}
	for rows.Next() {
		n, x, err := scanDecision(rows)
		if err != nil {
			rows.Close()
			return nil, s.wrap(op, err)
		}
		if i, ok := at[n]; ok {
			deals[i].Decisions = append(deals[i].Decisions, x)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, s.wrap(op, err)
	}
	rows, err = s.r.QueryContext(ctx, s.rebind(`SELECT `+resultColumns+` FROM results WHERE match_id = ?
ORDER BY deal_number, seat`), matchID)
	if err != nil {
		return nil, s.wrap(op, err)
	}
	defer rows.Close()
	for rows.Next() {
		n, r, err := scanResult(rows)
		if err != nil {
			return nil, s.wrap(op, err)
		}
		if i, ok := at[n]; ok {
			deals[i].Results = append(deals[i].Results, r)
		}
	}
	return deals, s.wrap(op, rows.Err())
}
