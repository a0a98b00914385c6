package cli

import (
	"context"
	"fmt"
	"text/tabwriter"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/analysis"
	"github.com/tapparena/tapp/arena/internal/board"
	"github.com/tapparena/tapp/arena/internal/store"
)

// printAnalysisColumns adds the double-dummy error columns to a leaderboard: every bot's
// card-play error and bidding regret per deal over the deals of the selected matches that
// have a stored analysis (tapp analyze makes them; nothing is solved here).
func (m *Main) printAnalysisColumns(ctx context.Context, st *store.Store, f domain.MatchFilter, lb *board.Leaderboard) error {
	f.Limit = 0
	ms, err := st.ListMatches(ctx, f)
	if err != nil {
		return err
	}
	var deals []*analysis.Deal
	var missing []string
	for _, mt := range ms {
		ds, err := analysis.StoredOnly(ctx, st, mt.ID, analysis.Options{})
		if err != nil {
			return err
		}
		if len(ds) == 0 {
			missing = append(missing, mt.ID)
		}
		deals = append(deals, ds...)
	}
	w := m.Stdout
	fmt.Fprintf(w, "\ndouble-dummy analysis: %d of %d deals analysed\n", len(deals), lb.Deals)
	by := map[string]analysis.BotSummary{}
	for _, b := range analysis.Summarize(deals) {
		by[b.Bot] = b
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "bot\tanalysed\tcard error/deal\t95%% interval\tRamsch pts lost/deal\tbid regret/deal\t95%% interval\t\n")
	for _, lbBot := range lb.Bots {
		b, ok := by[lbBot.Bot]
		if !ok {
			fmt.Fprintf(tw, "%s\t0\t\t\t\t\t\t\n", lbBot.Bot)
			continue
		}
		c, r, g := b.CardErrorPerDeal, b.RamschPointErrorPerDeal, b.BidRegretPerDeal
		fmt.Fprintf(tw, "%s\t%d\t%.2f\t[%.2f, %.2f]\t%.1f\t%.2f\t[%.2f, %.2f]\t\n", b.Bot, b.Deals, c.Mean, c.Lo, c.Hi, r.Mean, g.Mean, g.Lo, g.Hi)
	}
	tw.Flush()
	fmt.Fprintf(w, "errors in %s per deal the bot sat in (lower is better); see docs/analysis.md\n", lb.Unit)
	if len(missing) > 0 {
		fmt.Fprintf(w, "%d match(es) not analysed yet, e.g.: tapp analyze %s\n", len(missing), missing[0])
	}
	return nil
}
