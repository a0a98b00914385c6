// Package cli is the tapp command, Tapp Arena's one binary: it serves the arena, runs matches
// and leagues, runs built-in bots, prints ratings, and replays matches. It parses flags and
// prints; the public arena/cli.Main calls Execute. Run `tapp help` for the commands.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strings"
	"syscall"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"golang.org/x/term"

	"github.com/tapparena/tapp/arena/internal/hosting/gocache"
	"github.com/tapparena/tapp/arena/internal/launch/confine"
	"github.com/tapparena/tapp/bots/builtin"
)

// Execute runs the command line args (without the program's name) in this process's real
// surroundings and returns the exit status.
func Execute(args []string) int {
	if len(args) > 0 && args[0] == confine.Command { // inside a bwrap sandbox, before a hosted bot
		return confine.Main(args[1:], os.Stderr)
	}
	if len(args) > 0 && args[0] == gocache.Command { // inside a hosted Go build: the go command's cache
		return gocache.Main(args[1:], os.Stdin, os.Stdout, os.Stderr)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go stopAfterSignal(ctx, stop, stopWithin)
	if os.Getenv("GOGC") == "" {
		// What the arena and the bots allocate lives for a deal at most: a larger heap target
		// (peak memory of a league 49 → 71 MB) saves a tenth of the CPU, which is play.
		debug.SetGCPercent(400)
		if os.Getenv("GOMEMLIMIT") == "" {
			boundHeap(ctx) // and the target does not wander with the live heap's spikes (heaplimit.go)
		}
	}
	m := NewMain()
	if err := m.Run(ctx, args); err != nil {
		fmt.Fprintln(m.Stderr, "tapp:", err)
		return exitCode(err)
	}
	return 0
}

// stopWithin is how long a command may take to stop after SIGINT or SIGTERM before the
// program exits regardless: every command stops within seconds of being told.
const stopWithin = 15 * time.Second

// stopAfterSignal waits for the signal that ends ctx: from then on a second signal ends the
// program at once (the default action), and the program exits if the command has not
// stopped within the time given. Everything a command stores is a transaction, so an exit
// in the middle loses at most deals in flight, which are played again on resume.
func stopAfterSignal(ctx context.Context, stop func(), within time.Duration) {
	<-ctx.Done()
	stop()
	time.Sleep(within)
	fmt.Fprintf(os.Stderr, "tapp: still not stopped %v after the signal: exiting (finished deals are stored)\n", within)
	os.Exit(130)
}

// Main is the program with its surroundings made explicit, so tests can run commands.
type Main struct {
	Stdout, Stderr io.Writer
	Stdin          io.Reader
	Getenv         func(string) string
	// Terminal says whether Stderr is a terminal (human logs and progress bars) or not (JSON
	// logs and periodic progress lines).
	Terminal bool
	// Executable is this program's path, used to launch built-in bots as separate processes.
	Executable string
	Log        *zap.Logger
	// SetMaxProcs limits the threads running Go code at once in this process (nil: leave it
	// as it is, as tests running commands in their own process do).
	SetMaxProcs func(n int)
}

// NewMain returns a Main wired to the process's real surroundings.
func NewMain() *Main {
	exe, _ := os.Executable()
	return &Main{
		Stdout: os.Stdout, Stderr: os.Stderr, Stdin: os.Stdin, Getenv: os.Getenv,
		Terminal: term.IsTerminal(int(os.Stderr.Fd())), Executable: exe,
		SetMaxProcs: func(n int) { runtime.GOMAXPROCS(n) },
	}
}

type command struct {
	name, args, help string
	run              func(m *Main, ctx context.Context, args []string) error
}

func commands() []command {
	return []command{
		{"serve", "[--listen ADDR] [--db DSN] [--tls-cert F --tls-key F]", "run the arena server for external bots", (*Main).serve},
		{"bots", "add NAME | list | rotate NAME | revoke NAME", "register bots (prints the token once), list them, replace or revoke tokens", (*Main).botsCmd},
		{"bot", "KIND --arena ADDR --token T | check --cmd CMD", "run a built-in bot (" + strings.Join(builtin.Names(), ", ") + ") against an arena; check a bot", (*Main).botOrCheck},
		{"new", "bot --lang python|go DIR", "write a starter bot that builds, plays and passes tapp bot check", (*Main).newCmd},
		{"match", "--bots A,B,C [--deals N] [--seed S] [--variant V]", "play one match among built-in bots over loopback gRPC", (*Main).match},
		{"matches", "[--bot NAME] [--league ID]", "list stored matches and how to open each", (*Main).matches},
		{"web", "[--db DSN] [--http ADDR]", "serve the web dashboard (leaderboard, history, matches, replays) over a database", (*Main).web},
		{"deals", "gen --count N --seed S [--variant V]", "write deals in card notation (a deal file)", (*Main).deals},
		{"league", "run FILE [--for 8h] | status NAME | pause NAME | resume NAME | list", "run a league from a league file (resumable), show its state, pause it", (*Main).league},
		{"ratings", "[--league NAME] [--json] [--history]", "leaderboard from stored results: Elo, Bradley–Terry, cents/deal", (*Main).ratings},
		{"sprt", "--candidate B --baseline A --field X,Y", "sequential test: is B stronger than A? (duplicate groups)", (*Main).sprt},
		{"replay", "MATCH [--deal N] [--seat S] | ask|export|verify|diff", "step through, export, re-ask, verify and diff recorded deals", (*Main).replay},
		{"db", "check | backup FILE | restore BACKUP | migrate", "check the store (pages, every match, the aggregates), back it up, restore it", (*Main).db},
		{"analyze", "MATCH|FILE.jsonl [--deal N] [--json]", "double-dummy analysis: par, points lost per card, bidding regret", (*Main).analyze},
		{"version", "", "this build (version, commit, Go) and the versions of the formats it writes", (*Main).version},
		{"dataset", "export --league NAME [--out DIR] [--anonymise]", "write a league's deals, observations and decisions as Parquet (docs/dataset.md)", (*Main).datasetCmd},
		{"submit", "--bot NAME --lang go|python DIR|ARCHIVE", "submit a version of a hosted bot: built and run by the arena in a sandbox", (*Main).submit},
		{"submissions", "list | show NAME@V | logs NAME@V | build NAME@V", "the hosted bots' versions: status, gauntlet, build and run logs", (*Main).submissions},
	}
}

// Run runs one command line.
func (m *Main) Run(ctx context.Context, args []string) error {
	if m.Log == nil {
		m.Log = m.newLogger(m.Getenv("TAPP_LOG") == "debug")
		defer func() { _ = m.Log.Sync() }()
	}
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		m.usage(m.Stdout)
		return nil
	}
	if args[0] == "--version" || args[0] == "-version" {
		args = append([]string{"version"}, args[1:]...)
	}
	if path := m.Getenv("TAPP_CPUPROFILE"); path != "" {
		stop, err := startCPUProfile(path)
		if err != nil {
			return err
		}
		defer stop()
	}
	if path := m.Getenv("TAPP_MEMPROFILE"); path != "" {
		defer writeHeapProfile(m, path)
		if every := m.Getenv("TAPP_MEMPROFILE_EVERY"); every != "" {
			d, err := time.ParseDuration(every)
			if err != nil || d <= 0 {
				return usagef("TAPP_MEMPROFILE_EVERY=%q: want a duration such as 3m", every)
			}
			stop := writeHeapProfiles(m, path, d)
			defer stop()
		}
	}
	for _, c := range commands() {
		if c.name == args[0] {
			if err := c.run(m, ctx, args[1:]); !errors.Is(err, flag.ErrHelp) {
				return err
			}
			return nil // the help was asked for, and printed
		}
	}
	m.usage(m.Stderr)
	return fmt.Errorf("unknown command %q", args[0])
}

func (m *Main) usage(w io.Writer) {
	fmt.Fprintln(w, "tapp — the Tapp bot arena\n\nUsage: tapp COMMAND [flags]\n\nCommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-8s %-52s %s\n", c.name, c.args, c.help)
	}
	fmt.Fprintln(w, "\nRun `tapp COMMAND -h` for a command's flags.")
}

// newLogger logs for humans on a terminal and JSON otherwise.
func (m *Main) newLogger(debug bool) *zap.Logger {
	level := zapcore.InfoLevel
	if debug {
		level = zapcore.DebugLevel
	}
	var enc zapcore.Encoder
	if m.Terminal {
		cfg := zap.NewDevelopmentEncoderConfig()
		cfg.EncodeLevel = zapcore.CapitalColorLevelEncoder
		enc = zapcore.NewConsoleEncoder(cfg)
	} else {
		enc = zapcore.NewJSONEncoder(zap.NewProductionEncoderConfig())
	}
	return zap.New(zapcore.NewCore(enc, zapcore.AddSync(m.Stderr), level))
}

// flags makes a flag set that returns errors instead of exiting. Its help goes to Stdout when
// asked for (-h, --help: the command then succeeds), and to Stderr after a mistake on the
// command line (with the mistake).
func (m *Main) flags(name, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet("tapp "+name, flag.ContinueOnError)
	mistakes := &mistakeWriter{w: m.Stderr}
	fs.SetOutput(mistakes)
	fs.Usage = func() {
		w := m.Stdout
		if mistakes.wrote {
			w = m.Stderr
		}
		fmt.Fprintf(w, "Usage: tapp %s %s\n\nFlags:\n", name, usage)
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(mistakes)
	}
	return fs
}

// mistakeWriter is a flag set's output before its help: the flag package writes there only
// to report a mistake (an unknown flag, a bad value), never before the help that -h asks for.
type mistakeWriter struct {
	w     io.Writer
	wrote bool
}

func (e *mistakeWriter) Write(p []byte) (int, error) {
	e.wrote = true
	return e.w.Write(p)
}

// parse parses flags that may stand before, between or after the positional arguments
// (`tapp bots add NAME --db x.db`), and returns the positional arguments in order.
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := parseFlags(fs, args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return positional, nil
		}
		if rest[0] == "--" {
			return append(positional, rest[1:]...), nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

// parseFlags parses flags: an unknown flag or a value that does not parse is a mistake on the
// command line (exit status 2), as a value out of range is; -h stays flag.ErrHelp.
func parseFlags(fs *flag.FlagSet, args []string) error {
	err := fs.Parse(args)
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return err
	}
	return usageError{err.Error()}
}

// env returns the environment variable or def.
func (m *Main) env(key, def string) string {
	if v := m.Getenv(key); v != "" {
		return v
	}
	return def
}

func exitCode(err error) int {
	var u usageError
	if errors.As(err, &u) {
		return 2
	}
	return 1
}

// usageError is a mistake on the command line.
type usageError struct{ msg string }

func (u usageError) Error() string { return u.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// writeHeapProfile writes a profile of the memory in use at the end of the command to path
// (TAPP_MEMPROFILE), for finding what grows in a long league.
func writeHeapProfile(m *Main, path string) {
	f, err := os.Create(path)
	if err == nil {
		runtime.GC()
		err = pprof.WriteHeapProfile(f)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintf(m.Stderr, "TAPP_MEMPROFILE: %v\n", err)
	}
}

// writeHeapProfiles also writes the profile every interval, to path.PID.1, path.PID.2, ...
// (with TAPP_MEMPROFILE_EVERY), so that what a long league keeps in use can be compared over
// time (go tool pprof -base path.PID.1 path.PID.9). The process id keeps apart the profiles
// of the bot processes a league starts, which inherit the variables. It stops when the
// returned function is called.
func writeHeapProfiles(m *Main, path string, every time.Duration) func() {
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for n := 1; ; n++ {
			select {
			case <-done:
				return
			case <-t.C:
				writeHeapProfile(m, fmt.Sprintf("%s.%d.%d", path, os.Getpid(), n))
			}
		}
	}()
	return func() { close(done) }
}

// startCPUProfile writes a CPU profile of this command to path (TAPP_CPUPROFILE), for
// profiling the arena, a league or a bot process as it runs; it is written when the command
// ends, including by Ctrl-C.
func startCPUProfile(path string) (func(), error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("TAPP_CPUPROFILE: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("TAPP_CPUPROFILE: %w", err)
	}
	return func() { pprof.StopCPUProfile(); _ = f.Close() }, nil
}
