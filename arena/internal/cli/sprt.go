package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tapparena/tapp/arena/internal/app"
	"github.com/tapparena/tapp/arena/internal/league"
	"github.com/tapparena/tapp/arena/internal/league/leaguefile"
	"github.com/tapparena/tapp/arena/internal/league/plan"
	"github.com/tapparena/tapp/arena/internal/league/sprt"
	"github.com/tapparena/tapp/arena/internal/match"
	"github.com/tapparena/tapp/arena/internal/notify"
	"github.com/tapparena/tapp/arena/internal/rating"
	"github.com/tapparena/tapp/engine"
)

const sprtUsage = `--candidate B --baseline A --field X[,Y…] [--bots FILE] [--elo0 0 --elo1 10] [--alpha 0.05 --beta 0.05] [flags]`

// sprtFlags are the flags of tapp sprt.
type sprtFlags struct {
	match                      matchFlags
	candidate, baseline, field string
	botsFile, name, dsn, logs  string
	elo0, elo1, alpha, beta    float64
	maxPairs, concurrency      int
	forDur                     time.Duration
	asJSON                     bool
	notify                     *notifyTargets
}

// sprt runs a sequential test of "is B stronger than A?" on duplicate groups: each round plays
// B with field bots and A with the same field bots on the same deals (B in A's seat), and
// each group pair scores 1, ½ or 0 for B (see the sprt package). It stops when the test
// decides (or at --max-pairs, or --for). The test is a league (named by --name) and resumes
// like one.
func (m *Main) sprt(ctx context.Context, args []string) error {
	f, err := m.parseSPRTFlags(args)
	if err != nil {
		return err
	}
	p, settings, err := f.plan()
	if err != nil {
		return err
	}
	cfg, bots, err := f.bots(p)
	if err != nil {
		return err
	}
	logDir := f.logs
	if logDir == "" {
		logDir = f.name + "-logs"
	}
	st, err := m.openLeagueStore(ctx, f.dsn)
	if err != nil {
		return err
	}
	defer st.Close()
	var until time.Time
	if f.forDur > 0 {
		until = time.Now().Add(f.forDur)
	}
	s, out, err := app.RunSPRT(ctx, st, app.SPRTRun{Plan: p, Settings: settings, Config: cfg, Bots: bots,
		BotLogs: filepath.Clean(logDir), Until: until, Concurrency: f.concurrency, Executable: m.Executable, Log: m.Log})
	summary := notify.Summary{Kind: notify.SPRT, Name: p.League, DB: redactDSN(f.dsn),
		Next: []string{"tapp ratings --league " + p.League + m.suggestDB(f.dsn)}}
	if err != nil {
		summary.Status, summary.Reason = "failed", err.Error()
		m.notify(ctx, *f.notify, summary)
		return err
	}
	summary.Status, summary.Reason, summary.Deals, summary.Result = s.Report.Status.String(), out.Stopped, out.Played, sprtJSON(p, s, out)
	m.notify(ctx, *f.notify, summary)
	return m.printSPRT(p, s, out, f.asJSON)
}

// parseSPRTFlags parses and checks the flags of tapp sprt.
func (m *Main) parseSPRTFlags(args []string) (*sprtFlags, error) {
	fs := m.flags("sprt", sprtUsage)
	f := &sprtFlags{}
	f.match.register(fs)
	fs.StringVar(&f.candidate, "candidate", "", "the bot under test (B): a built-in kind, or a name from --bots")
	fs.StringVar(&f.baseline, "baseline", "", "the bot it is compared with (A)")
	fs.StringVar(&f.field, "field", "", "the opponents both meet, comma-separated (at least players−1)")
	fs.StringVar(&f.botsFile, "bots", "", "a league file whose bots: list defines the named bots (commands, tokens, args)")
	fs.StringVar(&f.name, "name", "", "the test's name, under which it is stored and resumed (default sprt-B-vs-A-sSEED)")
	fs.Float64Var(&f.elo0, "elo0", 0, "H0: normalized Elo of B over A")
	fs.Float64Var(&f.elo1, "elo1", 10, "H1: normalized Elo of B over A")
	fs.Float64Var(&f.alpha, "alpha", 0.05, "type I error: accepting H1 when H0 holds")
	fs.Float64Var(&f.beta, "beta", 0.05, "type II error: accepting H0 when H1 holds")
	fs.IntVar(&f.maxPairs, "max-pairs", 0, "stop undecided after this many group pairs, rounded up to whole rounds of --deals pairs (0: no limit)")
	fs.DurationVar(&f.forDur, "for", 0, "stop undecided after this long")
	fs.IntVar(&f.concurrency, "concurrency", 8, "tables played at once")
	fs.StringVar(&f.dsn, "db", m.env("TAPP_DB", defaultDB), "store: a SQLite file or a postgres:// URL; memory: keeps nothing (env TAPP_DB)")
	fs.StringVar(&f.logs, "logs", "", "folder for the launched bots' stderr (default NAME-logs)")
	fs.BoolVar(&f.asJSON, "json", false, "print the result as JSON")
	f.notify = notifyFlag(fs, "test")
	// A round of the test is a few deal sources, not a match's hundred.
	deals := fs.Lookup("deals")
	deals.Usage, deals.DefValue = "deal sources per round: each is one pair of duplicate groups", "8"
	f.match.deals = 8
	if err := parseFlags(fs, args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, usagef("tapp sprt %s", sprtUsage)
	}
	if err := checkBounds(fs).count("max-pairs", f.maxPairs, 0, math.MaxInt32).duration("for", f.forDur, 0, maxFor).
		count("concurrency", f.concurrency, 1, match.MaxTables).err(); err != nil {
		return nil, err
	}
	if err := f.match.check(); err != nil {
		return nil, err
	}
	// The test plays its own kind of match: these match flags would be ignored.
	var ignored []string
	fs.Visit(func(fl *flag.Flag) {
		if fl.Name == "duplicate" || fl.Name == "format" || fl.Name == "rounds" {
			ignored = append(ignored, "--"+fl.Name)
		}
	})
	if len(ignored) > 0 {
		return nil, usagef("tapp sprt always plays duplicate deals in rounds of --deals pairs: leave out %s", strings.Join(ignored, ", "))
	}
	if f.candidate == "" || f.baseline == "" || len(splitList(f.field)) == 0 {
		return nil, usagef("tapp sprt needs --candidate, --baseline and --field\n  tapp sprt %s", sprtUsage)
	}
	if !(f.elo0 < f.elo1) || !(f.alpha > 0 && f.beta > 0 && f.alpha+f.beta < 1) {
		return nil, usagef("need --elo0 < --elo1 and 0 < --alpha, --beta with alpha+beta < 1")
	}
	if f.name == "" {
		f.name = fmt.Sprintf("sprt-%s-vs-%s-s%d", f.candidate, f.baseline, f.match.seed)
	}
	return f, nil
}

// plan returns the test's plan and settings.
func (f *sprtFlags) plan() (*plan.Plan, sprt.Settings, error) {
	mf := &f.match
	settings := sprt.Settings{NElo0: f.elo0, NElo1: f.elo1, Alpha: f.alpha, Beta: f.beta, MaxPairs: f.maxPairs}
	rules, err := mf.ruleSet()
	if err != nil {
		return nil, settings, err
	}
	dealsText := ""
	if mf.dealsFile != "" {
		text, err := os.ReadFile(mf.dealsFile)
		if err != nil {
			return nil, settings, err
		}
		if _, err := engine.ParseDeals(rules, string(text)); err != nil {
			return nil, settings, usagef("%s: %v", mf.dealsFile, err)
		}
		dealsText = string(text)
	}
	base := plan.Plan{Rules: rules, Deals: mf.deals, Seed: mf.seed, DealsText: dealsText,
		TimeControl: mf.timeControl()}
	p, err := sprt.NewPlan(f.name, base, f.candidate, f.baseline, splitList(f.field), settings)
	if err != nil {
		return nil, settings, usagef("%v", err)
	}
	if err := p.Check(); err != nil {
		return nil, settings, usagef("%v", err)
	}
	return p, settings, nil
}

// bots returns the test's bots: from --bots, else built-in kinds named after themselves,
// with the league settings they are launched with.
func (f *sprtFlags) bots(p *plan.Plan) (*leaguefile.Config, []leaguefile.Bot, error) {
	cfg := &leaguefile.Config{Name: f.name, Concurrency: f.concurrency, Seed: f.match.seed, Dir: "."}
	var defined *leaguefile.Config
	if f.botsFile != "" {
		opts := builtinParseOptions
		opts.BotsOnly = true
		var err error
		if defined, err = leaguefile.Load(f.botsFile, opts); err != nil {
			var ce *leaguefile.Error
			if errors.As(err, &ce) {
				return nil, nil, usageError{ce.Error()}
			}
			return nil, nil, err
		}
		cfg.Dir = defined.Dir
	}
	bots, err := leaguefile.NamedBots(defined, p.Bots, builtinParseOptions)
	if err != nil {
		return nil, nil, usagef("%v", err)
	}
	return cfg, bots, nil
}

// sprtVerdict says what the test decided.
func sprtVerdict(p *plan.Plan, rep rating.SPRTReport) string {
	switch rep.Status {
	case rating.SPRTAcceptH1:
		return fmt.Sprintf("H1 accepted: %s is stronger than %s (nElo ≥ %g rather than ≤ %g)", p.Candidate, p.Baseline, rep.Elo1, rep.Elo0)
	case rating.SPRTAcceptH0:
		return fmt.Sprintf("H0 accepted: %s is not stronger than %s by nElo %g (rather %g or less)", p.Candidate, p.Baseline, rep.Elo1, rep.Elo0)
	}
	return "undecided"
}

// sprtJSON is what `tapp sprt --json` prints.
func sprtJSON(p *plan.Plan, s sprt.Summary, out *league.Outcome) map[string]any {
	rep := s.Report
	finite := func(x float64) *float64 {
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return nil
		}
		return &x
	}
	return map[string]any{
		"name": p.League, "candidate": p.Candidate, "baseline": p.Baseline, "field": p.Field,
		"status": rep.Status.String(), "verdict": sprtVerdict(p, rep), "llr": rep.LLR, "lower": rep.Lower, "upper": rep.Upper,
		"elo0": rep.Elo0, "elo1": rep.Elo1, "pairs": s.Pairs, "decided_at": rep.DecidedAt,
		"wins": s.W, "draws": s.D, "losses": s.L, "score": s.Elo.Score,
		"elo": finite(s.Elo.Elo), "elo_margin": finite(s.Elo.Margin), "nelo": s.Elo.NElo, "nelo_margin": s.Elo.NEloMargin,
		"diff_per_deal": s.Diff.Mean, "diff_lo": s.Diff.Lo, "diff_hi": s.Diff.Hi, "stopped": out.Stopped,
		"tables": out.Admission, "decisions": out.Decisions, "fallbacks": out.Fallbacks,
	}
}

func (m *Main) printSPRT(p *plan.Plan, s sprt.Summary, out *league.Outcome, asJSON bool) error {
	rep := s.Report
	verdict := sprtVerdict(p, rep)
	if asJSON {
		enc := json.NewEncoder(m.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(sprtJSON(p, s, out))
	}
	w := m.Stdout
	fmt.Fprintf(w, "SPRT %s: %s vs %s against %s, %s, duplicate groups\n\n", p.League, p.Candidate, p.Baseline,
		strings.Join(p.Field, ", "), shortRules(p.Rules))
	fmt.Fprintf(w, "%s\n", verdict)
	fmt.Fprintf(w, "LLR %.3f, bounds [%.3f, %.3f] (α = %g, β = %g), N = %d group pairs\n", rep.LLR, rep.Lower, rep.Upper,
		alphaOf(rep), betaOf(rep), s.Pairs)
	fmt.Fprintf(w, "pairs won / drawn / lost by %s: %d / %d / %d, score %.3f\n", p.Candidate, s.W, s.D, s.L, s.Elo.Score)
	fmt.Fprintf(w, "normalized Elo per pair (fishtest's nElo per game, exact GSPRT) %+.1f ± %.1f; Elo %s\n", s.Elo.NElo, s.Elo.NEloMargin, eloText(s.Elo))
	fmt.Fprintf(w, "%s − %s per deal: %+.2f ± %.2f (95%%, n = %d)\n", p.Candidate, p.Baseline, s.Diff.Mean, s.Diff.Half, s.Diff.N)
	if line := tablesLine(out.Admission); line != "" {
		fmt.Fprintln(w, line)
	}
	switch {
	case rep.Status != rating.SPRTContinue:
	case out.Finished:
		fmt.Fprintf(w, "\nundecided after %d pairs (%d rounds of %d, as --max-pairs asks): run it again with a larger --max-pairs to go on\n",
			s.Pairs, p.Rounds, p.Deals)
	default:
		fmt.Fprintf(w, "\nstopped (%s) before a decision: run the same command to continue\n", out.Stopped)
	}
	return nil
}

// alphaOf and betaOf recover α and β from the bounds (lower = ln(β/(1−α)), upper = ln((1−β)/α)).
func alphaOf(r rating.SPRTReport) float64 {
	a := (1 - math.Exp(r.Lower)) / (math.Exp(r.Upper) - math.Exp(r.Lower))
	return math.Round(a*1e4) / 1e4
}

func betaOf(r rating.SPRTReport) float64 {
	b := math.Exp(r.Lower) * (1 - alphaOf(r))
	return math.Round(b*1e4) / 1e4
}

func eloText(e rating.EloEstimate) string {
	if math.IsInf(e.Elo, 0) || math.IsInf(e.Margin, 0) || math.IsNaN(e.Margin) {
		return fmt.Sprintf("%+.0f (interval unbounded)", e.Elo)
	}
	return fmt.Sprintf("%+.1f ± %.1f", e.Elo, e.Margin)
}
