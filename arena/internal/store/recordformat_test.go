package store

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/encode"
	"github.com/tapparena/tapp/arena/internal/match"
	"github.com/tapparena/tapp/arena/internal/referee"
	replayview "github.com/tapparena/tapp/arena/internal/replay"
)

// Every format of compact records has a golden file of records written in it, committed:
// testdata/records/format<N>.json.gz, the real deals (realDealsFile) as that format wrote
// them, with the requests their bots got. A format's records must rebuild those requests byte
// for byte for as long as the format is read, whatever the arena's encoder does meanwhile.
// A new format's file is written once, when the format is made (docs/protocol.md):
//
//	go test ./arena/internal/store -run TestWriteRecordFixture -write-record-fixture

var writeRecordFixture = flag.Bool("write-record-fixture", false, "TestWriteRecordFixture: write the golden records of the write format")

// recordFixture is a golden file: a match and its deals' compact records, with the requests
// each decision's record must rebuild.
type recordFixture struct {
	Format      int             `json:"format"`
	Encoding    string          `json:"encoding"`
	MatchID     string          `json:"match_id"`
	Rules       string          `json:"rules"`
	Bots        []string        `json:"bots"`
	PerDecision time.Duration   `json:"per_decision_ns"`
	Overage     time.Duration   `json:"overage_ns"`
	Deals       []fixtureRecord `json:"deals"`
}

type fixtureRecord struct {
	Number    int      `json:"number"`
	StartedUS int64    `json:"started_us"`
	Record    []byte   `json:"record"` // base64 in the JSON
	Sent      [][]byte `json:"sent"`   // each decision's request as sent, by index (none: null)
	// Observed marks, by index, the decisions stored as observed (format 2 on): their requests
	// were not sent, the record rebuilds them from their clocks, and its digest leaves them out.
	Observed []bool `json:"observed,omitempty"`
}

func recordFixturePath(id byte) string {
	return filepath.Join("testdata", "records", fmt.Sprintf("format%d.json.gz", id))
}

func TestWriteRecordFixture(t *testing.T) {
	if !*writeRecordFixture {
		t.Skip("only with -write-record-fixture: writes " + recordFixturePath(writeFormat.id))
	}
	s := openTest(t, "sqlite:"+filepath.Join(t.TempDir(), "tapp.db"))
	m, deals := realDeals(t, s)
	info, err := s.readMatchInfo(context.Background(), s.r, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	fx := recordFixture{Format: int(writeFormat.id), Encoding: writeFormat.encoding, MatchID: m.ID, Rules: m.Spec.Rules.String(),
		Bots: m.Spec.Bots, PerDecision: info.perDecision, Overage: info.overage}
	for i, d := range deals {
		started := time.UnixMicro(d.Started.UnixMicro()).UTC()
		stored := d
		if writeFormat.observes && i%2 == 1 { // every other deal as bots in process play it
			stored = observedCopy(t, d)
		}
		rec, err := encodeRecordTrusting(stored, started, info, false)
		if err != nil {
			t.Fatalf("deal %d: %v", d.Number, err)
		}
		r := fixtureRecord{Number: d.Number, StartedUS: started.UnixMicro(), Record: rec}
		for k, x := range d.Decisions {
			r.Sent = append(r.Sent, x.Sent)
			if stored.Decisions[k].Observed {
				r.Observed = append(r.Observed, make([]bool, k+1-len(r.Observed))...)
				r.Observed[k] = true
			}
		}
		fx.Deals = append(fx.Deals, r)
	}
	path := recordFixturePath(writeFormat.id)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err := json.NewEncoder(zw).Encode(fx); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %d records of format %d to %s", len(fx.Deals), fx.Format, path)
}

func readRecordFixture(t *testing.T, id byte) *recordFixture {
	t.Helper()
	f, err := os.Open(recordFixturePath(id))
	if err != nil {
		t.Fatalf("format %d has no golden records: %v (see TestWriteRecordFixture)", id, err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var fx recordFixture
	if err := json.NewDecoder(zr).Decode(&fx); err != nil {
		t.Fatal(err)
	}
	return &fx
}

func (fx *recordFixture) info(t *testing.T) *matchInfo {
	t.Helper()
	return &matchInfo{id: fx.MatchID, rules: mustRules(t, fx.Rules), bots: fx.Bots, round: -1, perDecision: fx.PerDecision, overage: fx.Overage}
}

// checkRebuilds decodes every golden record of fx in format f and checks that each request
// rebuilds byte for byte, and that the digest kept with the record is theirs.
func checkRebuilds(t *testing.T, fx *recordFixture, f *recordFormat) (mismatches int) {
	t.Helper()
	info := fx.info(t)
	for _, r := range fx.Deals {
		d := domain.DealRecord{MatchID: fx.MatchID, Number: r.Number, Started: time.UnixMicro(r.StartedUS).UTC()}
		rd := &recordReader{b: r.Record, all: r.Record}
		got, err := readHeader(rd, &d)
		if err != nil || got.id != byte(fx.Format) {
			t.Fatalf("deal %d: header: format %v, %v; want %d", r.Number, got, err, fx.Format)
		}
		if _, err := decodeRecordAs(&d, r.Record, info, true, f); err != nil {
			t.Fatalf("deal %d: %v", r.Number, err)
		}
		want := make([]domain.DecisionRecord, len(r.Sent))
		for k, sent := range r.Sent {
			want[k] = domain.DecisionRecord{Index: k, Sent: sent, Observed: k < len(r.Observed) && r.Observed[k]}
			if d.Decisions[k].Observed != want[k].Observed {
				t.Errorf("deal %d decision %d: observed %v, want %v", r.Number, k, d.Decisions[k].Observed, want[k].Observed)
			}
			if !bytes.Equal(d.Decisions[k].Sent, sent) {
				mismatches++
			}
		}
		if digest := domain.SentDigest(want); !bytes.Equal(d.SentDigest, digest[:]) {
			t.Errorf("deal %d: the record's digest %x, the golden requests' %x", r.Number, d.SentDigest, digest)
		}
	}
	return mismatches
}

// Every format's golden records rebuild, with its frozen encoder, the requests their bots
// got (format 2's observed decisions, the requests they stand for).
func TestGoldenRecordsOfEveryFormatRebuildTheirRequests(t *testing.T) {
	t.Parallel()
	for id, f := range recordFormats {
		fx := readRecordFixture(t, id)
		if fx.Encoding != f.encoding {
			t.Errorf("format %d's golden records name %q, the format %q", id, fx.Encoding, f.encoding)
		}
		if n := checkRebuilds(t, fx, f); n > 0 {
			t.Errorf("format %d: %d requests of its golden records no longer rebuild as sent: its encoder (%s) changed; "+
				"a frozen encoder never does (docs/protocol.md, \"Changing the protocol\")", id, n, f.encoding)
		}
	}
}

// The store writes records in the format whose encoder is the one the arena sends with:
// today's encoder rebuilds the write format's golden requests. When it does not, the arena's
// encoder was changed without a new format (docs/protocol.md, "Changing the protocol").
func TestTheWriteFormatEncodesAsTheArena(t *testing.T) {
	t.Parallel()
	fx := readRecordFixture(t, writeFormat.id)
	arena := &recordFormat{id: writeFormat.id, encoding: "the arena's encoder", encode: encode.AppendRequest}
	if n := checkRebuilds(t, fx, arena); n > 0 {
		t.Errorf("the arena's encoder (arena/internal/encode) rebuilds %d of format %d's golden requests otherwise than sent: "+
			"it changed, so the store needs a new format with a frozen copy of it (docs/protocol.md, \"Changing the protocol\")", n, writeFormat.id)
	}
}

// A field added to the arena's encoder: the store then writes a new format with the new
// encoder, and the records written before it still rebuild their requests byte for byte and
// verify — while rebuilding them with the new encoder, as the store did before formats named
// their encoding, fails every one. (Not parallel: it swaps the write format.)
func TestAFieldAddedToTheEncoderLeavesOlderRecordsAsTheyWere(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, "sqlite:"+filepath.Join(t.TempDir(), "tapp.db"))
	commitAll := func(m *domain.Match) {
		t.Helper()
		if err := match.Commit(m); err != nil {
			t.Fatal(err)
		}
		if _, err := s.w.ExecContext(ctx, `UPDATE matches SET commitment = ?, nonce = ?, commitment_version = ? WHERE id = ?`,
			m.Commitment, m.Nonce, m.CommitmentVersion, m.ID); err != nil {
			t.Fatal(err)
		}
	}
	defer func(f *recordFormat) { writeFormat = f }(writeFormat)
	writeFormat = recordFormat1 // the older records: format 1's
	old, deals := realDeals(t, s)
	commitAll(old)
	if err := s.SaveDeals(ctx, deals); err != nil {
		t.Fatal(err)
	}

	// The arena's encoder gains a field (number 99, the request's "arena build"), and the store
	// a format (a test's 9, laid out as format 2) that encodes with it; the arena now sends
	// requests with the field.
	const build = "tapp 9.9"
	withField := func(b []byte, r *referee.Request) []byte {
		b = encode.AppendRequest(b, r)
		b = protowire.AppendTag(b, 99, protowire.BytesType)
		return protowire.AppendString(b, build)
	}
	newFormat := &recordFormat{id: 9, observes: true, encoding: "a test's request encoding 2", encode: withField}
	recordFormats[9], writeFormat = newFormat, newFormat
	defer delete(recordFormats, 9)

	m2 := &domain.Match{Spec: old.Spec}
	if err := s.CreateMatch(ctx, m2); err != nil {
		t.Fatal(err)
	}
	commitAll(m2)
	var newer []*domain.DealRecord
	for _, d := range deals {
		c := *d
		c.MatchID, c.Decisions = m2.ID, append([]domain.DecisionRecord(nil), d.Decisions...)
		for k := range c.Decisions {
			if x := &c.Decisions[k]; x.Sent != nil {
				sent := withGameID(x.Sent, referee.GameID(m2.ID, c.Number))
				sent = protowire.AppendTag(sent, 99, protowire.BytesType)
				x.Sent = protowire.AppendString(sent, build)
			}
		}
		newer = append(newer, &c)
	}
	if err := s.SaveDeals(ctx, newer); err != nil {
		t.Fatal(err)
	}

	for _, c := range []struct {
		m     *domain.Match
		saved []*domain.DealRecord
		id    byte
	}{{old, deals, 1}, {m2, newer, 9}} {
		for _, d := range c.saved {
			var rec []byte
			if err := s.r.QueryRowContext(ctx, `SELECT record FROM deals WHERE match_id = ? AND number = ?`, c.m.ID, d.Number).Scan(&rec); err != nil {
				t.Fatal(err)
			}
			if rec == nil || rec[0] != c.id {
				t.Fatalf("match %s deal %d: stored in format %v, want %d", c.m.ID, d.Number, rec[:min(1, len(rec))], c.id)
			}
			got, err := s.Deal(ctx, c.m.ID, d.Number)
			if err != nil {
				t.Fatal(err)
			}
			for k := range d.Decisions {
				if !bytes.Equal(got.Decisions[k].Sent, d.Decisions[k].Sent) {
					t.Fatalf("format %d: deal %d decision %d does not rebuild the request as sent", c.id, d.Number, k)
				}
			}
		}
		rep, err := replayview.VerifyStored(ctx, s, c.m.ID)
		if err != nil || !rep.OK() || len(rep.Chains) != 1 {
			t.Errorf("verify of the format-%d records: %+v, %v; want no problem", c.id, rep, err)
		}
	}

	// Before formats named their encoding, the store rebuilt every record with the encoder of
	// the day: the old records then fail to prove their requests.
	recordFormats[1] = &recordFormat{id: 1, encoding: "today's", encode: withField}
	defer func() { recordFormats[1] = recordFormat1 }()
	rep, err := replayview.VerifyStored(ctx, s, old.ID)
	if err != nil || rep.OK() {
		t.Errorf("verify with the old records rebuilt by the new encoder: %+v, %v; want REC-SENT on every deal", rep, err)
	}
}
