package cli

import (
	"io"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The tests of this package run real tapp processes beside each other, and `make test` runs
// twice at once on a shared machine with CPU-bound work beside it: a wait that is ample on an
// idle machine (a league's first ten deals in a few seconds) took more than a minute at a load
// of 50 on two cores. So a test waits for what it waits for — progress, or the process it
// watches exiting — and a wall-clock budget, where one is needed to call something stuck, is
// scaled by the machine's load and bounded by the test binary's own deadline only.

// patience is how long to wait for something that takes at most base on an idle machine:
// base times the load per CPU (when above 1), and never past the test's deadline less a
// margin to report in (go test -timeout; no deadline, or a benchmark: no bound).
func patience(t testing.TB, base time.Duration) time.Duration {
	t.Helper()
	wait := time.Duration(float64(base) * loadPerCPU())
	if deadline, ok := testDeadline(t); ok {
		left := time.Until(deadline)
		if limit := left - left/10 - 5*time.Second; wait > limit {
			wait = max(limit, base) // a deadline too near for even base: the test times out as it would
		}
	}
	return wait
}

// stuckAt is the moment past which a wait on progress calls the process stuck: the test's
// deadline less a margin to report in, or never (the zero time) without a deadline.
func stuckAt(t testing.TB) time.Time {
	deadline, ok := testDeadline(t)
	if !ok {
		return time.Time{}
	}
	left := time.Until(deadline)
	return deadline.Add(-left/10 - 5*time.Second)
}

// testDeadline is t's deadline when t is a test (benchmarks have none).
func testDeadline(t testing.TB) (time.Time, bool) {
	if d, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		return d.Deadline()
	}
	return time.Time{}, false
}

// pastStuck reports whether now is past stuckAt's moment (the zero time: never).
func pastStuck(at time.Time) bool { return !at.IsZero() && time.Now().After(at) }

// loadPerCPU is the one-minute load average per CPU, at least 1 (1 where it cannot be read).
func loadPerCPU() float64 {
	text, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 1
	}
	fields := strings.Fields(string(text))
	if len(fields) == 0 {
		return 1
	}
	load, err := strconv.ParseFloat(fields[0], 64)
	if err != nil {
		return 1
	}
	return max(1, load/float64(runtime.NumCPU()))
}

// watchedTapp is a started tapp process whose exit a test can watch while it waits for the
// process's progress: a wait then fails at once, with what the process said, when the process
// is gone, instead of waiting out a budget for progress that cannot come.
type watchedTapp struct {
	cmd    *exec.Cmd
	exited chan struct{} // closed once the process has exited and its output is copied
	err    error         // cmd.Wait's, once exited is closed
	stderr lockedBuffer  // a copy of what the process wrote to its stderr
}

// startTapp starts cmd (as leagueCmd made it; its Stdout and Stderr as the caller set them,
// stderr also copied for the failure messages) and watches its exit.
func startTapp(t *testing.T, cmd *exec.Cmd) *watchedTapp {
	t.Helper()
	r := &watchedTapp{cmd: cmd, exited: make(chan struct{})}
	if cmd.Stderr != nil {
		cmd.Stderr = io.MultiWriter(cmd.Stderr, &r.stderr)
	} else {
		cmd.Stderr = &r.stderr
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		r.err = cmd.Wait()
		close(r.exited)
	}()
	return r
}

// Wait waits for the process to exit and returns what cmd.Wait returned.
func (r *watchedTapp) Wait() error {
	<-r.exited
	return r.err
}
