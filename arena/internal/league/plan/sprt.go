package plan

import (
	"fmt"
	"slices"
)

// NewSPRT returns the plan of an SPRT league: "is the candidate stronger than the baseline?"
// asked by playing, in each round, two duplicate matches on the same deals: the candidate
// with field bots and the baseline with the same field bots, the candidate in the baseline's
// table position (FixedTables). It plays deals deal sources per match and round (base.Deals,
// DefaultDeals when 0), without a round limit; the sprt package scores and decides it.
func NewSPRT(league string, base Plan, candidate, baseline string, field []string) (*Plan, error) {
	p := base
	p.League, p.Format, p.Candidate, p.Baseline = league, SPRTFormat, candidate, baseline
	p.Field = slices.Clone(field)
	p.Duplicate, p.Rounds = true, 0
	if candidate == baseline {
		return nil, fmt.Errorf("candidate and baseline are the same bot %q", candidate)
	}
	if len(field) < p.Rules.Players-1 {
		return nil, fmt.Errorf("a table of %d needs at least %d field bots, got %d", p.Rules.Players, p.Rules.Players-1, len(field))
	}
	seen := map[string]bool{candidate: true, baseline: true}
	p.Bots = []string{candidate, baseline}
	for _, f := range field {
		if seen[f] {
			return nil, fmt.Errorf("bot %q is listed twice (candidate, baseline and field must differ)", f)
		}
		seen[f] = true
		p.Bots = append(p.Bots, f)
	}
	if p.Deals <= 0 {
		p.Deals = DefaultDeals
	}
	return &p, nil
}
