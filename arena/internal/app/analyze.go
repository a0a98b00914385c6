package app

import (
	"context"
	"fmt"

	"github.com/tapparena/tapp/arena/internal/analysis"
	"github.com/tapparena/tapp/arena/internal/domain"
)

// Analyze runs the double-dummy analysis of a source's deals (only deal *only, when set), but
// for the stored deals whose cards are still in play (replay.Gate): a stored match's analyses
// are stored, so a second call reads them; an export's deals are
// analysed afresh, all of one rule set.
func Analyze(ctx context.Context, src *Source, run analysis.Run, only *int) (*analysis.Report, error) {
	if src.Store != nil {
		if only != nil { // a deal whose cards are in play says so, rather than "no such deal"
			if _, _, err := src.Deal(ctx, *only); err != nil {
				return nil, err
			}
		}
		return run.Stored(ctx, openStore{src.Store}, src.MatchID, only)
	}
	var recs []*domain.DealRecord
	first := src.Lines[0]
	rules := first.Match.Rules
	for _, d := range src.Lines {
		if d.Match.Rules.String() != rules.String() {
			return nil, fmt.Errorf("%s: line %d has rule set %s, line %d %s: analyse one rule set at a time", src.Name, d.Line, d.Match.Rules, first.Line, rules)
		}
		if only == nil || d.Deal.Number == *only {
			recs = append(recs, d.Deal)
		}
	}
	if len(recs) == 0 {
		_, _, err := src.Deal(ctx, *only)
		return nil, err
	}
	return run.Report(ctx, src.Name, rules, recs)
}
