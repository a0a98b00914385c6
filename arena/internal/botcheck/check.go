// Package botcheck checks that a bot keeps to the protocol and the rules before it enters a
// league, like a validation episode: it starts an arena of its own, launches the bot (or waits
// for one already running), plays full deals of every rule set the bot is meant for, asks it
// every kind of decision of each, drops its stream in the middle of a deal to see it resume,
// and shuts the arena down to see it leave. Every item passes or fails with the reason and
// what to change; nothing is stored.
//
// The check's arena is an ephemeral one of arena/internal/host (nothing stored, one-time
// tokens, the bot's command launched by the arena's launcher); the referee plays its deals,
// and the bot's partners at the tables are the built-in random bot in this process.
package botcheck

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/exp/zapslog"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/host"
	"github.com/tapparena/tapp/arena/internal/launch"
	"github.com/tapparena/tapp/arena/internal/server"
	"github.com/tapparena/tapp/bots/builtin"
	"github.com/tapparena/tapp/bots/sdk"
	"github.com/tapparena/tapp/engine"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// Config says which bot to check and how.
type Config struct {
	// Command is the bot's command line, split as a shell would (quotes, $VAR, leading
	// NAME=VALUE; no shell runs it: pipes and `;` are not interpreted), launched with
	// TAPP_ARENA, TAPP_TOKEN and TAPP_BOT_NAME in its environment. Empty: the bot is already
	// running and connects by itself to Listen with Token.
	Command string
	Dir     string // the command's working directory (empty: this process's)
	// Start, when set instead of Command, starts the bot itself (a hosted bot in its
	// sandbox): told the address to connect to, and TAPP_ARENA, TAPP_TOKEN and TAPP_BOT_NAME
	// as env, with its stderr to go to the file stderr.
	Start func(ctx context.Context, arena string, env []string, stderr string) (*launch.Process, error)
	// Listen is where the check's arena takes the bot's connection (default 127.0.0.1:0 with
	// a Command; required without one).
	Listen string
	// Token is the token the bot connects with (default: a fresh one, given to the Command).
	Token string
	// Name is the bot's name in the arena (default "bot"); the bot should say it in its hello.
	Name string
	// Rules are the rule sets the bot plays (default DefaultRules).
	Rules []engine.RuleSet
	// Deals is the number of full deals per rule set (default 3): the bot sits in each seat.
	Deals int
	// Questions is the number of positions asked per decision kind and rule set (default 2).
	Questions int
	// TimeControl is the clock of every item but the resume (default domain.DefaultTimeControl).
	TimeControl domain.TimeControl
	// ConnectTimeout bounds the wait for the bot's first connection (default 30 s).
	ConnectTimeout time.Duration
	Seed           uint64 // for the deals and positions (the same seed asks the same questions)
	Log            *zap.Logger
	// Progress, when set, gets every item as soon as it is decided.
	Progress func(Item)
}

// DefaultRules are the rule sets a bot is checked under unless told otherwise: every variant,
// modern with Frage on and with four players.
func DefaultRules() []engine.RuleSet {
	frage := engine.DefaultRules(engine.Modern)
	frage.Frage, frage.Stakes = true, mustRules("modern frage=on").Stakes
	four := engine.DefaultRules(engine.Modern)
	four.Players = 4
	return []engine.RuleSet{
		engine.DefaultRules(engine.Wuerttemberg), engine.DefaultRules(engine.Classic),
		engine.DefaultRules(engine.Modern), frage, four,
	}
}

func mustRules(text string) engine.RuleSet {
	r, err := engine.ParseRuleSet(text)
	if err != nil {
		panic(err)
	}
	return r
}

// Item is one checked point of the report.
type Item struct {
	Name   string   `json:"name"`
	Pass   bool     `json:"pass"`
	Reason string   `json:"reason"`          // what happened (for a pass, a short summary)
	Fix    string   `json:"fix,omitempty"`   // for a failure: what to change
	Notes  []string `json:"notes,omitempty"` // details: the answers refused, the late ones, the bot's stderr
}

// Report is the outcome of a check.
type Report struct {
	Bot     string `json:"bot"`     // the name the bot connected as
	Version string `json:"version"` // the version its hello gave
	Items   []Item `json:"items"`
}

// Passed reports whether every item passed.
func (r *Report) Passed() bool {
	for _, it := range r.Items {
		if !it.Pass {
			return false
		}
	}
	return len(r.Items) > 0
}

// Failed returns the items that failed.
func (r *Report) Failed() []Item {
	var out []Item
	for _, it := range r.Items {
		if !it.Pass {
			out = append(out, it)
		}
	}
	return out
}

// checker is one run of the check.
type checker struct {
	cfg      Config
	log      *zap.Logger
	host     *host.Host
	srv      *server.Server
	proxy    *proxy
	proc     *launch.Process
	stderr   string // the launched bot's stderr file
	partners []string
	stop     context.CancelFunc // ends the partner bots
	report   Report
	// arenaLog holds the arena's log: answers for games that are over show there.
	arenaLog *observer.ObservedLogs
	seenLog  int
}

// Run checks one bot. The error is for a check that could not run at all (bad config, no
// port); a bot that fails shows in the report.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if err := cfg.defaults(); err != nil {
		return nil, err
	}
	c := &checker{cfg: cfg, log: cfg.Log}
	if err := c.start(ctx); err != nil {
		c.close()
		return nil, err
	}
	defer c.close()
	c.run(ctx)
	return &c.report, nil
}

func (cfg *Config) defaults() error {
	if cfg.Command == "" && cfg.Start == nil && (cfg.Listen == "" || cfg.Token == "") {
		return errors.New("botcheck: give the bot's command, or the address and token of a bot that connects by itself")
	}
	if cfg.Listen == "" {
		cfg.Listen = "127.0.0.1:0"
	}
	if cfg.Token == "" {
		cfg.Token = server.NewToken("check_")
	}
	if cfg.Name == "" {
		cfg.Name = "bot"
	}
	if len(cfg.Rules) == 0 {
		cfg.Rules = DefaultRules()
	}
	for _, r := range cfg.Rules {
		if err := r.Validate(); err != nil {
			return fmt.Errorf("botcheck: rule set %q: %w", r, err)
		}
	}
	if cfg.Deals <= 0 {
		cfg.Deals = 3
	}
	if cfg.Questions <= 0 {
		cfg.Questions = 2
	}
	if cfg.TimeControl.PerDecision <= 0 {
		cfg.TimeControl = domain.DefaultTimeControl
	}
	if cfg.ConnectTimeout <= 0 {
		cfg.ConnectTimeout = 30 * time.Second
	}
	if cfg.Log == nil {
		cfg.Log = zap.NewNop()
	}
	return nil
}

// grace is how long the check's arena keeps a dropped session for its resume.
const grace = 5 * time.Second

func (c *checker) start(ctx context.Context) error {
	core, logs := observer.New(zapcore.DebugLevel) // the server names answers for ended games at debug level
	c.arenaLog = logs
	arenaLog := c.log.Named("arena").WithOptions(zap.WrapCore(func(own zapcore.Core) zapcore.Core { return zapcore.NewTee(own, core) }))
	h, err := host.Start(ctx, host.Config{Listen: "127.0.0.1:0", Grace: grace, Log: arenaLog})
	if err != nil {
		return fmt.Errorf("botcheck: %w", err)
	}
	c.host, c.srv = h, h.Server
	c.srv.AddLaunchToken(c.cfg.Token, c.cfg.Name)
	c.proxy, err = newProxy(c.cfg.Listen, h.Addr)
	if err != nil {
		return fmt.Errorf("botcheck: listening for the bot on %s: %w", c.cfg.Listen, err)
	}
	pctx, stop := context.WithCancel(context.Background())
	c.stop = stop
	players := 3
	for _, r := range c.cfg.Rules {
		players = max(players, r.Players)
	}
	for i := 1; i < players; i++ {
		name := fmt.Sprintf("partner-%d", i)
		token := h.OneTimeToken(name)
		c.partners = append(c.partners, name)
		b, err := builtin.New("random", c.cfg.Seed+uint64(i))
		if err != nil {
			return err
		}
		go func() {
			_ = sdk.Run(pctx, sdk.Config{Arena: h.Addr, Token: token, Name: name, Capacity: 8,
				Log: slog.New(zapslog.NewHandler(c.log.Core(), zapslog.WithName(name))), MaxReconnect: time.Second}, b)
		}()
	}
	if c.cfg.Command != "" || c.cfg.Start != nil {
		dir, err := os.MkdirTemp("", "tapp-botcheck-")
		if err != nil {
			return err
		}
		c.stderr = filepath.Join(dir, "stderr.log")
		env := []string{"TAPP_ARENA=" + c.proxy.Addr(), "TAPP_TOKEN=" + c.cfg.Token, "TAPP_BOT_NAME=" + c.cfg.Name}
		if c.cfg.Start != nil {
			if c.proc, err = c.cfg.Start(ctx, c.proxy.Addr(), env, c.stderr); err != nil {
				return fmt.Errorf("botcheck: starting the bot: %w", err)
			}
			return nil
		}
		if c.proc, err = h.LaunchCommand(ctx, c.cfg.Name, c.cfg.Command, env, launch.Spec{Dir: c.cfg.Dir, StderrPath: c.stderr}); err != nil {
			return fmt.Errorf("botcheck: the bot's command: %w", err)
		}
	}
	return nil
}

// addr is where the bot connects: for a bot that connects by itself, Config.Listen.
func (c *checker) addr() string { return c.proxy.Addr() }

func (c *checker) close() {
	if c.proc != nil {
		c.proc.Retire()
		launch.StopAll([]*launch.Process{c.proc}, 3*time.Second)
	}
	if c.host != nil {
		c.host.StopWithin(time.Second)
	}
	if c.stop != nil {
		c.stop()
	}
	if c.proxy != nil {
		_ = c.proxy.Close()
	}
	if c.stderr != "" {
		_ = os.RemoveAll(filepath.Dir(c.stderr))
	}
}

func (c *checker) add(it Item) {
	c.report.Items = append(c.report.Items, it)
	if c.cfg.Progress != nil {
		c.cfg.Progress(it)
	}
}

// sessions returns the bot's sessions.
func (c *checker) sessions() []*tappv1.SessionInfo {
	var out []*tappv1.SessionInfo
	for _, s := range c.srv.Sessions() {
		if s.GetBotName() == c.cfg.Name {
			out = append(out, s)
		}
	}
	return out
}

func (c *checker) connected() *tappv1.SessionInfo {
	for _, s := range c.sessions() {
		if s.GetConnected() {
			return s
		}
	}
	return nil
}

// waitConnected waits up to limit for the bot to have a connected session.
func (c *checker) waitConnected(ctx context.Context, limit time.Duration) *tappv1.SessionInfo {
	deadline := time.Now().Add(limit)
	for {
		if s := c.connected(); s != nil {
			return s
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (c *checker) restarts() int {
	if c.proc == nil {
		return 0
	}
	return c.proc.Restarts()
}

func (c *checker) run(ctx context.Context) {
	if !c.checkConnect(ctx) {
		return
	}
	for _, r := range c.cfg.Rules {
		if !c.ready(ctx) {
			return
		}
		c.checkPlay(ctx, r)
		for _, k := range Kinds(r) {
			if !c.ready(ctx) {
				return
			}
			c.checkKind(ctx, r, k)
		}
	}
	if c.ready(ctx) {
		c.checkResume(ctx)
	}
	if c.ready(ctx) {
		c.checkShutdown(ctx)
	}
	c.checkStderr()
}

// ready makes sure the bot is connected before the next item (a launched bot that crashed is
// restarted by its supervisor); when it is not, the check ends with an item that says so.
func (c *checker) ready(ctx context.Context) bool {
	if ctx.Err() != nil {
		c.add(Item{Name: "check", Reason: "interrupted: " + ctx.Err().Error()})
		return false
	}
	if c.waitConnected(ctx, c.cfg.ConnectTimeout) != nil {
		return true
	}
	c.add(Item{Name: "reconnect", Reason: fmt.Sprintf("the bot has no connection to the arena any more and did not come back within %s; the check stops here", c.cfg.ConnectTimeout),
		Fix: "keep the bot running and connected until the arena says it is going away; its stderr is below", Notes: c.stderrTail(20)})
	return false
}

func (c *checker) checkConnect(ctx context.Context) bool {
	start := time.Now()
	s := c.waitConnected(ctx, c.cfg.ConnectTimeout)
	if s == nil {
		it := Item{Name: "connect", Reason: fmt.Sprintf("no bot connected to %s within %s", c.addr(), c.cfg.ConnectTimeout)}
		switch n := c.restarts(); {
		case c.proc == nil:
			it.Fix = fmt.Sprintf("start the bot with TAPP_ARENA=%s and TAPP_TOKEN=%s", c.addr(), c.cfg.Token)
		case n > 0:
			it.Reason += fmt.Sprintf("; the command ended %d time(s) (crash)", n)
			it.Fix = "run the command by hand: it must stay running, connect to $TAPP_ARENA with the token $TAPP_TOKEN (authorization: Bearer) and send a hello first; its stderr is below"
		default:
			it.Fix = "the bot must read TAPP_ARENA and TAPP_TOKEN from its environment (both SDKs do) and connect at once; " +
				"if it says a fixed name in its hello, give the check the same --name (or let it read TAPP_BOT_NAME); its stderr is below"
		}
		it.Notes = c.stderrTail(20)
		c.add(it)
		return false
	}
	c.report.Bot, c.report.Version = s.GetBotName(), s.GetVersion()
	c.add(Item{Name: "connect", Pass: true, Reason: fmt.Sprintf("connected after %s as %q, version %q, capacity %d",
		time.Since(start).Round(time.Millisecond), s.GetBotName(), s.GetVersion(), s.GetCapacity())})
	return true
}

// seating puts the bot in seat and partners in the others.
func (c *checker) seating(players int, seat engine.Seat) []string {
	names := make([]string, 0, players)
	p := 0
	for s := range players {
		if engine.Seat(s) == seat {
			names = append(names, c.cfg.Name)
			continue
		}
		names = append(names, c.partners[p])
		p++
	}
	return names
}

// stderrLines returns the launched bot's stderr so far.
func (c *checker) stderrLines() []string {
	if c.stderr == "" {
		return nil
	}
	b, err := os.ReadFile(c.stderr)
	if err != nil {
		return nil
	}
	return slices.DeleteFunc(strings.Split(strings.TrimRight(string(b), "\n"), "\n"), func(s string) bool { return s == "" })
}

func (c *checker) stderrTail(n int) []string {
	lines := c.stderrLines()
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = "stderr: " + l
	}
	return out
}

// launchStop gives a retired bot process up to grace to end by itself, then stops it.
func launchStop(p *launch.Process, grace time.Duration) {
	launch.StopAll([]*launch.Process{p}, grace)
}

// answersAfterEnd returns the bot's answers for games that were over (the arena refused them
// with PROTO-UNKNOWN-GAME) since the last call: a bot that missed a GameEnded.
func (c *checker) answersAfterEnd() []string {
	entries := c.arenaLog.All()
	var out []string
	for _, e := range entries[min(c.seenLog, len(entries)):] {
		if e.Message != "answer for a game this session is not in" {
			continue
		}
		f := e.ContextMap()
		if f["bot"] == c.cfg.Name {
			out = append(out, fmt.Sprintf("answered request %v of game %v after its GameEnded", f["request"], f["game"]))
		}
	}
	c.seenLog = len(entries)
	return out
}
