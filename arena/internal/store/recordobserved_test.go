package store

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tapparena/tapp/arena/internal/domain"
	replayview "github.com/tapparena/tapp/arena/internal/replay"
)

// observedCopy is deal d as a bot in process would have played it under record format 2:
// every decision with a request keeps its request's clock, marked observed, and no request
// (what the referee records for a referee.Direct seat that encodes nothing).
func observedCopy(t testing.TB, d *domain.DealRecord) *domain.DealRecord {
	t.Helper()
	c := *d
	c.Decisions = slices.Clone(d.Decisions)
	for k := range c.Decisions {
		x := &c.Decisions[k]
		if len(x.Sent) == 0 {
			continue
		}
		deadline, overage, _, ok := scanRequest(x.Sent)
		if !ok {
			t.Fatalf("deal %d decision %d: the request does not scan", d.Number, k)
		}
		x.Observed, x.Deadline, x.Overage, x.Sent, x.SentFromState = true, deadline, overage, nil, false
	}
	return &c
}

// twoStores stores the real deals twice under the same match id: as sent over gRPC in one
// store, as observed in process (format 2, no request kept) in the other.
func twoStores(t *testing.T) (wire, observed *Store, m *domain.Match, deals []*domain.DealRecord) {
	t.Helper()
	ctx := context.Background()
	wire = openTest(t, "sqlite:"+filepath.Join(t.TempDir(), "wire.db"))
	observed = openTest(t, "sqlite:"+filepath.Join(t.TempDir(), "observed.db"))
	m, deals = realDeals(t, wire)
	m2 := &domain.Match{ID: m.ID, Spec: m.Spec}
	if err := observed.CreateMatch(ctx, m2); err != nil {
		t.Fatal(err)
	}
	if m2.ID != m.ID {
		t.Fatalf("match ids %s and %s", m.ID, m2.ID)
	}
	var obs []*domain.DealRecord
	for _, d := range deals {
		obs = append(obs, observedCopy(t, d))
	}
	if err := wire.SaveDeals(ctx, deals); err != nil {
		t.Fatal(err)
	}
	if err := observed.SaveDeals(ctx, obs); err != nil {
		t.Fatal(err)
	}
	return wire, observed, m, deals
}

// A deal whose bots were handed the engine's observation is stored in format 2 without its
// requests, and reads back with each request rebuilt byte for byte as it would have gone over
// the wire: the same replay, the same export but for what says the requests were not sent
// (observed, the clock, the digest of the requests sent and the chain over them), and both
// verify.
func TestObservedDecisionsReadBackAsTheRequestsRebuilt(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	wire, observed, m, deals := twoStores(t)
	for _, d := range deals {
		var rec []byte
		if err := observed.r.QueryRowContext(ctx, `SELECT record FROM deals WHERE match_id = ? AND number = ?`, m.ID, d.Number).Scan(&rec); err != nil {
			t.Fatal(err)
		}
		if len(rec) == 0 || rec[0] != recordFormat2.id {
			t.Fatalf("deal %d: stored as %v, want a record of format 2", d.Number, rec[:min(1, len(rec))])
		}
		w, err1 := wire.Deal(ctx, m.ID, d.Number)
		o, err2 := observed.Deal(ctx, m.ID, d.Number)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		for k := range w.Decisions {
			wx, ox := &w.Decisions[k], &o.Decisions[k]
			if !bytes.Equal(wx.Sent, ox.Sent) {
				t.Fatalf("deal %d decision %d: the observed decision's request rebuilds otherwise than sent", d.Number, k)
			}
			if ox.Observed != (len(wx.Sent) > 0) || ox.Observed && (ox.Deadline.IsZero() || ox.Deadline.Location() != wx.Asked.Location()) {
				t.Fatalf("deal %d decision %d: observed %v, deadline %v", d.Number, k, ox.Observed, ox.Deadline)
			}
			c := *ox
			c.Observed, c.Deadline, c.Overage = false, wx.Deadline, wx.Overage
			if !equalDecisions(&c, wx) {
				t.Fatalf("deal %d decision %d: %+v, as sent %+v", d.Number, k, c, *wx)
			}
		}
		if none := domain.SentDigest(nil); !bytes.Equal(o.SentDigest, none[:]) {
			t.Errorf("deal %d: the digest of the requests sent %x, want that of none", d.Number, o.SentDigest)
		}
	}
	exports := [2]string{}
	for i, s := range []*Store{wire, observed} {
		rep, err := replayview.VerifyStored(ctx, s, m.ID)
		if err != nil || !rep.OK() {
			t.Fatalf("verify: %+v, %v", rep, err)
		}
		var b strings.Builder
		if _, _, err := replayview.ExportStored(ctx, s, m.ID, nil, &b, replayview.ExportOptions{}); err != nil {
			t.Fatal(err)
		}
		exports[i] = b.String()
	}
	wl, ol := strings.Split(exports[0], "\n"), strings.Split(exports[1], "\n")
	if len(wl) != len(ol) {
		t.Fatalf("%d lines exported, %d observed", len(wl), len(ol))
	}
	for i := range wl {
		if a, b := withoutSendingOf(t, wl[i]), withoutSendingOf(t, ol[i]); a != b {
			t.Fatalf("line %d: exported as sent\n%s\nobserved\n%s", i, a, b)
		}
	}
	if !strings.Contains(exports[1], `"observed":true`) || strings.Contains(exports[0], `"observed"`) {
		t.Error("the export does not say which decisions were observed")
	}
}

// equalDecisions compares two decisions read back, but for their requests.
func equalDecisions(a, b *domain.DecisionRecord) bool {
	x, y := *a, *b
	x.Sent, y.Sent = nil, nil
	ja, _ := json.Marshal(x)
	jb, _ := json.Marshal(y)
	return bytes.Equal(ja, jb)
}

// withoutSendingOf is an export line without what says whether the requests were sent: the
// observed decisions' marks and clocks, the digest of the requests sent and the chain's
// links over it.
func withoutSendingOf(t *testing.T, line string) string {
	t.Helper()
	if line == "" {
		return ""
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(line), &v); err != nil {
		t.Fatal(err)
	}
	delete(v, "sent_digest")
	delete(v, "chain")
	for _, d := range v["decisions"].([]any) {
		x := d.(map[string]any)
		delete(x, "observed")
		delete(x, "deadline_us")
		delete(x, "overage_us")
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// An observed decision's clock is in no request's digest: the chain covers it, so a record
// whose clock was changed after it was stored fails verification.
func TestATamperedObservedClockFailsVerification(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	_, observed, m, deals := twoStores(t)
	d := deals[len(deals)/2]
	got, err := observed.Deal(ctx, m.ID, d.Number)
	if err != nil {
		t.Fatal(err)
	}
	k := slices.IndexFunc(got.Decisions, func(x domain.DecisionRecord) bool { return x.Observed })
	got.Decisions[k].Overage += 1000 * 1000 // a millisecond more of overage
	info, err := observed.readMatchInfo(ctx, observed.r, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := encodeRecord(got, got.Started, info)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := observed.w.ExecContext(ctx, `UPDATE deals SET record = ? WHERE match_id = ? AND number = ?`, rec, m.ID, d.Number); err != nil {
		t.Fatal(err)
	}
	rep, err := replayview.VerifyStored(ctx, observed, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	if rep.OK() {
		t.Fatalf("a record with an observed decision's overage changed verifies: %+v", rep)
	}
}
