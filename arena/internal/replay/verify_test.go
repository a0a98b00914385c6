package replay

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protojson"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/match"
	"github.com/tapparena/tapp/arena/internal/protoconv"
	"github.com/tapparena/tapp/arena/internal/store"
	"github.com/tapparena/tapp/engine"
)

// find returns the problem with the rule, failing the test when there is none.
func find(t *testing.T, ps []Problem, rule string) Problem {
	t.Helper()
	for _, p := range ps {
		if p.Rule == rule {
			return p
		}
	}
	t.Fatalf("no %s problem among %v", rule, ps)
	return Problem{}
}

// wrongCard returns the index of the first card played and a card the player does not hold
// (the lowest of the next seat's hand as dealt), to put in its place.
func wrongCard(t *testing.T, rec *domain.DealRecord) (int, engine.Card) {
	t.Helper()
	for k, mv := range rec.Moves {
		if mv.Action.Kind != engine.ActCard {
			continue
		}
		other := rec.Deal.Hands[(int(mv.Seat)+1)%len(rec.Seating)]
		return k, other.Lowest()
	}
	t.Fatal("no card played")
	return 0, 0
}

func TestVerifyFindsAWrongCard(t *testing.T) {
	t.Parallel()
	for _, text := range ruleSets {
		m, recs := play(t, text, 3)
		for i := range recs {
			rec := clone(recs[i])
			k, c := wrongCard(t, &rec)
			rec.Moves[k].Action = engine.CardAction(c)
			ps := VerifyDeal(m, &rec)
			p := find(t, ps, "R-PLAY-2")
			want := fmt.Sprintf("deal %d, decision %d (%d:%s): R-PLAY-2: the engine refuses %s", rec.Number, k, rec.Moves[k].Seat, c, c)
			if !strings.HasPrefix(p.String(), want) || p.Deal != rec.Number || p.Decision != k {
				t.Errorf("%s: problem %q, want it to start %q", text, p, want)
			}
			find(t, ps, RecDecision) // the decision record still says the card really played
		}
	}
}

func TestVerifyFindsAWrongCardInTheDeal(t *testing.T) {
	t.Parallel()
	m, recs := play(t, "modern", 2)
	rec := clone(recs[1])
	a, b := rec.Deal.Hands[0].Highest(), rec.Deal.Hands[1].Highest()
	rec.Deal.Hands[0] = rec.Deal.Hands[0].Without(a).With(b)
	rec.Deal.Hands[1] = rec.Deal.Hands[1].Without(b).With(a)
	p := find(t, VerifyDeal(m, &rec), "R-DEAL-2")
	if p.Deal != 1 || !strings.Contains(p.Msg, "seed 7") {
		t.Errorf("problem %q, want deal 1 and the seed named", p)
	}

	rec = clone(recs[0])
	rec.Deal.Hands[1] = rec.Deal.Hands[1].Without(rec.Deal.Hands[1].Lowest()).With(rec.Deal.Hands[0].Lowest())
	p = find(t, VerifyDeal(m, &rec), "R-DEAL-1")
	if !strings.Contains(p.Msg, "dealt twice") {
		t.Errorf("problem %q, want it to say a card is dealt twice", p)
	}
}

func TestVerifyFindsAWrongSettlement(t *testing.T) {
	t.Parallel()
	for _, text := range ruleSets {
		m, recs := play(t, text, 6)
		for i := range recs {
			rec := clone(recs[i])
			rec.Outcome.Payoff[0] += 5
			rec.Outcome.Payoff[1] -= 5
			rule := settleRule(m.Rules, recs[i].Outcome)
			p := find(t, VerifyDeal(m, &rec), rule)
			want := fmt.Sprintf("deal %d: %s: settlement: payoff by seat recorded", rec.Number, rule)
			if !strings.HasPrefix(p.String(), want) {
				t.Errorf("%s: problem %q, want it to start %q", text, p, want)
			}
			find(t, VerifyDeal(m, &rec), RecResult) // the stored results no longer match either
		}
	}
	m, recs := play(t, "modern", 4)
	for _, c := range []struct {
		rule    string
		corrupt func(o *engine.Outcome)
	}{
		{"R-PLAY-4", func(o *engine.Outcome) { o.Tricks[0]++; o.Tricks[1]-- }},
		{"R-PLAY-5", func(o *engine.Outcome) { o.Points[2] += 4 }},
		{"R-MOD-SETTLE-1", func(o *engine.Outcome) { o.Payoff[2] += 1 }}, // and no longer zero-sum
	} {
		rec := clone(recs[0])
		c.corrupt(&rec.Outcome)
		find(t, VerifyDeal(m, &rec), c.rule)
	}
}

func TestVerifyFindsBrokenRecords(t *testing.T) {
	t.Parallel()
	m, recs := play(t, "modern", 3)
	for _, c := range []struct {
		name, rule string
		corrupt    func(t *testing.T, r *domain.DealRecord)
	}{
		{"truncated", RecIncomplete, func(t *testing.T, r *domain.DealRecord) { r.Moves = r.Moves[:len(r.Moves)-2] }},
		{"wrong seat", "R-MOD-BID-1", func(t *testing.T, r *domain.DealRecord) { r.Moves[0].Seat = 0 }},
		{"decision action", RecDecision, func(t *testing.T, r *domain.DealRecord) {
			r.Decisions[1].Action = engine.ToutAction(true)
		}},
		{"fallback", RecFallback, func(t *testing.T, r *domain.DealRecord) {
			for i, d := range r.Decisions {
				if d.Action.Kind == engine.ActPlay { // the fallback in round one is pass
					r.Decisions[i].Fallback = true
					return
				}
			}
		}},
		{"results", RecResult, func(t *testing.T, r *domain.DealRecord) { r.Results[0].Bot = "someone" }},
		{"seating", RecSeating, func(t *testing.T, r *domain.DealRecord) { r.Seating[0], r.Seating[1] = r.Seating[1], r.Seating[0] }},
		{"sent", RecSent, func(t *testing.T, r *domain.DealRecord) {
			req, err := protoconv.DecodeSent(r.Decisions[0].Sent)
			if err != nil {
				t.Fatal(err)
			}
			req.Observation.Hand[0] = r.Deal.Tapp.Lowest().String()
			b, err := protojson.Marshal(req)
			if err != nil {
				t.Fatal(err)
			}
			r.Decisions[0].Sent = b
		}},
	} {
		for i := range recs {
			rec := clone(recs[i])
			if c.name == "fallback" {
				found := false
				for _, mv := range rec.Moves {
					found = found || mv.Action.Kind == engine.ActPlay
				}
				if !found {
					continue
				}
			}
			c.corrupt(t, &rec)
			p := find(t, VerifyDeal(m, &rec), c.rule)
			if p.Deal != rec.Number {
				t.Errorf("%s: problem %q names deal %d, want %d", c.name, p, p.Deal, rec.Number)
			}
			if c.name == "sent" && !strings.Contains(p.Msg, "observation hand") {
				t.Errorf("sent: problem %q, want it to name the observation's hand", p)
			}
		}
	}
}

func TestVerifyExportFindsACorruptedLineAndThePot(t *testing.T) {
	t.Parallel()
	m, recs := play(t, "classic pot=on", 4)
	data := string(exportAll(t, m, recs, ExportOptions{NoSent: true}))
	lines := strings.Split(strings.TrimSuffix(data, "\n"), "\n")
	// A wrong card in the third deal's moves, by editing the text.
	rec := recs[2]
	k, c := wrongCard(t, &rec)
	old := fmt.Sprintf(`"%s"`, rec.Moves[k])
	lines[2] = strings.Replace(lines[2], old, fmt.Sprintf(`"%d:%s"`, rec.Moves[k].Seat, c), 1)
	// A pot that does not carry over into the fourth deal.
	e, err := NewDealExport(m, &recs[3], ExportOptions{NoSent: true})
	if err != nil {
		t.Fatal(err)
	}
	e.Options.Pot += 3
	var b bytes.Buffer
	if err := WriteLine(&b, e); err != nil {
		t.Fatal(err)
	}
	lines[3] = strings.TrimSuffix(b.String(), "\n")
	rep, err := VerifyExport(t.Context(), strings.NewReader(strings.Join(lines, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	p := find(t, rep.Problems, "R-PLAY-2")
	if p.Line != 3 || p.Deal != 2 || p.Decision != k {
		t.Errorf("problem %q, want line 3, deal 2, decision %d", p, k)
	}
	p = find(t, rep.Problems, "R-POT")
	if p.Line != 4 || p.Deal != 3 {
		t.Errorf("problem %q, want line 4, deal 3", p)
	}
	if rep.Err() == nil || !strings.Contains(rep.Err().Error(), "in 2 of 4 deal(s)") {
		t.Errorf("Err() = %v, want problems in 2 of 4 deals", rep.Err())
	}
}

// memStore is a Store over records in memory; deal numbers in broken cannot be read.
type memStore struct {
	m      *domain.Match
	deals  []domain.DealRecord
	broken map[int]bool
}

func (s *memStore) GetMatch(_ context.Context, id string) (*domain.Match, error) {
	if id != s.m.ID {
		return nil, domain.ErrNotFound
	}
	return s.m, nil
}

func (s *memStore) Deal(_ context.Context, id string, n int) (*domain.DealRecord, error) {
	if s.broken[n] {
		return nil, errors.New("stored deal \"CA CA\": card CA appears twice")
	}
	for i := range s.deals {
		if s.deals[i].Number == n {
			return &s.deals[i], nil
		}
	}
	return nil, fmt.Errorf("deal %d: %w", n, domain.ErrNotFound)
}

func (s *memStore) DealNumbers(context.Context, string) ([]int, error) {
	var ns []int
	for _, d := range s.deals {
		ns = append(ns, d.Number)
	}
	return ns, nil
}

func (s *memStore) RoundJobs(context.Context, string) ([]domain.Job, error) { return nil, nil }

// Chain says the deals were stored before chains were kept.
func (s *memStore) Chain(ctx context.Context, id string) (*domain.Chain, error) {
	ns, _ := s.DealNumbers(ctx, id)
	return &domain.Chain{Unchained: ns}, nil
}

func storeOf(m Match, recs []domain.DealRecord) *memStore {
	return &memStore{m: &domain.Match{ID: m.ID, Spec: domain.MatchSpec{Rules: m.Rules, Bots: m.Bots, Deals: len(recs),
		Seed: m.Seed, TimeControl: m.TimeControl}}, deals: recs}
}

func TestVerifyStored(t *testing.T) {
	t.Parallel()
	m, recs := play(t, "wuerttemberg", 5)
	st := storeOf(m, recs)
	ctx := context.Background()
	rep, err := VerifyStored(ctx, st, m.ID)
	if err != nil || !rep.OK() || rep.Deals != 5 {
		t.Fatalf("VerifyStored = %+v, %v; want 5 deals and no problem", rep, err)
	}
	st.broken = map[int]bool{3: true}
	rep, err = VerifyStored(ctx, st, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	if p := find(t, rep.Problems, RecUnreadable); p.Deal != 3 {
		t.Errorf("problem %q, want deal 3", p)
	}
	if _, err := VerifyStored(ctx, st, "nope"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("VerifyStored(unknown match) = %v, want ErrNotFound", err)
	}
}

// An answer that came after its request was over is recorded, refused, after the accepted
// one: the record is still sound. Two accepted answers are not.
func TestVerifyAcceptsLateRefusedAnswers(t *testing.T) {
	t.Parallel()
	m, recs := play(t, "modern", 1)
	rec := clone(recs[0])
	d := &rec.Decisions[0]
	d.Attempts = append(d.Attempts, domain.AnswerAttempt{Text: d.Action.String(), After: time.Second,
		Rejected: "request r1 is over: it was answered, or its deadline passed and the fallback was played"})
	if ps := VerifyDeal(m, &rec); len(ps) != 0 {
		t.Errorf("a late refused answer: problems %v, want none", ps)
	}
	d.Attempts[len(d.Attempts)-1].Rejected = ""
	if p := find(t, VerifyDeal(m, &rec), RecDecision); !strings.Contains(p.Msg, "two accepted answers") {
		t.Errorf("two accepted answers: %q", p)
	}
}

// A match played in process with --no-records keeps each decision without its request and
// answer; such a deal verifies, and one whose unrecorded decisions are wrong is still caught.
func TestVerifyAcceptsUnrecordedDecisions(t *testing.T) {
	t.Parallel()
	m, recs := play(t, "modern", 2)
	for i := range recs {
		rec := clone(recs[i])
		for k := range rec.Decisions {
			rec.Decisions[k].Attempts, rec.Decisions[k].Sent, rec.Decisions[k].SentFromState = nil, nil, false
		}
		if ps := VerifyDeal(m, &rec); len(ps) != 0 {
			t.Errorf("deal %d unrecorded: problems %v, want none", rec.Number, ps)
		}
		rec.Decisions[0].Seat = (rec.Decisions[0].Seat + 1) % engine.Seat(len(rec.Seating))
		find(t, VerifyDeal(m, &rec), RecDecision)
		rec = clone(recs[i])
		rec.Decisions[0].Attempts = nil // the answer alone taken out: the request is still there
		if p := find(t, VerifyDeal(m, &rec), RecDecision); !strings.Contains(p.Msg, "no accepted answer") {
			t.Errorf("deal %d without its answer: %q", rec.Number, p)
		}
	}
}

// A stored deal's requests are rebuilt from its compact record; verifying it checks them
// against the digest of the requests as sent, on every variant, and a digest that does not
// match (a build that rebuilds them otherwise, or a damaged record) is a REC-SENT problem.
func TestVerifyStoredProvesTheRebuiltRequests(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "tapp.db")
	st, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var ids []string
	for _, text := range ruleSets {
		m, recs := play(t, text, 3)
		if slices.Contains(ids, m.ID) { // play names matches by the length of their rules
			continue
		}
		am := &domain.Match{ID: m.ID, Spec: domain.MatchSpec{Rules: m.Rules, Bots: m.Bots, Deals: len(recs), Seed: m.Seed,
			TimeControl: m.TimeControl}}
		if err := match.Commit(am); err != nil {
			t.Fatal(err)
		}
		if err := st.CreateMatch(ctx, am); err != nil {
			t.Fatal(err)
		}
		for i := range recs {
			if err := st.SaveDeal(ctx, &recs[i]); err != nil {
				t.Fatal(err)
			}
		}
		rep, err := VerifyStored(ctx, st, m.ID)
		if err != nil || !rep.OK() || rep.Deals != len(recs) {
			t.Fatalf("%s: VerifyStored = %+v, %v; want %d deals and no problem", text, rep, err, len(recs))
		}
		got, err := st.Deal(ctx, m.ID, 1)
		if err != nil || got.SentDigest == nil {
			t.Fatalf("%s: Deal = %v; want a deal with its requests' digest", text, err)
		}
		ids = append(ids, m.ID)
	}

	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// Byte 1 of a compact record is the first byte of its digest.
	var record []byte
	if err := db.QueryRowContext(ctx, `SELECT record FROM deals WHERE match_id = ? AND number = 1`, ids[0]).Scan(&record); err != nil {
		t.Fatal(err)
	}
	record[1] ^= 1
	if _, err := db.ExecContext(ctx, `UPDATE deals SET record = ? WHERE match_id = ? AND number = 1`, record, ids[0]); err != nil {
		t.Fatal(err)
	}
	rep, err := VerifyStored(ctx, st, ids[0])
	if err != nil {
		t.Fatal(err)
	}
	// The record is not the one stored either: the chain breaks at it.
	if p := find(t, rep.Problems, RecSent); p.Deal != 1 || p.Decision != -1 || len(rep.Problems) != 2 {
		t.Errorf("problems %v, want one REC-SENT and one REC-CHAIN for deal 1", rep.Problems)
	}
	if p := find(t, rep.Problems, RecChain); p.Deal != 1 {
		t.Errorf("problem %v, want REC-CHAIN for deal 1", p)
	}
}
