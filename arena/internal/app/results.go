package app

import (
	"math"
	"sort"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/rating"
)

// BotLine is one bot's result in a match.
type BotLine struct {
	Bot         string  `json:"bot"`
	Deals       int     `json:"deals"`
	Net         int     `json:"net"`
	PerDeal     float64 `json:"per_deal"`
	PerDealLo   float64 `json:"per_deal_lo"`
	PerDealHi   float64 `json:"per_deal_hi"`
	Declared    int     `json:"declared"`
	DeclaredWon int     `json:"declared_won"`
	AvgPoints   float64 `json:"avg_points"`
	// Units are deals, or duplicate groups in duplicate play (the statistical unit: one deal
	// source under every seating); the interval and LOS are per unit.
	Units int      `json:"units"`
	LOS   *float64 `json:"los,omitempty"` // likelihood that the bot's true mean result per deal is above 0; none without an interval
}

// LOSAboveZero is the likelihood that a bot's true mean per deal is above zero, from the
// same Student t distribution as its interval (rating.Interval.LOS); NaN where there is no
// interval (one unit, or units without spread), printed as "—" and left out of --json.
func LOSAboveZero(iv rating.Interval) float64 {
	if p, ok := iv.LOS(); ok {
		return p
	}
	return math.NaN()
}

// ResultLines sums a match's result rows per bot (every bot of the spec, and any other the
// rows name), best net first.
func ResultLines(spec domain.MatchSpec, rows []domain.ResultRow) []BotLine {
	type unitKey struct {
		bot  string
		unit int
	}
	perUnit := make(map[unitKey]float64)
	perUnitDeals := make(map[unitKey]int)
	lines := make(map[string]*BotLine)
	for _, b := range spec.Bots {
		lines[b] = &BotLine{Bot: b}
	}
	for _, r := range rows {
		l := lines[r.Bot]
		if l == nil {
			l = &BotLine{Bot: r.Bot}
			lines[r.Bot] = l
		}
		l.Deals++
		l.Net += r.Payoff
		l.AvgPoints += float64(r.Points)
		unit := r.Deal
		if spec.Duplicate {
			unit = r.Group
		}
		perUnit[unitKey{r.Bot, unit}] += float64(r.Payoff)
		perUnitDeals[unitKey{r.Bot, unit}]++
		if r.Declarer {
			l.Declared++
			if r.Payoff > 0 {
				l.DeclaredWon++
			}
		}
	}
	per := make(map[string][]float64)
	for k, v := range perUnit {
		per[k.bot] = append(per[k.bot], v/float64(perUnitDeals[k])) // mean per deal within the unit
	}
	out := make([]BotLine, 0, len(lines))
	for b, l := range lines {
		sort.Float64s(per[b]) // a stable order, so the sums are reproducible
		iv := rating.CentsPerDeal(per[b])
		l.PerDeal, l.PerDealLo, l.PerDealHi, l.Units = iv.Mean, iv.Lo, iv.Hi, iv.N
		if p := LOSAboveZero(iv); !math.IsNaN(p) {
			l.LOS = &p
		}
		if l.Deals > 0 {
			l.AvgPoints /= float64(l.Deals)
		}
		out = append(out, *l)
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].Net > out[j].Net || out[i].Net == out[j].Net && out[i].Bot < out[j].Bot
	})
	return out
}
