package store

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/engine"
	storev1 "github.com/tapparena/tapp/proto/tapp/store/v1"
)

func TestDecisionLogRoundTrip(t *testing.T) {
	t.Parallel()
	m := &domain.Match{ID: "m", Spec: domain.MatchSpec{Rules: testRules(t), Bots: []string{"a", "b", "c"}, Seed: 1}}
	d := sampleDeal(t, m, 0, 40, 300)
	d.Decisions[0].Sent = nil
	d.Decisions[1].Attempts = nil
	d.Decisions[2].Latency = 1500 * time.Nanosecond // stored in microseconds, as the decisions table does
	want := append([]domain.DecisionRecord(nil), d.Decisions...)
	want[2].Latency = time.Microsecond
	// Decisions are stored in index order, whatever order they come in.
	shuffled := append([]domain.DecisionRecord(nil), d.Decisions...)
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	for _, in := range [][]domain.DecisionRecord{d.Decisions, shuffled} {
		blob, err := encodeDecisionLog(in)
		if err != nil {
			t.Fatal(err)
		}
		if blob[0] != logFormatS2 {
			t.Fatalf("the log starts with % x, want the format byte %d", blob[:4], logFormatS2)
		}
		got, err := decodeDecisionLog(blob, true)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("decisions read back differ:\n got %+v\nwant %+v", got[:3], want[:3])
		}
		summary, err := decodeDecisionLog(blob, false)
		if err != nil {
			t.Fatal(err)
		}
		for i := range summary {
			if summary[i].Sent != nil {
				t.Fatalf("decision %d read without requests has Sent", i)
			}
			summary[i].Sent = want[i].Sent
		}
		if !reflect.DeepEqual(summary, want) {
			t.Errorf("decisions read without requests differ in more than Sent")
		}
	}
	// No decisions: a log all the same, read back as none (nil, as from rows).
	blob, err := encodeDecisionLog(nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := decodeDecisionLog(blob, true); err != nil || got != nil {
		t.Errorf("empty log read back as %#v, %v", got, err)
	}
}

// The hand-written log is the very bytes of proto.Marshal of the storev1.DecisionLog that
// describes the same decisions: for the real deals, and for values at the edges (negative
// and large numbers, empty and missing fields, attempts with nothing in them).
func TestDecisionLogIsProtoMarshal(t *testing.T) {
	t.Parallel()
	s := openTest(t, sqliteBackend.newDSN(t))
	_, deals := realDeals(t, s)
	m := &domain.Match{ID: "m", Spec: domain.MatchSpec{Rules: testRules(t), Bots: []string{"a", "b", "c"}, Seed: 1}}
	edge := sampleDeal(t, m, 0, 40, 300)
	edge.Decisions[0].Index, edge.Decisions[0].Seat = -3, -1
	edge.Decisions[1].Sent, edge.Decisions[1].Bot, edge.Decisions[1].RequestID = nil, "", ""
	edge.Decisions[2].Attempts = []domain.AnswerAttempt{{}, {Text: "HA", After: -time.Second, Rejected: "R-PLAY-2: must follow suit"}}
	edge.Decisions[3].Latency, edge.Decisions[3].Think = 1<<40*time.Microsecond, -1
	edge.Decisions[4].Strike, edge.Decisions[4].Fallback, edge.Decisions[4].Action = true, true, engine.Action{}
	edge.Decisions[5].Sent = bytes.Repeat([]byte{0xFF}, 70000)
	cases := [][]domain.DecisionRecord{nil, edge.Decisions}
	for _, d := range deals {
		cases = append(cases, d.Decisions)
	}
	for i, ds := range cases {
		got := appendDecisionLog(nil, ds)
		want, err := proto.MarshalOptions{Deterministic: true}.Marshal(decisionLogMessage(ds))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("case %d: the hand-written log (%d bytes) differs from proto.Marshal (%d bytes)", i, len(got), len(want))
		}
	}
}

// decisionLogMessage is the storev1.DecisionLog of decisions in index order.
func decisionLogMessage(ds []domain.DecisionRecord) *storev1.DecisionLog {
	log := &storev1.DecisionLog{}
	for _, x := range ds {
		p := &storev1.Decision{Index: int32(x.Index), Seat: int32(x.Seat), Bot: x.Bot, Decision: formatDecision(x.Decision),
			RequestId: x.RequestID, Sent: x.Sent, Action: formatAction(x.Action), LatencyUs: us(x.Latency),
			Strike: x.Strike, Fallback: x.Fallback, ThinkNs: int64(x.Think)}
		for _, a := range x.Attempts {
			p.Attempts = append(p.Attempts, &storev1.Attempt{Text: a.Text, AfterUs: us(a.After), Rejected: a.Rejected})
		}
		log.Decisions = append(log.Decisions, p)
	}
	return log
}

// Sent is opaque bytes: every byte value, NUL bytes, invalid UTF-8, nothing at all, and a large
// request that does not compress are stored and read back exactly, on every backend.
func TestBinarySentReadsBackExactly(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		m := newMatch(t, s, "", "a", "b", "c")
		every := make([]byte, 512)
		for i := range every {
			every[i] = byte(i)
		}
		noise := make([]byte, 200_000)
		rng := rand.New(rand.NewPCG(7, 7))
		for i := range noise {
			noise[i] = byte(rng.Uint32())
		}
		sents := [][]byte{every, {0}, {0, 0, 0}, {0xff, 0xfe, 0xfd}, []byte("\xc3\x28 not UTF-8 \xa0\xa1"),
			nil, noise, []byte("ChIzZGJm"), []byte(`{"requestId":"r1"}`)}
		d := sampleDeal(t, m, 0, len(sents), 10)
		for i := range d.Decisions {
			d.Decisions[i].Sent = sents[i]
		}
		if err := s.SaveDeal(ctx, d); err != nil {
			t.Fatalf("SaveDeal: %v", err)
		}
		got, err := s.Deal(ctx, m.ID, 0)
		if err != nil {
			t.Fatalf("Deal: %v", err)
		}
		for i, x := range got.Decisions {
			if !bytes.Equal(x.Sent, sents[i]) || (x.Sent == nil) != (sents[i] == nil) {
				t.Errorf("decision %d: Sent read back as %d bytes % x…, want %d bytes % x…", i,
					len(x.Sent), x.Sent[:min(8, len(x.Sent))], len(sents[i]), sents[i][:min(8, len(sents[i]))])
			}
		}
		if !reflect.DeepEqual(got, d) {
			diffDeal(t, got, d)
		}
	})
}

// The real deals (realDealsFile) read back exactly, saved one by one or in batches.
func TestRealDealsRoundTrip(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		m, deals := realDeals(t, s)
		if err := s.SaveDeal(ctx, deals[0]); err != nil {
			t.Fatalf("SaveDeal: %v", err)
		}
		for i := 1; i < len(deals); i += 7 {
			if err := s.SaveDeals(ctx, deals[i:min(i+7, len(deals))]); err != nil {
				t.Fatalf("SaveDeals: %v", err)
			}
		}
		checkReadBack(t, s, m.ID, deals)
	})
}

// insertOldDeal stores a deal as schema versions 1-3 did: its decisions as rows of decisions
// (the request as text), no decision log.
func insertOldDeal(t *testing.T, s *Store, d *domain.DealRecord, rules engine.RuleSet) {
	t.Helper()
	ctx := context.Background()
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, s.rebind(`INSERT INTO deals (match_id, number, deal_group, seating, deal,
	options, moves, outcome, started, duration_us) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		d.MatchID, d.Number, d.Group, formatNames(d.Seating), formatDeal(d.Deal, rules), formatOptions(d.Options),
		formatMoves(d.Moves), formatOutcome(d.Outcome), s.timeArg(d.Started), us(d.Duration)); err != nil {
		t.Fatalf("insert the deal: %v", err)
	}
	var args []any
	for _, x := range d.Decisions {
		attempts, err := formatAttempts(x.Attempts)
		if err != nil {
			t.Fatal(err)
		}
		args = append(args, d.MatchID, d.Number, x.Index, int(x.Seat), x.Bot, formatDecision(x.Decision), x.RequestID,
			string(x.Sent), attempts, formatAction(x.Action), us(x.Latency), x.Strike, x.Fallback)
	}
	if err := s.insertRows(ctx, tx, `INSERT INTO decisions (match_id, deal_number, idx, seat, bot, decision,
	request_id, sent, attempts, action, latency_us, strike, fallback) VALUES `, 13, args); err != nil {
		t.Fatalf("insert the decisions: %v", err)
	}
	args = nil
	for _, r := range d.Results {
		args = append(args, d.MatchID, d.Number, "", int(r.Seat), r.Bot, r.Payoff, r.Points, r.Tricks, r.Declarer)
	}
	if err := s.insertRows(ctx, tx, `INSERT INTO results (match_id, deal_number, league_id, seat, bot, payoff,
	points, tricks, declarer) VALUES `, 9, args); err != nil {
		t.Fatalf("insert the results: %v", err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// A database written by schema versions 1-3 keeps its deals' decisions in rows. After the
// migrations they read back as before, beside new deals, and both give the same records.
func TestDealsStoredInRowsStillReadBack(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		dsn := b.newDSN(t)
		old, err := open(ctx, dsn, 3)
		if err != nil {
			t.Fatalf("open at version 3: %v", err)
		}
		if v, err := old.SchemaVersion(ctx); err != nil || v != 3 {
			t.Fatalf("SchemaVersion = %d, %v; want 3", v, err)
		}
		m, deals := realDeals(t, old)
		// As the arena recorded requests then: base64 text of the protobuf wire form.
		for _, d := range deals {
			for i := range d.Decisions {
				d.Decisions[i].Sent = []byte(base64.StdEncoding.EncodeToString(d.Decisions[i].Sent))
			}
		}
		for _, d := range deals[:len(deals)/2] {
			insertOldDeal(t, old, d, m.Spec.Rules)
		}
		if err := old.Close(); err != nil {
			t.Fatal(err)
		}

		s := openTest(t, dsn) // migrates to the newest version
		if v, err := s.SchemaVersion(ctx); err != nil || v != latestVersion(t, s) {
			t.Fatalf("SchemaVersion after Open = %d, %v", v, err)
		}
		if err := s.SaveDeals(ctx, deals[len(deals)/2:]); err != nil {
			t.Fatalf("SaveDeals: %v", err)
		}
		// The same deal stored in rows in one match and as a log in another reads back alike.
		twin := &domain.Match{Spec: m.Spec}
		if err := s.CreateMatch(ctx, twin); err != nil {
			t.Fatal(err)
		}
		twinDeal := *deals[0]
		twinDeal.MatchID = twin.ID
		if err := s.SaveDeal(ctx, &twinDeal); err != nil {
			t.Fatalf("SaveDeal: %v", err)
		}

		// Version 11 rewrote them as compact records, with their requests (base64 text, which
		// no request is rebuilt as) kept verbatim.
		var inRows, compact int
		if err := s.r.QueryRow(s.rebind(`SELECT count(*) FROM decisions WHERE match_id = ?`), m.ID).Scan(&inRows); err != nil {
			t.Fatal(err)
		}
		if err := s.r.QueryRow(s.rebind(`SELECT count(*) FROM deals WHERE match_id = ? AND record IS NOT NULL`), m.ID).Scan(&compact); err != nil {
			t.Fatal(err)
		}
		if inRows != 0 || compact != len(deals) {
			t.Fatalf("%d decision rows and %d compact records of %d deals: want none and all", inRows, compact, len(deals))
		}

		got := checkReadBack(t, s, m.ID, deals)
		for _, n := range []int{0, len(deals) - 1} {
			one, err := s.Deal(ctx, m.ID, n)
			if err != nil || !reflect.DeepEqual(checkedDigest(t, one, deals[n]), deals[n]) {
				t.Errorf("Deal(%d) = %v; differs from what was stored", n, err)
			}
		}
		fromRows, err := s.Deal(ctx, m.ID, 0)
		if err != nil {
			t.Fatal(err)
		}
		fromLog, err := s.Deal(ctx, twin.ID, 0)
		if err != nil {
			t.Fatal(err)
		}
		fromLog.MatchID = m.ID
		if !reflect.DeepEqual(fromRows, fromLog) {
			diffDeal(t, fromLog, fromRows)
		}

		summaries, err := s.DealSummaries(ctx, m.ID)
		if err != nil {
			t.Fatalf("DealSummaries: %v", err)
		}
		for i := range got {
			for j := range got[i].Decisions {
				got[i].Decisions[j].Sent = nil
			}
			if !reflect.DeepEqual(summaries[i], got[i]) {
				diffDeal(t, &summaries[i], &got[i])
			}
		}
	})
}

// A decision log that does not decode is an error naming the match and the deal, not a deal
// without decisions.
func TestUndecodableDecisionLog(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		m := newMatch(t, s, "", "a", "b", "c")
		if err := s.SaveDeals(ctx, []*domain.DealRecord{sampleDeal(t, m, 0, 8, 100), sampleDeal(t, m, 1, 8, 100)}); err != nil {
			t.Fatal(err)
		}
		var good []byte
		if err := s.r.QueryRow(s.rebind(`SELECT decision_log FROM deals WHERE match_id = ? AND number = 1`), m.ID).Scan(&good); err != nil {
			t.Fatal(err)
		}
		pack := func(m proto.Message) []byte {
			raw, err := proto.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			blob, err := packDecisionLog(raw)
			if err != nil {
				t.Fatal(err)
			}
			return blob
		}
		unknownKind := pack(&storev1.DecisionLog{Decisions: []*storev1.Decision{{Decision: "juggle", Action: "pass"}}})
		badAction := pack(&storev1.DecisionLog{Decisions: []*storev1.Decision{{Decision: "card", Action: "H11"}}})
		notALog, err := packDecisionLog([]byte{0xff, 0xff, 0xff})
		if err != nil {
			t.Fatal(err)
		}
		flipped := bytes.Clone(good)
		flipped[len(flipped)-3] ^= 0x55
		badSum := bytes.Clone(good)
		badSum[2] ^= 1
		future := bytes.Clone(good)
		future[0] = 9
		for _, c := range []struct {
			name string
			blob []byte
			want string
		}{
			{"text", []byte("hello"), "not in a format this build knows"},
			{"empty", []byte{}, "not in a format this build knows"},
			{"header only", good[:logHeader], "not in a format this build knows"},
			{"unknown format", future, "not in a format this build knows (" + fmt.Sprint(len(good)) + " bytes starting 09"},
			{"truncated", good[:len(good)-9], "decision log: s2: corrupt input"},
			{"damaged", flipped, "decision log: damaged: checksum"},
			{"wrong checksum", badSum, "decision log: damaged: checksum"},
			{"unknown decision kind", unknownKind, `decision 0: stored decision "juggle" is not one the engine knows`},
			{"bad action", badAction, `decision 0:`},
			{"not a DecisionLog", notALog, "decision log: proto"},
		} {
			if _, err := s.w.Exec(s.rebind(`UPDATE deals SET decision_log = ? WHERE match_id = ? AND number = 1`), c.blob, m.ID); err != nil {
				t.Fatal(err)
			}
			for _, read := range []struct {
				name string
				f    func() error
			}{
				{"Deal", func() error { _, err := s.Deal(ctx, m.ID, 1); return err }},
				{"Deals", func() error { _, err := s.Deals(ctx, m.ID); return err }},
				{"DealSummaries", func() error { _, err := s.DealSummaries(ctx, m.ID); return err }},
			} {
				err := read.f()
				want := fmt.Sprintf("deal 1 of match %s: the stored decisions do not decode", m.ID)
				if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), c.want) {
					t.Errorf("%s: %s = %v, want an error saying %q and %q", c.name, read.name, err, want, c.want)
				}
			}
		}
		if _, err := s.Deal(ctx, m.ID, 0); err != nil {
			t.Errorf("the other deal: %v", err)
		}
	})
}
