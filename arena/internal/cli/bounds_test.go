package cli

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Every count and duration on the command line is checked as a league file's settings are:
// out of range is a usage error naming the flag, before anything starts; huge counts end in
// that error, not in a plan that takes the host's memory.
func TestCountsAndDurationsAreChecked(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	league := filepath.Join(dir, "l.yaml")
	if err := os.WriteFile(league, []byte("name: l\nbots: [{name: a, builtin: random}, {name: b, builtin: random}, {name: c, builtin: random}]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty.txt")
	if err := os.WriteFile(empty, []byte("# no deals\n\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	short := filepath.Join(dir, "short.txt")
	if _, err := cli(t, "deals", "gen", "--count", "2"); err != nil {
		t.Fatal(err)
	}
	two, _ := cli(t, "deals", "gen", "--count", "2")
	if err := os.WriteFile(short, []byte(strings.ReplaceAll(two, "\n", "\r\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	match := []string{"match", "--in-process", "--bots", "random,random,random", "--db", "memory:"}
	for _, c := range []struct {
		args []string
		want string
	}{
		{append(match, "--time", "-1s"), "--time: -1s is too short"},
		{append(match, "--time", "2h"), "--time: 2h0m0s is longer than the most"},
		{append(match, "--overage", "-1s"), "--overage: -1s: the bank must not be negative"},
		{append(match, "--strikes", "-1"), "--strikes: -1: must not be negative"},
		{append(match, "--parallel", "0"), "--parallel 0: want a whole number from 1 to 4096"},
		{append(match, "--parallel", "-5"), "--parallel -5: want a whole number from 1 to 4096"},
		{append(match, "--deals", "999999999"), "--deals 999999999: want a whole number from 1 to 1000000"},
		{append(match, "--deals", "0"), "--deals 0: want a whole number from 1"},
		{append(match, "--format", "session", "--rounds", "-1"), "--rounds -1: want a whole number from 0 to 1000"},
		{append(match, "--deals-file", empty), "empty.txt: no deals in it"},
		{append(match, "--deals-file", short, "--deals", "3"), "it holds 2 deals, fewer than the 3 asked for"},
		{[]string{"serve", "--grace", "-1s"}, "--grace -1s: want a duration from 0s"},
		{[]string{"league", "run", league, "--for", "-1h"}, "--for -1h0m0s: want a duration from 0s"},
		{[]string{"league", "run", league, "--concurrency", "-2"}, "--concurrency -2: want a whole number from 0 to 4096"},
		{[]string{"bot", "random", "--capacity", "0", "--token", "t"}, "--capacity 0: want a whole number from 1 to 4096"},
		{[]string{"bot", "random", "--budget", "-1s", "--token", "t"}, "--budget -1s: want a duration"},
		{[]string{"sprt", "--candidate", "a", "--baseline", "b", "--field", "c,d", "--concurrency", "0"}, "--concurrency 0: want a whole number from 1"},
		{[]string{"sprt", "--candidate", "a", "--baseline", "b", "--field", "c,d", "--time", "-1s"}, "--time: -1s is too short"},
		{[]string{"deals", "gen", "--count", "0"}, "--count 0: want a whole number from 1 to 1000000"},
		{[]string{"matches", "--limit", "-1"}, "--limit -1: want a whole number from 0"},
		{[]string{"matches", "--since", "-1h"}, "--since -1h0m0s: want a duration from 0s"},
		{[]string{"analyze", "x.jsonl", "--workers", "-1"}, "--workers -1: want a whole number from 0 to 1024"},
		{[]string{"replay", "x.jsonl", "--deal", "-3"}, "--deal -3: want a whole number from 0"},
		{[]string{"bot", "check", "--cmd", "x", "--time", "-1s"}, "--time: -1s is too short"},
	} {
		_, err := cli(t, c.args...)
		var u usageError
		if !errors.As(err, &u) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("tapp %s: %v, want a usage error saying %q", strings.Join(c.args, " "), err, c.want)
		}
	}
}

// A CRLF deal file plays; without --deals the match plays the whole file.
func TestDealFilesPlayWhatTheyHold(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	three, err := cli(t, "deals", "gen", "--count", "3", "--seed", "4")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "three.txt")
	if err := os.WriteFile(file, []byte(strings.ReplaceAll(three, "\n", "\r\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := cli(t, "match", "--in-process", "--bots", "random,random,random", "--deals-file", file, "--db", "memory:", "--json")
	if err != nil || !strings.Contains(out, `"deals": 3`) {
		t.Fatalf("a CRLF deal file of 3 deals: %v\n%s", err, out)
	}
	out, err = cli(t, "match", "--in-process", "--bots", "random,random,random", "--deals-file", file, "--deals", "2", "--db", "memory:", "--json")
	if err != nil || !strings.Contains(out, `"deals": 2`) {
		t.Fatalf("--deals 2 of a file of 3: %v\n%s", err, out)
	}
}

// Refusing the largest counts costs no more memory than refusing a small mistake.
func TestHugeCountsAllocateNothingOfTheirSize(t *testing.T) {
	alloc := func(args ...string) uint64 {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, _ = cli(t, args...)
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	small := alloc("match", "--in-process", "--bots", "random,random,random", "--db", "memory:", "--parallel", "0")
	huge := alloc("match", "--in-process", "--bots", "random,random,random", "--db", "memory:", "--deals", "999999999")
	if huge > 2*small+1<<20 {
		t.Errorf("refusing --deals 999999999 allocated %d bytes, refusing --parallel 0 %d", huge, small)
	}
}
