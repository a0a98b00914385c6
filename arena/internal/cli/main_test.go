package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/tapparena/tapp/arena/internal/replay"
	"github.com/tapparena/tapp/arena/internal/store"
)

// cli runs one command line in-process (see run in replay_test.go) and returns stdout.
func cli(t *testing.T, args ...string) (string, error) {
	t.Helper()
	out, _, err := run(t, "", args...)
	return out, err
}

func TestBotsAddPrintsATokenOnceAndListsTheBot(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "bots.db")
	token, err := cli(t, "bots", "add", "alpha", "--db", db) // flags after the name work too
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(token, "tapp_") || len(strings.TrimSpace(token)) < 40 {
		t.Fatalf("token = %q, want a long tapp_ token", token)
	}
	if _, err := cli(t, "bots", "add", "--db", db, "alpha"); err == nil || err.Error() != `a bot named "alpha" exists already (tapp bots list shows the bots)` {
		t.Fatalf("adding alpha twice: %v, want an error saying it exists (in words, not a gRPC status)", err)
	}
	list, err := cli(t, "bots", "list", "--db", db)
	if err != nil || !strings.Contains(list, "alpha") {
		t.Fatalf("bots list = %q, %v", list, err)
	}
}

func TestDealsGenWritesAReadableDealFile(t *testing.T) {
	t.Parallel()
	out, err := cli(t, "deals", "gen", "--count", "3", "--seed", "9", "--variant", "classic")
	if err != nil {
		t.Fatal(err)
	}
	var deals []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if !strings.HasPrefix(line, "#") {
			deals = append(deals, line)
		}
	}
	if len(deals) != 3 || strings.Count(deals[0], "|") != 3 {
		t.Fatalf("deal file:\n%s\nwant 3 deals of 3 hands and a tapp", out)
	}
	again, _ := cli(t, "deals", "gen", "--count", "3", "--seed", "9", "--variant", "classic")
	if again != out {
		t.Fatal("the same seed gave different deals")
	}
}

func TestUnknownCommandAndBadFlagsAreUsageErrors(t *testing.T) {
	t.Parallel()
	if _, err := cli(t, "fly"); err == nil || exitCode(err) != 1 && !strings.Contains(err.Error(), "unknown command") {
		t.Fatalf("unknown command: %v", err)
	}
	if _, err := cli(t, "match", "--bots", "random,nosuchbot,random", "--db", filepath.Join(t.TempDir(), "x.db")); err == nil || exitCode(err) != 2 {
		t.Fatalf("unknown built-in bot: %v (exit %d), want a usage error", err, exitCode(err))
	}
	if _, err := cli(t, "match", "--bots", "random,random", "--db", filepath.Join(t.TempDir(), "x.db")); err == nil || !strings.Contains(err.Error(), "3 players") {
		t.Fatalf("two bots at a 3-player table: %v", err)
	}
}

// A command that only reads refuses a database that is not there: a mistyped --db is an
// error, not a new empty database (and folder) with nothing in it.
func TestReadingCommandsRefuseAMissingDatabase(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"ratings"}, {"matches"}, {"league", "status", "x"}, {"league", "list"}, {"replay", "m1"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join(t.TempDir(), "typo")
			db := filepath.Join(dir, "tapp.db")
			_, err := cli(t, append(args, "--db", db)...)
			if err == nil || !strings.Contains(err.Error(), "no database "+db) {
				t.Errorf("error %v, want one that says there is no database %s", err, db)
			}
			if _, err := os.Stat(dir); !os.IsNotExist(err) {
				t.Errorf("%s was created (%v)", dir, err)
			}
		})
	}
}

// The replay command a match prints works as printed: it names the match's database.
func TestMatchPrintsAReplayCommandThatWorks(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "m.db")
	out, err := exec.Command(tappBin, "match", "--bots", "random,heuristic,random", "--deals", "2", "--db", db).Output()
	if err != nil {
		t.Fatalf("tapp match: %v\n%s", err, out)
	}
	_, hint, ok := strings.Cut(string(out), "replay a deal: tapp ")
	if !ok {
		t.Fatalf("no replay command in:\n%s", out)
	}
	args := strings.Fields(strings.TrimSpace(hint))
	if !slices.Contains(args, db) {
		t.Fatalf("replay command %q does not name the database %s", hint, db)
	}
	if got, err := cli(t, args...); err != nil || !strings.Contains(got, "deal 0") {
		t.Fatalf("tapp %s: %v\n%s", strings.Join(args, " "), err, got)
	}
}

func TestMatchPlaysASession_R_SESSION(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "session.db")
	cmd := exec.Command(tappBin, "match", "--bots", "heuristic,random,random", "--format", "session", "--rounds", "1",
		"--seed", "4", "--db", db, "--json")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tapp match --format session: %v\n%s", err, out)
	}
	var res struct {
		Deals int `json:"deals"`
		Bots  []struct {
			Net int `json:"net"`
		} `json:"bots"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	// 1 round of 3 deals, at least one deciding deal, the last round of 3, 3 forced Ramsch.
	if res.Deals < 10 {
		t.Fatalf("a one-round session played %d deals, want at least 10", res.Deals)
	}
	sum := 0
	for _, b := range res.Bots {
		sum += b.Net
	}
	if sum != 0 {
		t.Fatalf("session net %+v does not sum to zero (R-SESSION-4)", res.Bots)
	}
	var id struct {
		Match string `json:"match"`
	}
	_ = json.Unmarshal(out, &id)
	list, err := cli(t, "replay", id.Match, "--db", db)
	if err != nil || !strings.Contains(list, "ramsch") {
		t.Fatalf("replay list of the session: %v\n%s", err, list)
	}
}

// A command with subcommands answers -h with its usage, as the others do, rather than
// taking -h for an unknown subcommand.
func TestSubcommandGroupsAnswerHelp(t *testing.T) {
	t.Parallel()
	for _, group := range []string{"league", "bots", "db", "submissions"} {
		out, err := cli(t, group, "-h")
		if err != nil || !strings.Contains(out, "tapp "+group+" ") || !strings.Contains(out, "-h lists its flags") {
			t.Errorf("tapp %s -h: %v\n%s", group, err, out)
		}
	}
}

// Every command answers -h (and --help) with its usage on stdout and succeeds, as `tapp help`
// does; a mistake on the command line still fails, with the usage on stderr.
func TestEveryCommandAnswersHelp(t *testing.T) {
	t.Parallel()
	commandLines := [][]string{
		{"serve"}, {"bots"}, {"bots", "add"}, {"bots", "list"}, {"bots", "rotate"}, {"bots", "revoke"},
		{"bot"}, {"bot", "random"}, {"bot", "check"}, {"new"}, {"new", "bot"}, {"match"}, {"matches"}, {"web"},
		{"deals"}, {"deals", "gen"}, {"league"}, {"league", "run"}, {"league", "status"}, {"league", "list"},
		{"ratings"}, {"sprt"}, {"replay"}, {"replay", "export"}, {"replay", "ask"}, {"replay", "verify"},
		{"replay", "diff"}, {"replay", "import"}, {"analyze"}, {"version"}, {"dataset"}, {"dataset", "export"},
		{"db"}, {"db", "check"}, {"db", "backup"}, {"db", "restore"}, {"db", "migrate"},
		{"submit"}, {"submissions"}, {"submissions", "list"}, {"submissions", "show"}, {"submissions", "logs"}, {"submissions", "build"},
	}
	for _, c := range commands() { // a new command is in the list above
		found := false
		for _, line := range commandLines {
			found = found || line[0] == c.name
		}
		if !found {
			t.Errorf("command %s is not in this test", c.name)
		}
	}
	for _, line := range commandLines {
		for _, help := range []string{"-h", "--help"} {
			args := append(append([]string(nil), line...), help)
			out, errs, err := run(t, "", args...)
			if err != nil || !strings.Contains(out, "tapp "+line[0]) || errs != "" {
				t.Errorf("tapp %s: error %v, stdout %q, stderr %q; want the usage on stdout and success", strings.Join(args, " "), err, out, errs)
			}
		}
	}
	out, errs, err := run(t, "", "match", "--no-such-flag")
	if err == nil || out != "" || !strings.Contains(errs, "no-such-flag") || !strings.Contains(errs, "Usage: tapp match") {
		t.Errorf("a wrong flag: error %v, stdout %q, stderr %q; want a failure with the usage on stderr", err, out, errs)
	}
}

// tapp version and tapp --version print the build and the formats it writes.
func TestVersionPrintsTheBuildAndTheFormats(t *testing.T) {
	t.Parallel()
	out, err := cli(t, "version")
	if err != nil {
		t.Fatal(err)
	}
	schema, err := store.LatestSchema()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"tapp ", runtime.Version(), "protocol tapp.v1", fmt.Sprintf("store    schema %d, deal records format 2 (tapp.v1 request encoding 1)", schema), "export   " + replay.FormatVersion,
		`commitment "tapp deal commitment 2", chain 1`} {
		if !strings.Contains(out, want) {
			t.Errorf("tapp version does not say %q:\n%s", want, out)
		}
	}
	if again, err := cli(t, "--version"); err != nil || again != out {
		t.Errorf("tapp --version = %q, %v; want what tapp version prints", again, err)
	}
	if _, err := cli(t, "version", "extra"); err == nil {
		t.Error("tapp version extra: no error")
	}

	var b strings.Builder
	info := &debug.BuildInfo{GoVersion: "go1.99", Main: debug.Module{Path: "github.com/tapparena/tapp", Version: "v1.2.3"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.time", Value: "2030-01-02T03:04:05Z"}, {Key: "vcs.modified", Value: "true"}}}
	writeVersion(&b, info, formats{Protocol: "tapp.v1", Schema: 13})
	for _, want := range []string{"tapp v1.2.3\n", "commit   abc123 2030-01-02T03:04:05Z, with uncommitted changes (dirty)", "go       go1.99"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the version of a dirty build of v1.2.3 does not say %q:\n%s", want, b.String())
		}
	}
}
