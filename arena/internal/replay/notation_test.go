package replay

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/match"
	"github.com/tapparena/tapp/arena/internal/notation"
	"github.com/tapparena/tapp/arena/internal/store"
)

// notationFile writes a match's deals as TPN text (json: its JSON Lines twin).
func notationFile(t *testing.T, m Match, recs []domain.DealRecord, json bool) []byte {
	t.Helper()
	var b bytes.Buffer
	for i := range recs {
		write := notation.Write
		if json {
			write = notation.WriteJSON
		}
		if err := write(&b, ToNotation(m, &recs[i])); err != nil {
			t.Fatal(err)
		}
	}
	return b.Bytes()
}

// Deals played by the referee, written as TPN and read back, verify as the export does, in
// both forms, over every variant and table size: cards, moves, settlement, pot, commitment.
func TestNotationOfRealDealsVerifies(t *testing.T) {
	t.Parallel()
	for _, rules := range ruleSets {
		m, recs := play(t, rules, 6)
		m = committed(t, m, 6, match.NewNonce())
		for _, json := range []bool{false, true} {
			data := notationFile(t, m, recs, json)
			rep, err := VerifyFile(t.Context(), bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			if !rep.OK() || rep.Deals != 6 || len(rep.Commitments) != 1 {
				t.Fatalf("%s (json %v): problems %v, deals %d, commitments %v", rules, json, rep.Problems, rep.Deals, rep.Commitments)
			}
			// What the viewer reads from the file is the deal that was played.
			i := 0
			err = ReadDeals(bytes.NewReader(data), func(line int, got Match, rec *domain.DealRecord, err error) error {
				if err != nil {
					t.Fatalf("line %d: %v", line, err)
				}
				want := recs[i]
				if rec.Deal != want.Deal || rec.Outcome != want.Outcome || len(rec.Moves) != len(want.Moves) || got.Seed != m.Seed {
					t.Fatalf("%s deal %d reads back otherwise", rules, i)
				}
				i++
				return nil
			})
			if err != nil || i != 6 {
				t.Fatalf("read %d deals: %v", i, err)
			}
		}
	}
}

// A record whose card or settlement was changed is caught, named by its line and rule.
func TestVerifyNotationFindsAnEditedRecord(t *testing.T) {
	t.Parallel()
	m, recs := play(t, "modern", 2)
	text := string(notationFile(t, m, recs, false))
	// The first trick's first card: change the settlement's payoffs of deal 0.
	res := strings.Index(text, "payoff=")
	end := strings.Index(text[res:], " ")
	broken := text[:res] + "payoff=1,2,-3" + text[res+end:]
	rep, err := VerifyNotation(t.Context(), strings.NewReader(broken))
	if err != nil {
		t.Fatal(err)
	}
	p := find(t, rep.Problems, "R-MOD-SETTLE-1")
	if p.Line != 1 || !strings.Contains(p.Msg, "payoff by seat recorded [1 2 -3]") {
		t.Fatalf("problem %v", p)
	}
	// A redacted record is listed as unchecked, not as a problem.
	red, err := notation.Redact(ToNotation(m, &recs[0]), 1)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := notation.Write(&b, red); err != nil {
		t.Fatal(err)
	}
	rep, err = VerifyNotation(t.Context(), &b)
	if err != nil || !rep.OK() || rep.Deals != 0 || len(rep.Unchecked) != 1 {
		t.Fatalf("redacted: %v %+v", err, rep)
	}
}

// An import stores what verifies, refuses what does not (storing nothing), and keeps the
// match's commitment.
func TestImportStoresVerifiedDeals(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "i.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	m, recs := play(t, "classic pot=on", 5)
	m = committed(t, m, 5, match.NewNonce())
	good := notationFile(t, m, recs, false)
	open := func(b []byte) func() (io.ReadCloser, error) {
		return func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }
	}
	bad := bytes.Replace(good, []byte("[Result \"contract="), []byte("[Result \"contract=-"), 1)
	if _, rep, err := Import(ctx, st, open(bad), ImportOptions{}); err == nil || rep.OK() {
		t.Fatalf("a broken file was imported: %v", err)
	}
	if _, err := st.GetMatch(ctx, m.ID); err == nil {
		t.Fatal("a refused import stored its match")
	}
	done, _, err := Import(ctx, st, open(good), ImportOptions{})
	if err != nil || len(done) != 1 || done[0].ID != m.ID || done[0].Deals != 5 {
		t.Fatalf("import: %v %+v", err, done)
	}
	rep, err := VerifyStored(ctx, st, m.ID)
	if err != nil || !rep.OK() || rep.Deals != 5 || len(rep.Commitments) != 1 {
		t.Fatalf("the imported match: %v %+v", err, rep)
	}
	var out bytes.Buffer
	if _, _, err := ExportNotation(ctx, st, m.ID, nil, &out, NotationOptions{Seat: -1}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(stripStarted(out.Bytes()), stripStarted(good)) {
		t.Fatalf("the imported match exports otherwise:\n%s\n%s", out.Bytes(), good)
	}
	if _, _, err := Import(ctx, st, open(good), ImportOptions{}); err == nil || !strings.Contains(err.Error(), "already has a match") {
		t.Fatalf("a second import of the same match: %v", err)
	}
	done, _, err = Import(ctx, st, open(good), ImportOptions{MatchID: "copy"})
	if err != nil || done[0].ID != "copy" {
		t.Fatalf("import under another id: %v %+v", err, done)
	}
}

// stripStarted drops the Started tags (the store keeps microseconds).
func stripStarted(b []byte) []byte {
	var out []string
	for _, line := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(line, "[Started ") {
			out = append(out, line)
		}
	}
	return []byte(strings.Join(out, "\n"))
}

// The JSON twin's outcome object is the export's, byte for byte (the twin keeps the export's
// names and forms): a reader of one reads the other's settlement.
func TestTwinOutcomeIsTheExports(t *testing.T) {
	t.Parallel()
	for _, rules := range ruleSets {
		m, recs := play(t, rules, 3)
		export := bytes.Split(bytes.TrimSpace(exportAll(t, m, recs, ExportOptions{NoSent: true})), []byte("\n"))
		twin := bytes.Split(bytes.TrimSpace(notationFile(t, m, recs, true)), []byte("\n"))
		for i := range recs {
			var a, b struct {
				Outcome json.RawMessage `json:"outcome"`
			}
			if err := json.Unmarshal(export[i], &a); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(twin[i], &b); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(a.Outcome, b.Outcome) {
				t.Fatalf("%s deal %d: export %s, twin %s", rules, i, a.Outcome, b.Outcome)
			}
		}
	}
}
