package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/tapparena/tapp/arena"
	"github.com/tapparena/tapp/arena/league"
	"github.com/tapparena/tapp/engine"
)

// computeLeaderboard reads the matches and raw results the filter selects and derives the
// leaderboard.
func computeLeaderboard(ctx context.Context, st arena.Store, f arena.MatchFilter) (*league.Leaderboard, error) {
	ms, err := st.ListMatches(ctx, f)
	if err != nil {
		return nil, err
	}
	rows, err := st.Results(ctx, f)
	if err != nil {
		return nil, err
	}
	return league.ComputeLeaderboard(ms, rows)
}

func (m *Main) ratings(ctx context.Context, args []string) error {
	fs := m.flags("ratings", "[flags]")
	leagueID := fs.String("league", "", "only this league's results")
	bot := fs.String("bot", "", "only matches this bot played in")
	rules := fs.String("rules", "", "only matches under this rule set (canonical or short form, e.g. modern)")
	asJSON := fs.Bool("json", false, "print the leaderboard as JSON (with every bot's Elo history)")
	history := fs.Bool("history", false, "also print each bot's multiplayer Elo after each of its matches")
	withAnalysis := fs.Bool("analysis", false, "add card-play error and bidding regret per deal from the stored analyses (tapp analyze)")
	dsn := fs.String("db", m.env("TAPP_DB", defaultDB), "store: a SQLite file or a postgres:// URL (env TAPP_DB)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("tapp ratings takes no arguments (use --league NAME)")
	}
	f := arena.MatchFilter{LeagueID: *leagueID, Bot: *bot}
	rulesText := ""
	if *rules != "" {
		r, err := engine.ParseRuleSet(*rules)
		if err != nil {
			return usagef("rules: %v", err)
		}
		f.Rules, rulesText = r.String(), r.String()
	}
	st, err := m.openExistingStore(ctx, *dsn)
	if err != nil {
		return err
	}
	defer st.Close()
	if *leagueID != "" {
		if _, err := st.GetLeague(ctx, *leagueID); err != nil {
			return fmt.Errorf("%w (tapp league list shows the leagues)", err)
		}
	}
	lb, err := computeLeaderboard(ctx, st, f)
	if err != nil {
		return err
	}
	lb.League = *leagueID
	if *asJSON {
		enc := json.NewEncoder(m.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(lb)
	}
	short := make([]string, len(lb.RuleSets)) // the rule sets of the results, short form
	for i, text := range lb.RuleSets {
		short[i] = text
		if r, err := engine.ParseRuleSet(text); err == nil {
			short[i] = shortRules(r)
		}
	}
	switch {
	case len(short) > 1:
		rulesText = fmt.Sprintf("%d rule sets", len(short))
	case rulesText == "" && len(short) == 1:
		rulesText = short[0]
	}
	if lb.League != "" {
		fmt.Fprintf(m.Stdout, "league %s\n", lb.League)
	}
	m.printLeaderboard(lb, rulesText, *history)
	if *withAnalysis {
		if err := m.printAnalysisColumns(ctx, st, f, lb); err != nil {
			return err
		}
	}
	if len(short) > 1 {
		fmt.Fprintf(m.Stdout, "\nthese results mix %d rule sets, whose scores do not compare: choose one with --rules (%s)\n",
			len(short), strings.Join(short, "; "))
	}
	m.printReplayHint(ctx, st, *leagueID, *dsn)
	return nil
}

// shortRules is the rule set's canonical text without the stakes when they are the
// variant's defaults.
func shortRules(r engine.RuleSet) string {
	full := r.String()
	short, _, ok := strings.Cut(full, " stakes=")
	if !ok {
		return full
	}
	if d, err := engine.ParseRuleSet(short); err == nil && d.String() == full {
		return short
	}
	return full
}

// printLeaderboard prints the leaderboard: one line per bot, the likelihood-of-superiority
// matrix, and (with history) the multiplayer Elo after each match.
func (m *Main) printLeaderboard(lb *league.Leaderboard, rules string, history bool) {
	w := m.Stdout
	if len(lb.Bots) == 0 {
		fmt.Fprintln(w, "no results yet")
		return
	}
	unit := "deals"
	if lb.Duplicate {
		unit = "duplicate groups"
	}
	fmt.Fprintf(w, "%d bots, %d %s (%d deals), %d finished matches", len(lb.Bots), lb.Units, unit, lb.Deals, lb.Matches)
	if rules != "" {
		fmt.Fprintf(w, " — %s", rules)
	}
	fmt.Fprintln(w)
	if lb.PartialUnits > 0 {
		fmt.Fprintf(w, "(%d duplicate groups not yet played under every seating are left out)\n", lb.PartialUnits)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "#\tbot\tBT Elo\t95%% interval\tmulti-Elo\tmatches\t%s/deal\t95%% interval\t%s\t\n", lb.Unit, map[bool]string{true: "groups", false: "deals"}[lb.Duplicate])
	for i, b := range lb.Bots {
		fmt.Fprintf(tw, "%d\t%s\t%+.0f\t[%+.0f, %+.0f]\t%.0f\t%d\t%+.2f\t[%+.2f, %+.2f]\t%d\t\n", i+1, b.Bot, b.Rating,
			b.RatingLo, b.RatingHi, b.Elo, b.EloMatches, b.PerDeal, b.PerDealLo, b.PerDealHi, b.Units)
	}
	tw.Flush()
	fmt.Fprintln(w, "\nBT Elo: Bradley–Terry over all results (a unit's higher total beats a lower one), centred on 0.")
	fmt.Fprintln(w, "multi-Elo: updated after every finished match from its final ranking, from 1500.")
	if lb.Regularized {
		fmt.Fprintln(w, "(some bot won or lost every comparison so far: its BT rating is held finite by a weak prior and its interval is wide)")
	}
	if len(lb.Bots) > 1 {
		fmt.Fprintln(w, "\nlikelihood of superiority (row stronger than column):")
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprint(tw, "\t")
		for _, b := range lb.Bots {
			fmt.Fprintf(tw, "%s\t", b.Bot)
		}
		fmt.Fprintln(tw)
		for i, a := range lb.Bots {
			fmt.Fprintf(tw, "%s\t", a.Bot)
			for j := range lb.Bots {
				if i == j {
					fmt.Fprint(tw, "—\t")
					continue
				}
				fmt.Fprintf(tw, "%.1f%%\t", 100*lb.LOS[i][j])
			}
			fmt.Fprintln(tw)
		}
		tw.Flush()
	}
	if history {
		fmt.Fprintln(w, "\nmultiplayer Elo after each match:")
		for _, b := range lb.Bots {
			var parts []string
			for _, h := range b.History {
				parts = append(parts, fmt.Sprintf("%s %.0f", h.Match, h.Rating))
			}
			fmt.Fprintf(w, "  %s: %s\n", b.Bot, strings.Join(parts, ", "))
		}
	}
}

// suggestDB is the --db flag that names dsn in a command this one suggests, or nothing when dsn
// is the store a command uses by default (TAPP_DB, else tapp.db here).
func (m *Main) suggestDB(dsn string) string {
	if dsn == m.env("TAPP_DB", defaultDB) {
		return ""
	}
	return " --db " + dsn
}

// printReplayHint says how to replay a deal of the league (or of the latest match).
func (m *Main) printReplayHint(ctx context.Context, st arena.Store, leagueID, dsn string) {
	if dsn == memoryDSN {
		return
	}
	ms, err := st.ListMatches(ctx, arena.MatchFilter{LeagueID: leagueID, Limit: 1})
	if err != nil || len(ms) == 0 {
		return
	}
	db := m.suggestDB(dsn)
	fmt.Fprintf(m.Stdout, "\nreplay a deal: tapp replay %s --deal 0%s\nevery match:   tapp matches%s", ms[0].ID, db, db)
	if leagueID != "" {
		fmt.Fprintf(m.Stdout, " --league %s", leagueID)
	}
	fmt.Fprintln(m.Stdout)
}
