package board

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/tapparena/tapp/arena/internal/rating"
)

// Leaderboard is what `tapp ratings` prints, derived from [Sums] by [Compute].
type Leaderboard struct {
	League string `json:"league,omitempty"`
	// Unit is the unit of the headline: cents (modern), points (the older variants), or score
	// when both are mixed.
	Unit            string   `json:"unit"`
	RuleSets        []string `json:"rule_sets"`       // the rule sets of the results, canonical, sorted
	Matches         int      `json:"matches"`         // finished matches, rated by multiplayer Elo
	Units           int      `json:"units"`           // complete units (duplicate groups, or deals)
	PartialUnits    int      `json:"partial_units"`   // duplicate groups not yet stored under every seating: left out
	Deals           int      `json:"deals"`           // deals stored
	Duplicate       bool     `json:"duplicate"`       // some results come from duplicate play
	Regularized     bool     `json:"bt_regularized"`  // Bradley–Terry needed its prior
	TaintedMatches  int      `json:"tainted_matches"` // matches with a forfeit or more than 1% fallbacks
	TaintedIncluded bool     `json:"tainted_included"`
	// MinUnits is the sample below which a bot's figures are provisional (no LOS).
	MinUnits int        `json:"min_units"`
	Bots     []Standing `json:"bots"` // best headline rating first
	// LOS[i][j] is the likelihood that Bots[i] is stronger than Bots[j], from the headline model.
	LOS [][]float64 `json:"los"`
	// EloOrder lists the finished matches in the order the multiplayer Elo rated them.
	EloOrder []string `json:"elo_order,omitempty"`
	// Warnings are things the organiser should know before believing the board.
	Warnings []string `json:"warnings,omitempty"`
}

// Standing is one bot's line of the leaderboard.
type Standing struct {
	Bot string `json:"bot"`
	// The headline: expected result per deal against a field of average bots of these results,
	// in Unit, from the least-squares skill model (rating.Skill), with its cluster-robust 95%
	// interval.
	Rating      float64 `json:"rating"`
	RatingLo    float64 `json:"rating_lo"`
	RatingHi    float64 `json:"rating_hi"`
	RatingSE    float64 `json:"rating_se"`
	Provisional bool    `json:"provisional"` // fewer than MinUnits units
	// Bradley–Terry rating (Elo scale, centred on 0) with its 95% interval: in each unit, the
	// higher total beats the lower.
	BT   float64 `json:"bt_elo"`
	BTLo float64 `json:"bt_elo_lo"`
	BTHi float64 `json:"bt_elo_hi"`
	BTSE float64 `json:"bt_se"`
	// Multiplayer Elo, updated per finished match from its final ranking, matches in the order
	// they were started (from 1500).
	Elo        float64 `json:"multi_elo"`
	EloMatches int     `json:"elo_matches"`
	// Raw payoff per deal, not adjusted for the opponents, with its 95% interval.
	PerDeal   float64 `json:"per_deal"`
	PerDealLo float64 `json:"per_deal_lo"`
	PerDealHi float64 `json:"per_deal_hi"`
	Units     int     `json:"units"`
	Deals     int     `json:"deals"`
	Roles     *Roles  `json:"roles,omitempty"`
	Family    *Family `json:"family,omitempty"`
	// History is the multiplayer Elo after each of the bot's matches.
	History []EloPoint `json:"history,omitempty"`
}

// EloPoint is a bot's multiplayer Elo after one match.
type EloPoint struct {
	Match  string  `json:"match"`
	Rating float64 `json:"elo"`
}

// Options says what Compute adds to the board.
type Options struct {
	// Bot keeps only the compositions and matches this bot played (as --bot).
	Bot string
	// Families maps a bot to its family (several versions of one bot); see [Family].
	Families map[string]string
	// TaintedIncluded records that Load kept tainted matches.
	TaintedIncluded bool
}

// Compute derives the leaderboard from the sums.
func Compute(s *Sums, o Options) (*Leaderboard, error) {
	lb := &Leaderboard{MinUnits: rating.MinUnitsForLOS, TaintedIncluded: o.TaintedIncluded, PartialUnits: s.OpenGroups}
	var tables []*rating.TableSums
	var scopes []Scope
	for _, sc := range slices.SortedFunc(scopeKeys(s.Tables), compareScopes) {
		t := s.Tables[sc]
		if o.Bot != "" && !slices.Contains(t.Bots, o.Bot) {
			continue
		}
		tables = append(tables, t)
		scopes = append(scopes, sc)
		lb.Units += int(t.Units)
	}
	units := map[string]bool{}
	unitOf := map[string]string{} // rule set → its unit, parsed once
	for sc, g := range s.Groups {
		if o.Bot != "" && !slices.Contains(strings.Split(sc.Bots, ","), o.Bot) {
			continue
		}
		lb.Deals += int(g.Deals)
		lb.Duplicate = lb.Duplicate || g.Duplicate
		if !slices.Contains(lb.RuleSets, sc.Rules) {
			lb.RuleSets = append(lb.RuleSets, sc.Rules)
		}
		u, ok := unitOf[sc.Rules]
		if !ok {
			u = variantUnit(sc.Rules)
			unitOf[sc.Rules] = u
		}
		units[u] = true
	}
	for _, m := range s.Matches {
		if m.Tainted() && (o.Bot == "" || slices.Contains(m.Bots, o.Bot)) {
			lb.TaintedMatches++
		}
	}
	slices.Sort(lb.RuleSets)
	switch {
	case len(units) > 1:
		lb.Unit = "score"
	case units["points"]:
		lb.Unit = "points"
	default:
		lb.Unit = "cents"
	}

	skill, err := rating.Skill(tables, nil)
	if err != nil {
		return nil, err
	}
	lines := map[string]*Standing{}
	line := func(b string) *Standing {
		if lines[b] == nil {
			lines[b] = &Standing{Bot: b, Elo: rating.DefaultInitialRating}
		}
		return lines[b]
	}
	for i, b := range skill.Bots {
		l := line(b)
		l.Rating, l.RatingLo, l.RatingHi, l.RatingSE = skill.Rating[i], skill.Lo[i], skill.Hi[i], skill.SE[i]
		l.Units, l.Deals, l.Provisional = int(skill.Units[i]), int(skill.Deals[i]), skill.Provisional(i)
		iv := rating.RawPerDeal(tables, b)
		l.PerDeal, l.PerDealLo, l.PerDealHi = iv.Mean, iv.Lo, iv.Hi
	}

	var pairs []rating.PairResult
	for _, t := range tables {
		pairs = append(pairs, t.Pairs()...)
	}
	bt, err := rating.BradleyTerry(pairs, nil)
	if err != nil {
		return nil, err
	}
	lb.Regularized = bt.Regularized
	for i, b := range bt.Players {
		l := line(b)
		l.BT, l.BTSE = bt.Ratings[i], bt.SE[i]
		l.BTLo, l.BTHi = bt.Ratings[i]-bt.CI95[i], bt.Ratings[i]+bt.CI95[i]
	}

	if err := multiElo(s, o, lb, line); err != nil {
		return nil, err
	}
	addRoles(s, scopes, o, lines)
	addFamilies(s, tables, scopes, o, lines, lb)

	for _, b := range slices.Sorted(mapKeys(lines)) {
		lb.Bots = append(lb.Bots, *lines[b])
	}
	slices.SortStableFunc(lb.Bots, func(a, b Standing) int {
		if c := cmp.Compare(b.Rating, a.Rating); c != 0 {
			return c
		}
		return strings.Compare(a.Bot, b.Bot)
	})
	lb.LOS = make([][]float64, len(lb.Bots))
	for i, a := range lb.Bots {
		lb.LOS[i] = make([]float64, len(lb.Bots))
		for j, b := range lb.Bots {
			ia, ib := skill.Index(a.Bot), skill.Index(b.Bot)
			lb.LOS[i][j] = 0.5
			if ia >= 0 && ib >= 0 && !math.IsNaN(skill.LOS[ia][ib]) {
				lb.LOS[i][j] = skill.LOS[ia][ib]
			}
		}
	}
	return lb, nil
}

// multiElo puts the ledger's ratings (and history) on the board, for the bots of the filter.
func multiElo(s *Sums, o Options, lb *Leaderboard, line func(string) *Standing) error {
	l := s.Elo
	if l == nil {
		return nil
	}
	shown := map[string]bool{}
	for sc := range s.Tables {
		if comp := strings.Split(sc.Bots, ","); o.Bot == "" || slices.Contains(comp, o.Bot) {
			for _, b := range comp {
				shown[b] = true
			}
		}
	}
	for _, b := range slices.Sorted(mapKeys(l.Ratings)) {
		if o.Bot != "" && !shown[b] {
			continue
		}
		st := line(b)
		st.Elo, st.EloMatches = l.Ratings[b], l.Matches[b]
		st.History = l.History[b]
	}
	lb.Matches = l.Rated
	lb.EloOrder = l.Order
	return nil
}

func scopeKeys[V any](m map[Scope]V) func(func(Scope) bool) {
	return func(yield func(Scope) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func compareScopes(a, b Scope) int {
	return cmp.Or(strings.Compare(a.League, b.League), strings.Compare(a.Rules, b.Rules), strings.Compare(a.Bots, b.Bots))
}
