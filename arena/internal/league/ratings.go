package league

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/tapparena/tapp/arena"
	"github.com/tapparena/tapp/arena/internal/match"
	"github.com/tapparena/tapp/arena/internal/rating"
	"github.com/tapparena/tapp/engine"
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
func Units(matches map[string]*arena.Match, rows []arena.ResultRow) []Unit {
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

// Leaderboard is what `tapp ratings` prints: every rating derived from the stored raw
// results.
type Leaderboard struct {
	League       string     `json:"league,omitempty"`
	Unit         string     `json:"unit"`          // cents (modern), points (the older variants), or score when both are mixed
	RuleSets     []string   `json:"rule_sets"`     // the rule sets of the matches, canonical, sorted
	Matches      int        `json:"matches"`       // finished matches, rated by multiplayer Elo
	Units        int        `json:"units"`         // complete units (duplicate groups, or deals)
	PartialUnits int        `json:"partial_units"` // duplicate groups not all of whose seatings are stored: left out
	Deals        int        `json:"deals"`         // deals stored
	Duplicate    bool       `json:"duplicate"`     // some results come from duplicate play
	Regularized  bool       `json:"bt_regularized"`
	Bots         []Standing `json:"bots"` // best Bradley–Terry rating first
	// LOS[i][j] is the likelihood that Bots[i] is stronger than Bots[j] (Bradley–Terry).
	LOS [][]float64 `json:"los"`
}

// Standing is one bot's line of the leaderboard.
type Standing struct {
	Bot string `json:"bot"`
	// Bradley–Terry rating (Elo scale, centred on 0) with its 95% interval, over every
	// complete unit.
	Rating   float64 `json:"bt_elo"`
	RatingLo float64 `json:"bt_elo_lo"`
	RatingHi float64 `json:"bt_elo_hi"`
	SE       float64 `json:"bt_se"`
	// Multiplayer Elo, updated per finished match from its final ranking, matches in the order
	// they were started (from 1500).
	Elo        float64 `json:"multi_elo"`
	EloMatches int     `json:"elo_matches"`
	// Payoff per deal with its 95% interval, one value per unit (the unit's mean per deal).
	PerDeal   float64 `json:"per_deal"`
	PerDealLo float64 `json:"per_deal_lo"`
	PerDealHi float64 `json:"per_deal_hi"`
	Units     int     `json:"units"`
	Deals     int     `json:"deals"`
	// History is the multiplayer Elo after each of the bot's matches.
	History []EloPoint `json:"history,omitempty"`
}

// EloPoint is a bot's multiplayer Elo after one match.
type EloPoint struct {
	Match  string  `json:"match"`
	Rating float64 `json:"elo"`
}

// ComputeLeaderboard derives the leaderboard from the stored matches and their raw results
// (rows in storage order). Only finished matches count for the multiplayer Elo; only
// complete units for Bradley–Terry and the payoff per deal.
func ComputeLeaderboard(matches []arena.Match, rows []arena.ResultRow) (*Leaderboard, error) {
	byID := make(map[string]*arena.Match, len(matches))
	lb := &Leaderboard{}
	modern, older := false, false
	for i := range matches {
		m := &matches[i]
		byID[m.ID] = m
		if m.Spec.Duplicate {
			lb.Duplicate = true
		}
		if m.Spec.Rules.Variant == engine.Modern {
			modern = true
		} else {
			older = true
		}
		if r := m.Spec.Rules.String(); !slices.Contains(lb.RuleSets, r) {
			lb.RuleSets = append(lb.RuleSets, r)
		}
	}
	slices.Sort(lb.RuleSets)
	switch {
	case modern && older: // cents and game points added up: a sum, not a currency
		lb.Unit = "score"
	case older:
		lb.Unit = "points"
	default:
		lb.Unit = "cents"
	}
	units := Units(byID, rows)
	lines := map[string]*Standing{}
	line := func(b string) *Standing {
		if lines[b] == nil {
			lines[b] = &Standing{Bot: b, Elo: rating.DefaultInitialRating}
		}
		return lines[b]
	}
	perDeal := map[string][]float64{}
	for _, u := range units {
		lb.Deals += u.Deals
		if !u.Complete {
			lb.PartialUnits++
			continue
		}
		lb.Units++
		for i, b := range u.Bots {
			l := line(b)
			l.Units++
			l.Deals += u.Deals
			perDeal[b] = append(perDeal[b], float64(u.Net[i])/float64(u.Deals))
		}
	}
	for b, v := range perDeal {
		iv := rating.CentsPerDeal(v)
		l := line(b)
		l.PerDeal, l.PerDealLo, l.PerDealHi = iv.Mean, iv.Lo, iv.Hi
	}

	// Multiplayer Elo over finished matches, in the order they were started.
	net := map[string]map[string]int64{}
	for _, r := range rows {
		if net[r.MatchID] == nil {
			net[r.MatchID] = map[string]int64{}
		}
		net[r.MatchID][r.Bot] += int64(r.Payoff)
	}
	var finished []*arena.Match
	for i := range matches {
		if m := &matches[i]; m.Status == arena.MatchFinished && net[m.ID] != nil && len(m.Spec.Bots) >= 2 {
			finished = append(finished, m)
		}
	}
	slices.SortFunc(finished, func(a, b *arena.Match) int {
		if c := a.Started.Compare(b.Started); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	ledger, err := rating.NewLedger(rating.DefaultK, rating.DefaultD, rating.DefaultInitialRating)
	if err != nil {
		return nil, err
	}
	for _, m := range finished {
		rm := rating.Match{ID: m.ID, Bots: m.Spec.Bots}
		for _, b := range m.Spec.Bots {
			rm.Cents = append(rm.Cents, net[m.ID][b])
		}
		if _, err := ledger.Apply(rm); err != nil {
			return nil, err
		}
		lb.Matches++
	}
	for _, s := range ledger.Standings() {
		l := line(s.Bot)
		l.Elo, l.EloMatches = s.Rating, s.Matches
		for _, h := range ledger.BotHistory(s.Bot) {
			l.History = append(l.History, EloPoint{Match: h.ID, Rating: h.Rating})
		}
	}

	bt, err := rating.BradleyTerry(PairResults(units), nil)
	if err != nil {
		return nil, err
	}
	lb.Regularized = bt.Regularized
	for i, b := range bt.Players {
		l := line(b)
		l.Rating, l.SE = bt.Ratings[i], bt.SE[i]
		l.RatingLo, l.RatingHi = bt.Ratings[i]-bt.CI95[i], bt.Ratings[i]+bt.CI95[i]
	}
	for _, b := range sortedKeys(lines) {
		lb.Bots = append(lb.Bots, *lines[b])
	}
	slices.SortStableFunc(lb.Bots, func(a, b Standing) int {
		if c := cmp.Compare(b.Rating, a.Rating); c != 0 {
			return c
		}
		if c := cmp.Compare(b.PerDeal, a.PerDeal); c != 0 {
			return c
		}
		return strings.Compare(a.Bot, b.Bot)
	})
	lb.LOS = make([][]float64, len(lb.Bots))
	for i, a := range lb.Bots {
		lb.LOS[i] = make([]float64, len(lb.Bots))
		for j, b := range lb.Bots {
			ia, ib := bt.Index(a.Bot), bt.Index(b.Bot)
			lb.LOS[i][j] = 0.5
			if ia >= 0 && ib >= 0 && !math.IsNaN(bt.LOS[ia][ib]) {
				lb.LOS[i][j] = bt.LOS[ia][ib]
			}
		}
	}
	return lb, nil
}
