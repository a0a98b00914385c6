package launch

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A bot told to leave gets time to leave by itself: it is not interrupted while it winds up
// (a Python bot would print a KeyboardInterrupt traceback into its log), nor restarted.
func TestStopAllLetsARetiredProcessLeaveByItself(t *testing.T) {
	t.Parallel()
	stderr := filepath.Join(t.TempDir(), "bot.stderr.log")
	// The bot winds up for 0.3 s and exits; interrupted before, it says so.
	script := `trap 'echo interrupted >&2; exit 1' INT; echo started >&2; sleep 0.3 & wait; exit 0`
	p, err := Start(context.Background(), Spec{Name: "bot", Command: []string{"sh", "-c", script}, StderrPath: stderr}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if b, _ := os.ReadFile(stderr); strings.Contains(string(b), "started") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the bot did not start")
		}
	}
	p.Retire()
	StopAll([]*Process{p}, 10*time.Second)
	b, err := os.ReadFile(stderr)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "interrupted") || p.Restarts() != 0 {
		t.Errorf("stderr %q, %d restarts; want the bot to leave by itself, once", b, p.Restarts())
	}
}

// A bot that crashes at once is restarted with backoff, then given up after MaxQuickExits
// exits in a row, and what it last wrote to stderr is shown.
func TestABotThatCrashesAtOnceIsGivenUpWithItsStderr(t *testing.T) {
	t.Parallel()
	script := `echo "starting up" >&2; echo "fatal: no such model file" >&2; exit 1`
	p, err := Start(context.Background(), Spec{Name: "crasher", Command: []string{"sh", "-c", script}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.Done():
	case <-time.After(60 * time.Second): // backoff 0.1+0.2+0.4+0.8 s between the exits
		p.Stop()
		t.Fatal("the crashing bot was still being restarted after a minute")
	}
	err = p.Err()
	if err == nil || !strings.Contains(err.Error(), "fatal: no such model file") || !strings.Contains(err.Error(), "5 times") {
		t.Fatalf("Err() = %v, want the give-up with the last stderr lines", err)
	}
	if got, want := p.Restarts(), MaxQuickExits-1; got != want {
		t.Errorf("restarts = %d, want %d", got, want)
	}
}
