// Command testsummary reads `go test -json` on stdin and writes what plain `go test` writes
// (a line per package, the output of the tests that fail), then which tests were skipped and
// why, grouped by the reason they give — which says how to enable them (`make test`:
// "PostgreSQL tests skipped: set TAPP_TEST_POSTGRES …"). It exits 1 when a test or a build
// failed.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// event is one line of `go test -json` (cmd/test2json).
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
}

type key struct{ pkg, test string }

func main() {
	failed, err := summarize(os.Stdin, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testsummary:", err)
		os.Exit(2)
	}
	if failed {
		os.Exit(1)
	}
}

func summarize(in io.Reader, out io.Writer) (failed bool, err error) {
	outputs := map[key][]string{}  // a running test's output, kept until it ends
	skips := map[string][]string{} // reason → "pkg TestName"
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if json.Unmarshal(line, &e) != nil || e.Action == "" {
			fmt.Fprintln(out, string(line)) // not an event: pass it on
			continue
		}
		k := key{e.Package, e.Test}
		switch {
		case e.Action == "build-output":
			fmt.Fprint(out, e.Output)
		case e.Action == "build-fail":
			failed = true
		case e.Test == "" && e.Action == "output":
			// The package's own lines: "ok  pkg 1.2s", "FAIL pkg", "--- FAIL" of a panic.
			if !strings.HasPrefix(e.Output, "=== ") && !strings.HasPrefix(e.Output, "PASS") {
				fmt.Fprint(out, e.Output)
			}
		case e.Test == "" && e.Action == "fail":
			failed = true
		case e.Action == "output":
			outputs[k] = append(outputs[k], e.Output)
		case e.Action == "fail":
			failed = true
			for _, l := range outputs[k] {
				fmt.Fprint(out, l)
			}
			delete(outputs, k)
		case e.Test == "" && e.Action == "skip":
			// A package without test files ("?  pkg [no test files]"): nothing was skipped.
		case e.Action == "skip":
			reason := skipReason(outputs[k])
			skips[reason] = append(skips[reason], e.Package+" "+e.Test)
			delete(outputs, k)
		case e.Action == "pass":
			delete(outputs, k)
		}
	}
	if err := sc.Err(); err != nil {
		return failed, err
	}
	writeSkips(out, skips)
	return failed, nil
}

// skipReason is the message a skipped test gave (its t.Skip text), without the file:line.
func skipReason(lines []string) string {
	for _, l := range lines {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "=== ") || strings.HasPrefix(l, "--- SKIP") {
			continue
		}
		if i := strings.Index(l, ": "); i > 0 && strings.Contains(l[:i], ".go:") {
			l = l[i+2:]
		}
		if l != "" {
			return l
		}
	}
	return "(no reason given)"
}

// writeSkips lists the skipped tests by reason, the most common first.
func writeSkips(out io.Writer, skips map[string][]string) {
	if len(skips) == 0 {
		return
	}
	reasons := make([]string, 0, len(skips))
	n := 0
	for r, tests := range skips {
		reasons = append(reasons, r)
		n += len(tests)
	}
	sort.Slice(reasons, func(i, j int) bool {
		a, b := skips[reasons[i]], skips[reasons[j]]
		if len(a) != len(b) {
			return len(a) > len(b)
		}
		return reasons[i] < reasons[j]
	})
	fmt.Fprintf(out, "\n%d test(s) skipped, by reason (the reason says how to run them):\n", n)
	for _, r := range reasons {
		tests := skips[r]
		sort.Strings(tests)
		example := tests[0]
		if len(tests) > 1 {
			example += fmt.Sprintf(" and %d more", len(tests)-1)
		}
		fmt.Fprintf(out, "  %4d  %s\n        (%s)\n", len(tests), r, example)
	}
}
