package leaguefile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/league/plan"
	"github.com/tapparena/tapp/arena/internal/match"
)

const goodLeague = `# a league
name: nightly
rules: modern players=3
format: round-robin
deals: 20
duplicate: true
seed: 7
concurrency: 4
time_control:
  per_decision: 500ms
  overage: 5s
  strikes: 2
bots:
  - name: random
    builtin: random
  - name: heuristic
    builtin: heuristic
    capacity: 8
  - name: mybot
    command: ["python3", "bot.py", "--fast"]
    env: {LEVEL: "3"}
  - name: remote
    token: true
`

func builtinCheck(name string) error {
	if name == "random" || name == "heuristic" {
		return nil
	}
	return fmt.Errorf("unknown built-in bot %q (one of heuristic, random)", name)
}

func TestParse(t *testing.T) {
	t.Parallel()
	c, err := Parse("league.yaml", []byte(goodLeague), Options{Builtin: builtinCheck})
	if err != nil {
		t.Fatal(err)
	}
	if c.Name != "nightly" || c.Deals != 20 || !*c.Duplicate || c.Concurrency != 4 || c.Rounds != 1 ||
		time.Duration(c.TimeControl.PerDecision) != 500*time.Millisecond || *c.TimeControl.Strikes != 2 || time.Duration(c.Lease) != DefaultLease {
		t.Errorf("config %+v", c)
	}
	if got := strings.Join(c.Bots[2].Command, " "); got != "python3 bot.py --fast" || c.Bots[2].Env["LEVEL"] != "3" {
		t.Errorf("bot %+v", c.Bots[2])
	}
	if !c.Bots[3].Token || c.Bots[3].Launched() || !c.Bots[0].Launched() {
		t.Errorf("bots %+v", c.Bots)
	}
	p := c.Plan()
	if p.Rounds != 1 || len(p.FixedTables(0)) != 4 || p.DealsPerRound() != 4*20*6 {
		t.Errorf("plan %+v: %d tables, %d deals per round", p, len(p.FixedTables(0)), p.DealsPerRound())
	}
	// A string command is split into words; defaults apply.
	c, err = Parse("l.yaml", []byte("name: x\nbots:\n  - {name: a, command: ./bot --fast}\n  - {name: b, builtin: random}\n  - {name: c, token: true}\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(c.Bots[0].Command, "|") != "./bot|--fast" || c.Format != plan.RoundRobin || c.Deals != plan.DefaultDeals ||
		!*c.Duplicate || c.RuleSet.Players != 3 || time.Duration(c.TimeControl.PerDecision) != time.Second {
		t.Errorf("defaults: %+v", c)
	}
	// Quotes group words as in a shell; environment belongs under env.
	c, err = Parse("l.yaml", []byte("name: x\nbots:\n  - {name: a, command: \"python3 'my bot.py' --fast\"}\n  - {name: b, builtin: random}\n  - {name: c, builtin: random}\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(c.Bots[0].Command, "|"); got != "python3|my bot.py|--fast" {
		t.Errorf("quoted command split into %q", got)
	}
	if _, err := Parse("l.yaml", []byte("name: x\nbots:\n  - {name: a, command: MODE=x ./bot}\n  - {name: b, builtin: random}\n  - {name: c, builtin: random}\n"), Options{}); err == nil || !strings.Contains(err.Error(), "give them under env") {
		t.Errorf("command with an assignment: %v, want an error pointing at env", err)
	}
	// For its bots only (tapp sprt --bots), a file needs no name; a league file does.
	botsOnly := []byte("bots:\n  - {name: a, builtin: random}\n  - {name: b, builtin: random}\n")
	if c, err := Parse("b.yaml", botsOnly, Options{BotsOnly: true}); err != nil || len(c.Bots) != 2 {
		t.Errorf("bots only: %v, %+v", err, c)
	}
	if _, err := Parse("b.yaml", botsOnly, Options{}); err == nil || !strings.Contains(err.Error(), "a league needs a name") {
		t.Errorf("league without a name: %v", err)
	}
}

// builtin: "*" adds every built-in bot not listed by name.
func TestEveryBuiltin(t *testing.T) {
	t.Parallel()
	names := []string{"heuristic", "random", "search"}
	opts := Options{BuiltinNames: func() []string { return names }}
	c, err := Parse("l.yaml", []byte("name: x\nbots:\n  - {name: random, builtin: random, seed: 9}\n  - builtin: \"*\"\n  - {name: mine, command: ./bot}\n"), opts)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range c.Bots {
		got = append(got, b.Name+"="+b.Builtin)
	}
	if got := strings.Join(got, " "); got != "random=random heuristic=heuristic search=search mine=" {
		t.Errorf("bots %s", got)
	}
	if _, err := Parse("l.yaml", []byte("name: x\nbots:\n  - {builtin: \"*\", name: all}\n"), opts); err == nil ||
		!strings.HasPrefix(err.Error(), "l.yaml:3:") {
		t.Errorf("named \"*\": %v", err)
	}
	if _, err := Parse("l.yaml", []byte("name: x\nbots:\n  - builtin: \"*\"\n"), Options{}); err == nil {
		t.Errorf("\"*\" without a list of built-in bots was accepted")
	}
}

// Every mistake is reported at its line, with the line shown.
func TestConfigErrorsPointAtTheLine(t *testing.T) {
	t.Parallel()
	replace := func(old, new string) string {
		if !strings.Contains(goodLeague, old) {
			t.Fatalf("%q not in the test league", old)
		}
		return strings.Replace(goodLeague, old, new, 1)
	}
	for _, c := range []struct {
		name, text string
		line       int
		want       string
	}{
		{"yaml syntax", replace("deals: 20", "deals: [20"), 6, ""},
		{"unknown key", replace("seed: 7", "sead: 7"), 7, `unknown field "sead"`},
		{"wrong type", replace("duplicate: true", "duplicate: [yes]"), 6, "want true or false here, not a list"},
		{"text for a section", replace("time_control:\n  per_decision: 500ms\n  overage: 5s\n  strikes: 2", "time_control: fast"), 9,
			"string was used where mapping is expected"},
		{"bad duration", replace("per_decision: 500ms", "per_decision: fast"), 10, `"fast" is not a duration`},
		{"unknown format", replace("format: round-robin", "format: swiss"), 4, `unknown format "swiss"`},
		{"bad rules", replace("rules: modern players=3", "rules: modern players=5"), 3, "players"},
		{"unknown builtin", replace("builtin: heuristic", "builtin: heuristc"), 17, `unknown built-in bot "heuristc"`},
		{"two ways", replace("    token: true", "    token: true\n    builtin: random"), 22, "exactly one of"},
		{"duplicate bot", replace("name: heuristic", "name: random"), 16, `bot "random" is listed twice`},
		{"gauntlet without candidate", replace("format: round-robin", "format: gauntlet"), 4, "needs a candidate"},
		{"missing deals file", replace("seed: 7", "deals_file: nope.txt"), 7, "nope.txt"},
		{"pot", replace("rules: modern players=3", "rules: classic pot=on"), 3, "pot"},
		{"negative", replace("concurrency: 4", "concurrency: -1"), 8, "must not be negative"},
		{"no name", replace("name: nightly\n", ""), 2, "a league needs a name"},
		{"two documents", goodLeague + "---\nname: other\n", 24, "the file holds 2 YAML documents"},
		{"fraction", replace("deals: 20", "deals: 1.5"), 5, "deals: must be a whole number, not 1.5"},
		{"quoted number", replace("seed: 7", `seed: "7"`), 7, "seed: must be a whole number, not 7"},
		{"fraction in the clock", replace("strikes: 2", "strikes: 2.5"), 12, "time_control.strikes: must be a whole number"},
		{"fraction in a bot", replace("capacity: 8", "capacity: 8.0"), 18, "bots[1].capacity: must be a whole number, not 8.0"},
		{"text", replace("deals: 20", "deals: many"), 5, "deals: must be a whole number, not many"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse("league.yaml", []byte(c.text), Options{Builtin: builtinCheck})
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("error %v (%T), want a *Error", err, err)
			}
			if ce.Line != c.line {
				t.Errorf("error at line %d, want %d:\n%v", ce.Line, c.line, err)
			}
			prefix := fmt.Sprintf("league.yaml:%d:", c.line)
			if !strings.HasPrefix(err.Error(), prefix) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q: want it to start with %q and say %q", err, prefix, c.want)
			}
			if !strings.Contains(ce.Excerpt, fmt.Sprintf("> %4d | ", c.line)) {
				t.Errorf("excerpt does not show line %d:\n%s", c.line, ce.Excerpt)
			}
		})
	}
}

func TestDealsFileWindows(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var lines []string
	c0, err := Parse("x.yaml", []byte("name: x\nbots: [{name: a, builtin: random}, {name: b, builtin: random}, {name: c, builtin: random}]\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	p0 := c0.Plan()
	for r := range 5 {
		text, _ := p0.RoundDeals(r)
		if text != "" {
			t.Fatalf("seeded plan has deal text")
		}
		specs, _, _, err := p0.Round(r, p0.FixedTables(r))
		if err != nil || len(specs) != 1 {
			t.Fatal(err)
		}
	}
	for i := range 5 {
		lines = append(lines, dealLine(t, p0, i))
	}
	if err := os.WriteFile(filepath.Join(dir, "deals.txt"), []byte("# five deals\n"+strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Parse(filepath.Join(dir, "l.yaml"), []byte("name: x\ndeals: 2\ndeals_file: deals.txt\nbots: [{name: a, builtin: random}, {name: b, builtin: random}, {name: c, builtin: random}]\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := c.Plan()
	for r, want := range [][]int{{0, 1}, {2, 3}, {4, 0}} {
		text, err := p.RoundDeals(r)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(strings.Fields(strings.ReplaceAll(text, "\n", " ; ")), " "); got != strings.Join(strings.Fields(lines[want[0]]+" ; "+lines[want[1]]+" ;"), " ") {
			t.Errorf("round %d deals:\n%s\nwant deals %v", r, text, want)
		}
	}
}

func dealLine(t *testing.T, p *plan.Plan, i int) string {
	t.Helper()
	_, ms, _, err := p.Round(i, p.FixedTables(i))
	if err != nil {
		t.Fatal(err)
	}
	srcs, err := match.Sources(ms[0].Spec)
	if err != nil {
		t.Fatal(err)
	}
	return srcs[0].Format(p.Rules)
}
