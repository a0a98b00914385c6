package replay

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/tapparena/tapp/arena"
	"github.com/tapparena/tapp/arena/internal/launch"
	"github.com/tapparena/tapp/arena/internal/referee"
	"github.com/tapparena/tapp/arena/internal/server"
	"github.com/tapparena/tapp/bots"
	"github.com/tapparena/tapp/bots/sdk"
)

// ArenaConfig configures the ephemeral arena that a re-asked bot connects to.
type ArenaConfig struct {
	// Listen is the address to listen on; empty picks a free loopback port.
	Listen string
	// Store lets bots connect with their registered token; nil accepts only the arena's
	// one-time token.
	Store arena.Store
	Log   *zap.Logger
	// Name is the bot name the one-time token connects as (default "replay-bot").
	Name string
}

// LocalArena is a small arena server in this process that exists to re-ask recorded
// questions: a bot connects to it exactly as to a real arena (the same gRPC protocol, the
// same SDKs), and Ask sends it a recorded request. Nothing it does is stored.
type LocalArena struct {
	srv    *server.Server
	addr   string
	token  string
	name   string
	log    *zap.Logger
	served chan error

	mu      sync.Mutex
	proc    *botProcess
	sdkDone chan error
	cancel  context.CancelFunc

	conn    referee.Conn
	release func()
	bot     string
	version string
}

// StartArena starts an ephemeral arena.
func StartArena(cfg ArenaConfig) (*LocalArena, error) {
	if cfg.Listen == "" {
		cfg.Listen = "127.0.0.1:0"
	}
	if cfg.Log == nil {
		cfg.Log = zap.NewNop()
	}
	if cfg.Name == "" {
		cfg.Name = "replay-bot"
	}
	st := cfg.Store
	if st == nil {
		st = noBots{}
	}
	lis, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return nil, fmt.Errorf("replay arena: listening on %s: %w", cfg.Listen, err)
	}
	srv := server.New(server.Config{Store: st, Log: cfg.Log, Grace: 2 * time.Second})
	a := &LocalArena{srv: srv, addr: lis.Addr().String(), token: server.NewToken("replay_"), name: cfg.Name,
		log: cfg.Log, served: make(chan error, 1)}
	srv.AddLaunchToken(a.token, cfg.Name)
	a.cancel = func() {}
	go func() { a.served <- srv.Serve(lis) }()
	return a, nil
}

// noBots is the store of an arena without registered bots: only launch tokens connect.
type noBots struct{ arena.Store }

func (noBots) BotByTokenHash(context.Context, []byte) (*arena.Bot, error) {
	return nil, arena.ErrNotFound
}

// Addr is the address bots connect to.
func (a *LocalArena) Addr() string { return a.addr }

// Token is the one-time token a bot may connect with (besides a registered bot's token).
func (a *LocalArena) Token() string { return a.token }

// Env is the environment that points a bot at this arena: TAPP_ARENA and TAPP_TOKEN, which
// the Go and Python SDKs read.
func (a *LocalArena) Env() []string {
	return []string{"TAPP_ARENA=" + a.addr, "TAPP_TOKEN=" + a.token}
}

// RunBuiltin connects a Go bot to the arena in this process, through the Go SDK, as the
// one-time token's bot.
func (a *LocalArena) RunBuiltin(ctx context.Context, version string, b bots.Bot) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	a.mu.Lock()
	a.sdkDone, a.cancel = done, cancel
	a.mu.Unlock()
	go func() {
		done <- sdk.Run(ctx, sdk.Config{Arena: a.addr, Token: a.token, Name: a.name, Version: version, Capacity: 1,
			Log: a.log.With(zap.String("bot", a.name)), MaxReconnect: 2 * time.Second}, b)
	}()
}

// RunCommand starts a bot program, with TAPP_ARENA and TAPP_TOKEN pointing it at this arena.
// The command line is split as a shell would (launch.Split: quotes, $VAR, leading NAME=VALUE)
// but no shell runs it. Its output (stdout and stderr) goes to out; with out nil, the end of
// it is kept for error messages instead.
func (a *LocalArena) RunCommand(command string, out io.Writer) error {
	p, err := startBotProcess(command, a.Env(), out, a.log)
	if err != nil {
		return err
	}
	a.mu.Lock()
	a.proc = p
	a.mu.Unlock()
	return nil
}

// WaitBot waits until a bot has connected (at most timeout) and takes its line. It fails
// early when the launched bot's program ends or the in-process bot stops.
func (a *LocalArena) WaitBot(ctx context.Context, timeout time.Duration) error {
	if a.conn != nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		for _, s := range a.srv.Sessions() {
			if !s.GetConnected() {
				continue
			}
			actx, acancel := context.WithTimeout(ctx, time.Second)
			conn, release, err := a.srv.Acquire(actx, s.GetBotName(), nil)
			acancel()
			if err == nil {
				a.conn, a.release, a.bot, a.version = conn, release, s.GetBotName(), s.GetVersion()
				a.log.Info("bot connected to the replay arena", zap.String("bot", a.bot), zap.String("version", a.version))
				return nil
			}
		}
		a.mu.Lock()
		proc, sdkDone := a.proc, a.sdkDone
		a.mu.Unlock()
		var exited <-chan struct{}
		if proc != nil {
			exited = proc.Done()
		}
		select {
		case <-exited:
			return fmt.Errorf("the bot command %q ended before it connected to %s: %v%s", proc.command, a.addr, proc.exit(), proc.tail())
		case err := <-sdkDone:
			return fmt.Errorf("the bot stopped before it connected to %s: %v", a.addr, err)
		case <-ctx.Done():
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return fmt.Errorf("no bot connected to the replay arena at %s within %s", a.addr, timeout)
			}
			return ctx.Err()
		case <-tick.C:
		}
	}
}

// Bot returns the name and version the connected bot gave.
func (a *LocalArena) Bot() (name, version string) { return a.bot, a.version }

// Ask asks the connected bot a recorded question (call WaitBot first).
func (a *LocalArena) Ask(ctx context.Context, q *Question) (*Answer, error) {
	if a.conn == nil {
		return nil, errors.New("no bot connected (call WaitBot first)")
	}
	var exited <-chan struct{}
	var exitErr func() error
	if a.proc != nil {
		p := a.proc
		exited = p.Done()
		exitErr = func() error { return fmt.Errorf("%v%s", p.exit(), p.tail()) }
	}
	ans, err := q.ask(ctx, a.conn, exited, exitErr)
	if err != nil {
		return nil, fmt.Errorf("asking %s: %w", a.bot, err)
	}
	ans.Bot, ans.Version = a.bot, a.version
	return ans, nil
}

// Close tells the bot that the arena is going away, stops the server, and ends the bot
// (its program gets a few seconds to leave by itself, then is stopped).
func (a *LocalArena) Close() {
	if a.release != nil {
		a.release()
		a.release = nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	a.srv.Shutdown(ctx)
	cancel()
	a.mu.Lock()
	stop, proc, sdkDone := a.cancel, a.proc, a.sdkDone
	a.mu.Unlock()
	stop()
	if sdkDone != nil {
		select {
		case <-sdkDone:
		case <-time.After(3 * time.Second):
		}
	}
	if proc != nil {
		proc.stop(3 * time.Second)
	}
}

// botProcess is a bot program started for one replay session, by the arena's launcher: run
// once (not restarted), in a process group of its own.
type botProcess struct {
	*launch.Process
	command string
	out     *tailWriter
}

func startBotProcess(command string, env []string, out io.Writer, log *zap.Logger) (*botProcess, error) {
	if strings.TrimSpace(command) == "" {
		return nil, errors.New("empty bot command")
	}
	argv, assigned, err := launch.Split(command)
	if err != nil {
		return nil, fmt.Errorf("the bot command: %w", err)
	}
	tw := &tailWriter{w: out, max: 2048}
	p, err := launch.Start(context.Background(), launch.Spec{Name: "replay bot", Command: argv,
		Env: append(env, assigned...), Output: tw, Once: true, Group: true}, log)
	if err != nil {
		return nil, fmt.Errorf("starting the bot command %q: %w", command, err)
	}
	return &botProcess{Process: p, command: command, out: tw}, nil
}

// exit is how the program ended, once it has: a program that ends by itself before it was
// asked anything ended too early even with status 0.
func (p *botProcess) exit() error {
	if err := p.Err(); err != nil {
		return err
	}
	return errors.New("exit status 0")
}

// tail is the end of the program's output, formatted for an error message (unless the
// output was passed on as it came).
func (p *botProcess) tail() string {
	if p.out.w != nil {
		return " (its output is above)"
	}
	t := strings.TrimSpace(p.out.String())
	if t == "" {
		return " (it wrote nothing)"
	}
	return "; the end of its output:\n" + t
}

// stop waits up to grace for the program to end by itself, then stops it (its process group
// is interrupted, and killed if it still runs after a few seconds).
func (p *botProcess) stop(grace time.Duration) {
	p.Retire()
	select {
	case <-p.Done():
	case <-time.After(grace):
	}
	p.Stop()
}

// tailWriter passes output on and keeps its last max bytes.
type tailWriter struct {
	mu  sync.Mutex
	w   io.Writer
	buf []byte
	max int
}

func (t *tailWriter) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > t.max {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-t.max:]...)
	}
	if t.w != nil {
		_, _ = t.w.Write(b)
	}
	return len(b), nil
}

func (t *tailWriter) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
