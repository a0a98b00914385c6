package cli

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/schollz/progressbar/v3"
	"go.uber.org/zap"
	"go.uber.org/zap/exp/zapslog"

	"github.com/tapparena/tapp/arena/internal/admission"
	"github.com/tapparena/tapp/arena/internal/app"
	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/match"
	"github.com/tapparena/tapp/arena/internal/notify"
	"github.com/tapparena/tapp/arena/internal/store/memstore"
	"github.com/tapparena/tapp/bots/builtin"
	"github.com/tapparena/tapp/bots/sdk"
	"github.com/tapparena/tapp/bots/search"
	"github.com/tapparena/tapp/bots/sleuth"
	"github.com/tapparena/tapp/engine"
)

func (m *Main) bot(ctx context.Context, args []string) error {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return usagef("tapp bot KIND --arena ADDR --token T (KIND: %s)", strings.Join(builtin.Names(), ", "))
	}
	kind := args[0]
	fs := m.flags("bot "+kind, "[flags]")
	addr := fs.String("arena", m.env("TAPP_ARENA", "127.0.0.1:7000"), "arena address (env TAPP_ARENA)")
	token := fs.String("token", m.Getenv("TAPP_TOKEN"), "the bot's token (env TAPP_TOKEN)")
	name := fs.String("name", m.Getenv("TAPP_BOT_NAME"), "name to say in hello (default: the token's bot; env TAPP_BOT_NAME)")
	capacity := fs.Int("capacity", 16, "games to play at once")
	seed := fs.Uint64("seed", 1, "seed for randomised bots")
	samples := fs.Int("samples", search.DefaultSamples, search.Name+": deals sampled per decision")
	budget := fs.Duration("budget", search.DefaultBudget, search.Name+": time per decision")
	threads := fs.Int("threads", 1, search.Name+": goroutines solving samples of one decision")
	tlsFlags := m.clientTLSFlags(fs)
	if err := parseFlags(fs, args[1:]); err != nil {
		return err
	}
	if err := checkBounds(fs).count("capacity", *capacity, 1, match.MaxTables).count("samples", *samples, 1, 1_000_000).
		duration("budget", *budget, time.Millisecond, domain.MaxPerDecision).count("threads", *threads, 1, 1024).err(); err != nil {
		return err
	}
	b, err := builtin.New(kind, *seed)
	if err != nil {
		return usagef("%v", err)
	}
	if kind == search.Name {
		b = search.New(search.Config{Samples: *samples, Budget: *budget, Threads: *threads, Seed: *seed})
	} else if kind != sleuth.Name && m.SetMaxProcs != nil && m.Getenv("GOMAXPROCS") == "" {
		// The simple bots think for microseconds: one thread serves all their games. More
		// would only wake up and compete for the cores the arena and the other bots need
		// (a third more deals per second with three random bots on two cores). The search
		// bots think for tens of milliseconds a decision: their games run side by side.
		m.SetMaxProcs(1)
	}
	if *token == "" {
		return usagef("no token: pass --token or set TAPP_TOKEN")
	}
	logName := *name
	if logName == "" {
		logName = kind
	}
	err = sdk.Run(ctx, sdk.Config{Arena: *addr, Token: *token, Name: *name, Version: "builtin/" + kind,
		Capacity: *capacity, Log: slog.New(zapslog.NewHandler(m.Log.With(zap.String("bot", logName)).Core())), TLS: tlsFlags.on, CA: tlsFlags.ca, Flags: cliTLSFlags}, b)
	if errors.Is(err, sdk.ErrGoingAway) {
		return nil
	}
	return err
}

// matchFlags are the flags that say what a match plays, shared by match and league-like commands.
type matchFlags struct {
	variant, rules, dealsFile string
	players, deals            int
	seed                      uint64
	duplicate                 bool
	perDecision, overage      time.Duration
	strikes                   int
	bank                      string
	format                    string
	rounds                    int
	fs                        *flag.FlagSet
}

func (f *matchFlags) register(fs *flag.FlagSet) {
	f.fs = fs
	fs.StringVar(&f.variant, "variant", "modern", "rule variant: modern, classic or wuerttemberg")
	fs.StringVar(&f.rules, "rules", "", "full rule set in canonical form (overrides --variant and --players)")
	fs.IntVar(&f.players, "players", 3, "players at the table (4 only in modern)")
	fs.IntVar(&f.deals, "deals", 100, fmt.Sprintf("deals to play (deal sources in duplicate mode), at most %d; with --deals-file: the whole file unless given, and no more than it holds", match.MaxDeals))
	fs.Uint64Var(&f.seed, "seed", 1, "seed of the deals")
	fs.BoolVar(&f.duplicate, "duplicate", false, "play every deal under every seating")
	fs.StringVar(&f.dealsFile, "deals-file", "", "play the deals of this file instead of seeded ones")
	fs.DurationVar(&f.perDecision, "time", domain.DefaultTimeControl.PerDecision, "time per decision")
	fs.DurationVar(&f.overage, "overage", domain.DefaultTimeControl.Overage, "overage bank per bot and game (per match with --bank match)")
	fs.IntVar(&f.strikes, "strikes", domain.DefaultTimeControl.MaxStrikes, "strikes in a game before a bot forfeits the game (the match with --bank match; 0: never)")
	fs.StringVar(&f.bank, "bank", string(domain.ClockPerGame), "whose bank and strikes: game (each deal's, a session's) or match (one per bot for the whole match, shared by its tables)")
	fs.StringVar(&f.format, "format", domain.FormatDeals, "deals, or session (modern: --rounds rounds, then the ace-of-hearts ending and the forced Ramsch round)")
	fs.IntVar(&f.rounds, "rounds", 1, "session format: the agreed rounds (every player deals once per round)")
}

func (f *matchFlags) ruleSet() (engine.RuleSet, error) {
	text := f.rules
	if text == "" {
		text = fmt.Sprintf("%s players=%d", f.variant, f.players)
	}
	r, err := engine.ParseRuleSet(text)
	if err != nil {
		return r, usagef("rules: %v", err)
	}
	return r, nil
}

// check checks the match's counts and clock as a league file's are checked.
func (f *matchFlags) check() error {
	b := checkBounds(f.fs)
	if f.dealsFile == "" || isSet(f.fs, "deals") {
		b.count("deals", f.deals, 1, match.MaxDeals)
	}
	if _, err := domain.ParseClockScope(f.bank); err != nil {
		b.errs = append(b.errs, "--bank "+strings.TrimPrefix(err.Error(), "bank: "))
	}
	return b.count("rounds", f.rounds, 0, maxSessionRounds).
		timeControl(f.timeControl(), "time", "overage", "strikes").err()
}

// maxSessionRounds bounds --rounds of a session (a session of modern Tapp ends within its
// rounds plus two: the ace-of-hearts round and the forced Ramsch round).
const maxSessionRounds = 1000

func (f *matchFlags) timeControl() domain.TimeControl {
	scope, _ := domain.ParseClockScope(f.bank) // check says what is wrong with it
	return domain.TimeControl{PerDecision: f.perDecision, Overage: f.overage, MaxStrikes: f.strikes, Scope: scope}
}

func (f *matchFlags) spec(bots []string) (domain.MatchSpec, error) {
	if err := f.check(); err != nil {
		return domain.MatchSpec{}, err
	}
	rules, err := f.ruleSet()
	if err != nil {
		return domain.MatchSpec{}, err
	}
	spec := domain.MatchSpec{
		Rules: rules, Bots: bots, Deals: f.deals, Seed: f.seed, Duplicate: f.duplicate,
		TimeControl: f.timeControl(),
	}
	if f.format == domain.FormatSession {
		spec.Format, spec.Rounds = domain.FormatSession, f.rounds
	} else if f.format != domain.FormatDeals {
		return spec, usagef("--format: %q is neither deals nor session", f.format)
	}
	if f.dealsFile != "" {
		text, err := os.ReadFile(f.dealsFile)
		if err != nil {
			return spec, err
		}
		if deals, err := engine.ParseDeals(rules, string(text)); err != nil || len(deals) == 0 {
			if err == nil {
				err = errors.New("no deals in it")
			}
			return spec, usagef("--deals-file %s: %v", f.dealsFile, err)
		}
		spec.DealsText = string(text)
		if !isSet(f.fs, "deals") {
			spec.Deals = 0 // the whole file
		}
	}
	if _, err := match.NewSchedule(spec); err != nil {
		if f.dealsFile != "" {
			return spec, usagef("--deals-file %s: %v", f.dealsFile, err)
		}
		return spec, usagef("%v", err)
	}
	return spec, nil
}

func (m *Main) match(ctx context.Context, args []string) error {
	fs := m.flags("match", "--bots A,B,C [flags]")
	var mf matchFlags
	mf.register(fs)
	botList := fs.String("bots", "", "built-in bots in table order, e.g. random,heuristic,random")
	dsn := fs.String("db", m.env("TAPP_DB", defaultDB), "store: a SQLite file or a postgres:// URL; memory: keeps nothing (env TAPP_DB)")
	parallel := fs.Int("parallel", 8, "tables played at once")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	logDir := fs.String("bot-logs", "", "folder for the bots' stderr logs (default: discarded)")
	remote := fs.String("arena", "", "play among bots connected to this running arena (admin API, needs TAPP_ADMIN_TOKEN) instead of launching built-in bots")
	inProcess := fs.Bool("in-process", false, "call the built-in bots in this process, without gRPC (the same deals, stored alike; faster)")
	noRecords := fs.Bool("no-records", false, "with --in-process: keep no request or answer in the decision records (fastest; replays show the moves, not what each bot was asked)")
	remoteTLS := m.clientTLSFlags(fs)
	notifyTo := notifyFlag(fs, "match")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := checkBounds(fs).count("parallel", *parallel, 1, match.MaxTables).err(); err != nil {
		return err
	}
	if *remote != "" && *inProcess {
		return usagef("--in-process plays built-in bots in this process; --arena plays bots connected to a running arena: choose one")
	}
	if *noRecords && !*inProcess {
		return usagef("--no-records plays in process only: add --in-process")
	}
	if *remote != "" {
		if isSet(fs, "parallel") {
			return usagef("--parallel: a running arena plays each match at the tables its tapp serve --parallel allows")
		}
		spec, err := mf.spec(splitList(*botList))
		if err != nil {
			return err
		}
		return m.remoteMatch(ctx, *remote, remoteTLS, spec, *asJSON, *notifyTo)
	}
	kinds := splitList(*botList)
	spec, err := mf.spec(app.SeatNames(kinds))
	if err != nil {
		return err
	}
	for _, k := range kinds {
		if _, err := builtin.New(k, 0); err != nil {
			return usagef("%v", err)
		}
	}
	st, err := m.openMatchStore(ctx, *dsn)
	if err != nil {
		return err
	}
	defer st.Close()
	progress, endProgress, admitted := m.progressFrom("deals")
	played, err := app.PlayMatch(ctx, st, app.MatchPlay{Spec: spec, Kinds: kinds, InProcess: *inProcess, Unrecorded: *noRecords, Parallel: *parallel,
		BotLogs: *logDir, Executable: m.Executable, Log: m.Log, Progress: progress, Admitted: admitted})
	endProgress()
	summary := notify.Summary{Kind: notify.Match, Status: "finished", DB: redactDSN(*dsn)}
	if err != nil && ctx.Err() != nil {
		err = errors.New("interrupted: the match stopped; the deals it finished are stored")
	}
	if err != nil {
		summary.Status, summary.Reason = "failed", err.Error()
		m.notify(ctx, *notifyTo, summary)
		return err
	}
	summary.Name, summary.Deals, summary.Result = played.Match.ID, played.Result.Deals, matchJSON(played, spec)
	if *dsn != memoryDSN {
		summary.Next = []string{"tapp replay " + played.Match.ID + " --deal 0 --full" + m.suggestDB(*dsn)}
	}
	m.notify(ctx, *notifyTo, summary)
	return m.printMatch(played, spec, *asJSON, *dsn)
}

// matchJSON is what `tapp match --json` prints of a played match.
func matchJSON(played *app.PlayedMatch, spec domain.MatchSpec) map[string]any {
	mt, res := played.Match, played.Result
	return map[string]any{"match": mt.ID, "rules": spec.Rules.String(), "deals": res.Deals,
		"forfeited": res.Forfeited, "bots": played.Lines, "decisions": mt.Decisions, "fallbacks": mt.Fallbacks,
		"tainted": mt.FallbackShare() > domain.TaintedShare, "commitment": mt.Commitment,
		"chain":  map[string]any{"deals": mt.ChainLength, "head": hex.EncodeToString(mt.ChainHead)},
		"tables": mt.Admission, "games_forfeited": res.ForfeitedGames}
}

// printMatch prints a played match: its result table, forfeits, a warning when the arena
// played too many of its decisions, and how to replay it (as JSON with asJSON).
func (m *Main) printMatch(played *app.PlayedMatch, spec domain.MatchSpec, asJSON bool, dsn string) error {
	mt, res, table := played.Match, played.Result, played.Lines
	if asJSON {
		enc := json.NewEncoder(m.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(matchJSON(played, spec))
	}
	fmt.Fprintf(m.Stdout, "match %s — %s, %d deals, seed %d\n\n", mt.ID, spec.Rules, res.Deals, spec.Seed)
	printResultTable(m.Stdout, table, unit(spec.Rules))
	if line := tablesLine(mt.Admission); line != "" {
		fmt.Fprintln(m.Stdout, "\n"+line)
	}
	if mt.Commitment != "" && mt.ChainLength > 0 {
		// What a third party checks an export of the match against (docs/replay.md).
		fmt.Fprintf(m.Stdout, "\ncommitted to before its first deal: %s\nstored deals chained: %d, the last link %x\n",
			mt.Commitment, mt.ChainLength, mt.ChainHead)
	}
	if len(res.Forfeited) > 0 {
		fmt.Fprintf(m.Stdout, "\nforfeited the match: %s\n", strings.Join(res.Forfeited, ", "))
	}
	if len(res.ForfeitedGames) > 0 {
		var games []string
		for _, b := range slices.Sorted(maps.Keys(res.ForfeitedGames)) {
			games = append(games, fmt.Sprintf("%s %d", b, res.ForfeitedGames[b]))
		}
		fmt.Fprintf(m.Stdout, "\ngames forfeited by strikes: %s\n", strings.Join(games, ", "))
	}
	if warning := fallbackWarning(mt.Fallbacks, mt.Decisions); warning != "" {
		fmt.Fprintln(m.Stdout, "\n"+warning)
	}
	if dsn != memoryDSN {
		fmt.Fprintf(m.Stdout, "\nreplay a deal: tapp replay %s --deal 0 --full%s\n", mt.ID, m.suggestDB(dsn))
	}
	return nil
}

// openMatchStore opens the store a match plays into: memory: is the in-memory store (nothing
// is kept, for measurements), anything else a SQLite file or a PostgreSQL URL.
func (m *Main) openMatchStore(ctx context.Context, dsn string) (domain.Store, error) {
	if dsn == memoryDSN {
		return memstore.New(), nil
	}
	return m.openStore(ctx, dsn)
}

func unit(r engine.RuleSet) string {
	if r.Variant == engine.Modern {
		return "cents"
	}
	return "points"
}

func printResultTable(w io.Writer, lines []app.BotLine, unit string) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "bot\tdeals\tnet %s\tper deal\t95%% interval\tLOS(>0)\tdeclared\twon\tavg card points\t\n", unit)
	for _, l := range lines {
		iv, los := "—", "—"
		if l.LOS != nil {
			iv, los = fmt.Sprintf("[%+.2f, %+.2f]", l.PerDealLo, l.PerDealHi), fmt.Sprintf("%.1f%%", 100**l.LOS)
		}
		fmt.Fprintf(tw, "%s\t%d\t%+d\t%+.2f\t%s\t%s\t%d\t%d\t%.1f\t\n", l.Bot, l.Deals, l.Net, l.PerDeal,
			iv, los, l.Declared, l.DeclaredWon, l.AvgPoints)
	}
	tw.Flush()
}

// progress shows a bar on a terminal and a log line every 5 s otherwise; call with -1 to end.
func (m *Main) progress(total int, what string) func(done int) {
	return m.newProgress(total, what).show
}

// progressLine is a bar on a terminal, a log line every 5 s otherwise, with a note (the
// admission control's latest change) in its description or its fields.
type progressLine struct {
	m     *Main
	total int
	what  string
	bar   *progressbar.ProgressBar

	mu          sync.Mutex
	start, last time.Time
	note        string
}

func (m *Main) newProgress(total int, what string) *progressLine {
	p := &progressLine{m: m, total: total, what: what, start: time.Now(), last: time.Now()}
	if m.Terminal {
		p.bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(m.Stderr),
			progressbar.OptionSetDescription(what), progressbar.OptionShowCount(), progressbar.OptionSetPredictTime(true),
			progressbar.OptionShowIts(), progressbar.OptionSetItsString(what), progressbar.OptionThrottle(100*time.Millisecond))
	}
	return p
}

// show shows done of the total; -1 ends the line.
func (p *progressLine) show(done int) {
	if p.bar != nil {
		if done < 0 {
			_ = p.bar.Finish()
			fmt.Fprintln(p.m.Stderr)
			return
		}
		_ = p.bar.Set(done)
		return
	}
	p.mu.Lock()
	if done < 0 || time.Since(p.last) < 5*time.Second {
		p.mu.Unlock()
		return
	}
	p.last = time.Now()
	note := p.note
	p.mu.Unlock()
	rate := float64(done) / time.Since(p.start).Seconds()
	eta := time.Duration(float64(p.total-done)/rate) * time.Second
	fields := []zap.Field{zap.Int("done", done), zap.Int("total", p.total), zap.Float64("per_second", rate), zap.Duration("eta", eta)}
	if note != "" {
		fields = append(fields, zap.String("tables", note))
	}
	p.m.Log.Info("progress", fields...)
}

// setNote puts a note beside the progress: in the bar's description, or in the log lines.
func (p *progressLine) setNote(note string) {
	p.mu.Lock()
	p.note = note
	p.mu.Unlock()
	if p.bar != nil {
		p.bar.Describe(p.what + " · " + note)
	}
}

// progressFrom is progress for a use case that tells the total with its first report: the
// bar (or the log lines) starts then; end finishes it, if it started. admitted shows the
// admission control's changes beside it ("host overloaded: 200 → 48 tables").
func (m *Main) progressFrom(what string) (report func(done, total int), end func(), admitted func(admission.Change)) {
	var mu sync.Mutex
	var line *progressLine
	var note string
	report = func(done, total int) {
		mu.Lock()
		if line == nil {
			line = m.newProgress(total, what)
			if note != "" {
				line.setNote(note)
			}
		}
		l := line
		mu.Unlock()
		l.show(done)
	}
	end = func() {
		mu.Lock()
		defer mu.Unlock()
		if line != nil {
			line.show(-1)
		}
	}
	admitted = func(ch admission.Change) {
		mu.Lock()
		defer mu.Unlock()
		note = ch.String()
		if line != nil {
			line.setNote(note)
		}
	}
	return report, end, admitted
}

// tablesLine says how many tables the arena ran at once, and what an overloaded host made it
// hold back ("" without a record of it).
func tablesLine(a *domain.Admission) string {
	if a == nil || a.Most == 0 {
		return ""
	}
	line := fmt.Sprintf("tables: %d asked, %d at most at once, %.1f on average", a.Asked, a.Most, a.Mean)
	if a.Overloaded() && a.AllowedMean > 0 {
		line += fmt.Sprintf(" (%.1f allowed on average)", a.AllowedMean)
	}
	if a.Overloaded() {
		var held []string
		if a.Lowered > 0 {
			held = append(held, fmt.Sprintf("lowered them %d times (to %d at the fewest)", a.Lowered, a.Fewest))
		}
		if a.Pauses > 0 {
			held = append(held, fmt.Sprintf("paused new deals %d times for %v", a.Pauses, a.Paused.Round(time.Millisecond)))
		}
		line += "; the host was overloaded: the arena " + strings.Join(held, " and ") + ", so that no bot lost time"
	}
	return line
}

// fallbackWarning says that results are not to be trusted when more than domain.TaintedShare
// of their decisions were played by the arena; "" when they are fine.
func fallbackWarning(fallbacks, decisions int) string {
	if decisions == 0 || float64(fallbacks)/float64(decisions) <= domain.TaintedShare {
		return ""
	}
	return fmt.Sprintf("WARNING: %d of %d decisions (%.1f%%) were fallbacks the arena played for late, forfeited or absent bots:\n"+
		"these results measure the clock and the machine more than the bots (more than %.0f%% flags them)",
		fallbacks, decisions, 100*float64(fallbacks)/float64(decisions), 100*domain.TaintedShare)
}
