package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/league/leaguefile"
	"github.com/tapparena/tapp/arena/internal/league/plan"
	"github.com/tapparena/tapp/arena/internal/league/sprt"
	"github.com/tapparena/tapp/arena/internal/rating"
	"github.com/tapparena/tapp/arena/internal/store/memstore"
	"github.com/tapparena/tapp/engine"
)

// testBot is a league file's bot that runs this test binary as a bot program (TestMain).
func testBot(name, kind string) string {
	return fmt.Sprintf("  - {name: %s, command: [%q], env: {%s: %s}}\n", name, os.Args[0], botEnv, kind)
}

// A league run launches its bots, plays every planned deal into the store and returns the
// league's leaderboard; run again, it finds the league finished and starts nothing.
func TestRunLeaguePlaysAndResumes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	text := "name: small\nrules: modern\nformat: round-robin\nrounds: 1\ndeals: 3\nduplicate: false\nseed: 4\n" +
		"time_control: {per_decision: 5s, overage: 5s, strikes: 3}\nbots:\n" +
		testBot("r1", "random") + testBot("h", "heuristic") + testBot("r2", "random")
	cfg, err := leaguefile.Parse(filepath.Join(dir, "small.yaml"), []byte(text), leaguefile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	st := memstore.New()
	run := LeagueRun{Config: cfg, Listen: "127.0.0.1:0", BotLogs: filepath.Join(dir, "logs")}
	res, err := RunLeague(ctx, st, run)
	if err != nil {
		t.Fatal(err)
	}
	if res.AlreadyFinished || !res.Outcome.Finished || res.Outcome.Played != 3 || res.Elapsed <= 0 {
		t.Fatalf("first run: %+v, outcome %+v; want the league's 3 deals played to the end", res, res.Outcome)
	}
	if res.Board.League != "small" || len(res.Board.Bots) != 3 || res.Board.Deals != 3 {
		t.Fatalf("board %+v, want the league's 3 bots over its 3 deals", res.Board)
	}
	again, err := RunLeague(ctx, st, run)
	if err != nil {
		t.Fatal(err)
	}
	if !again.AlreadyFinished || again.Outcome.Played != 0 || again.Board.Deals != 3 {
		t.Fatalf("second run: %+v, outcome %+v; want nothing played and the same board", again, again.Outcome)
	}
	if _, err := os.Stat(filepath.Join(dir, "logs", "r1.stderr.log")); err != nil {
		t.Errorf("the launched bot's stderr log: %v", err)
	}
}

// An SPRT runs as a league of its own and stops at its limit of pairs.
func TestRunSPRTStopsAtItsLimit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	text := "bots:\n" + testBot("cand", "heuristic") + testBot("base", "random") + testBot("f1", "random") + testBot("f2", "random")
	defined, err := leaguefile.Parse(filepath.Join(dir, "bots.yaml"), []byte(text), leaguefile.Options{BotsOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	rules, err := engine.ParseRuleSet("modern")
	if err != nil {
		t.Fatal(err)
	}
	settings := sprt.Settings{NElo0: 0, NElo1: 10, Alpha: 0.05, Beta: 0.05, MaxPairs: 2}
	base := plan.Plan{Rules: rules, Deals: 2, Seed: 1, TimeControl: spec(t, "modern", 1, "random").TimeControl}
	p, err := sprt.NewPlan("sprt-test", base, "cand", "base", []string{"f1", "f2"}, settings)
	if err != nil {
		t.Fatal(err)
	}
	bots, err := leaguefile.NamedBots(defined, p.Bots, leaguefile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cfg := &leaguefile.Config{Name: p.League, Concurrency: 2, Seed: 1, Dir: dir}
	s, out, err := RunSPRT(ctx, memstore.New(), SPRTRun{Plan: p, Settings: settings, Config: cfg, Bots: bots,
		BotLogs: filepath.Join(dir, "logs"), Until: time.Now().Add(time.Minute), Concurrency: 2})
	if err != nil {
		t.Fatal(err)
	}
	if s.Pairs < 2 || !out.Finished && s.Report.Status == rating.SPRTContinue {
		t.Fatalf("summary %+v, outcome %+v; want the 2 pairs of the limit played, or a decision", s, out)
	}
}
