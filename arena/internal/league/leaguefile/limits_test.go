package leaguefile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Huge counts in a league file are refused at their line and column before anything is
// planned: an error, not a plan that takes the host's memory.
func TestHugeSchedulesAreRefusedAtTheirSetting(t *testing.T) {
	t.Parallel()
	const three = "bots: [{name: a, builtin: random}, {name: b, builtin: random}, {name: c, builtin: random}]\n"
	many := "bots:\n"
	for i := range 60 {
		many += fmt.Sprintf("  - {name: b%d, builtin: random}\n", i)
	}
	for _, c := range []struct {
		name, text string
		line, col  int
		path, want string
	}{
		{"deals", "name: x\ndeals: 2147483648\n" + three, 2, 8, "deals", "a match plays at most 1000000"},
		{"matches per round", "name: x\nformat: ladder\nmatches_per_round: 1000000000\n" + three, 3, 20, "matches_per_round", "at most 10000 matches"},
		{"rounds", "name: x\nrounds: 99999999999\n" + three, 2, 9, "rounds", "at most 1000000"},
		{"jobs per round", "name: x\nformat: ladder\nmatches_per_round: 10000\ndeals: 1000\n" + three, 3, 20, "matches_per_round", "10000000 jobs"},
		{"round robin of many bots", "name: x\n" + many, 3, 3, "bots", "60 bots make 34220 tables per round"},
		{"concurrency", "name: x\nconcurrency: 1000000\n" + three, 2, 14, "concurrency", "at most 4096"},
		{"strikes", "name: x\ntime_control: {strikes: 2000000000}\n" + three, 2, 25, "time_control.strikes", "more than 1000000"},
		{"per decision", "name: x\ntime_control: {per_decision: 2h}\n" + three, 2, 30, "time_control.per_decision", "longer than the most"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse("league.yaml", []byte(c.text), Options{Builtin: builtinCheck})
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("error %v (%T), want a *Error", err, err)
			}
			if ce.Line != c.line || ce.Path != c.path || !strings.Contains(ce.Msg, c.want) {
				t.Errorf("error %q at line %d (%s), want line %d at %s saying %q", err, ce.Line, ce.Path, c.line, c.path, c.want)
			}
			if c.col > 0 && ce.Column != c.col {
				t.Errorf("error at column %d, want %d: %v", ce.Column, c.col, err)
			}
		})
	}
}

// Refusing deals: 2147483648 allocates no more than reading a small league does.
func TestHugeDealsAllocateNothingOfTheirSize(t *testing.T) {
	small := "name: x\ndeals: 20\nbots: [{name: a, builtin: random}, {name: b, builtin: random}, {name: c, builtin: random}]\n"
	huge := strings.Replace(small, "deals: 20", "deals: 2147483648", 1)
	alloc := func(text string) uint64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, _ = Parse("league.yaml", []byte(text), Options{Builtin: builtinCheck})
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	base, got := alloc(small), alloc(huge)
	if got > 2*base+1<<20 {
		t.Errorf("refusing deals: 2147483648 allocated %d bytes, reading deals: 20 %d", got, base)
	}
}

func TestDealsBeyondTheDealFileAreRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	c0, err := Parse("x.yaml", []byte("name: x\nbots: [{name: a, builtin: random}, {name: b, builtin: random}, {name: c, builtin: random}]\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Two deals, with Windows line ends.
	text := "# two deals\r\n" + dealLine(t, c0.Plan(), 0) + "\r\n" + dealLine(t, c0.Plan(), 1) + "\r\n"
	if err := os.WriteFile(filepath.Join(dir, "deals.txt"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	league := "name: x\ndeals: 3\ndeals_file: deals.txt\nbots: [{name: a, builtin: random}, {name: b, builtin: random}, {name: c, builtin: random}]\n"
	_, err = Parse(filepath.Join(dir, "l.yaml"), []byte(league), Options{})
	var ce *Error
	if !errors.As(err, &ce) || ce.Line != 2 || !strings.Contains(ce.Msg, "holds only 2") {
		t.Fatalf("deals: 3 over a file of 2: %v, want an error at line 2", err)
	}
	c, err := Parse(filepath.Join(dir, "l.yaml"), []byte(strings.Replace(league, "deals: 3", "deals: 2", 1)), Options{})
	if err != nil {
		t.Fatalf("a CRLF deal file of 2 deals, deals: 2: %v", err)
	}
	if got := c.Plan().TablesPerMatch(); got != 12 {
		t.Errorf("%d tables per match, want 2 deals × 6 seatings", got)
	}
}
