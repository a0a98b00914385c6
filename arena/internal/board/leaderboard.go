package board

import (
	"cmp"
	"fmt"
	"maps"
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
	Units           int      `json:"units"`           // cells rated: the deal sources each composition played
	Sources         int      `json:"sources"`         // deal sources rated (every table and seating of one deal)
	PartialUnits    int      `json:"partial_units"`   // duplicate groups not yet stored under every seating: left out
	Deals           int      `json:"deals"`           // deals rated (of complete units, tainted matches left out unless included)
	StoredDeals     int      `json:"stored_deals"`    // deals stored, rated or not
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
	// Clustering is the unit the covariance is clustered by: "deal source" ("table unit" only
	// for the calibration's estimator of earlier versions).
	Clustering string `json:"clustering"`
	// Model is the headline's model ("table effect") and TableEffect its coefficient β per
	// rule set; Fit the test of the model against the compositions' means.
	Model       string             `json:"model"`
	TableEffect map[string]float64 `json:"table_effect,omitempty"`
	Fit         rating.FitTest     `json:"fit"`
	// Check is what a recomputation found of the store's kept sums (tapp ratings
	// --recompute); nil when none was made.
	Check *KeptCheck `json:"kept_sums_check,omitempty"`
	// History is the headline over the league's time, as the store kept it (a league's board:
	// its points, oldest first); HistoryNote says why there is none when there is none.
	History     []HistoryPoint `json:"rating_history,omitempty"`
	HistoryNote string         `json:"rating_history_note,omitempty"`
}

// Standing is one bot's line of the leaderboard.
type Standing struct {
	Bot string `json:"bot"`
	// The headline: expected result per deal, in Unit, at a table whose other seats are taken
	// by bots drawn at random from the others rated (rating.Skill), with its 95% interval
	// (cluster-robust by deal source, Student's t with RatingDF degrees of freedom). Where
	// Interval is false (fewer than rating.MinSourcesForInterval sources) there is no
	// interval (RatingLo = RatingHi = Rating) and no LOS.
	Rating      float64 `json:"rating"`
	RatingLo    float64 `json:"rating_lo"`
	RatingHi    float64 `json:"rating_hi"`
	RatingSE    float64 `json:"rating_se"`
	RatingDF    float64 `json:"rating_df"`
	Interval    bool    `json:"interval"`
	Provisional bool    `json:"provisional"` // fewer than MinUnits deal sources
	Sources     int     `json:"sources"`     // deal sources the bot sat in
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
	// EloHistory is the multiplayer Elo after each of the bot's matches (LoadOptions.History).
	EloHistory []EloPoint `json:"elo_history,omitempty"`
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
	// Skill overrides the headline's options (nil: the defaults); with Legacy, Bradley–Terry
	// keeps its covariance of independent games too (the calibration's comparison).
	Skill *rating.SkillOptions
}

// Compute derives the leaderboard from the sums.
func Compute(s *Sums, o Options) (*Leaderboard, error) {
	lb := &Leaderboard{MinUnits: rating.MinUnitsForLOS, TaintedIncluded: o.TaintedIncluded, PartialUnits: s.OpenGroups}
	var tables []*rating.TableSums
	var scopes []Scope
	for _, sc := range slices.SortedFunc(scopeKeys(s.Tables), compareScopes) {
		t := s.Tables[sc]
		if t.Units == 0 || o.Bot != "" && !slices.Contains(t.Bots, o.Bot) {
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
		lb.StoredDeals += int(g.Deals)
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

	in := skillInput(s, tables, scopes)
	lb.Sources = int(in.Sources)
	for _, t := range tables {
		lb.Deals += int(t.Deals)
	}
	skill, err := rating.Skill(in, o.Skill)
	if err != nil {
		return nil, err
	}
	lb.Model, lb.Fit, lb.TableEffect = "table effect", skill.Fit, skill.Coef
	lb.Clustering = "deal source"
	if !s.BySource {
		lb.Clustering = "table unit" // the calibration's estimator of earlier versions only
	}
	if skill.Fit.Rejected() {
		lb.Warnings = append(lb.Warnings, fmt.Sprintf("the results depart from the model at the compositions (fit test p = %.2g, "+
			"χ² %.1f on %.1f df): the headline may be bent by the schedule; a round robin measures it without the model", skill.Fit.P, skill.Fit.Q, skill.Fit.DF))
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
		l.RatingDF, l.Interval = skill.DF[i], skill.HasInterval[i]
		l.Units, l.Deals, l.Provisional, l.Sources = int(skill.Units[i]), int(skill.Deals[i]), skill.Provisional(i), int(skill.Sources[i])
		iv := rating.RawPerDeal(tables, b)
		l.PerDeal, l.PerDealLo, l.PerDealHi = iv.Mean, iv.Lo, iv.Hi
	}

	bt, err := rating.BradleyTerrySources(in, nil)
	if o.Skill != nil && o.Skill.Legacy {
		var pairs []rating.PairResult
		for _, t := range tables {
			pairs = append(pairs, t.Pairs()...)
		}
		bt, err = rating.BradleyTerry(pairs, nil)
	}
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

// skillInput is what the models fit: the chosen compositions (each with its rule set), the
// pairs among them, and the deal sources of their leagues and rule sets.
func skillInput(s *Sums, tables []*rating.TableSums, scopes []Scope) *rating.SkillInput {
	in := &rating.SkillInput{Tables: tables}
	chosen := map[Scope]bool{}
	lrs := map[LeagueRules]bool{}
	for _, sc := range scopes {
		in.Kinds = append(in.Kinds, sc.Rules)
		chosen[sc] = true
		lrs[LeagueRules{sc.League, sc.Rules}] = true
	}
	if !s.BySource {
		for _, t := range tables {
			in.Sources += t.Units
		}
		return in
	}
	for _, ps := range slices.SortedFunc(pairKeys(s.Pairs), comparePairScopes) {
		if chosen[Scope{League: ps.League, Rules: ps.Rules, Bots: ps.A}] && chosen[Scope{League: ps.League, Rules: ps.Rules, Bots: ps.B}] {
			in.Pairs = append(in.Pairs, s.Pairs[ps])
		}
	}
	in.BotSources = map[string]int64{}
	for lr := range lrs {
		in.Sources += s.SourceCounts[lr]
		for b, n := range s.BotSources[lr] {
			in.BotSources[b] += n
		}
	}
	tableOf := map[Scope]int{}
	for i, sc := range scopes {
		tableOf[sc] = i
	}
	for _, lr := range slices.SortedFunc(maps.Keys(lrs), compareLeagueRules) {
		sample := s.Sample[lr]
		first := len(in.Sample)
		for _, key := range slices.Sorted(maps.Keys(sample)) {
			var cells []rating.SampleCell
			for _, c := range sample[key] {
				if t, ok := tableOf[Scope{League: lr.League, Rules: lr.Rules, Bots: rating.CompositionKey(c.Bots)}]; ok {
					cells = append(cells, rating.SampleCell{Table: t, Deals: c.Deals, Net: c.Net})
				}
			}
			if len(cells) > 0 {
				in.Sample = append(in.Sample, cells)
			}
		}
		// Each sampled source stands for its league's sources over its sample.
		if n := len(in.Sample) - first; n > 0 {
			w := float64(max(s.SourceCounts[lr], int64(n))) / float64(n)
			for range n {
				in.SampleWeight = append(in.SampleWeight, w)
			}
		}
	}
	return in
}

func pairKeys[V any](m map[PairScope]V) func(func(PairScope) bool) {
	return func(yield func(PairScope) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func comparePairScopes(a, b PairScope) int {
	return cmp.Or(strings.Compare(a.League, b.League), strings.Compare(a.Rules, b.Rules), strings.Compare(a.A, b.A), strings.Compare(a.B, b.B))
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
		st.EloHistory = l.History[b]
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
