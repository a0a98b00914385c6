package replay

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/match"
)

// committed is m as a finished match that committed to its deals with nonce.
func committed(t *testing.T, m Match, deals int, nonce string) Match {
	t.Helper()
	m.Format, m.Deals, m.Nonce = domain.FormatDeals, deals, nonce
	spec := domain.MatchSpec{Rules: m.Rules, Bots: m.Bots, Deals: deals, Seed: m.Seed, TimeControl: m.TimeControl}
	c, err := match.Commitment(spec, nonce)
	if err != nil {
		t.Fatal(err)
	}
	m.Commitment, m.CommitmentVersion = c, match.CommitmentVersionNumber
	return m
}

// An export line names its dealer (seat, table position, bot), the match format and every
// stake, Jungfer included.
func TestExportLinesDescribeThemselves(t *testing.T) {
	t.Parallel()
	m, recs := play(t, "modern", 3)
	m = committed(t, m, 3, match.NewNonce())
	for i, line := range bytes.Split(bytes.TrimSpace(exportAll(t, m, recs, ExportOptions{NoSent: true})), []byte("\n")) {
		var e DealExport
		if err := json.Unmarshal(line, &e); err != nil {
			t.Fatal(err)
		}
		rec := recs[i]
		// R-SEAT-2: seat 0 (forehand) sits after the dealer, so the dealer is in the last seat;
		// without duplicate, deal source g is dealt by table position g mod n.
		want := DealerJSON{Seat: 2, Position: rec.Group % 3, Bot: m.Bots[rec.Group%3]}
		if e.Dealer == nil || *e.Dealer != want {
			t.Errorf("deal %d: dealer %+v, want %+v", i, e.Dealer, want)
		}
		if e.MatchFormat == nil || *e.MatchFormat != (FormatJSON{Format: "deals", Deals: 3}) {
			t.Errorf("deal %d: match_format %+v, want deals, 3", i, e.MatchFormat)
		}
		if e.Stakes["solo"] != 5 || e.Stakes["ramsch"] != 5 || e.Stakes["jungfer"] != 10 || e.Stakes["heartdurch"] != 60 {
			t.Errorf("deal %d: stakes %v, want the leaflet's with jungfer 10", i, e.Stakes)
		}
		if e.Commitment != m.Commitment || e.Nonce != m.Nonce {
			t.Errorf("deal %d: commitment %q nonce %q, want %q %q", i, e.Commitment, e.Nonce, m.Commitment, m.Nonce)
		}
	}
}

// A commitment holds for the match it was made for, and fails when the seed, the seating or
// the rules are not the committed ones.
func TestVerifyChecksTheDealCommitment(t *testing.T) {
	t.Parallel()
	m, recs := play(t, "modern", 2)
	m = committed(t, m, 2, match.NewNonce())
	data := exportAll(t, m, recs, ExportOptions{NoSent: true})
	rep, err := VerifyExport(t.Context(), bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() || len(rep.Commitments) != 1 {
		t.Fatalf("honest export: problems %v, commitments %v; want none and one", rep.Problems, rep.Commitments)
	}
	for name, edit := range map[string]func(string) string{
		"another nonce":      func(s string) string { return strings.ReplaceAll(s, m.Nonce, strings.Repeat("0", 32)) },
		"another commitment": func(s string) string { return strings.ReplaceAll(s, m.Commitment, strings.Repeat("a", 64)) },
	} {
		rep, err := VerifyExport(t.Context(), strings.NewReader(edit(string(data))))
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, p := range rep.Problems {
			found = found || p.Rule == RecCommitment
		}
		if !found {
			t.Errorf("%s: problems %v, want %s", name, rep.Problems, RecCommitment)
		}
	}
	// Not revealed yet: nothing to check, and said so.
	m.Nonce = ""
	rep, err = VerifyExport(t.Context(), bytes.NewReader(exportAll(t, m, recs, ExportOptions{NoSent: true})))
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() || !strings.Contains(rep.Unchecked[0], "not checkable yet: the nonce is revealed") {
		t.Errorf("unrevealed: problems %v, unchecked %v; want first a note that the nonce is not revealed", rep.Problems, rep.Unchecked)
	}
}
