package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/tapparena/tapp/arena/internal/app"
	"github.com/tapparena/tapp/arena/internal/board"
	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/store"
	"github.com/tapparena/tapp/engine"
)

// familyFlag collects --family NAME=BOT,BOT,... flags into a bot → family map.
type familyFlag map[string]string

func (f familyFlag) String() string { return "" }

func (f familyFlag) Set(v string) error {
	name, bots, ok := strings.Cut(v, "=")
	if !ok || name == "" || bots == "" {
		return fmt.Errorf("want NAME=BOT,BOT,... (e.g. kibitz=kibitz-v1,kibitz-v2), got %q", v)
	}
	for _, b := range strings.Split(bots, ",") {
		if b = strings.TrimSpace(b); b != "" {
			if g, taken := f[b]; taken && g != name {
				return fmt.Errorf("bot %s is in family %s already", b, g)
			}
			f[b] = name
		}
	}
	return nil
}

func (m *Main) ratings(ctx context.Context, args []string) error {
	fs := m.flags("ratings", "[flags]")
	leagueID := fs.String("league", "", "only this league's results")
	bot := fs.String("bot", "", "only matches this bot played in")
	rules := fs.String("rules", "", "only matches under this rule set (canonical or short form, e.g. modern)")
	asJSON := fs.Bool("json", false, "print the leaderboard as JSON (with the league's rating over time)")
	asCSV := fs.Bool("csv", false, "print the standings (with --history: every point of the rating over time) as CSV")
	history := fs.Bool("history", false, "also print the league's rating over its time (the headline with its interval), as a compact table")
	recompute := fs.Bool("recompute", false, "derive everything from the raw results instead of the kept sums, and check the kept sums against them (slow: reads every deal)")
	tainted := fs.Bool("include-tainted", false, "count matches with a forfeit or more than 1% fallbacks in the ratings")
	withAnalysis := fs.Bool("analysis", false, "add card-play error and bidding regret per deal from the stored analyses (tapp analyze)")
	roles := fs.Bool("roles", true, "print each bot's roles: declarer, defender, contracts, seats")
	families := familyFlag{}
	fs.Var(families, "family", "NAME=BOT,BOT,...: these bots are versions of one bot (repeatable); their results are split with and without the family at the table")
	dsn := fs.String("db", m.env("TAPP_DB", defaultDB), "store: a SQLite file or a postgres:// URL (env TAPP_DB)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("tapp ratings takes no arguments (use --league NAME)")
	}
	if *asJSON && *asCSV {
		return usagef("choose one of --json and --csv")
	}
	f := domain.MatchFilter{LeagueID: *leagueID, Bot: *bot}
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
	lo := board.LoadOptions{Recompute: *recompute, IncludeTainted: *tainted}
	if *recompute && m.Log != nil {
		last := time.Now()
		lo.Progress = func(done, total int) {
			if time.Since(last) > 2*time.Second || done == total {
				last = time.Now()
				m.Log.Info("recomputing the ratings from raw results", zap.Int("matches", done), zap.Int("of", total))
			}
		}
	}
	lb, err := app.Leaderboard(ctx, st, app.BoardQuery{Filter: f, Load: lo, Families: families, // --family overrides the league file
		History: *history || *asJSON})
	if err != nil {
		return err
	}
	switch {
	case *asJSON:
		enc := json.NewEncoder(m.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(lb)
	case *asCSV && *history:
		return board.WriteHistoryCSV(m.Stdout, lb)
	case *asCSV:
		return board.WriteCSV(m.Stdout, lb)
	}
	return m.printRatings(ctx, st, f, lb, rulesText, board.RenderOptions{Roles: *roles, History: *history}, *withAnalysis, *dsn)
}

// printRatings prints the board as text: its rule sets (rulesText, when the filter named
// one), the standings, the stored analyses beside them (withAnalysis), and how to replay.
func (m *Main) printRatings(ctx context.Context, st *store.Store, f domain.MatchFilter, lb *board.Leaderboard, rulesText string,
	ro board.RenderOptions, withAnalysis bool, dsn string) error {
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
	ro.Rules = rulesText
	board.Render(m.Stdout, lb, ro)
	if withAnalysis {
		if err := m.printAnalysisColumns(ctx, st, f, lb); err != nil {
			return err
		}
	}
	if len(short) > 1 {
		fmt.Fprintf(m.Stdout, "\nthese results mix %d rule sets, whose scores do not compare: choose one with --rules (%s)\n",
			len(short), strings.Join(short, "; "))
	}
	return m.printReplayHint(ctx, st, f.LeagueID, dsn)
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

// printLeaderboard prints the leaderboard with its roles (board.Render).
func (m *Main) printLeaderboard(lb *board.Leaderboard, rules string, history bool) {
	board.Render(m.Stdout, lb, board.RenderOptions{Rules: rules, Roles: true, History: history})
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
func (m *Main) printReplayHint(ctx context.Context, st domain.Store, leagueID, dsn string) error {
	if dsn == memoryDSN {
		return nil
	}
	ms, err := st.ListMatches(ctx, domain.MatchFilter{LeagueID: leagueID, Limit: 1})
	if err != nil || len(ms) == 0 {
		return err
	}
	db := m.suggestDB(dsn)
	fmt.Fprintf(m.Stdout, "\nreplay a deal: tapp replay %s --deal 0%s\nevery match:   tapp matches%s", ms[0].ID, db, db)
	if leagueID != "" {
		fmt.Fprintf(m.Stdout, " --league %s", leagueID)
	}
	fmt.Fprintln(m.Stdout)
	return nil
}
