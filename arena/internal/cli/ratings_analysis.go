package cli

import (
	"context"
	"fmt"
	"text/tabwriter"

	"github.com/tapparena/tapp/arena/internal/app"
	"github.com/tapparena/tapp/arena/internal/board"
	"github.com/tapparena/tapp/arena/internal/domain"
)

// printAnalysisColumns adds the double-dummy error columns to a leaderboard: every bot's
// card-play error and bidding regret per deal over the deals of the selected matches that
// have a stored analysis (tapp analyze makes them; nothing is solved here).
func (m *Main) printAnalysisColumns(ctx context.Context, st app.AnalysisStore, f domain.MatchFilter, lb *board.Leaderboard) error {
	an, err := app.StoredAnalyses(ctx, st, f)
	if err != nil {
		return err
	}
	w := m.Stdout
	fmt.Fprintf(w, "\ndouble-dummy analysis: %d of %d deals analysed\n", an.Deals, lb.Deals)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "bot\tanalysed\tcard error/deal\t95%% interval\tRamsch pts lost/deal\tbid regret/deal\t95%% interval\t\n")
	for _, lbBot := range lb.Bots {
		b, ok := an.Bots[lbBot.Bot]
		if !ok {
			fmt.Fprintf(tw, "%s\t0\t\t\t\t\t\t\n", lbBot.Bot)
			continue
		}
		c, r, g := b.CardErrorPerDeal, b.RamschPointErrorPerDeal, b.BidRegretPerDeal
		fmt.Fprintf(tw, "%s\t%d\t%.2f\t[%.2f, %.2f]\t%.1f\t%.2f\t[%.2f, %.2f]\t\n", b.Bot, b.Deals, c.Mean, c.Lo, c.Hi, r.Mean, g.Mean, g.Lo, g.Hi)
	}
	tw.Flush()
	fmt.Fprintf(w, "errors in %s per deal the bot sat in (lower is better); see docs/analysis.md\n", lb.Unit)
	if len(an.Missing) > 0 {
		fmt.Fprintf(w, "%d match(es) not analysed yet, e.g.: tapp analyze %s\n", len(an.Missing), an.Missing[0])
	}
	return nil
}
