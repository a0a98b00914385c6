package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Results with more than 1% fallbacks say so; results with fewer say nothing.
func TestFallbackWarning(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		fallbacks, decisions int
		warn                 bool
	}{{0, 0, false}, {0, 1000, false}, {10, 1000, false}, {11, 1000, true}, {830, 1000, true}} {
		got := fallbackWarning(c.fallbacks, c.decisions)
		if (got != "") != c.warn || c.warn && !strings.Contains(got, "fallbacks") {
			t.Errorf("fallbackWarning(%d, %d) = %q, want a warning: %v", c.fallbacks, c.decisions, got, c.warn)
		}
	}
}

// tapp match --db memory: plays into the in-memory store: no file named "memory:" appears,
// and no replay command is offered for deals that are not kept.
func TestMatchWithTheMemoryStoreWritesNoFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cmd := exec.Command(tappBin, "match", "--bots", "random,random,random", "--deals", "2", "--db", "memory:")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tapp match --db memory:: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "2 deals") || strings.Contains(string(out), "replay a deal") {
		t.Errorf("output:\n%s\nwant the result of 2 deals and no replay command", out)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("files made in the working folder: %v", entries)
	}
}

// One rule for bot names: what tapp bots add refuses, a league file refuses too, and the
// other way round.
func TestBotsAddRefusesDotNames(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "bots.db")
	for _, name := range []string{".", "..", ".x"} {
		if _, err := cli(t, "bots", "add", name, "--db", db); err == nil {
			t.Errorf("tapp bots add %q: accepted, want refused", name)
		}
	}
	if _, err := cli(t, "bots", "add", "ok-bot.2", "--db", db); err != nil {
		t.Errorf("tapp bots add ok-bot.2: %v", err)
	}
}
