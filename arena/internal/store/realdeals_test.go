package store

import (
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/protoconv"
	"github.com/tapparena/tapp/arena/internal/referee"
	"github.com/tapparena/tapp/engine"
)

// realDealsFile holds the deal records of a real match among random bots, for the tests and
// the benchmark: what the arena records, not a stand-in. It was written once by
//
//	go build -o /tmp/tapp ./cmd/tapp
//	/tmp/tapp match --bots random,random,random --deals 20 --seed 3 --db /tmp/x.db
//	go test ./arena/internal/store -run TestWriteRealDeals -real-deals-from /tmp/x.db
//
// Each decision's Sent is the request in protobuf wire form (the arena's recording of a
// tapp.v1.DecisionRequest; older recordings held it base64-encoded, which the writer
// undoes). The deals are in the store's own notations, as its columns hold them.
const realDealsFile = "testdata/real-deals.json.gz"

var realDealsFrom = flag.String("real-deals-from", "", "TestWriteRealDeals: rewrite "+realDealsFile+
	" from the first match stored in this database (a DSN)")

type realMatch struct {
	Rules string     `json:"rules"`
	Bots  []string   `json:"bots"`
	Deals []realDeal `json:"deals"`
}

type realDeal struct {
	Number     int                 `json:"number"`
	Group      int                 `json:"group"`
	Seating    string              `json:"seating"`
	Deal       string              `json:"deal"`
	Options    string              `json:"options"`
	Moves      string              `json:"moves"`
	Outcome    string              `json:"outcome"`
	StartedUS  int64               `json:"started_us"`
	DurationUS int64               `json:"duration_us"`
	Decisions  []realDecision      `json:"decisions"`
	Results    []domain.SeatResult `json:"results"`
}

type realDecision struct {
	Index     int    `json:"index"`
	Seat      int    `json:"seat"`
	Bot       string `json:"bot"`
	Decision  string `json:"decision"`
	RequestID string `json:"request_id"`
	Sent      []byte `json:"sent"` // base64 in the JSON
	Attempts  string `json:"attempts"`
	Action    string `json:"action"`
	LatencyUS int64  `json:"latency_us"`
	Strike    bool   `json:"strike"`
	Fallback  bool   `json:"fallback"`
	ThinkNS   int64  `json:"think_ns,omitempty"`
}

func TestWriteRealDeals(t *testing.T) {
	if *realDealsFrom == "" {
		t.Skip("only with -real-deals-from DSN: rewrites " + realDealsFile)
	}
	ctx := context.Background()
	s := openTest(t, *realDealsFrom)
	ms, err := s.ListMatches(ctx, domain.MatchFilter{})
	if err != nil || len(ms) == 0 {
		t.Fatalf("ListMatches = %d matches, %v", len(ms), err)
	}
	m := ms[len(ms)-1] // the first stored
	deals, err := s.Deals(ctx, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	out := realMatch{Rules: m.Spec.Rules.String(), Bots: m.Spec.Bots}
	for _, d := range deals {
		r := realDeal{Number: d.Number, Group: d.Group, Seating: formatNames(d.Seating), Deal: formatDeal(d.Deal, m.Spec.Rules),
			Options: formatOptions(d.Options), Moves: formatMoves(d.Moves), Outcome: formatOutcome(d.Outcome),
			StartedUS: d.Started.UnixMicro(), DurationUS: us(d.Duration), Results: d.Results}
		for _, x := range d.Decisions {
			attempts, err := formatAttempts(x.Attempts)
			if err != nil {
				t.Fatal(err)
			}
			sent := x.Sent
			if raw, err := base64.StdEncoding.DecodeString(string(sent)); err == nil {
				sent = raw
			}
			r.Decisions = append(r.Decisions, realDecision{Index: x.Index, Seat: int(x.Seat), Bot: x.Bot,
				Decision: formatDecision(x.Decision), RequestID: x.RequestID, Sent: sent, Attempts: attempts,
				Action: formatAction(x.Action), LatencyUS: us(x.Latency), Strike: x.Strike, Fallback: x.Fallback,
				ThinkNS: int64(x.Think)})
		}
		out.Deals = append(out.Deals, r)
	}
	f, err := os.Create(realDealsFile)
	if err != nil {
		t.Fatal(err)
	}
	zw, _ := gzip.NewWriterLevel(f, gzip.BestCompression)
	enc := json.NewEncoder(zw)
	enc.SetIndent("", " ")
	if err := enc.Encode(out); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %d deals of match %s to %s", len(out.Deals), m.ID, realDealsFile)
}

// readRealDeals reads realDealsFile.
func readRealDeals(t testing.TB) *realMatch {
	t.Helper()
	f, err := os.Open(realDealsFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var rm realMatch
	if err := json.NewDecoder(zr).Decode(&rm); err != nil {
		t.Fatalf("%s: %v", realDealsFile, err)
	}
	return &rm
}

// realDeals creates a match like the real one in s and returns the real deal records as
// records of that match. The match gets the real one's id if s has no match of that id yet;
// else the requests are given the game id of their deal in the new match, as the arena
// would have sent them there.
func realDeals(t testing.TB, s *Store) (*domain.Match, []*domain.DealRecord) {
	t.Helper()
	rm := readRealDeals(t)
	rules := mustRules(t, rm.Rules)
	m := &domain.Match{Spec: domain.MatchSpec{Rules: rules, Bots: rm.Bots, Deals: len(rm.Deals), Seed: 3,
		TimeControl: domain.DefaultTimeControl}}
	if req, err := protoconv.DecodeSent(rm.Deals[0].Decisions[0].Sent); err == nil {
		id, _, _ := strings.Cut(req.GetGameId(), "/")
		if _, err := s.GetMatch(context.Background(), id); errors.Is(err, domain.ErrNotFound) {
			m.ID = id
		}
	}
	if err := s.CreateMatch(context.Background(), m); err != nil {
		t.Fatalf("CreateMatch: %v", err)
	}
	var out []*domain.DealRecord
	for _, r := range rm.Deals {
		d := &domain.DealRecord{MatchID: m.ID, Number: r.Number, Group: r.Group,
			Started: time.UnixMicro(r.StartedUS).UTC(), Duration: fromUS(r.DurationUS), Results: r.Results}
		var err error
		must := func(e error) {
			if e != nil {
				t.Fatalf("%s: deal %d: %v", realDealsFile, r.Number, e)
			}
		}
		d.Seating, err = parseNames(r.Seating)
		must(err)
		d.Deal, err = parseDeal(rules, r.Deal)
		must(err)
		d.Options, err = parseOptions(r.Options)
		must(err)
		d.Moves, err = parseMoves(r.Moves)
		must(err)
		d.Outcome, err = parseOutcome(r.Outcome)
		must(err)
		for _, rx := range r.Decisions {
			x := domain.DecisionRecord{Index: rx.Index, Seat: engine.Seat(rx.Seat), Bot: rx.Bot, RequestID: rx.RequestID,
				Sent: withGameID(rx.Sent, referee.GameID(m.ID, r.Number)), Latency: fromUS(rx.LatencyUS), Strike: rx.Strike, Fallback: rx.Fallback,
				Think: time.Duration(rx.ThinkNS)}
			x.Decision, err = parseDecision(rx.Decision)
			must(err)
			x.Attempts, err = parseAttempts(rx.Attempts)
			must(err)
			x.Action, err = parseAction(rx.Action)
			must(err)
			d.Decisions = append(d.Decisions, x)
		}
		out = append(out, d)
	}
	return m, out
}
