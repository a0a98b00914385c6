package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/tapparena/tapp/arena/internal/league/sprt"
)

// kill -9 in the middle of an SPRT, run the same command again: the resumed test (which
// rebuilds its running state from the store's totals) ends with the figures that the raw
// results give, recomputed pair by pair.
func TestSPRTResumesAfterKill9(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "bots.yaml")
	if err := os.WriteFile(file, []byte("name: bots\nbots:\n  - {name: f1, builtin: random, seed: 11}\n  - {name: f2, builtin: random, seed: 12}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "sprt.db")
	args := []string{"sprt", "--candidate", "heuristic", "--baseline", "f1", "--field", "f2,random", "--bots", file,
		"--name", "killed", "--elo1", "150", "--deals", "2", "--max-pairs", "24",
		"--db", db, "--logs", filepath.Join(dir, "logs")}
	cmd := leagueCmd(args...)
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	run := startTapp(t, cmd)
	waitDeals(t, db, "killed", 40, run) // 3 pairs and some (a pair is 12 deals)
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = run.Wait()
	if n, _ := openDB(t, db).LeagueDeals(context.Background(), "killed"); n >= 24*12 {
		t.Fatalf("the test finished (%d deals) before it was killed", n)
	}

	out, stderr, err := runTapp(t, append(args, "--json")...)
	if err != nil {
		t.Fatalf("resumed sprt: %v\n%s\n%s", err, out, stderr)
	}
	var got struct {
		Status              string
		LLR                 float64
		Pairs               int
		DecidedAt           int `json:"decided_at"`
		Wins, Draws, Losses int
		Diff                float64 `json:"diff_per_deal"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}

	// The same test recomputed from every raw result stored.
	m := &Main{Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}, Getenv: func(string) string { return "" }}
	f, err := m.parseSPRTFlags(args[1:])
	if err != nil {
		t.Fatal(err)
	}
	p, settings, err := f.plan()
	if err != nil {
		t.Fatal(err)
	}
	want, err := sprt.Recompute(context.Background(), openDB(t, db), p, settings)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("after kill -9 and resume: %+v", got)
	if got.Status != want.Report.Status.String() || got.LLR != want.Report.LLR || got.Pairs != want.Pairs ||
		got.DecidedAt != want.Report.DecidedAt || got.Wins != want.W || got.Draws != want.D || got.Losses != want.L ||
		got.Diff != want.Diff.Mean {
		t.Errorf("resumed test %+v\nrecomputed from raw results %+v", got, want)
	}
	if got.Pairs == 0 {
		t.Errorf("no pairs counted")
	}
}
