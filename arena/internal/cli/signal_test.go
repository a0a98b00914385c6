package cli

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// SIGTERM (and SIGINT) stop every long-running command within seconds, whatever it is doing:
// a huge match, a ladder without end, the arena, the dashboard, a bot that cannot reach its
// arena, a long deal file. (The 20 s are a backstop against a hang, not a speed target: the
// program itself exits 15 s after the signal at the latest.)
func TestSignalsStopEveryCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: runs tapp processes")
	}
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "s.db")
	if _, e, err := runTapp(t, "bots", "add", "b", "--db", db); err != nil {
		t.Fatalf("bots add: %v\n%s", err, e)
	}
	ladder := filepath.Join(dir, "ladder.yaml")
	if err := os.WriteFile(ladder, []byte("name: endless\nformat: ladder\nmatches_per_round: 10000\ndeals: 10\n"+
		"bots: [{name: a, builtin: random}, {name: b, builtin: random}, {name: c, builtin: random}]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		args   []string
		signal syscall.Signal
	}{
		{"match", []string{"match", "--in-process", "--bots", "random,random,random", "--deals", "1000000", "--db", "memory:"}, syscall.SIGTERM},
		{"league", []string{"league", "run", ladder, "--db", "memory:", "--logs", filepath.Join(dir, "logs")}, syscall.SIGTERM},
		{"serve", []string{"serve", "--listen", "127.0.0.1:0", "--db", db}, syscall.SIGTERM},
		{"web", []string{"web", "--http", "127.0.0.1:0", "--db", db}, syscall.SIGINT},
		{"bot", []string{"bot", "random", "--arena", "127.0.0.1:1", "--token", "t"}, syscall.SIGTERM},
		{"deals", []string{"deals", "gen", "--count", "1000000"}, syscall.SIGINT},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			cmd := leagueCmd(c.args...)
			cmd.Stdout = nil
			stderr, err := cmd.StderrPipe()
			if err != nil {
				t.Fatal(err)
			}
			if c.name == "deals" {
				stdout, err := cmd.StdoutPipe()
				if err != nil {
					t.Fatal(err)
				}
				stderr = stdout // the deal file's first line says it is running
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			logs := &lockedBuffer{}
			started := make(chan struct{})
			go func() {
				sc := bufio.NewScanner(stderr)
				sc.Buffer(make([]byte, 1<<20), 1<<20)
				once := false
				for sc.Scan() {
					logs.Write([]byte(sc.Text() + "\n"))
					if !once {
						once = true
						close(started)
					}
				}
			}()
			select {
			case <-started:
			case <-time.After(patience(t, 60*time.Second)):
				_ = cmd.Process.Kill()
				t.Fatalf("tapp %s said nothing in time (a minute on an idle machine)", c.name)
			}
			time.Sleep(200 * time.Millisecond) // into its work
			if err := cmd.Process.Signal(c.signal); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err := <-done:
				var ee *exec.ExitError
				if errors.As(err, &ee) && ee.ExitCode() == 130 {
					t.Errorf("tapp %s was stopped by the 15 s backstop, not by itself", c.name)
				}
				if strings.Contains(logs.String(), "goroutine ") || strings.Contains(logs.String(), "panic:") {
					t.Errorf("tapp %s printed a Go stack trace:\n%s", c.name, logs.String())
				}
			case <-time.After(patience(t, 20*time.Second)):
				_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
				t.Fatalf("tapp %s did not stop in time (20 s on an idle machine) after %v\n%s", c.name, c.signal, logs.String())
			}
		})
	}
}
