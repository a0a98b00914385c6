package board

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/tapparena/tapp/arena/internal/rating"
)

// RenderOptions says what Render prints besides the standings.
type RenderOptions struct {
	Rules   string // the rule set(s) of the results, as the header names them
	Roles   bool   // the roles table
	History bool   // the multiplayer Elo history, as a compact table
}

// Render prints the board: the header, the standings with the headline first, one line that
// explains each column, the likelihood-of-superiority matrix, the roles, the family splits
// and warnings, and (when asked) the history. Each part is its own function, so that a part
// can be added without touching the others.
func Render(w io.Writer, lb *Leaderboard, o RenderOptions) {
	if len(lb.Bots) == 0 {
		fmt.Fprintln(w, "no results yet")
		return
	}
	renderHeader(w, lb, o.Rules)
	renderStandings(w, lb)
	renderLegend(w, lb)
	renderLOS(w, lb)
	if o.Roles {
		renderRoles(w, lb)
	}
	renderFamilies(w, lb)
	if len(lb.Warnings) > 0 {
		fmt.Fprintln(w)
		for _, s := range lb.Warnings {
			fmt.Fprintf(w, "warning: %s\n", s)
		}
	}
	if o.History {
		fmt.Fprintln(w)
		RenderHistory(w, lb, 12)
	}
}

func unitName(lb *Leaderboard) string {
	if lb.Duplicate {
		return "duplicate groups"
	}
	return "deals"
}

func renderHeader(w io.Writer, lb *Leaderboard, rules string) {
	fmt.Fprintf(w, "%d bots, %d deal sources, %d %s rated (%d deals), %d finished matches", len(lb.Bots), lb.Sources, lb.Units,
		unitName(lb), lb.Deals, lb.Matches)
	if rules != "" {
		fmt.Fprintf(w, " — %s", rules)
	}
	fmt.Fprintln(w)
	if lb.PartialUnits > 0 {
		fmt.Fprintf(w, "(%d duplicate groups not yet played under every seating are left out)\n", lb.PartialUnits)
	}
	if left := lb.StoredDeals - lb.Deals; left > 0 {
		fmt.Fprintf(w, "(%d stored deals are not rated: tainted matches and incomplete groups)\n", left)
	}
	for _, warn := range lb.Warnings {
		if strings.HasPrefix(warn, "the results depart") {
			fmt.Fprintf(w, "warning: %s\n", warn)
		}
	}
	if c := lb.Check; c != nil && c.Identical {
		fmt.Fprintln(w, "(recomputed from the raw results: the store's kept sums give the same board, figure for figure)")
	} else if c != nil {
		fmt.Fprintf(w, "warning: the store's kept sums differ from the raw results (this board is the raw results'): %s\n",
			strings.Join(c.Differences, "; "))
	}
	if lb.TaintedMatches > 0 {
		if lb.TaintedIncluded {
			fmt.Fprintf(w, "(%d tainted matches — a forfeit or more than 1%% fallbacks — are counted, as --include-tainted asks)\n", lb.TaintedMatches)
		} else {
			fmt.Fprintf(w, "(%d tainted matches — a forfeit or more than 1%% fallbacks — are left out; --include-tainted counts them)\n", lb.TaintedMatches)
		}
	}
	fmt.Fprintln(w)
}

func renderStandings(w io.Writer, lb *Leaderboard) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	groups := map[bool]string{true: "groups", false: "deals"}[lb.Duplicate]
	fmt.Fprintf(tw, "#\tbot\t%s/deal\t95%% interval\tLOS next\tBT Elo\t95%% interval\traw/deal\tsources\t%s\tmulti-Elo*\tmatches\t\n", lb.Unit, groups)
	for i, b := range lb.Bots {
		next := ""
		switch {
		case i == len(lb.Bots)-1:
		case !b.Interval || !lb.Bots[i+1].Interval:
			next = "—"
		default:
			next = fmt.Sprintf("%.1f%%", 100*lb.LOS[i][i+1])
		}
		mark := ""
		if b.Provisional {
			mark = " (prov.)"
		}
		iv := "—"
		if b.Interval {
			iv = fmt.Sprintf("[%+.2f, %+.2f]", b.RatingLo, b.RatingHi)
		}
		fmt.Fprintf(tw, "%d\t%s\t%+.2f%s\t%s\t%s\t%+.0f\t[%+.0f, %+.0f]\t%+.2f\t%d\t%d\t%.0f\t%d\t\n", i+1, b.Bot,
			b.Rating, mark, iv, next, b.BT, b.BTLo, b.BTHi, b.PerDeal, b.Sources, b.Units, b.Elo, b.EloMatches)
	}
	tw.Flush()
}

func renderLegend(w io.Writer, lb *Leaderboard) {
	unit := map[bool]string{true: "duplicate groups", false: "deals"}[lb.Duplicate]
	fmt.Fprintf(w, "\n%s/deal (the rating): what the bot wins per deal at a table whose other seats are taken by bots drawn at\n", lb.Unit)
	fmt.Fprintf(w, "  random from the others — what a complete round robin of them would show — from a model of the table's composition\n")
	fmt.Fprintf(w, "  fitted over %s; 95%% interval clustered by %s, Student's t on its variance's degrees of freedom (at most the deal sources − 1).\n", unit, lb.Clustering)
	fmt.Fprintln(w, "LOS next: likelihood that the bot is stronger than the next one, from the same t as the interval; — without one.")
	fmt.Fprintln(w, "BT Elo: Bradley–Terry over all results (in each unit the higher total beats the lower), centred on 0.")
	fmt.Fprintln(w, "raw/deal: the plain payoff per deal, not adjusted for the opponents it met; sources: the deal sources it sat in.")
	fmt.Fprintln(w, "*multi-Elo (secondary, no uncertainty): updated after every finished match from its ranking, from 1500; it")
	fmt.Fprintln(w, "  follows the order of the matches and the last ones most — a log of recent form, not a rating.")
	for _, b := range lb.Bots {
		if b.Provisional {
			fmt.Fprintf(w, "(prov.): fewer than %d deal sources: the figures will still move; below %d no interval and no LOS (—).\n",
				lb.MinUnits, rating.MinSourcesForInterval)
			break
		}
	}
	if lb.Regularized {
		fmt.Fprintln(w, "(some bot won or lost every comparison so far: its BT rating is held finite by a weak prior and its interval is wide)")
	}
	fmt.Fprintln(w, "Is B stronger than A? `tapp sprt` plays until it knows, with error rates you choose.")
}

func renderLOS(w io.Writer, lb *Leaderboard) {
	if len(lb.Bots) < 2 {
		return
	}
	fmt.Fprintln(w, "\nlikelihood of superiority (row stronger than column):")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "\t")
	for _, b := range lb.Bots {
		fmt.Fprintf(tw, "%s\t", b.Bot)
	}
	fmt.Fprintln(tw)
	for i, a := range lb.Bots {
		fmt.Fprintf(tw, "%s\t", a.Bot)
		for j, b := range lb.Bots {
			switch {
			case i == j:
				fmt.Fprint(tw, "—\t")
			case !a.Interval || !b.Interval:
				fmt.Fprint(tw, "—\t")
			default:
				fmt.Fprintf(tw, "%.1f%%\t", 100*lb.LOS[i][j])
			}
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}

func renderRoles(w io.Writer, lb *Leaderboard) {
	var seats []string
	for _, b := range lb.Bots {
		if b.Roles != nil && len(b.Roles.Seats) > len(seats) {
			seats = seats[:0]
			for _, s := range b.Roles.Seats {
				seats = append(seats, s.Name)
			}
		}
	}
	if len(seats) == 0 {
		return
	}
	fmt.Fprintf(w, "\nroles (%s per deal; deals counted singly):\n", lb.Unit)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "bot\tdeclares\tmade\tas declarer\tas defender\tnobody declared\t%s\t\n", strings.Join(seats, "\t"))
	for _, b := range lb.Bots {
		r := b.Roles
		if r == nil {
			continue
		}
		fmt.Fprintf(tw, "%s\t%.0f%%\t%.0f%%\t%+.2f\t%+.2f\t%+.2f\t", b.Bot, 100*r.DeclareShare, 100*r.Declarer.MadeShare,
			r.Declarer.PerDeal, r.Defender.PerDeal, r.NoDeclarer.PerDeal)
		for i := range seats {
			if i < len(r.Seats) {
				fmt.Fprintf(tw, "%+.2f\t", r.Seats[i].PerDeal)
			} else {
				fmt.Fprint(tw, "\t")
			}
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	fmt.Fprintln(w, "contracts declared (deals, made, per deal):")
	for _, b := range lb.Bots {
		if b.Roles == nil || len(b.Roles.Contracts) == 0 {
			continue
		}
		var parts []string
		for _, c := range b.Roles.Contracts {
			parts = append(parts, fmt.Sprintf("%s %d× %.0f%% %+.2f", c.Contract, c.Deals, 100*c.MadeShare, c.PerDeal))
		}
		fmt.Fprintf(w, "  %s: %s\n", b.Bot, strings.Join(parts, ", "))
	}
}

func renderFamilies(w io.Writer, lb *Leaderboard) {
	header := false
	for _, b := range lb.Bots {
		f := b.Family
		if f == nil {
			continue
		}
		if !header {
			fmt.Fprintf(w, "\nfamilies (%s per deal, raw):\n", lb.Unit)
			header = true
		}
		fmt.Fprintf(w, "  %s (%s): with its family at the table %+.2f (%d deals), without %+.2f (%d deals); defending beside it %+.2f (%d), apart %+.2f (%d)\n",
			b.Bot, f.Name, f.With.PerDeal, f.With.Deals, f.Without.PerDeal, f.Without.Deals,
			f.DefendTogether.PerDeal, f.DefendTogether.Deals, f.DefendApart.PerDeal, f.DefendApart.Deals)
	}
}

// RenderHistory prints the board's rating over time (lb.History) as a table of at most
// maxRows points (evenly spaced on the league's clock, the last always): per bot its headline
// with the 95% interval, (prov.) while provisional, — without an interval.
func RenderHistory(w io.Writer, lb *Leaderboard, maxRows int) {
	ps := lb.History
	if len(ps) == 0 {
		if lb.HistoryNote != "" {
			fmt.Fprintln(w, lb.HistoryNote)
		} else {
			fmt.Fprintln(w, "no rating history yet")
		}
		return
	}
	fmt.Fprintf(w, "rating over the league's time (%s/deal, 95%% interval; %d points kept, --history --csv for all):\n", lb.Unit, len(ps))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "deal sources\tdeals rated\t")
	for _, b := range lb.Bots {
		fmt.Fprintf(tw, "%s\t", b.Bot)
	}
	fmt.Fprintln(tw)
	n := min(maxRows, len(ps))
	for r := range n {
		p := ps[(r+1)*len(ps)/n-1]
		fmt.Fprintf(tw, "%d\t%d\t", p.Clock, p.Deals)
		for _, b := range lb.Bots {
			fmt.Fprintf(tw, "%s\t", historyCell(p, b.Bot))
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}

// historyCell is one bot's headline at a point, as RenderHistory prints it.
func historyCell(p HistoryPoint, bot string) string {
	for _, b := range p.Bots {
		if b.Bot != bot {
			continue
		}
		text := fmt.Sprintf("%+.2f", b.Rating)
		if b.Interval {
			text += fmt.Sprintf(" [%+.2f, %+.2f]", b.Lo, b.Hi)
		} else {
			text += " —"
		}
		if b.Provisional {
			text += " (prov.)"
		}
		return text
	}
	return ""
}

// WriteHistoryCSV writes every point of the board's rating over time, one row per point and
// bot: the league's clock (deal sources stored), the deal sources and deals rated, when it was
// taken, and the bot's headline with its interval (empty without one).
func WriteHistoryCSV(w io.Writer, lb *Leaderboard) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"clock", "sources", "deals", "taken", "bot", "rating", "rating_lo", "rating_hi", "provisional"})
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', 4, 64) }
	for _, p := range lb.History {
		for _, b := range p.Bots {
			lo, hi := "", ""
			if b.Interval {
				lo, hi = f(b.Lo), f(b.Hi)
			}
			cw.Write([]string{strconv.FormatInt(p.Clock, 10), strconv.Itoa(p.Sources), strconv.Itoa(p.Deals),
				p.At.UTC().Format(time.RFC3339), b.Bot, f(b.Rating), lo, hi, strconv.FormatBool(b.Provisional)})
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteCSV writes the standings, one row per bot.
func WriteCSV(w io.Writer, lb *Leaderboard) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"rank", "bot", "rating", "rating_lo", "rating_hi", "provisional", "bt_elo", "bt_elo_lo",
		"bt_elo_hi", "multi_elo", "elo_matches", "per_deal", "units", "deals"})
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', 4, 64) }
	for i, b := range lb.Bots {
		cw.Write([]string{strconv.Itoa(i + 1), b.Bot, f(b.Rating), f(b.RatingLo), f(b.RatingHi),
			strconv.FormatBool(b.Provisional), f(b.BT), f(b.BTLo), f(b.BTHi), f(b.Elo), strconv.Itoa(b.EloMatches),
			f(b.PerDeal), strconv.Itoa(b.Units), strconv.Itoa(b.Deals)})
	}
	cw.Flush()
	return cw.Error()
}
