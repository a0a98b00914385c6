package cli

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// `--db memory` (no colon) is refused with the fix, by every kind of command, and leaves no
// SQLite file named memory behind; a league file's `db: memory` too.
func TestBareMemoryDBIsRefused(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	league := filepath.Join(work, "l.yaml")
	if err := os.WriteFile(league, []byte("name: l\nrules: modern players=3\ndeals: 1\ndb: memory\nbots:\n  - {name: a, builtin: random}\n  - {name: b, builtin: random}\n  - {name: c, builtin: random}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"match", "--bots", "random,random,random", "--deals", "1", "--db", "memory"},
		{"league", "run", league, "--db", "memory"},
		{"league", "run", league},
		{"ratings", "--db", "memory"},
	} {
		cmd := exec.Command(tappBin, args...)
		cmd.Dir = work
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 2 || !strings.Contains(string(out), "the in-memory store is memory: (with a colon)") {
			t.Errorf("tapp %s: %v, want a usage error that names memory:\n%s", strings.Join(args, " "), err, out)
		}
	}
	if _, err := os.Stat(filepath.Join(work, "memory")); err == nil {
		t.Error("a file named memory was created")
	}
}
