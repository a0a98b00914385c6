package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/league/plan"
	"github.com/tapparena/tapp/arena/internal/rating"
)

// A ladder killed with SIGKILL twice and resumed keeps running totals that are those of its
// stored results, and so schedules the same rounds as a ladder never interrupted.
func TestLadderTotalsSurviveKill9(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "ladder.yaml")
	// 6 rounds × 2 tables × 2 deal sources × 6 seatings = 144 deals.
	if err := os.WriteFile(file, []byte(`name: ladder
rules: modern players=3
format: ladder
rounds: 6
matches_per_round: 2
deals: 2
duplicate: true
seed: 5
concurrency: 8
grace: 1s
time_control: {per_decision: 2s, overage: 10s, strikes: 3}
bots:
  - {name: r1, builtin: random, seed: 1}
  - {name: r2, builtin: random, seed: 2}
  - {name: r3, builtin: random, seed: 3}
  - {name: r4, builtin: random, seed: 4}
  - {name: r5, builtin: random, seed: 5}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	ref := filepath.Join(dir, "ref.db")
	if out, errOut, err := runTapp(t, "league", "run", file, "--db", ref, "--logs", filepath.Join(dir, "ref-logs")); err != nil {
		t.Fatalf("uninterrupted ladder: %v\n%s\n%s", err, out, errOut)
	}
	db := filepath.Join(dir, "killed.db")
	for _, at := range []int{20, 80} {
		cmd := leagueCmd("league", "run", file, "--db", db, "--logs", filepath.Join(dir, "logs"))
		var errOut bytes.Buffer
		cmd.Stderr = &errOut
		run := startTapp(t, cmd)
		waitDeals(t, db, "ladder", at, run)
		if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		_ = run.Wait()
		if n, _ := openDB(t, db).LeagueDeals(context.Background(), "ladder"); n >= 144 {
			t.Fatalf("the ladder finished before it was killed")
		}
		checkLadderTotals(t, db, "ladder")
	}
	if out, errOut, err := runTapp(t, "league", "run", file, "--db", db, "--logs", filepath.Join(dir, "logs")); err != nil {
		t.Fatalf("resumed ladder: %v\n%s\n%s", err, out, errOut)
	}
	checkLadderTotals(t, db, "ladder")
	if got, want := ladderSchedule(t, db, "ladder"), ladderSchedule(t, ref, "ladder"); !reflect.DeepEqual(got, want) || len(want) != 12 {
		t.Errorf("schedule after kill -9 and resume\n%s\nuninterrupted\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got, want := storedResults(t, db, "ladder"), storedResults(t, ref, "ladder"); len(want) != 144*3 || !reflect.DeepEqual(got, want) {
		t.Errorf("results after kill -9 and resume differ from the uninterrupted run (%d and %d seat results)", len(got), len(want))
	}
}

// ladderSchedule lists the league's matches with their round and bots.
func ladderSchedule(t *testing.T, path, id string) []string {
	t.Helper()
	st := openDB(t, path)
	ctx := context.Background()
	lms, err := st.LeagueMatches(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, lm := range lms {
		m, err := st.GetMatch(ctx, lm.MatchID)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("round %d %s %s", lm.Round, lm.MatchID, strings.Join(m.Spec.Bots, "+")))
	}
	return out
}

// checkLadderTotals compares the league's running totals with those recomputed from its
// stored results: its deals, and the pairwise results of every round.
func checkLadderTotals(t *testing.T, path, id string) {
	t.Helper()
	st := openDB(t, path)
	ctx := context.Background()
	ms, err := st.ListMatches(ctx, domain.MatchFilter{LeagueID: id})
	if err != nil {
		t.Fatal(err)
	}
	rows, err := st.Results(ctx, domain.MatchFilter{LeagueID: id})
	if err != nil {
		t.Fatal(err)
	}
	lms, err := st.LeagueMatches(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	deals := map[string]bool{}
	for _, r := range rows {
		deals[fmt.Sprintf("%s/%d", r.MatchID, r.Deal)] = true
	}
	if n, err := st.LeagueDeals(ctx, id); err != nil || n != len(deals) {
		t.Errorf("LeagueDeals = %d, %v; %d deals stored", n, err, len(deals))
	}
	for _, round := range roundsOf(lms) {
		in := map[string]*domain.Match{}
		for _, lm := range lms {
			if lm.Round != round {
				continue
			}
			for i := range ms {
				if ms[i].ID == lm.MatchID {
					in[lm.MatchID] = &ms[i]
				}
			}
		}
		var kept []domain.ResultRow
		for _, r := range rows {
			if in[r.MatchID] != nil {
				kept = append(kept, r)
			}
		}
		want, err := rating.MergePairs(plan.PairResults(plan.Units(in, kept)))
		if err != nil {
			t.Fatal(err)
		}
		got, err := st.LadderPairs(ctx, id, round, round+1)
		if err != nil {
			t.Fatal(err)
		}
		if (len(got) > 0 || len(want) > 0) && !reflect.DeepEqual(got, want) {
			t.Errorf("round %d: running totals %v, recomputed %v", round, got, want)
		}
	}
}

func roundsOf(lms []domain.LeagueMatch) []int {
	seen := map[int]bool{}
	var out []int
	for _, lm := range lms {
		if !seen[lm.Round] {
			seen[lm.Round] = true
			out = append(out, lm.Round)
		}
	}
	return out
}
