package replay

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/protoconv"
	"github.com/tapparena/tapp/engine"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// exportAll writes records as JSON Lines, as deals stored before chains (the tests of
// chains store and export their deals: complete_test.go).
func exportAll(t *testing.T, m Match, recs []domain.DealRecord, o ExportOptions) []byte {
	t.Helper()
	var b bytes.Buffer
	for i := range recs {
		e, err := NewDealExport(m, &recs[i], o)
		if err != nil {
			t.Fatal(err)
		}
		e.Chain = &ChainJSON{Unchained: true}
		if err := WriteLine(&b, e); err != nil {
			t.Fatal(err)
		}
	}
	return b.Bytes()
}

// normalized is a record as an export keeps it: times in UTC to the microsecond, requests
// as compact JSON.
func normalized(t *testing.T, rec domain.DealRecord) domain.DealRecord {
	t.Helper()
	rec.Started = rec.Started.UTC().Round(0)
	rec.Duration = rec.Duration.Truncate(time.Microsecond)
	ds := make([]domain.DecisionRecord, len(rec.Decisions))
	for i, d := range rec.Decisions {
		d.Latency = d.Latency.Truncate(time.Microsecond)
		d.ArenaShare = d.ArenaShare.Truncate(time.Microsecond)
		d.Think = d.Think.Truncate(time.Microsecond)
		d.SentFromState = false // an export's request is JSON, not the referee's wire bytes
		d.Asked = time.Time{}   // exported as the hand-off, checked below
		as := make([]domain.AnswerAttempt, len(d.Attempts))
		for j, a := range d.Attempts {
			a.After = a.After.Truncate(time.Microsecond)
			as[j] = a
		}
		if len(as) == 0 {
			as = nil
		}
		d.Attempts = as
		if len(d.Sent) > 0 {
			sent, err := protoconv.SentJSON(d.Sent) // exports carry the request as JSON
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := json.Compact(&b, sent); err != nil {
				t.Fatal(err)
			}
			d.Sent = b.Bytes()
		}
		ds[i] = d
	}
	rec.Decisions = ds
	return rec
}

// TestExportThenVerifyRoundTrips exports deals of every variant and table size, reads them
// back to the same records, verifies them without a problem, and exports them again to the
// same bytes.
func TestExportThenVerifyRoundTrips(t *testing.T) {
	t.Parallel()
	silent := func(*tappv1.DecisionRequest) []string { return nil }
	for _, text := range append(ruleSets, "modern with strikes") {
		t.Run(strings.ReplaceAll(text, " ", "_"), func(t *testing.T) {
			t.Parallel()
			var m Match
			var recs []domain.DealRecord
			if rules, ok := strings.CutSuffix(text, " with strikes"); ok {
				m, recs = play(t, rules, 2, silent) // strikes, then fallbacks without a request
			} else {
				m, recs = play(t, text, 18)
			}
			data := exportAll(t, m, recs, ExportOptions{})
			if got := bytes.Count(data, []byte("\n")); got != len(recs) {
				t.Fatalf("%d lines for %d deals", got, len(recs))
			}
			rep, err := VerifyExport(t.Context(), bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			if !rep.OK() || rep.Deals != len(recs) {
				t.Fatalf("verify of the export: %d deals, problems %v; want %d deals and none", rep.Deals, rep.Problems, len(recs))
			}
			var again bytes.Buffer
			i := 0
			err = ReadExport(bytes.NewReader(data), func(line int, e *DealExport, err error) error {
				if err != nil {
					t.Fatalf("line %d: %v", line, err)
				}
				gm, rec, err := e.Record()
				if err != nil {
					t.Fatalf("line %d: %v", line, err)
				}
				for k := range rec.Decisions {
					rec.Decisions[k].Asked = time.Time{} // from the export's hand-off, to the µs
				}
				if want := normalized(t, recs[i]); !reflect.DeepEqual(*rec, want) {
					t.Fatalf("line %d reads back as\n%+v\nwant\n%+v", line, *rec, want)
				}
				if !reflect.DeepEqual(gm, m) {
					t.Fatalf("line %d: match %+v, want %+v", line, gm, m)
				}
				e2, err := NewDealExport(gm, rec, ExportOptions{})
				if err != nil {
					t.Fatal(err)
				}
				e2.Chain, e2.SentDigest = e.Chain, e.SentDigest // what the store gave: not in a record read from a line
				if err := WriteLine(&again, e2); err != nil {
					t.Fatal(err)
				}
				i++
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(again.Bytes(), data) {
				t.Fatalf("export → read → export changed the bytes")
			}
		})
	}
}

// TestExportUsesCardNotation checks the schema's text forms on one line: rule set in canonical
// form, cards, "seat:action" moves and decision kinds by name.
func TestExportUsesCardNotation(t *testing.T) {
	t.Parallel()
	m, recs := play(t, "classic pot=on", 1)
	var line map[string]any
	if err := json.Unmarshal(exportAll(t, m, recs, ExportOptions{NoSent: true}), &line); err != nil {
		t.Fatal(err)
	}
	rec := recs[0]
	if got, want := line["rules"], m.Rules.String(); got != want {
		t.Errorf("rules = %v, want %q", got, want)
	}
	if got, want := line["format"], FormatVersion; got != want {
		t.Errorf("format = %v, want %q", got, want)
	}
	hands := line["hands"].([]any)
	if got, want := hands[0].([]any)[0], rec.Deal.Hands[0].Lowest().String(); got != want {
		t.Errorf("hands[0][0] = %v, want %q", got, want)
	}
	if got, want := line["moves"].([]any)[0], rec.Moves[0].String(); got != want {
		t.Errorf("moves[0] = %v, want %q", got, want)
	}
	d0 := line["decisions"].([]any)[0].(map[string]any)
	if d0["decision"] != "bid" || d0["action"] != rec.Moves[0].Action.String() || d0["sent"] != nil {
		t.Errorf("decisions[0] = %v, want a bid with action %s and no request (--no-sent)", d0, rec.Moves[0].Action)
	}
	if got, want := line["seed"], "7"; got != want {
		t.Errorf("seed = %v, want %q", got, want)
	}
	if _, err := engine.ParseRuleSet(line["rules"].(string)); err != nil {
		t.Errorf("rules do not parse: %v", err)
	}
}

func TestReadExportRefusesBrokenLines(t *testing.T) {
	t.Parallel()
	m, recs := play(t, "modern", 1)
	good := string(exportAll(t, m, recs, ExportOptions{NoSent: true}))
	for name, c := range map[string]struct{ text, want string }{
		"not json":      {"{oops\n", "not a deal line"},
		"unknown field": {strings.Replace(good, `"deal":`, `"extra":1,"deal":`, 1), "unknown field"},
		"other format":  {strings.Replace(good, FormatVersion, "tapp-replay/9", 1), "tapp-replay/9"},
		"bad card":      {strings.Replace(good, `"tapp":["`, `"tapp":["X`, 1), "tapp"},
		"bad move":      {strings.Replace(good, `"moves":["`, `"moves":["9:`, 1), "moves[0]"},
	} {
		rep, err := VerifyExport(t.Context(), strings.NewReader(c.text))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if rep.OK() || !strings.Contains(rep.Problems[0].String(), c.want) || rep.Problems[0].Line != 1 {
			t.Errorf("%s: problems %v, want one on line 1 mentioning %q", name, rep.Problems, c.want)
		}
	}
}

// A strike's export says whose time it was: when the request was handed over (its deadline
// less the time per decision, plus the arena's share), what the bot says it thought with its
// late answer, and the transport's share of the rest; a request never handed over says how
// often it was retimed, and neither a hand-off nor a transport.
func TestExportAttributesAStrike(t *testing.T) {
	t.Parallel()
	m, recs := play(t, "modern", 1)
	rec := clone(recs[0])
	late, never := &rec.Decisions[0], &rec.Decisions[1]
	late.Strike, late.Fallback, late.ArenaShare, late.Think = true, true, 200*time.Millisecond, 3100*time.Millisecond
	late.Attempts = []domain.AnswerAttempt{{Text: late.Action.String(), After: 3500 * time.Millisecond, Rejected: "late"}}
	never.Fallback, never.Retimed, never.ArenaShare, never.Think, never.Attempts = true, domain.MaxRetimes, 2700*time.Millisecond, 0, nil
	e, err := NewDealExport(m, &rec, ExportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	req, err := protoconv.DecodeSent(late.Sent)
	if err != nil {
		t.Fatal(err)
	}
	wantHanded := req.GetDeadline().AsTime().Add(-m.TimeControl.PerDecision).Add(200 * time.Millisecond).UTC()
	d := e.Decisions[0]
	if d.Handed == nil || !d.Handed.Equal(wantHanded) || d.ThinkUS != 3_100_000 || d.TransportUS == nil || *d.TransportUS != 400_000 ||
		d.ArenaShareUS != 200_000 || !d.Strike {
		t.Errorf("the strike exports handed %v, think %d µs, transport %v µs, arena %d µs; want %v, 3100000, 400000, 200000",
			d.Handed, d.ThinkUS, d.TransportUS, d.ArenaShareUS, wantHanded)
	}
	if d := e.Decisions[1]; d.Retimed != domain.MaxRetimes || d.Strike || d.TransportUS != nil || d.Handed != nil {
		t.Errorf("the request never handed over exports retimed %d, strike %v, transport %v, handed %v; want 8, no strike, no transport, no hand-off",
			d.Retimed, d.Strike, d.TransportUS, d.Handed)
	}
}
