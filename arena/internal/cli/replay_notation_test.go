package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A match exported as TPN verifies, views, redacts and imports into another store, and the
// dataset export writes its Parquet files; bad flags get a clear usage error.
func TestNotationAndDatasetCommands(t *testing.T) {
	t.Parallel()
	pm := playMatch(t, "modern frage=on", 4, "heuristic", "random", "random")
	dir := t.TempDir()
	file := filepath.Join(dir, "m.tpn")
	if _, errs, err := run(t, "", "replay", "export", pm.id, "--format", "tpn", "--out", file, "--db", pm.dsn); err != nil {
		t.Fatalf("export: %v\n%s", err, errs)
	}
	if out := mustRun(t, "", "replay", "verify", file); !strings.Contains(out, "4 deal(s)") || !strings.Contains(out, "checks out") {
		t.Fatalf("verify:\n%s", out)
	}
	if out := mustRun(t, "", "replay", file, "--deal", "1", "--seat", "2", "--decision", "0"); !strings.Contains(out, "seat 2") {
		t.Fatalf("view:\n%s", out)
	}
	seat := mustRun(t, "", "replay", "export", pm.id, "--format", "tpn", "--seat", "1", "--db", pm.dsn)
	if strings.Count(seat, `[View "1"]`) != 4 || strings.Contains(seat, "[Seed ") || strings.Contains(seat, "[Result ") {
		t.Fatalf("redacted export:\n%s", seat)
	}
	other := filepath.Join(dir, "other.db")
	if out := mustRun(t, "", "replay", "import", file, "--db", other); !strings.Contains(out, "imported match "+pm.id+": 4 deal(s)") {
		t.Fatalf("import:\n%s", out)
	}
	if out := mustRun(t, "", "replay", "verify", pm.id, "--db", other); !strings.Contains(out, "checks out") {
		t.Fatalf("verify the import:\n%s", out)
	}
	if _, _, err := run(t, "", "replay", "import", file, "--db", other); err == nil || !strings.Contains(err.Error(), "already has a match") {
		t.Fatalf("a second import: %v", err)
	}
	out := mustRun(t, "", "dataset", "export", "--match", pm.id, "--out", filepath.Join(dir, "ds"), "--db", pm.dsn)
	if !strings.Contains(out, "exported 4 deal(s)") {
		t.Fatalf("dataset:\n%s", out)
	}
	for _, f := range []string{"deals.parquet", "decisions.parquet"} {
		if _, err := os.Stat(filepath.Join(dir, "ds", f)); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{
		{"replay", "export", pm.id, "--format", "pgn", "--db", pm.dsn},
		{"replay", "export", pm.id, "--seat", "1", "--db", pm.dsn},
		{"dataset", "export", "--db", pm.dsn},
		{"dataset", "export", "--league", "nope", "--db", pm.dsn},
	} {
		if _, _, err := run(t, "", args...); err == nil {
			t.Errorf("tapp %s: no error", strings.Join(args, " "))
		}
	}
}
