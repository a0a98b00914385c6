package reask

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/exp/zapslog"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/host"
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
	Store domain.Store
	Log   *zap.Logger
	// Name is the bot name the one-time token connects as (default "replay-bot").
	Name string
}

// LocalArena is a small arena in this process that exists to re-ask recorded questions (an
// ephemeral arena of arena/internal/host): a bot connects to it exactly as to a real arena
// (the same gRPC protocol, the same SDKs), and Ask sends it a recorded request. Nothing it
// does is stored.
type LocalArena struct {
	host  *host.Host
	srv   *server.Server
	addr  string
	token string
	name  string
	log   *zap.Logger

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
	h, err := host.Start(context.Background(), host.Config{Store: cfg.Store, Listen: cfg.Listen, Log: cfg.Log, Grace: 2 * time.Second})
	if err != nil {
		return nil, fmt.Errorf("replay arena: %w", err)
	}
	a := &LocalArena{host: h, srv: h.Server, addr: h.Addr, token: h.OneTimeToken(cfg.Name), name: cfg.Name, log: cfg.Log}
	a.cancel = func() {}
	return a, nil
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
			Log: slog.New(zapslog.NewHandler(a.log.With(zap.String("bot", a.name)).Core())), MaxReconnect: 2 * time.Second}, b)
	}()
}

// RunCommand starts a bot program, with TAPP_ARENA and TAPP_TOKEN pointing it at this arena.
// The command line is split as a shell would (launch.Split: quotes, $VAR, leading NAME=VALUE)
// but no shell runs it. Its output (stdout and stderr) goes to out; with out nil, the end of
// it is kept for error messages instead.
func (a *LocalArena) RunCommand(command string, out io.Writer) error {
	if strings.TrimSpace(command) == "" {
		return errors.New("empty bot command")
	}
	tw := &tailWriter{w: out, max: 2048}
	proc, err := a.host.LaunchCommand(context.Background(), "replay bot", command, a.Env(), launch.Spec{Output: tw, Once: true, Group: true})
	if err != nil {
		return fmt.Errorf("starting the bot command %q: %w", command, err)
	}
	p := &botProcess{Process: proc, command: command, out: tw}
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
			return fmt.Errorf("the bot command %q ended before it connected to %s: %w%s", proc.command, a.addr, proc.exit(), proc.tail())
		case err := <-sdkDone:
			return fmt.Errorf("the bot stopped before it connected to %s: %w", a.addr, err)
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
	if a.proc != nil {
		exited = a.proc.Done()
	}
	ans, err := q.ask(ctx, a.conn, exited)
	if errors.Is(err, ErrExited) {
		err = fmt.Errorf("%w: %w%s", err, a.proc.exit(), a.proc.tail())
	}
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
	a.host.StopWithin(2 * time.Second) // a launched program gets a few seconds more to leave by itself
	a.mu.Lock()
	stop, sdkDone := a.cancel, a.sdkDone
	a.mu.Unlock()
	stop()
	if sdkDone != nil {
		select {
		case <-sdkDone:
		case <-time.After(3 * time.Second):
		}
	}
}

// botProcess is a bot program started for one replay session, by the arena's launcher: run
// once (not restarted), in a process group of its own; the arena's Stop ends it.
type botProcess struct {
	*launch.Process
	command string
	out     *tailWriter
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
