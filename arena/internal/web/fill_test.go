package web

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/store"
	"github.com/tapparena/tapp/engine"
)

// perMatch is the number of deals of each match fillRandomDeals stores.
const perMatch = 10000

// fillRandomDeals makes sure the store holds at least n deals of random legal modern play in
// matches of perMatch deals each, and returns one match's id.
func fillRandomDeals(b testing.TB, ctx context.Context, st *store.Store, n int) string {
	b.Helper()
	rules := engine.DefaultRules(engine.Modern)
	bots := []string{"a", "b", "c"}
	for _, name := range bots {
		_ = st.CreateBot(ctx, &domain.Bot{Name: name, TokenHash: []byte("bench-" + name)})
	}
	var first string
	have := 0
	ms, err := st.ListMatches(ctx, domain.MatchFilter{})
	if err != nil {
		b.Fatal(err)
	}
	for _, m := range ms {
		nums, _ := st.DealNumbers(ctx, m.ID)
		have += len(nums)
		first = m.ID
	}
	rng := engine.NewRand(42, uint64(have))
	var legal []engine.Action
	for have < n {
		spec := domain.MatchSpec{Rules: rules, Bots: bots, Deals: perMatch, Seed: uint64(have), TimeControl: domain.DefaultTimeControl}
		m := &domain.Match{Spec: spec, Status: domain.MatchFinished, Started: time.Now()}
		if err := st.CreateMatch(ctx, m); err != nil {
			b.Fatal(err)
		}
		first = m.ID
		batch := make([]*domain.DealRecord, 0, 256)
		for k := 0; k < perMatch && have < n; k++ {
			deal := engine.DealFromSeed(rules, spec.Seed, uint64(k))
			s, err := engine.NewState(rules, deal, engine.Options{})
			if err != nil {
				b.Fatal(err)
			}
			rec := &domain.DealRecord{MatchID: m.ID, Number: k, Group: k, Seating: bots, Deal: deal, Started: time.Now()}
			for !s.Terminal() {
				legal = s.LegalActions(legal[:0])
				a := legal[rng.IntN(len(legal))]
				seat := s.ToMove()
				rec.Decisions = append(rec.Decisions, domain.DecisionRecord{Index: len(rec.Moves), Seat: seat, Bot: bots[seat],
					Decision: s.Decision(), RequestID: fmt.Sprintf("r%d", len(rec.Moves)), Action: a, Latency: 300 * time.Microsecond,
					Attempts: []domain.AnswerAttempt{{Text: a.String(), After: 300 * time.Microsecond}}})
				rec.Moves = append(rec.Moves, engine.Move{Seat: seat, Action: a})
				if err := s.Apply(a); err != nil {
					b.Fatal(err)
				}
			}
			rec.Outcome = s.Outcome()
			for seat := range bots {
				rec.Results = append(rec.Results, domain.SeatResult{Bot: bots[seat], Seat: engine.Seat(seat), Payoff: rec.Outcome.Payoff[seat],
					Points: rec.Outcome.Points[seat], Tricks: rec.Outcome.Tricks[seat], Declarer: rec.Outcome.Declarer == engine.Seat(seat)})
			}
			batch = append(batch, rec)
			have++
			if len(batch) == cap(batch) {
				if err := st.SaveDeals(ctx, batch); err != nil {
					b.Fatal(err)
				}
				batch = batch[:0]
			}
		}
		if len(batch) > 0 {
			if err := st.SaveDeals(ctx, batch); err != nil {
				b.Fatal(err)
			}
		}
		m.Finished = time.Now()
		if err := st.UpdateMatch(ctx, m); err != nil {
			b.Fatal(err)
		}
	}
	return first
}
