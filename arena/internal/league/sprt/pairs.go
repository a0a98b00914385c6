package sprt

import (
	"context"
	"slices"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/league/plan"
	"github.com/tapparena/tapp/arena/internal/match"
)

// Recompute summarizes an SPRT league from its stored matches and raw results (Pairs): the
// slow path, for checking the running totals.
func Recompute(ctx context.Context, st domain.Store, p *plan.Plan, s Settings) (Summary, error) {
	ms, err := st.ListMatches(ctx, domain.MatchFilter{LeagueID: p.League})
	if err != nil {
		return Summary{}, err
	}
	rows, err := st.Results(ctx, domain.MatchFilter{LeagueID: p.League})
	if err != nil {
		return Summary{}, err
	}
	return Summarize(Pairs(p, ms, rows), s)
}

// Pairs returns the complete prefix of the pairs of an SPRT league, in schedule order,
// recomputed from the stored matches and raw results (every result is read: the slow path
// that Test's running totals must agree with).
func Pairs(p *plan.Plan, matches []domain.Match, rows []domain.ResultRow) []Pair {
	byID := make(map[string]*domain.Match, len(matches))
	for i := range matches {
		byID[matches[i].ID] = &matches[i]
	}
	type key struct {
		match string
		group int
	}
	units := map[key]plan.Unit{}
	for _, u := range plan.Units(byID, rows) {
		units[key{u.MatchID, u.Group}] = u
	}
	total := func(u plan.Unit, bot string) int64 {
		if i := slices.Index(u.Bots, bot); i >= 0 {
			return u.Net[i]
		}
		return 0
	}
	groups := p.TablesPerMatch() / len(match.Seatings(p.Rules.Players))
	var out []Pair
	for r := 0; ; r++ {
		cm, bm := byID[p.MatchID(r, 0)], byID[p.MatchID(r, 1)]
		if cm == nil || bm == nil {
			return out
		}
		for g := range groups {
			cu, ok1 := units[key{cm.ID, g}]
			bu, ok2 := units[key{bm.ID, g}]
			if !ok1 || !ok2 || !cu.Complete || !bu.Complete {
				return out
			}
			out = append(out, newPair(r, g, total(cu, p.Candidate), total(bu, p.Baseline), cu.Deals))
		}
	}
}
