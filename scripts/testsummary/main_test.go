package main

import (
	"strings"
	"testing"
)

// The summary passes on what plain go test prints, keeps the output of failed tests only, and
// lists skipped tests grouped by their reason.
func TestSummaryGroupsSkipsByReasonAndReportsFailures(t *testing.T) {
	t.Parallel()
	in := strings.Join([]string{
		`{"Action":"run","Package":"p/a","Test":"TestPG"}`,
		`{"Action":"output","Package":"p/a","Test":"TestPG","Output":"=== RUN   TestPG\n"}`,
		`{"Action":"output","Package":"p/a","Test":"TestPG","Output":"    pg_test.go:12: PostgreSQL tests skipped: set TAPP_TEST_POSTGRES\n"}`,
		`{"Action":"output","Package":"p/a","Test":"TestPG","Output":"--- SKIP: TestPG (0.00s)\n"}`,
		`{"Action":"skip","Package":"p/a","Test":"TestPG"}`,
		`{"Action":"output","Package":"p/b","Test":"TestPG2","Output":"    b_test.go:3: PostgreSQL tests skipped: set TAPP_TEST_POSTGRES\n"}`,
		`{"Action":"skip","Package":"p/b","Test":"TestPG2"}`,
		`{"Action":"output","Package":"p/b","Test":"TestOK","Output":"noise of a passing test\n"}`,
		`{"Action":"pass","Package":"p/b","Test":"TestOK"}`,
		`{"Action":"output","Package":"p/b","Test":"TestBad","Output":"    b_test.go:9: want 2, got 3\n"}`,
		`{"Action":"fail","Package":"p/b","Test":"TestBad"}`,
		`{"Action":"output","Package":"p/b","Output":"FAIL\tp/b\t0.1s\n"}`,
		`{"Action":"fail","Package":"p/b"}`,
		`{"Action":"output","Package":"p/a","Output":"ok  \tp/a\t0.2s\n"}`,
		`{"Action":"output","Package":"p/c","Output":"?   \tp/c\t[no test files]\n"}`,
		`{"Action":"skip","Package":"p/c"}`,
	}, "\n")
	var out strings.Builder
	failed, err := summarize(strings.NewReader(in), &out)
	if err != nil || !failed {
		t.Fatalf("summarize = %v, %v; want failed", failed, err)
	}
	got := out.String()
	for _, want := range []string{"want 2, got 3", "FAIL\tp/b", "ok  \tp/a", "2 test(s) skipped",
		"2  PostgreSQL tests skipped: set TAPP_TEST_POSTGRES", "(p/a TestPG and 1 more)"} {
		if !strings.Contains(got, want) {
			t.Errorf("summary lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "no reason given") || strings.Contains(got, "(p/c") {
		t.Errorf("summary counts a package without tests as a skipped test:\n%s", got)
	}
	if strings.Contains(got, "noise of a passing test") {
		t.Errorf("summary shows a passing test's output:\n%s", got)
	}
}
