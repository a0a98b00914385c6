package store

import (
	"context"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/engine"
)

// LeagueUnits returns the league's units (rows of league_units, kept in the transaction that
// stores each deal) in the rounds from round from on, by round, match and group, each bot's
// net by its position in the match's bots. It reads one row per unit of those rounds: what
// an SPRT reads as it goes, however many deals the league has stored.
func (s *Store) LeagueUnits(ctx context.Context, league string, from int) ([]domain.LeagueUnit, error) {
	op := "read the units of league " + league
	rows, err := s.r.QueryContext(ctx, s.rebind(`SELECT round, match_id, deal_group, deals, net0, net1, net2, net3
FROM league_units WHERE league_id = ? AND round >= ? ORDER BY round, match_id, deal_group`), league, from)
	if err != nil {
		return nil, s.wrap(op, err)
	}
	var out []domain.LeagueUnit
	for rows.Next() {
		var u domain.LeagueUnit
		var net [engine.MaxPlayers]int64
		if err := rows.Scan(&u.Round, &u.MatchID, &u.Group, &u.Deals, &net[0], &net[1], &net[2], &net[3]); err != nil {
			rows.Close()
			return nil, s.wrap(op, err)
		}
		u.Net = net[:]
		out = append(out, u)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, s.wrap(op, err)
	}
	for i := range out { // each bot's net, no more (the columns are as many as the most seats)
		info, err := s.cachedMatchInfo(ctx, out[i].MatchID)
		if err != nil {
			return nil, err
		}
		out[i].Net = out[i].Net[:min(len(info.bots), len(out[i].Net))]
	}
	return out, nil
}
