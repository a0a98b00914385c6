package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/tapparena/tapp/arena/internal/botcheck"
	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/launch"
	"github.com/tapparena/tapp/bots/builtin"
	"github.com/tapparena/tapp/engine"
)

// botOrCheck is the `bot` command: `tapp bot check …` checks a bot, `tapp bot KIND …` runs a
// built-in one.
func (m *Main) botOrCheck(ctx context.Context, args []string) error {
	if len(args) > 0 && args[0] == "check" {
		return m.botCheck(ctx, args[1:])
	}
	usage := fmt.Sprintf("tapp bot KIND --arena ADDR --token T (KIND: %s) | tapp bot check --cmd \"CMD\"", strings.Join(builtin.Names(), ", "))
	if len(args) == 0 {
		return usagef("%s", usage)
	}
	if helpFlag(args[0]) {
		fmt.Fprintf(m.Stdout, "%s\n(tapp bot KIND -h and tapp bot check -h list their flags)\n", usage)
		return nil
	}
	return m.bot(ctx, args)
}

// rulesFlag collects repeated --rules flags.
type rulesFlag []engine.RuleSet

func (f *rulesFlag) String() string {
	names := make([]string, len(*f))
	for i, r := range *f {
		names[i] = r.String()
	}
	return strings.Join(names, "; ")
}

func (f *rulesFlag) Set(text string) error {
	r, err := engine.ParseRuleSet(text)
	if err != nil {
		return err
	}
	*f = append(*f, r)
	return nil
}

func (m *Main) botCheck(ctx context.Context, args []string) error {
	fs := m.flags("bot check", "--cmd \"CMD\" | --arena ADDR --token T  [flags]")
	cmd := fs.String("cmd", "", "the bot's command line, split like a shell would but run without one (use sh -c '…' for pipes), with TAPP_ARENA, TAPP_TOKEN and TAPP_BOT_NAME set")
	dir := fs.String("dir", "", "working directory of --cmd")
	addr := fs.String("arena", "", "without --cmd: the address to listen on for a bot you start yourself (it connects there with --token)")
	token := fs.String("token", "", "without --cmd: the token your bot connects with")
	name := fs.String("name", "bot", "the bot's name in the check's arena: given to --cmd as TAPP_BOT_NAME; with --arena, the name your bot says in its hello")
	var rules rulesFlag
	fs.Var(&rules, "rules", "a rule set the bot plays, e.g. \"modern players=4\" (repeat the flag; default: wuerttemberg, classic, modern, modern frage=on, modern players=4)")
	deals := fs.Int("deals", 3, "full deals per rule set")
	questions := fs.Int("questions", 2, "positions asked per decision kind and rule set")
	perDecision := fs.Duration("time", domain.DefaultTimeControl.PerDecision, "time per decision")
	overage := fs.Duration("overage", domain.DefaultTimeControl.Overage, "overage bank per item")
	connect := fs.Duration("connect-timeout", 30*time.Second, "how long to wait for the bot's first connection")
	seed := fs.Uint64("seed", 1, "seed of the deals and positions")
	verbose := fs.Bool("v", false, "print the notes (stderr lines, details) of passing items too")
	asJSON := fs.Bool("json", false, "print the report as one JSON object at the end (for CI), instead of item by item")
	submission := fs.String("submission", "", "check a hosted bot's version (NAME@V or NAME@latest) in its sandbox, as the arena runs it")
	dsn := fs.String("db", m.env("TAPP_DB", defaultDB), "with --submission: the store that holds it (env TAPP_DB)")
	var hf hostingFlags
	hf.register(fs, m)
	if _, err := parse(fs, args); err != nil {
		return err
	}
	if err := checkBounds(fs).count("deals", *deals, 0, 1000).count("questions", *questions, 0, 1000).
		timeControl(domain.TimeControl{PerDecision: *perDecision, Overage: *overage}, "time", "overage", "").
		duration("connect-timeout", *connect, time.Millisecond, time.Hour).err(); err != nil {
		return err
	}
	var start func(ctx context.Context, arena string, env []string, stderr string) (*launch.Process, error)
	if *submission != "" {
		var done func()
		var err error
		if start, done, err = m.hostedCheck(ctx, *submission, *dsn, &hf); err != nil {
			return err
		}
		defer done()
		*name = *submission
		if bot, v, ok := domain.ParseVersionName(*submission); ok && v == 0 {
			*name = bot // NAME@latest: the check's name until the version is known
		}
	}
	if *cmd == "" && start == nil && (*addr == "" || *token == "") {
		return usagef("tapp bot check --cmd \"CMD\", or --arena ADDR --token T for a bot you start yourself")
	}
	if *cmd != "" && *addr != "" {
		return usagef("--cmd and --arena exclude each other: --cmd launches the bot, --arena waits for one you start")
	}
	cfg := botcheck.Config{
		Command: *cmd, Start: start, Dir: *dir, Listen: *addr, Token: *token, Name: *name, Rules: rules, Deals: *deals, Questions: *questions,
		TimeControl:    domain.TimeControl{PerDecision: *perDecision, Overage: *overage, MaxStrikes: domain.DefaultTimeControl.MaxStrikes},
		ConnectTimeout: *connect, Seed: *seed, Log: m.Log.Named("check"),
		Progress: func(it botcheck.Item) { botcheck.WriteItem(m.Stdout, it, *verbose) },
	}
	if *asJSON {
		cfg.Progress = nil
	}
	if *cmd == "" && start == nil && !*asJSON { // a bot the user starts (a hosted one is started here)
		fmt.Fprintf(m.Stdout, "waiting for the bot at %s (token %s) for %s\n", *addr, *token, *connect)
	}
	report, err := botcheck.Run(ctx, cfg)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(m.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(report); err != nil {
			return err
		}
	} else {
		fmt.Fprintln(m.Stdout, report.Summary())
	}
	if !report.Passed() {
		return fmt.Errorf("bot check: %d item(s) fail", len(report.Failed()))
	}
	return nil
}
