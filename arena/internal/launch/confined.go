package launch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"sync"
	"time"

	"go.uber.org/zap"
)

// Prepared is one run's command, from Spec.Prepare.
type Prepared struct {
	Command []string // program and arguments
	Env     []string // added to Spec.Env
	Cleanup func()   // called once the run has ended (nil: nothing to clean)
}

// Credential is the user and group a process runs as.
type Credential struct {
	UID, GID uint32
}

// Limits are what the launcher enforces on a process from outside (a sandbox enforces the
// rest inside: memory, processes, file size).
type Limits struct {
	// Output caps the bytes of stdout and stderr kept per run; the rest is read and dropped,
	// and the log says how much (0: no cap).
	Output int64
	// CPU stops a run whose process tree has used this much CPU time (0: no limit): a bot in
	// an infinite loop is killed and restarted, with the reason in its log. A sandbox that
	// cannot limit CPU time itself (gVisor ignores RLIMIT_CPU) relies on it.
	CPU time.Duration
	// Wall stops a run after this long (0: no limit).
	Wall time.Duration
}

// LimitError says which limit stopped a process.
type LimitError struct {
	Limit string // "CPU time", "wall time"
	Value string
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("stopped by the arena: %s limit of %s reached", e.Limit, e.Value)
}

// logPrefix marks the lines the arena writes into a bot's own log.
const logPrefix = "tapp arena: "

// note writes into the bot's log (its stderr file) how the run ended when a limit stopped it
// or cut its output: the bot's author reads it there.
func (p *Process) note(file io.Writer, capped *capWriter, err error) {
	var lines []string
	if capped != nil && capped.dropped > 0 {
		lines = append(lines, fmt.Sprintf("output over the limit of %d bytes: %d more bytes dropped", capped.limit, capped.dropped))
	}
	var le *LimitError
	if asLimit(err, &le) {
		lines = append(lines, err.Error())
	}
	for _, l := range lines {
		p.log.Warn("bot process limited", zap.String("limit", l))
		if file != nil {
			_, _ = fmt.Fprintf(file, "\n%s%s\n", logPrefix, l)
		}
	}
}

// capWriter passes on the first limit bytes written to it and counts the rest. It never
// fails, so the process's pipe is drained and a flooding bot is not blocked mid-write.
type capWriter struct {
	w       io.Writer
	limit   int64
	mu      sync.Mutex
	written int64
	dropped int64
}

func (c *capWriter) Write(b []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := len(b)
	room := c.limit - c.written
	if room <= 0 {
		c.dropped += int64(n)
		return n, nil
	}
	if int64(len(b)) > room {
		c.dropped += int64(len(b)) - room
		b = b[:room]
	}
	c.written += int64(len(b))
	if c.w != nil {
		_, _ = c.w.Write(b)
	}
	if c.written >= c.limit {
		_, _ = fmt.Fprintf(c.w, "\n%soutput cut off here: more than %d bytes\n", logPrefix, c.limit)
	}
	return n, nil
}

// watchCPU watches the CPU time of cmd's process tree while it runs, and kills the tree
// when it passes the CPU limit. The returned stop ends the watch and reports the limit
// when it was reached.
func (p *Process) watchCPU(cmd *exec.Cmd, ctx context.Context) (stop func() error) {
	limit := p.spec.Limits.CPU
	if limit <= 0 || cmd.Process == nil {
		return func() error { return nil }
	}
	done := make(chan struct{})
	result := make(chan error, 1)
	go func() {
		tick := time.NewTicker(cpuPoll)
		defer tick.Stop()
		for {
			select {
			case <-done:
				result <- nil
				return
			case <-ctx.Done():
				result <- nil
				return
			case <-tick.C:
			}
			used, ok := treeCPU(cmd.Process.Pid)
			if !ok || used < limit {
				continue
			}
			_ = signalGroup(cmd, true)
			_ = cmd.Process.Kill()
			result <- &LimitError{Limit: "CPU time", Value: limit.String()}
			return
		}
	}()
	return func() error {
		close(done)
		return <-result
	}
}

// cpuPoll is how often a CPU limit is checked: a bot may overrun its limit by about this.
const cpuPoll = 200 * time.Millisecond

// asLimit reports whether err is (or wraps) a *LimitError.
func asLimit(err error, target **LimitError) bool { return errors.As(err, target) }
