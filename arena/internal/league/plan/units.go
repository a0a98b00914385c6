package plan

import (
	"cmp"
	"slices"
	"strings"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/match"
	"github.com/tapparena/tapp/arena/internal/rating"
)

// Unit is the statistical unit of results: one duplicate group (a deal source under every
// seating) in duplicate play, one deal otherwise. Units are independent of each other, so
// intervals are computed over units, not deals.
type Unit struct {
	MatchID  string
	Group    int
	Deals    int      // deals stored
	Complete bool     // every seating of the group is stored (always true without duplicate)
	Bots     []string // the match's bots, in table order
	Net      []int64  // each bot's total payoff over the unit's deals, parallel to Bots
}

// Units groups raw results into units, ordered by match id and group. matches gives each
// match's spec (duplicate or not, the bots); results of matches missing from it count as
// single deals.
func Units(matches map[string]*domain.Match, rows []domain.ResultRow) []Unit {
	type key struct {
		match string
		group int
	}
	units := map[key]*Unit{}
	deals := map[key]map[int]bool{}
	for _, r := range rows {
		k := key{r.MatchID, r.Group}
		u := units[k]
		if u == nil {
			u = &Unit{MatchID: r.MatchID, Group: r.Group}
			if m := matches[r.MatchID]; m != nil {
				u.Bots = slices.Clone(m.Spec.Bots)
				u.Net = make([]int64, len(u.Bots))
			}
			units[k] = u
			deals[k] = map[int]bool{}
		}
		deals[k][r.Deal] = true
		i := slices.Index(u.Bots, r.Bot)
		if i < 0 {
			u.Bots = append(u.Bots, r.Bot)
			u.Net = append(u.Net, 0)
			i = len(u.Bots) - 1
		}
		u.Net[i] += int64(r.Payoff)
	}
	out := make([]Unit, 0, len(units))
	for k, u := range units {
		u.Deals = len(deals[k])
		want := 1
		if m := matches[k.match]; m != nil && m.Spec.Duplicate {
			want = len(match.Seatings(m.Spec.Rules.Players))
		}
		u.Complete = u.Deals >= want
		out = append(out, *u)
	}
	slices.SortFunc(out, func(a, b Unit) int {
		if c := strings.Compare(a.MatchID, b.MatchID); c != 0 {
			return c
		}
		return cmp.Compare(a.Group, b.Group)
	})
	return out
}

// PairResults turns the complete units into pairwise results for Bradley–Terry: within a
// unit, the bot with the higher total beats the other, equal totals draw.
func PairResults(units []Unit) []rating.PairResult {
	var out []rating.PairResult
	for _, u := range units {
		if !u.Complete || len(u.Bots) < 2 {
			continue
		}
		pairs, err := rating.PairwiseFromMatch(rating.Match{ID: u.MatchID, Bots: u.Bots, Cents: u.Net})
		if err == nil {
			out = append(out, pairs...)
		}
	}
	return out
}
