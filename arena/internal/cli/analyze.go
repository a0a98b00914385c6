package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/tapparena/tapp/arena/internal/analysis"
	"github.com/tapparena/tapp/arena/internal/app"
)

const analyzeUsage = `MATCH|FILE.jsonl [--deal N] [--json] [--bid-samples K] [--workers N]

Double-dummy analysis (see docs/analysis.md): the par of every deal, the loss of every card
against par and the bidding regret of every bidder, then per bot the mean card-play error and
bidding regret per deal with 95% intervals. A match's analyses are stored, so a second call
is instant; a file's deals are analysed afresh on every call.`

// analyze is `tapp analyze`.
func (m *Main) analyze(ctx context.Context, args []string) error {
	fs := m.flags("analyze", analyzeUsage)
	deal := fs.Int("deal", -1, "analyse only this deal and list every decision")
	asJSON := fs.Bool("json", false, "print the analysis as JSON")
	bidSamples := fs.Int("bid-samples", 0, "value bids over K deals drawn from what the bidder knew (0: with every card known)")
	workers := fs.Int("workers", 0, "deals analysed at once (0: one per core)")
	dsn := m.dbFlag(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("usage: tapp analyze %s", strings.SplitN(analyzeUsage, "\n", 2)[0])
	}
	if err := checkBounds(fs).countIfSet("deal", *deal, 0, math.MaxInt32).count("bid-samples", *bidSamples, 0, 1_000_000).
		count("workers", *workers, 0, 1024).err(); err != nil {
		return err
	}
	src, err := m.openSourceFor(ctx, pos[0], *dsn, m.openExistingStoreToWrite) // the analyses are kept
	if err != nil {
		return err
	}
	defer src.Close()
	var progress func(int)
	run := analysis.Run{Options: analysis.Options{BidSamples: *bidSamples}, Workers: *workers,
		Progress: func(done, total int) {
			if progress == nil && total > 1 {
				progress = m.progress(total, "deals")
			}
			if progress != nil {
				progress(done)
			}
		}}
	var only *int
	if *deal >= 0 {
		only = deal
	}
	rep, err := app.Analyze(ctx, src.Source, run, only)
	if progress != nil {
		progress(-1)
	}
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(m.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	if only != nil && len(rep.Deals) == 1 {
		writeDealAnalysis(m.Stdout, rep.Deals[0], rep.Unit)
		fmt.Fprintln(m.Stdout)
	} else {
		writeDealsAnalysis(m.Stdout, rep)
		fmt.Fprintln(m.Stdout)
	}
	writeBotAnalysis(m.Stdout, rep.Bots, rep.Unit)
	if rep.Stored > 0 || rep.Computed > 0 {
		fmt.Fprintf(m.Stdout, "\n%d deal(s) analysed now, %d read from the store (%s)\n", rep.Computed, rep.Stored, rep.Method)
	}
	return nil
}

func seatBot(d *analysis.Deal, seat int) string {
	if seat >= 0 && seat < len(d.Seating) {
		return d.Seating[seat]
	}
	return "?"
}

// parText is "made, 76 card points (±8), +20 cents".
func parText(p *analysis.Par, unit string) string {
	if p == nil {
		return "none"
	}
	word := "fails"
	if p.Made {
		word = "makes"
	}
	text := word
	if p.CardPoints != nil {
		if p.CardPointsLow != p.CardPointsHigh {
			text += fmt.Sprintf(", %d-%d card points", p.CardPointsLow, p.CardPointsHigh)
		} else {
			text += fmt.Sprintf(", %d card points", *p.CardPoints)
		}
	}
	return text + fmt.Sprintf(", %+g %s", p.Payoff, unit)
}

// writeDealsAnalysis writes one line per deal.
func writeDealsAnalysis(w io.Writer, rep *analysis.Report) {
	fmt.Fprintf(w, "analysis of %s · %s · %d deal(s) · %s\n\n", rep.Match, rep.Rules, len(rep.Deals), rep.Unit)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "deal\tcontract\tdeclarer\tpar\tresult\tcard loss by seat\tbid regret by seat\t")
	for _, d := range rep.Deals {
		decl := "-"
		if d.Declarer >= 0 {
			decl = fmt.Sprintf("%d %s", d.Declarer, seatBot(d, d.Declarer))
		}
		cards := make([]float64, len(d.Seating))
		bids := make([]float64, len(d.Seating))
		for _, x := range d.Decisions {
			if x.Seat < 0 || x.Seat >= len(cards) {
				continue
			}
			if x.Kind == "card" {
				cards[x.Seat] += x.Loss
			} else {
				bids[x.Seat] += x.Loss
			}
		}
		result := "-"
		if d.Declarer >= 0 {
			result = fmt.Sprintf("%+d", d.Result)
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\t\n", d.Number, d.Contract, decl, parText(d.Par, ""), result, floats(cards), floats(bids))
	}
	tw.Flush()
}

func floats(xs []float64) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprintf("%g", x)
	}
	return strings.Join(parts, " ")
}

// writeDealAnalysis writes one deal decision by decision.
func writeDealAnalysis(w io.Writer, d *analysis.Deal, unit string) {
	fmt.Fprintf(w, "deal %d · %s", d.Number, d.Contract)
	if d.Declarer >= 0 {
		fmt.Fprintf(w, " by seat %d (%s) · result %+d %s", d.Declarer, seatBot(d, d.Declarer), d.Result, unit)
	}
	fmt.Fprintf(w, "\npar: %s\n\n", parText(d.Par, unit))
	for _, b := range d.Bidding {
		fmt.Fprintf(w, "bidding  seat %d (%s): %s (%+g); best %s (%+g); regret %g\n", b.Seat, b.Bot, b.Did, b.DidValue, b.Best, b.BestValue, b.Regret)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "decision\tseat\tbot\tplayed\tloss\tpar before → after\tkeeps par\t")
	for _, x := range d.Decisions {
		if x.Kind != "card" {
			continue
		}
		loss := fmt.Sprintf("%g", x.Loss)
		if x.Unit != "" {
			loss += " pts"
		} else if x.LossPoints != nil && *x.LossPoints != 0 {
			loss += fmt.Sprintf(" (%d pts)", *x.LossPoints)
		}
		fmt.Fprintf(tw, "%d\t%d\t%s\t%s\t%s\t%+g → %+g\t%s\t\n", x.Index, x.Seat, x.Bot, x.Action, loss, x.ParBefore, x.ParAfter, strings.Join(x.Best, " "))
	}
	tw.Flush()
}

// writeBotAnalysis writes the per-bot means.
func writeBotAnalysis(w io.Writer, bots []analysis.BotSummary, unit string) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "bot\tseats\tcard error/deal (%s)\t95%% interval\tRamsch pts lost/deal\tbid regret/deal (%s)\t95%% interval\tcards losing\t\n", unit, unit)
	for _, b := range bots {
		c, r, g := b.CardErrorPerDeal, b.RamschPointErrorPerDeal, b.BidRegretPerDeal
		fmt.Fprintf(tw, "%s\t%d\t%.2f\t[%.2f, %.2f]\t%.1f\t%.2f\t[%.2f, %.2f]\t%d/%d\t\n", b.Bot, b.Deals, c.Mean, c.Lo, c.Hi,
			r.Mean, g.Mean, g.Lo, g.Hi, b.CardsLosing, b.CardsAnalysed)
	}
	tw.Flush()
}

// dealNotes says, per decision, what the analysis found.
func dealNotes(d *analysis.Deal) map[int]string {
	notes := map[int]string{}
	for _, x := range d.Decisions {
		unit := d.Unit
		if x.Unit != "" {
			unit = x.Unit
		}
		var text string
		switch {
		case x.Kind == "bid":
			text = fmt.Sprintf("bidding regret %g %s: best %s (%+g), did %s (%+g)", x.Loss, unit, strings.Join(x.Best, " "), x.ParBefore, x.Action, x.ParAfter)
		case x.Loss == 0 && (x.LossPoints == nil || *x.LossPoints == 0):
			text = fmt.Sprintf("keeps par (%+g) · par-keeping: %s", x.ParBefore, strings.Join(x.Best, " "))
		default:
			text = fmt.Sprintf("LOSES %g %s", x.Loss, unit)
			if x.LossPoints != nil && x.Unit == "" {
				text += fmt.Sprintf(" (%d card points)", *x.LossPoints)
			}
			text += fmt.Sprintf(": par %+g → %+g; %s kept par", x.ParBefore, x.ParAfter, strings.Join(x.Best, " "))
		}
		if prev, ok := notes[x.Index]; ok {
			text = prev + " · " + text
		}
		notes[x.Index] = text
	}
	if d.Par != nil {
		first := -1
		for _, x := range d.Decisions {
			if x.Kind == "card" && (first < 0 || x.Index < first) {
				first = x.Index
			}
		}
		if first >= 0 {
			notes[first] = "par of the deal: " + parText(d.Par, d.Unit) + " · " + notes[first]
		}
	}
	return notes
}
