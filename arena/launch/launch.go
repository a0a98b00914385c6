// Package launch runs bots that the arena starts itself: each bot is a command line that gets
// the arena's address and a token in its environment (TAPP_ARENA, TAPP_TOKEN) and is
// supervised: restarted with backoff when it dies, its stderr kept in a file, and (on Linux)
// killed by the kernel when the arena dies, so that no bot outlives it.
package launch

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"sync"
	"time"

	"go.uber.org/zap"
)

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
	exitErr  error // how the last run ended; read after done is closed
}

// Start launches spec and keeps it running until ctx ends or Stop is called.
func Start(ctx context.Context, spec Spec, log *zap.Logger) (*Process, error) {
	if len(spec.Command) == 0 {
		return nil, fmt.Errorf("bot %s: empty command", spec.Name)
	}
	if log == nil {
		log = zap.NewNop()
	}
	if _, err := exec.LookPath(spec.Command[0]); err != nil {
		return nil, fmt.Errorf("bot %s: %w", spec.Name, err)
	}
	ctx, cancel := context.WithCancel(ctx)
	p := &Process{spec: spec, log: log.With(zap.String("bot", spec.Name)), cancel: cancel, done: make(chan struct{})}
	go p.supervise(ctx)
	return p, nil
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
	backoff := 100 * time.Millisecond
	for {
		start := time.Now()
		err := p.runOnce(ctx)
		p.mu.Lock()
		retiring := p.retiring
		p.exitErr = err
		p.mu.Unlock()
		if ctx.Err() != nil || retiring || p.spec.Once {
			return
		}
		if time.Since(start) > 30*time.Second {
			backoff = 100 * time.Millisecond
		}
		p.mu.Lock()
		p.restarts++
		n := p.restarts
		p.mu.Unlock()
		p.log.Warn("bot process died, restarting", zap.Error(err), zap.Int("restarts", n), zap.Duration("backoff", backoff))
		select {
		case <-time.After(backoff):
		case <-ctx.Done():
			return
		}
		backoff = min(backoff*2, 10*time.Second)
	}
}

func (p *Process) runOnce(ctx context.Context) error {
	// The process is started and waited for on one OS thread, held until it has exited: on
	// Linux it dies with that thread (dieWithArena), and Go would otherwise end or reuse the
	// threads it runs goroutines on as it likes.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cmd := exec.CommandContext(ctx, p.spec.Command[0], p.spec.Command[1:]...)
	dieWithArena(cmd)
	cmd.Env = append(os.Environ(), p.spec.Env...)
	cmd.Dir = p.spec.Dir
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	if p.spec.Group {
		ownGroup(cmd)
		cmd.Cancel = func() error { return signalGroup(cmd, false) }
		defer func() { _ = signalGroup(cmd, true) }() // whatever the program left running
	}
	cmd.WaitDelay = 3 * time.Second
	if p.spec.StderrPath != "" {
		f, err := os.OpenFile(p.spec.StderrPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return fmt.Errorf("stderr file: %w", err)
		}
		defer f.Close()
		cmd.Stderr = f
	}
	if p.spec.Output != nil {
		cmd.Stdout = p.spec.Output
		if cmd.Stderr != nil {
			cmd.Stderr = io.MultiWriter(cmd.Stderr, p.spec.Output)
		} else {
			cmd.Stderr = p.spec.Output
		}
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	p.mu.Lock()
	p.cmd = cmd
	p.mu.Unlock()
	p.log.Debug("bot process started", zap.Int("pid", cmd.Process.Pid))
	return cmd.Wait()
}
