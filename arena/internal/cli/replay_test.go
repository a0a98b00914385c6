package cli

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/tapparena/tapp/arena/internal/app"
	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/inproc"
	"github.com/tapparena/tapp/arena/internal/match"
	"github.com/tapparena/tapp/arena/internal/store"
	"github.com/tapparena/tapp/bots"
	"github.com/tapparena/tapp/bots/builtin"
	"github.com/tapparena/tapp/engine"
)

// playedMatch is a match stored in a SQLite file by the real match runner.
type playedMatch struct {
	dsn, id string
	deals   []domain.DealRecord
}

// playMatch plays and stores a match of built-in bots (kinds in table order).
func playMatch(t *testing.T, rules string, deals int, kinds ...string) playedMatch {
	t.Helper()
	ctx := context.Background()
	dsn := filepath.Join(t.TempDir(), "tapp.db")
	st, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	r, err := engine.ParseRuleSet(rules)
	if err != nil {
		t.Fatal(err)
	}
	names := app.SeatNames(kinds)
	const seed = 5
	seats := &inproc.Seats{Bots: map[string]bots.Bot{}}
	for i, k := range kinds {
		if seats.Bots[names[i]], err = builtin.New(k, seed+uint64(i)); err != nil {
			t.Fatal(err)
		}
	}
	spec := domain.MatchSpec{Rules: r, Bots: names, Deals: deals, Seed: seed,
		TimeControl: domain.TimeControl{PerDecision: time.Second, Overage: 100 * time.Millisecond, MaxStrikes: 3}}
	runner := &match.Runner{Store: st, Seats: seats, Parallel: 4}
	m, err := runner.Create(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := runner.Run(ctx, m); err != nil {
		t.Fatal(err)
	}
	recs, err := st.Deals(ctx, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	return playedMatch{dsn: dsn, id: m.ID, deals: recs}
}

// run runs one tapp command line with the given stdin and returns stdout, stderr and the error.
func run(t *testing.T, stdin string, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	m := &Main{Stdout: &out, Stderr: &errb, Stdin: strings.NewReader(stdin), Getenv: func(string) string { return "" },
		Log: zap.NewNop()}
	err := m.Run(context.Background(), args)
	return out.String(), errb.String(), err
}

func mustRun(t *testing.T, stdin string, args ...string) string {
	t.Helper()
	out, errs, err := run(t, stdin, args...)
	if err != nil {
		t.Fatalf("tapp %s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), err, out, errs)
	}
	return out
}

func TestReplayListsTheDealsAndWalksThroughOne(t *testing.T) {
	t.Parallel()
	pm := playMatch(t, "modern", 4, "heuristic", "random", "random")
	out := mustRun(t, "", "matches", "--db", pm.dsn)
	if !strings.Contains(out, "tapp replay "+pm.id+" --db "+pm.dsn) {
		t.Fatalf("tapp matches does not say how to open the match in its database:\n%s", out)
	}
	out = mustRun(t, "", "replay", pm.id, "--db", pm.dsn)
	for _, want := range []string{"deal  group", "random#2", "tapp replay " + pm.id + " --deal 0", "tapp replay ask " + pm.id,
		"--db " + pm.dsn} {
		if !strings.Contains(out, want) {
			t.Fatalf("the deal list does not contain %q:\n%s", want, out)
		}
	}
	if got := strings.Count(out, "\n"+strconv.Itoa(len(pm.deals)-1)+" "); got != 1 {
		t.Fatalf("the deal list has no line for deal %d:\n%s", len(pm.deals)-1, out)
	}

	rec := pm.deals[1]
	out = mustRun(t, "", "replay", pm.id, "--deal", "1", "--full", "--db", pm.dsn)
	for k := range rec.Moves {
		if !strings.Contains(out, fmt.Sprintf("── decision %d [0-%d]", k, len(rec.Moves)-1)) {
			t.Fatalf("the walk-through lacks decision %d:\n%s", k, out)
		}
	}
	for _, want := range []string{"view      full", "end of deal 1", "payoff", "answer", "hand 2"} {
		if !strings.Contains(out, want) {
			t.Fatalf("the walk-through lacks %q:\n%s", want, out)
		}
	}
	// The same deal seen by the heuristic bot's seat, and one decision of it.
	seat := 0
	for s, b := range rec.Seating {
		if b == "heuristic" {
			seat = s
		}
	}
	out = mustRun(t, "", "replay", "--bot", "heuristic", pm.id, "--deal", "1", "--decision", "2", "--db", pm.dsn)
	if !strings.Contains(out, fmt.Sprintf("view      seat %d", seat)) || !strings.Contains(out, "── decision 2 [") ||
		strings.Contains(out, "── decision 3 [") || !strings.Contains(out, fmt.Sprintf("hand %d ", seat)) ||
		strings.Contains(out, fmt.Sprintf("hand %d ", (seat+1)%3)) {
		t.Fatalf("--bot heuristic --decision 2 shows:\n%s", out)
	}
	if _, _, err := run(t, "", "replay", pm.id, "--deal", "1", "--seat", "7", "--db", pm.dsn); err == nil || exitCode(err) != 2 {
		t.Fatalf("--seat 7: %v, want a usage error", err)
	}
	if _, _, err := run(t, "", "replay", "nosuchmatch", "--db", pm.dsn); err == nil || !strings.Contains(err.Error(), "tapp matches") {
		t.Fatalf("an unknown match: %v, want an error saying how to list matches", err)
	}
}

var decisionHeader = regexp.MustCompile(`── (decision (\d+) \[|end of deal)`)

// shown lists the steps an output showed, in order: decision numbers, -1 for the end.
func shown(out string) []int {
	var ks []int
	for _, m := range decisionHeader.FindAllStringSubmatch(out, -1) {
		if m[2] == "" {
			ks = append(ks, -1)
			continue
		}
		k, _ := strconv.Atoi(m[2])
		ks = append(ks, k)
	}
	return ks
}

func TestReplayStepsThroughWithScriptedInput(t *testing.T) {
	t.Parallel()
	pm := playMatch(t, "classic", 2, "heuristic", "random", "heuristic")
	n := len(pm.deals[0].Moves)
	for _, c := range []struct {
		name, input string
		want        []int
	}{
		{"next, back, jump, quit", "\n\nb\n3\nq\n", []int{0, 1, 2, 1, 3}},
		{"a bad command keeps the step", "1\nzz\nq\n", []int{0, 1, 1}},
		{"end, then enter leaves", "e\n\n", []int{0, -1}},
		{"back at the start stays", "b\nq\n", []int{0, 0}},
		{"end of input leaves", "\n", []int{0, 1}},
		{"the last decision, then the end", fmt.Sprintf("%d\n\n\n", n-1), []int{0, n - 1, -1}},
	} {
		out := mustRun(t, c.input, "replay", pm.id, "--deal", "0", "--seat", "1", "--step", "--db", pm.dsn)
		if got := shown(out); fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%s: input %q showed steps %v, want %v\n%s", c.name, c.input, got, c.want, out)
		}
	}
	out := mustRun(t, "s\nq\n", "replay", pm.id, "--deal", "0", "--seat", "0", "--step", "--db", pm.dsn)
	if !strings.Contains(out, "the request exactly as sent") || !strings.Contains(out, `"requestId"`) {
		t.Errorf("s did not show the request as sent:\n%s", out)
	}
	out = mustRun(t, "q\n", "replay", pm.id, "--deal", "0", "--step", "--decision", "4", "--db", pm.dsn)
	if got := shown(out); fmt.Sprint(got) != "[4]" {
		t.Errorf("--decision 4 --step started at %v, want [4]", got)
	}
	// Without a terminal and without --step, the whole walk-through is printed.
	out = mustRun(t, "q\n", "replay", pm.id, "--deal", "0", "--db", pm.dsn)
	if got := shown(out); len(got) != n+1 {
		t.Errorf("non-interactive: %d steps shown, want %d", len(got), n+1)
	}
}

func TestReplayExportAndVerify(t *testing.T) {
	t.Parallel()
	pm := playMatch(t, "wuerttemberg pot=on", 5, "heuristic", "random", "random")
	file := filepath.Join(t.TempDir(), "match.jsonl")
	_, errs, err := run(t, "", "replay", "export", pm.id, "--format", "jsonl", "--out", file, "--db", pm.dsn)
	if err != nil || !strings.Contains(errs, "exported 5 deal(s)") {
		t.Fatalf("export: %v\n%s", err, errs)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if got := bytes.Count(data, []byte("\n")); got != 5 {
		t.Fatalf("%d lines, want one per deal (5)", got)
	}
	var line map[string]any
	if err := json.Unmarshal(bytes.SplitN(data, []byte("\n"), 2)[0], &line); err != nil {
		t.Fatal(err)
	}
	if line["rules"] != "wuerttemberg players=3 pack=36 tout=3 pot=on" || line["match"] != pm.id {
		t.Fatalf("first line: rules %v, match %v", line["rules"], line["match"])
	}
	for _, src := range []string{pm.id, file} {
		out := mustRun(t, "", "replay", "verify", src, "--db", pm.dsn)
		if !strings.Contains(out, "5 deal(s)") || !strings.Contains(out, "every action and settlement checks out") {
			t.Fatalf("verify %s:\n%s", src, out)
		}
	}
	// The export can be viewed and re-asked like the match itself.
	out := mustRun(t, "", "replay", file, "--deal", "3", "--decision", "0")
	if !strings.Contains(out, "match "+pm.id+" · deal 3") {
		t.Fatalf("viewing the export:\n%s", out)
	}
	out = mustRun(t, "", "replay", "export", pm.id, "--deal", "2", "--no-sent", "--db", pm.dsn)
	if strings.Count(out, "\n") != 1 || strings.Contains(out, `"sent"`) || !strings.Contains(out, `"deal":2`) {
		t.Fatalf("export --deal 2 --no-sent:\n%s", out)
	}
	if _, _, err := run(t, "", "replay", "export", pm.id, "--format", "csv", "--db", pm.dsn); err == nil || exitCode(err) != 2 {
		t.Fatalf("--format csv: %v, want a usage error", err)
	}
}

func TestReplayVerifyFindsACorruptedStore(t *testing.T) {
	t.Parallel()
	pm := playMatch(t, "modern", 4, "heuristic", "random", "random")
	db, err := sql.Open("sqlite", pm.dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// Deal 2's requests no longer match the digest of the ones sent: the first byte of the
	// digest (byte 1 of its compact record) changes.
	var record []byte
	if err := db.QueryRow(`SELECT record FROM deals WHERE match_id = ? AND number = 2`, pm.id).Scan(&record); err != nil {
		t.Fatal(err)
	}
	record[1] ^= 0x40
	if _, err := db.Exec(`UPDATE deals SET record = ? WHERE match_id = ? AND number = 2`, record, pm.id); err != nil {
		t.Fatal(err)
	}
	// (A compact record keeps no results of its own that could be wrong: they are rebuilt
	// from its outcome. REC-RESULT, for deals kept as text, is in the verifier's own tests.)

	out, _, err := run(t, "", "replay", "verify", pm.id, "--db", pm.dsn)
	if err == nil || exitCode(err) != 1 {
		t.Fatalf("verify of a corrupted match: %v, want a failure", err)
	}
	for _, want := range []string{
		"deal 2: REC-SENT: the requests rebuilt from the record",
		"4 deal(s)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("verify output lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(err.Error(), "in 1 of 4 deal(s)") {
		t.Errorf("error %q, want problems in 1 of 4 deals", err)
	}
}

func TestReplayAsk(t *testing.T) {
	t.Parallel()
	pm := playMatch(t, "modern", 3, "heuristic", "random", "random")
	rec := pm.deals[0]
	var hk, rk = -1, -1 // a decision of the heuristic bot, one of "random" (table position 1, seed 6)
	for k, mv := range rec.Moves {
		switch rec.Seating[mv.Seat] {
		case "heuristic":
			hk = k
		case "random":
			rk = k
		}
	}
	out := mustRun(t, "", "replay", "ask", pm.id, "--deal", "0", "--decision", strconv.Itoa(hk), "--bot", "heuristic", "--db", pm.dsn)
	for _, want := range []string{"this seat decides", "re-asked  heuristic (builtin/heuristic)", "verdict   SAME"} {
		if !strings.Contains(out, want) {
			t.Fatalf("ask --bot heuristic lacks %q:\n%s", want, out)
		}
	}
	out = mustRun(t, "", "replay", "ask", pm.id, "--deal", "0", "--decision", strconv.Itoa(rk), "--bot", "random", "--seed", "6", "--db", pm.dsn)
	if !strings.Contains(out, "verdict   SAME") {
		t.Fatalf("the random bot with the match's seed answers differently:\n%s", out)
	}
	// Another seed is another bot: over all of a seat's decisions, some differ.
	seat := rec.Moves[rk].Seat
	out = mustRun(t, "", "replay", "ask", pm.id, "--deal", "0", "--seat", strconv.Itoa(int(seat)), "--bot", "random", "--seed", "99", "--db", pm.dsn)
	if !strings.Contains(out, "DIFFERENT") || !regexp.MustCompile(`\d+ of \d+ decisions differ`).MatchString(out) {
		t.Fatalf("ask --seat with another seed:\n%s", out)
	}
	// A bot that cannot be reached.
	_, _, err := run(t, "", "replay", "ask", pm.id, "--deal", "0", "--decision", "0", "--bot-cmd", "sh -c 'exit 3'", "--db", pm.dsn)
	if err == nil || !strings.Contains(err.Error(), `the bot command "sh -c 'exit 3'" ended before it connected`) {
		t.Fatalf("ask --bot-cmd 'exit 3': %v, want an error saying the bot ended before it connected", err)
	}
	_, _, err = run(t, "", "replay", "ask", pm.id, "--deal", "0", "--decision", "0", "--listen", "127.0.0.1:0", "--wait", "50ms", "--db", pm.dsn)
	if err == nil || !strings.Contains(err.Error(), "no bot connected to the replay arena") {
		t.Fatalf("ask --listen with nobody coming: %v, want an error saying no bot connected", err)
	}
	if _, _, err := run(t, "", "replay", "ask", pm.id, "--deal", "0", "--decision", "0", "--db", pm.dsn); err == nil || exitCode(err) != 2 {
		t.Fatalf("ask without a bot: %v, want a usage error", err)
	}
	if _, _, err := run(t, "", "replay", "ask", pm.id, "--deal", "0", "--decision", "999", "--bot", "random", "--db", pm.dsn); err == nil || exitCode(err) != 2 {
		t.Fatalf("ask --decision 999: %v, want a usage error", err)
	}
}
