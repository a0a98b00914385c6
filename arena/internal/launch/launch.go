// Package launch runs bots that the arena starts itself: each bot is a command line that gets
// the arena's address and a token in its environment (TAPP_ARENA, TAPP_TOKEN) and is
// supervised: restarted with backoff when it dies, its stderr kept in a file, and (on Linux)
// killed by the kernel when the arena dies, so that no bot outlives it. A bot that dies
// within QuickExit of its start MaxQuickExits times in a row is given up (it crashes at
// once: restarting it for ever only fills the log); each death is logged with the last lines
// of its stderr.
package launch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"
)

// Give-up rule: a process that exits within QuickExit of its start MaxQuickExits times in a
// row is not started again.
const (
	MaxQuickExits = 5
	QuickExit     = 30 * time.Second
)

// Restart backoff: the first restart waits firstBackoff, each quick one after it twice as
// long, up to maxBackoff; a run longer than QuickExit starts over.
const (
	firstBackoff = 100 * time.Millisecond
	maxBackoff   = 10 * time.Second
)

// tailLines is how many of its last stderr lines a dead process's log line shows.
const tailLines = 10

// Spec is one bot process to keep running.
type Spec struct {
	Name       string   // the bot's name (for logs)
	Command    []string // program and arguments
	Env        []string // extra environment, KEY=VALUE
	StderrPath string   // where the process's stderr goes (appended); empty discards it
	Dir        string   // working directory; empty is the arena's
	// Output, when set, also receives the process's stdout and stderr as they come.
	Output io.Writer
	// Once runs the process a single time: when it exits it is not restarted, and Done and
	// Err tell how it ended (a bot started to be re-asked recorded questions).
	Once bool
	// Group starts the process in a process group of its own (where the platform has them),
	// stops the whole group, and kills what is left of it after the process exits: a
	// command that starts other programs (a script) leaves none behind.
	Group bool

	// The hooks of a sandboxed bot (confined.go): set by arena/internal/sandbox's callers.

	// Prepare, when set, is called before every run and gives that run's command and extra
	// environment (a sandbox needs a fresh container per run) and what to clean up after it;
	// Command is then only the name of what is run, for logs.
	Prepare func() (Prepared, error)
	// CleanEnv starts the process with Env only, not with the arena's environment (which may
	// hold tokens and passwords).
	CleanEnv bool
	// Credential runs the process as another user (the arena must be root): a sandbox is
	// started as an unprivileged user, never with the arena's rights.
	Credential *Credential
	// Limits are enforced from outside the process: its output kept, its CPU time (of the
	// whole process tree) and its wall time per run.
	Limits Limits
}

// Process is a supervised bot process.
type Process struct {
	spec Spec
	log  *zap.Logger

	mu       sync.Mutex
	restarts int
	retiring bool // set before a planned shutdown: an exit is then not restarted
	cmd      *exec.Cmd
	cancel   context.CancelFunc
	done     chan struct{}
	stderr   tail  // the last lines of its stderr
	exitErr  error // how the last run ended; read after done is closed
	// run runs the process once, to its end (runOnce; a test's fake process)
	run func(ctx context.Context) error
}

// Start launches spec and keeps it running until ctx ends or Stop is called.
func Start(ctx context.Context, spec Spec, log *zap.Logger) (*Process, error) {
	if len(spec.Command) == 0 {
		return nil, fmt.Errorf("bot %s: empty command", spec.Name)
	}
	if log == nil {
		log = zap.NewNop()
	}
	if spec.Prepare == nil {
		if _, err := exec.LookPath(spec.Command[0]); err != nil {
			return nil, fmt.Errorf("bot %s: %w", spec.Name, err)
		}
	}
	return supervised(ctx, spec, log, nil), nil
}

// supervised starts the supervisor of spec, running it with run (nil: as a process).
func supervised(ctx context.Context, spec Spec, log *zap.Logger, run func(context.Context) error) *Process {
	ctx, cancel := context.WithCancel(ctx)
	p := &Process{spec: spec, log: log.With(zap.String("bot", spec.Name)), cancel: cancel, done: make(chan struct{}), run: run}
	if p.run == nil {
		p.run = p.runOnce
	}
	go p.supervise(ctx)
	return p
}

// Restarts counts how often the process had to be restarted.
func (p *Process) Restarts() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.restarts
}

// Kill kills the running process (the supervisor restarts it): for tests of supervision.
func (p *Process) Kill() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd == nil || p.cmd.Process == nil {
		return fmt.Errorf("bot %s is not running", p.spec.Name)
	}
	return p.cmd.Process.Kill()
}

// Retire tells the supervisor that the process is about to be told to leave (the arena is
// shutting down): when it exits, it is not restarted.
func (p *Process) Retire() {
	p.mu.Lock()
	p.retiring = true
	p.mu.Unlock()
}

// Stop ends the process and waits for it.
func (p *Process) Stop() {
	p.cancel()
	<-p.done
}

// StopAll stops the processes, giving those that were retired (told to leave) up to grace to
// exit by themselves first: interrupted while they wind up, bots print tracebacks (Python's
// KeyboardInterrupt) into their logs for nothing.
func StopAll(procs []*Process, grace time.Duration) {
	wait := time.NewTimer(grace)
	defer wait.Stop()
	for _, p := range procs {
		p.mu.Lock()
		retiring := p.retiring
		p.mu.Unlock()
		if !retiring {
			continue
		}
		select {
		case <-p.done:
		case <-wait.C:
			wait.Reset(0) // the grace is shared, not per process
		}
	}
	for _, p := range procs {
		p.Stop()
	}
}

func (p *Process) supervise(ctx context.Context) {
	defer close(p.done)
	backoff := firstBackoff
	quick := 0 // exits in a row within QuickExit of the start
	for {
		start := time.Now()
		err := p.run(ctx)
		p.mu.Lock()
		retiring := p.retiring
		p.exitErr = err
		p.mu.Unlock()
		if ctx.Err() != nil || retiring || p.spec.Once {
			return
		}
		if time.Since(start) > QuickExit {
			backoff, quick = firstBackoff, 0
		} else {
			quick++
		}
		last := p.stderr.String()
		if quick >= MaxQuickExits {
			gaveUp := fmt.Errorf("bot %s exited %d times in a row within %s of its start (last: %w); not restarted again; the last lines of its stderr:\n%s",
				p.spec.Name, quick, QuickExit, err, indent(last))
			p.mu.Lock()
			p.exitErr = gaveUp // what Err reports once Done is closed
			p.mu.Unlock()
			p.log.Error("bot process keeps dying at start: given up", zap.Error(err), zap.Int("exits", quick), zap.String("stderr", last))
			return
		}
		p.mu.Lock()
		p.restarts++
		n := p.restarts
		p.mu.Unlock()
		p.log.Warn("bot process died, restarting", zap.Error(err), zap.Int("restarts", n), zap.Duration("backoff", backoff),
			zap.String("stderr", last))
		select {
		case <-time.After(backoff):
		case <-ctx.Done():
			return
		}
		backoff = min(backoff*2, maxBackoff)
	}
}

// indent indents every line of text for an error message; "(nothing)" for no text.
func indent(text string) string {
	if text == "" {
		return "  (nothing)"
	}
	return "  " + strings.ReplaceAll(strings.TrimRight(text, "\n"), "\n", "\n  ")
}

// tail keeps the last tailLines lines written to it.
type tail struct {
	mu    sync.Mutex
	lines [][]byte
	part  []byte // the line being written
}

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(b)
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			t.part = append(t.part, b...)
			if len(t.part) > 4096 { // a line without end: keep its end
				t.part = t.part[len(t.part)-4096:]
			}
			break
		}
		t.lines = append(t.lines, append(t.part, b[:i]...))
		t.part = nil
		if len(t.lines) > tailLines {
			t.lines = t.lines[1:]
		}
		b = b[i+1:]
	}
	return n, nil
}

// String returns the kept lines (and the unfinished one), each ending in a newline.
func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var b strings.Builder
	for _, l := range t.lines {
		b.Write(l)
		b.WriteByte('\n')
	}
	if len(t.part) > 0 {
		b.Write(t.part)
		b.WriteByte('\n')
	}
	return b.String()
}

// reset forgets what an earlier run of the process wrote.
func (t *tail) reset() {
	t.mu.Lock()
	t.lines, t.part = nil, nil
	t.mu.Unlock()
}

var _ io.Writer = (*tail)(nil)

func (p *Process) runOnce(ctx context.Context) error {
	argv, env := p.spec.Command, p.spec.Env
	if p.spec.Prepare != nil {
		prepared, err := p.spec.Prepare()
		if err != nil {
			return fmt.Errorf("preparing the sandbox: %w", err)
		}
		if prepared.Cleanup != nil {
			defer prepared.Cleanup()
		}
		argv, env = prepared.Command, append(append([]string(nil), env...), prepared.Env...)
	}
	if p.spec.Limits.Wall > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, p.spec.Limits.Wall, &LimitError{Limit: "wall time", Value: p.spec.Limits.Wall.String()})
		defer cancel()
	}
	// The process is started and waited for on one OS thread, held until it has exited: on
	// Linux it dies with that thread (dieWithArena), and Go would otherwise end or reuse the
	// threads it runs goroutines on as it likes.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	dieWithArena(cmd)
	if p.spec.CleanEnv {
		cmd.Env = append([]string{}, env...)
	} else {
		cmd.Env = append(os.Environ(), env...)
	}
	cmd.Dir = p.spec.Dir
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	if p.spec.Credential != nil {
		runAs(cmd, *p.spec.Credential)
	}
	if p.spec.Group {
		ownGroup(cmd)
		cmd.Cancel = func() error { return signalGroup(cmd, false) }
		defer func() { _ = signalGroup(cmd, true) }() // whatever the program left running
	}
	cmd.WaitDelay = 3 * time.Second
	p.stderr.reset()
	var file io.Writer
	if p.spec.StderrPath != "" {
		f, err := os.OpenFile(p.spec.StderrPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return fmt.Errorf("stderr file: %w", err)
		}
		defer f.Close()
		file = f
		cmd.Stderr = io.MultiWriter(f, &p.stderr)
	}
	switch {
	case p.spec.Output != nil && cmd.Stderr != nil:
		cmd.Stdout = p.spec.Output
		cmd.Stderr = io.MultiWriter(cmd.Stderr, p.spec.Output)
	case p.spec.Output != nil:
		// One writer for both streams, so that they share one pipe and keep their order; the
		// tail then holds the last lines of both.
		both := io.MultiWriter(p.spec.Output, &p.stderr)
		cmd.Stdout, cmd.Stderr = both, both
	case cmd.Stderr == nil:
		cmd.Stderr = &p.stderr
	}
	var capped *capWriter
	if p.spec.Limits.Output > 0 {
		// stdout and stderr share one pipe and one cap: a flood on either is cut off alike.
		capped = &capWriter{w: cmd.Stderr, limit: p.spec.Limits.Output}
		cmd.Stdout, cmd.Stderr = capped, capped
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	p.mu.Lock()
	p.cmd = cmd
	p.mu.Unlock()
	p.log.Debug("bot process started", zap.Int("pid", cmd.Process.Pid))
	stopWatch := p.watchCPU(cmd, ctx)
	err := cmd.Wait()
	overCPU := stopWatch()
	if cause := context.Cause(ctx); err != nil && ctx.Err() != nil && cause != nil && !errors.Is(cause, context.Canceled) {
		err = fmt.Errorf("%w (%w)", cause, err)
	}
	if overCPU != nil {
		err = fmt.Errorf("%w (%w)", overCPU, err)
	}
	p.note(file, capped, err)
	return err
}
