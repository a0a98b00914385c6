package replay

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tapparena/tapp/arena/internal/match"
)

// claimDeals rewrites the deals a file's match claims (an export's match_format and manifest,
// TPN's MatchFormat tag or its twin's match_format) from 2 to n.
func claimDeals(t *testing.T, data []byte, n string) []byte {
	t.Helper()
	s := strings.ReplaceAll(string(data), `"deals":2`, `"deals":`+n)
	s = strings.ReplaceAll(s, `[MatchFormat "deals 2"]`, `[MatchFormat "deals `+n+`"]`)
	if !strings.Contains(s, n) {
		t.Fatalf("the file names no deal count to rewrite:\n%.400s", data)
	}
	return []byte(s)
}

// A file whose match claims a plan beyond a match's limits — deals: 2147483648, in an export
// (its match_format and manifest), in TPN or in its JSON twin — ends in a problem that says
// so at once, with no walk of the plan and nothing allocated per claimed deal (an export's
// check collected the plan and a list of its missing deals: 3.8 GB, and Ctrl-C could not
// stop it).
func TestVerifyFileOfAHugeClaimedPlan(t *testing.T) {
	t.Parallel()
	m, recs := play(t, "modern", 2)
	m = committed(t, m, 2, match.NewNonce())
	for name, data := range map[string][]byte{
		"export":    exportAll(t, m, recs, ExportOptions{NoSent: true}),
		"TPN":       notationFile(t, m, recs, false),
		"TPN JSONL": notationFile(t, m, recs, true),
	} {
		rep, err := VerifyFile(t.Context(), bytes.NewReader(claimDeals(t, data, "2147483648")))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		found := false
		for _, p := range rep.Problems {
			found = found || strings.Contains(p.Msg, "a match plays at most 1000000 deals (got 2147483648)")
		}
		if !found {
			t.Errorf("%s: problems %v, want one that says the plan is beyond a match's limit", name, rep.Problems)
		}
	}
}

// SIGINT and SIGTERM end a file's verification through its context: between lines, and in
// the walk of a plan the file claims (a million deals, within the limits, is walked to check
// the commitment and the manifest: seconds on a busy host), which stops with the context's
// error rather than running to its end — as TestCommitmentWalksStopWithTheirContext checks
// for the store's path.
func TestVerifyFileStopsWithItsContext(t *testing.T) {
	t.Parallel()
	m, recs := play(t, "modern", 2)
	m = committed(t, m, 2, match.NewNonce())
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	for name, data := range map[string][]byte{
		"export": exportAll(t, m, recs, ExportOptions{NoSent: true}),
		"TPN":    notationFile(t, m, recs, false),
	} {
		if _, err := VerifyFile(ctx, bytes.NewReader(claimDeals(t, data, "1000000"))); !errors.Is(err, context.Canceled) {
			t.Errorf("%s with its context ended: %v, want %v", name, err, context.Canceled)
		}
	}
	huge := m
	huge.Deals = match.MaxDeals
	rep := &Report{}
	if err := rep.checkExportCommitment(ctx, huge, 1); !errors.Is(err, context.Canceled) || !rep.OK() {
		t.Errorf("the commitment's walk with its context ended: %v, problems %v; want %v and none", err, rep.Problems, context.Canceled)
	}
	c := &exportCheck{ctx: ctx, rep: rep, m: huge, first: &DealExport{}}
	if _, ok := c.manifest(); ok || !rep.OK() {
		t.Errorf("the manifest's walk with its context ended: ok %v, problems %v; want neither", ok, rep.Problems)
	}
}
