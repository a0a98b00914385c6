package cli

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/schollz/progressbar/v3"
	"go.uber.org/zap"

	"github.com/tapparena/tapp/arena/internal/admission"
	"github.com/tapparena/tapp/arena/internal/app"
	"github.com/tapparena/tapp/arena/internal/board"
	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/league"
	"github.com/tapparena/tapp/arena/internal/league/leaguefile"
	"github.com/tapparena/tapp/arena/internal/league/leaguestore"
	"github.com/tapparena/tapp/arena/internal/match"
	"github.com/tapparena/tapp/arena/internal/notify"
	"github.com/tapparena/tapp/arena/internal/server"
	"github.com/tapparena/tapp/arena/internal/store/memstore"
	"github.com/tapparena/tapp/bots/builtin"
)

// maxFor bounds --for (a year: beyond it, leave it out and stop with Ctrl-C).
const maxFor = 365 * 24 * time.Hour

const leagueUsage = `tapp league run FILE [--for 8h] [--db DSN] [--concurrency N] [--listen ADDR [--tls-cert F --tls-key F | --insecure]] [--logs DIR] [--notify URL|CMD] [--json]
tapp league status NAME [--db DSN]
tapp league pause NAME|FILE [--db DSN]
tapp league resume NAME|FILE [--db DSN]
tapp league list [--db DSN]`

// league dispatches the league subcommands.
func (m *Main) league(ctx context.Context, args []string) error {
	if len(args) == 0 {
		return usagef("%s", leagueUsage)
	}
	switch args[0] {
	case "run":
		return m.leagueRun(ctx, args[1:])
	case "status":
		return m.leagueStatus(ctx, args[1:])
	case "list":
		return m.leagueList(ctx, args[1:])
	case "pause":
		return m.leaguePause(ctx, args[1:], true)
	case "resume":
		return m.leaguePause(ctx, args[1:], false)
	}
	if helpFlag(args[0]) {
		fmt.Fprintf(m.Stdout, "%s\n(tapp league SUBCOMMAND -h lists its flags)\n", leagueUsage)
		return nil
	}
	return usagef("unknown league subcommand %q\n%s", args[0], leagueUsage)
}

// memoryDSN selects the in-memory store: nothing is kept (for measurements).
const memoryDSN = "memory:"

// openLeagueStore opens the store a league runs on.
func (m *Main) openLeagueStore(ctx context.Context, dsn string) (leaguestore.Store, error) {
	if dsn == memoryDSN {
		return memstore.New(), nil
	}
	return m.openStore(ctx, dsn)
}

// builtinParseOptions lets the league file name the built-in bots of this build.
var builtinParseOptions = leaguefile.Options{
	Builtin: func(kind string) error {
		_, err := builtin.New(kind, 0)
		return err
	},
	BuiltinNames: builtin.Names,
}

// resolve makes a path from a league file relative to the file's folder.
func resolve(dir, path string) string {
	if path == "" || filepath.IsAbs(path) || path == memoryDSN || path == "memory" || strings.Contains(path, "://") || strings.HasPrefix(path, "sqlite:") {
		return path
	}
	return filepath.Join(dir, path)
}

func (m *Main) leagueRun(ctx context.Context, args []string) error {
	fs := m.flags("league run", "FILE [flags]")
	f := registerLeagueRunFlags(fs, m)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("tapp league run FILE [flags]: give one league file (see docs/league.md)")
	}
	if err := checkBounds(fs).duration("for", *f.forDur, 0, maxFor).count("concurrency", *f.concurrency, 0, match.MaxTables).err(); err != nil {
		return err
	}
	cfg, err := loadLeagueFile(pos[0])
	if err != nil {
		return err
	}
	s, err := m.leagueSettingsOf(cfg, f)
	if err != nil {
		return err
	}
	st, err := m.openLeagueStore(ctx, s.db)
	if err != nil {
		return err
	}
	defer st.Close()
	targets := append(append([]string(nil), cfg.Notify...), *f.notifyTo...)
	if cfg.HasSubmissions() || *f.continuous {
		return m.runStandingLadder(ctx, ladderRun{cfg: cfg, st: st, db: s.db, listen: s.listen, logs: s.logDir, until: s.until, continuous: *f.continuous, hf: &f.hf,
			notify: targets})
	}
	res, err := m.playLeague(ctx, st, cfg, s)
	summary := notify.Summary{Kind: notify.League, Name: cfg.Name, DB: redactDSN(s.db),
		Next: []string{"tapp ratings --league " + cfg.Name + m.suggestDB(s.db), "tapp web" + m.suggestDB(s.db)}}
	if err != nil {
		summary.Status, summary.Reason = "failed", err.Error()
		m.notify(ctx, targets, summary)
		return err
	}
	out := res.Outcome
	result := leagueRunResult{res.Board, out}
	summary.Status, summary.Reason, summary.Deals, summary.Result = "finished", out.Stopped, out.Played, result
	if !out.Finished {
		summary.Status = "stopped"
	}
	m.notify(ctx, targets, summary)
	if *f.asJSON {
		enc := json.NewEncoder(m.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(result)
	}
	return m.printLeagueRun(ctx, st, s.db, res)
}

// leagueRunFlags are tapp league run's flags; the league file fills in those left out.
type leagueRunFlags struct {
	forDur                               *time.Duration
	dsn, listen, logs, certFile, keyFile *string
	concurrency                          *int
	plain, asJSON, continuous            *bool
	notifyTo                             *notifyTargets
	hf                                   hostingFlags
}

func registerLeagueRunFlags(fs *flag.FlagSet, m *Main) *leagueRunFlags {
	f := &leagueRunFlags{
		forDur:      fs.Duration("for", 0, "stop cleanly after this long (e.g. 8h); running the same command again resumes"),
		dsn:         fs.String("db", "", "store: a SQLite file or a postgres:// URL; memory: keeps nothing (default: the file's db, else $TAPP_DB, else "+defaultDB+")"),
		concurrency: fs.Int("concurrency", 0, "tables played at once on this host (default: the file's concurrency)"),
		listen:      fs.String("listen", "", "address bots with a token connect to (default: the file's listen, else a free loopback port)"),
		logs:        fs.String("logs", "", "folder for the launched bots' stderr (default: the file's logs, else NAME-logs in the current folder)"),
		certFile:    fs.String("tls-cert", "", "serve TLS on the listen address with this certificate (PEM; default: the file's tls_cert)"),
		keyFile:     fs.String("tls-key", "", "the certificate's private key (PEM; default: the file's tls_key)"),
		plain:       fs.Bool("insecure", false, "allow plain text on a listen address beyond loopback (default: the file's insecure)"),
		asJSON:      fs.Bool("json", false, "print the final leaderboard as JSON"),
		notifyTo:    notifyFlag(fs, "run of the league"),
		continuous:  fs.Bool("continuous", false, "a standing ladder: keep it going as hosted bots' versions arrive (docs/hosting.md)"),
	}
	f.hf.register(fs, m)
	return f
}

// leagueSettings are what a league run uses, each from its flag, else from the league file,
// else its default.
type leagueSettings struct {
	db, listen, logDir string
	tls                *tls.Config
	until              time.Time // zero: no --for
}

// leagueSettingsOf resolves the run's settings (and sets the file's concurrency from the
// flag): the store, the listen address with its TLS, the bots' log folder and the deadline.
func (m *Main) leagueSettingsOf(cfg *leaguefile.Config, f *leagueRunFlags) (leagueSettings, error) {
	if *f.concurrency > 0 {
		cfg.Concurrency = *f.concurrency
	}
	s := leagueSettings{
		db:     firstSet(*f.dsn, resolve(cfg.Dir, cfg.DB), m.env("TAPP_DB", defaultDB)),
		listen: firstSet(*f.listen, cfg.Listen, "127.0.0.1:0"),
		logDir: firstSet(*f.logs, resolve(cfg.Dir, cfg.Logs), cfg.Name+"-logs"),
	}
	certFile, keyFile := *f.certFile, *f.keyFile
	if certFile == "" && keyFile == "" {
		certFile, keyFile = cfg.TLSCert, cfg.TLSKey
	}
	var err error
	if s.tls, err = server.LoadTLS(certFile, keyFile); err != nil {
		return s, usagef("%v", err)
	}
	if err := server.CheckPlainText(s.listen, s.tls != nil, *f.plain || cfg.Insecure); err != nil {
		return s, usagef("%v", err)
	}
	if *f.forDur > 0 {
		s.until = time.Now().Add(*f.forDur)
	}
	return s, nil
}

// firstSet is the first of values that is not empty ("" if none is).
func firstSet(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}

// playLeague plays the league with a progress bar (on a terminal the bar shows the progress,
// and the log keeps the screen for warnings).
func (m *Main) playLeague(ctx context.Context, st leaguestore.Store, cfg *leaguefile.Config, s leagueSettings) (*app.LeagueResult, error) {
	bar := m.newLeagueProgress(s.until)
	defer bar.finish()
	runLog := m.Log
	if m.Terminal {
		runLog = m.Log.WithOptions(zap.IncreaseLevel(zap.WarnLevel))
	}
	return app.RunLeague(ctx, st, app.LeagueRun{Config: cfg, Listen: s.listen, TLS: s.tls, BotLogs: s.logDir, Until: s.until,
		Executable: m.Executable, StoreName: redactDSN(s.db), Log: m.Log, RunLog: runLog, Progress: bar.update, Admitted: bar.admitted})
}

// leagueRunResult is what tapp league run --json prints and its notification carries: the
// leaderboard with the run's outcome.
type leagueRunResult struct {
	*board.Leaderboard
	Outcome *league.Outcome `json:"outcome"`
}

// printLeagueRun prints a run's end: how it stopped, the tables it played at, the
// leaderboard, how to replay, and what went wrong (jobs given up, fallbacks).
func (m *Main) printLeagueRun(ctx context.Context, st leaguestore.Store, db string, res *app.LeagueResult) error {
	p, out := res.Plan, res.Outcome
	if res.AlreadyFinished {
		fmt.Fprintf(m.Stdout, "league %s finished already: nothing to play\n\n", p.League)
	} else {
		status := "finished"
		if !out.Finished {
			status = "stopped (" + out.Stopped + "): run the same command to resume"
		}
		fmt.Fprintf(m.Stdout, "league %s %s — %d deals played in this run in %s (%.1f deals/s)\n\n", p.League, status,
			out.Played, res.Elapsed.Round(100*time.Millisecond), float64(out.Played)/max(res.Elapsed.Seconds(), 1e-3))
		if line := tablesLine(out.Admission); line != "" {
			fmt.Fprintln(m.Stdout, line+"\n")
		}
	}
	m.printLeaderboard(res.Board, shortRules(p.Rules), false)
	if err := m.printReplayHint(context.WithoutCancel(ctx), st, p.League, db); err != nil {
		return err
	}
	if out.Failed > 0 {
		fmt.Fprintf(m.Stdout, "\n%d jobs failed repeatedly and were given up: see the log\n", out.Failed)
	}
	if warning := fallbackWarning(out.Fallbacks, out.Decisions); warning != "" {
		fmt.Fprintln(m.Stdout, "\n"+warning)
	}
	return nil
}

// loadLeagueFile reads a league file; its mistakes are usage errors (exit status 2) that
// point at their line.
func loadLeagueFile(path string) (*leaguefile.Config, error) {
	cfg, err := leaguefile.Load(path, builtinParseOptions)
	if err != nil {
		var ce *leaguefile.Error
		if errors.As(err, &ce) {
			return nil, usageError{ce.Error()}
		}
		return nil, err
	}
	return cfg, nil
}

// redactDSN hides a password in a connection string for logs.
func redactDSN(dsn string) string {
	if i := strings.Index(dsn, "://"); i >= 0 {
		if at := strings.LastIndex(dsn, "@"); at > i {
			if colon := strings.Index(dsn[i+3:at], ":"); colon >= 0 {
				return dsn[:i+3+colon+1] + "***" + dsn[at:]
			}
		}
	}
	return dsn
}

// leagueProgress shows a league's progress: a bar with the ETA of the remaining deals on a
// terminal (a spinner with the count for a league without a round limit), otherwise a log
// line when the run's first deal is stored and every 10 s after.
type leagueProgress struct {
	m     *Main
	until time.Time

	mu      sync.Mutex
	started bool
	base    int // deals stored before this run
	start   time.Time
	last    time.Time
	bar     *progressbar.ProgressBar
	desc    string // the bar's description, without the note and the pause
	paused  bool   // the last progress said the league is paused
	// playedSaid: a line said that this run stored deals (the first is said at once)
	playedSaid bool
	latest     league.Progress
	note       string // the admission control's latest change
}

// admitted shows the admission control's latest change beside the progress.
func (b *leagueProgress) admitted(ch admission.Change) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.note = ch.String()
	if b.bar != nil {
		b.bar.Describe(b.description())
	}
}

// description is the bar's description with the admission control's note and the pause.
func (b *leagueProgress) description() string {
	desc := b.desc
	if b.note != "" {
		desc += " · " + b.note
	}
	if b.paused {
		desc += " — PAUSED (tapp league resume)"
	}
	return desc
}

func (m *Main) newLeagueProgress(until time.Time) *leagueProgress {
	return &leagueProgress{m: m, until: until}
}

func (b *leagueProgress) update(pr league.Progress) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.latest = pr
	if !b.started {
		b.started, b.base, b.start, b.last = true, pr.Done, time.Now(), time.Now()
		if b.m.Terminal {
			total := int64(-1)
			if pr.Planned > 0 {
				total = int64(max(pr.Planned-pr.Done, 0))
			}
			desc := "deals"
			if pr.Done > 0 {
				desc = fmt.Sprintf("deals (%d stored before)", pr.Done)
			}
			if !b.until.IsZero() {
				desc += " until " + b.until.Format("15:04")
			}
			b.desc = desc
			b.bar = progressbar.NewOptions64(total, progressbar.OptionSetWriter(b.m.Stderr),
				progressbar.OptionSetDescription(b.description()), progressbar.OptionShowCount(), progressbar.OptionSetPredictTime(true),
				progressbar.OptionShowIts(), progressbar.OptionSetItsString("deals"), progressbar.OptionThrottle(100*time.Millisecond),
				progressbar.OptionSpinnerType(14), progressbar.OptionFullWidth())
		}
	}
	if b.bar != nil {
		if pr.Paused != b.paused {
			b.paused = pr.Paused
			b.bar.Describe(b.description())
		}
		_ = b.bar.Set(pr.Done - b.base)
		return
	}
	if pr.Paused != b.paused { // said at once, not at the next log line
		b.paused = pr.Paused
		b.last = time.Now()
		b.log(pr)
		return
	}
	// The first deal this run stores is said at once (the rounds before it may take seconds
	// to store); then a line every 10 s.
	first := !b.playedSaid && pr.Done > b.base
	if !first && time.Since(b.last) < 10*time.Second {
		return
	}
	b.playedSaid = b.playedSaid || first
	b.last = time.Now()
	b.log(pr)
}

func (b *leagueProgress) log(pr league.Progress) {
	played := pr.Done - b.base
	rate := float64(played) / max(time.Since(b.start).Seconds(), 1e-3)
	fields := []zap.Field{zap.Int("deals_stored", pr.Done), zap.Int("deals_this_run", played),
		zap.Float64("deals_per_second", rate), zap.Int("rounds_scheduled", pr.Rounds), zap.Int("jobs_running", pr.Running)}
	if b.note != "" {
		fields = append(fields, zap.String("tables", b.note))
	}
	if pr.Paused {
		fields = append(fields, zap.Bool("paused", true))
	}
	var eta time.Duration = -1
	if pr.Planned > 0 {
		fields = append(fields, zap.Int("deals_planned", pr.Planned))
		if rate > 0 {
			eta = time.Duration(float64(pr.Planned-pr.Done) / rate * float64(time.Second))
		}
	}
	if !b.until.IsZero() && (eta < 0 || time.Until(b.until) < eta) {
		eta = max(time.Until(b.until), 0)
	}
	if eta >= 0 {
		fields = append(fields, zap.Duration("eta", eta.Round(time.Second)))
	}
	b.m.Log.Info("league progress", fields...)
}

func (b *leagueProgress) finish() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.bar != nil {
		_ = b.bar.Finish()
		fmt.Fprintln(b.m.Stderr)
		return
	}
	if b.started {
		b.log(b.latest)
	}
}

func (m *Main) leagueStatus(ctx context.Context, args []string) error {
	fs := m.flags("league status", "NAME [flags]")
	dsn := fs.String("db", m.env("TAPP_DB", defaultDB), "store: a SQLite file or a postgres:// URL (env TAPP_DB)")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("tapp league status NAME")
	}
	st, err := m.openExistingStore(ctx, *dsn)
	if err != nil {
		return err
	}
	defer st.Close()
	l, err := st.GetLeague(ctx, pos[0])
	if err != nil {
		return err
	}
	// The rounds before the first with a job to play are complete: one line says so, and only
	// the rounds from there on are counted (a night's ladder has thousands of rounds).
	first, last, err := st.OpenRounds(ctx, l.ID)
	if err != nil {
		return err
	}
	from := first
	if from < 0 {
		from = max(last, 0)
	}
	counts, err := st.RoundCountsFrom(ctx, l.ID, from)
	if err != nil {
		return err
	}
	deals, err := st.LeagueDeals(ctx, l.ID)
	if err != nil {
		return err
	}
	status := string(l.Status)
	if l.Paused {
		status += ", paused (tapp league resume " + l.ID + " continues it)"
	}
	fmt.Fprintf(m.Stdout, "league %s: %s (since %s), %d deals stored, %d of %d matches finished\nplan: %s\n\n", l.ID, status,
		l.Updated.Local().Format("2006-01-02 15:04"), deals, l.MatchesFinished, l.Matches, l.Plan)
	if err := m.printLeagueBots(ctx, st, l.ID); err != nil {
		return err
	}
	if from > 0 {
		fmt.Fprintf(m.Stdout, "rounds 0-%d: complete\n", from-1)
	}
	tw := tabwriter.NewWriter(m.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "round\tjobs done\trunning\twaiting\tfailed\tdeals planned\t")
	for _, c := range counts {
		fmt.Fprintf(tw, "%d\t%d\t%d\t%d\t%d\t%d\t\n", c.Round, c.Done, c.Running, c.Available, c.Failed, c.DealsPlanned)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	jobs, err := st.JobsIn(ctx, l.ID, domain.JobRunning, domain.JobFailed)
	if err != nil {
		return err
	}
	for _, j := range jobs {
		if j.State == domain.JobRunning {
			fmt.Fprintf(m.Stdout, "job %d (match %s, group %d) leased to %s until %s\n", j.ID, j.MatchID, j.FirstGroup,
				j.Owner, j.LeaseUntil.Local().Format("15:04:05"))
		}
		if j.State == domain.JobFailed {
			fmt.Fprintf(m.Stdout, "job %d (match %s, group %d) failed: %s\n", j.ID, j.MatchID, j.FirstGroup, j.LastError)
		}
	}
	return nil
}

// printLeagueBots writes the league's totals per bot: strikes, fallbacks and forfeits.
func (m *Main) printLeagueBots(ctx context.Context, st interface {
	LeagueBots(ctx context.Context, league string) ([]domain.LeagueBot, error)
}, league string) error {
	bots, err := st.LeagueBots(ctx, league)
	if err != nil || len(bots) == 0 {
		return err
	}
	tw := tabwriter.NewWriter(m.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "bot\tdeals\tdecisions\tstrikes\tfallbacks\tforfeited deals\t")
	for _, b := range bots {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t\n", b.Bot, b.Deals, b.Decisions, b.Strikes, b.Fallbacks, b.Forfeited)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(m.Stdout)
	return nil
}

// leaguePause is `tapp league pause` and `tapp league resume`: the league's workers (on every
// host that plays it) see it within a few seconds. Pausing lets the jobs in flight finish
// and starts no new ones; the bots stay connected.
func (m *Main) leaguePause(ctx context.Context, args []string, pause bool) error {
	verb := map[bool]string{true: "pause", false: "resume"}[pause]
	fs := m.flags("league "+verb, "NAME|FILE [flags]")
	dsn := fs.String("db", "", "store: a SQLite file or a postgres:// URL (default: the league file's db, else $TAPP_DB, else "+defaultDB+")")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("tapp league %s NAME|FILE: give the league's name (or its file)", verb)
	}
	name, db := pos[0], *dsn
	if strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".yml") {
		cfg, err := loadLeagueFile(name)
		if err != nil {
			return err
		}
		name = cfg.Name
		if db == "" {
			db = resolve(cfg.Dir, cfg.DB)
		}
	}
	if db == "" {
		db = m.env("TAPP_DB", defaultDB)
	}
	st, err := m.openExistingStoreToWrite(ctx, db) // the pause is written to it
	if err != nil {
		return err
	}
	defer st.Close()
	if err := st.SetLeaguePaused(ctx, name, pause); err != nil {
		if errors.Is(err, domain.ErrNotFound) {
			// A standing ladder run before it had a league row of its own (NAME) to pause
			// played its epochs as leagues NAME.HASH only: name the running one.
			if ls, lerr := st.ListLeagues(ctx); lerr == nil {
				for _, l := range ls {
					if strings.HasPrefix(l.ID, name+".") && l.Status == domain.LeagueRunning {
						return usagef("%s is a standing ladder: its epochs are leagues of their own; %s the one playing with `tapp league %s %s` (tapp league list shows them)",
							name, verb, verb, l.ID)
					}
				}
			}
			return usagef("no league %q in %s (tapp league list shows them)", name, redactDSN(db))
		}
		return err
	}
	if pause {
		fmt.Fprintf(m.Stdout, "league %s paused: its workers start no new work and finish what they play (the bots stay connected); tapp league resume %s continues it\n", name, name)
	} else {
		fmt.Fprintf(m.Stdout, "league %s resumed: its workers pick up work within a few seconds\n", name)
	}
	return nil
}

func (m *Main) leagueList(ctx context.Context, args []string) error {
	fs := m.flags("league list", "[flags]")
	dsn := fs.String("db", m.env("TAPP_DB", defaultDB), "store: a SQLite file or a postgres:// URL (env TAPP_DB)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	st, err := m.openExistingStore(ctx, *dsn)
	if err != nil {
		return err
	}
	defer st.Close()
	ls, err := st.ListLeagues(ctx)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(m.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "league\tstatus\tcreated\tdeals\tleaderboard with")
	for _, l := range ls {
		n, err := st.BoardDeals(ctx, l.ID) // a standing ladder's row: the deals of its epochs, on its board
		if err != nil {
			return err
		}
		status := string(l.Status)
		if l.Paused {
			status += " (paused)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\ttapp ratings --league %s\n", l.ID, status, l.Created.Local().Format("2006-01-02 15:04"), n, l.ID)
	}
	return tw.Flush()
}
