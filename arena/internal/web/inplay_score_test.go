package web

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/match"
	"github.com/tapparena/tapp/arena/internal/store"
	"github.com/tapparena/tapp/engine"
	viewv1 "github.com/tapparena/tapp/proto/tapp/view/v1"
)

// playTable plays table tb of match m with random legal moves and returns its record.
func playTable(t testing.TB, m *domain.Match, tb match.Table, rng *engine.Rand) *domain.DealRecord {
	t.Helper()
	rules := m.Spec.Rules
	s, err := engine.NewState(rules, tb.Deal, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rec := &domain.DealRecord{MatchID: m.ID, Number: tb.Number, Group: tb.Group, Seating: tb.Seating, Deal: tb.Deal, Started: time.Now()}
	var legal []engine.Action
	for !s.Terminal() {
		legal = s.LegalActions(legal[:0])
		a := legal[rng.IntN(len(legal))]
		seat := s.ToMove()
		rec.Decisions = append(rec.Decisions, domain.DecisionRecord{Index: len(rec.Moves), Seat: seat, Bot: tb.Seating[seat],
			Decision: s.Decision(), RequestID: fmt.Sprintf("r%d", len(rec.Moves)), Action: a, Latency: 300 * time.Microsecond,
			Attempts: []domain.AnswerAttempt{{Text: a.String(), After: 300 * time.Microsecond}}})
		rec.Moves = append(rec.Moves, engine.Move{Seat: seat, Action: a})
		if err := s.Apply(a); err != nil {
			t.Fatal(err)
		}
	}
	rec.Outcome = s.Outcome()
	for seat, bot := range tb.Seating {
		rec.Results = append(rec.Results, domain.SeatResult{Bot: bot, Seat: engine.Seat(seat), Payoff: rec.Outcome.Payoff[seat],
			Points: rec.Outcome.Points[seat], Tricks: rec.Outcome.Tricks[seat], Declarer: rec.Outcome.Declarer == engine.Seat(seat)})
	}
	return rec
}

// The replay's running score (the match's score before the deal) and the live view's net
// leave out a stored deal whose cards are still in play at another table of its duplicate
// group, as GetMatch leaves it out of the match's net: its payoffs would tell its settlement.
func TestScoresLeaveOutDealsStillInPlay(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "inplay.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	bots := []string{"a", "b", "c"}
	for _, name := range bots {
		if err := st.CreateBot(ctx, &domain.Bot{Name: name, TokenHash: []byte("t-" + name)}); err != nil {
			t.Fatal(err)
		}
	}
	spec := domain.MatchSpec{Rules: engine.DefaultRules(engine.Modern), Bots: bots, Deals: 3, Duplicate: true, Seed: 7,
		TimeControl: domain.DefaultTimeControl}
	m := &domain.Match{Spec: spec, Status: domain.MatchRunning, Started: time.Now()}
	if err := st.CreateMatch(ctx, m); err != nil {
		t.Fatal(err)
	}
	tables, err := match.Plan(spec)
	if err != nil {
		t.Fatal(err)
	}
	per := 0
	for _, tb := range tables {
		if tb.Group == 0 {
			per++
		}
	}
	if per < 2 {
		t.Fatalf("a duplicate group of %d tables", per)
	}
	// Group 0 all stored but its last table (still in play); groups 1 and 2 stored whole.
	rng := engine.NewRand(1, 2)
	var recs []*domain.DealRecord
	open := map[int]bool{}
	for _, tb := range tables {
		if tb.Group == 0 && tb.Number == per-1 {
			continue
		}
		recs = append(recs, playTable(t, m, tb, rng))
		open[tb.Number] = tb.Group != 0
	}
	if err := st.SaveDeals(ctx, recs); err != nil {
		t.Fatal(err)
	}
	last := recs[len(recs)-1]
	want, counted := map[string]int64{}, 0
	for _, r := range recs[:len(recs)-1] {
		if !open[r.Number] {
			continue
		}
		counted++
		for _, res := range r.Results {
			want[res.Bot] += int64(res.Payoff)
		}
	}
	v := NewView(st, nil, nil)
	resp, err := v.GetReplay(ctx, &viewv1.GetReplayRequest{MatchId: m.ID, DealNumber: int32(last.Number), View: "full"})
	if err != nil {
		t.Fatal(err)
	}
	if int(resp.DealsBefore) != counted {
		t.Errorf("the score before deal %d counts %d deals, want %d (the %d still in play left out)", last.Number, resp.DealsBefore, counted, per-1)
	}
	for i, b := range resp.Seating {
		if resp.ScoreBefore[i] != want[b] {
			t.Errorf("%s's score before deal %d is %d, want %d", b, last.Number, resp.ScoreBefore[i], want[b])
		}
	}
	if _, err := v.GetReplay(ctx, &viewv1.GetReplayRequest{MatchId: m.ID, DealNumber: 0, View: "full"}); err == nil {
		t.Error("deal 0, whose group is still in play, opened")
	}
	// The live view's score: every stored deal played, the net over the open ones only.
	for _, res := range last.Results {
		want[res.Bot] += int64(res.Payoff)
	}
	sched, err := v.schedule(ctx, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	played, net, err := v.liveScore(ctx, m, sched, nil)
	if err != nil {
		t.Fatal(err)
	}
	if played != len(recs) {
		t.Errorf("the live score counts %d deals played, want %d", played, len(recs))
	}
	for _, b := range bots {
		if net[b] != want[b] {
			t.Errorf("%s's live net is %d, want %d (the deals still in play left out)", b, net[b], want[b])
		}
	}
}
