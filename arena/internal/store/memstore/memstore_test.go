package memstore_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/store/memstore"
	"github.com/tapparena/tapp/arena/internal/league/queuetest"
	"github.com/tapparena/tapp/engine"
)

// The in-memory queue keeps the contract of the SQL ones (arena/store runs the same suite).
func TestMemoryQueueConformance(t *testing.T) {
	t.Parallel()
	queuetest.Run(t, func(*testing.T) queuetest.Store { return memstore.New() })
}

// Results lists by match (as they started), deal and seat, like the SQL store, whatever the
// order the deals were stored in.
func TestMemoryResultsOrder(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := memstore.New()
	rules, err := engine.ParseRuleSet("modern players=3")
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)
	late := &domain.Match{ID: "a-late", Spec: domain.MatchSpec{Rules: rules, Bots: []string{"x", "y", "z"}}, Started: start.Add(time.Minute)}
	early := &domain.Match{ID: "b-early", Spec: domain.MatchSpec{Rules: rules, Bots: []string{"x", "y", "z"}}, Started: start}
	for _, m := range []*domain.Match{late, early} {
		if err := s.CreateMatch(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	save := func(m *domain.Match, n int) {
		t.Helper()
		d := &domain.DealRecord{MatchID: m.ID, Number: n, Seating: m.Spec.Bots}
		d.Results = domain.ResultsOf(d.Seating, engine.Outcome{Declarer: engine.NoSeat})
		if err := s.SaveDeal(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
	save(late, 0)
	save(early, 1)
	save(early, 0)
	type key struct {
		match string
		deal  int
		seat  engine.Seat
	}
	var want []key
	for _, k := range []key{{"b-early", 0, 0}, {"b-early", 1, 0}, {"a-late", 0, 0}} {
		for seat := range engine.Seat(3) {
			want = append(want, key{k.match, k.deal, seat})
		}
	}
	for _, limit := range []int{0, 4} {
		rows, err := s.Results(ctx, domain.MatchFilter{Limit: limit})
		if err != nil {
			t.Fatal(err)
		}
		var got []key
		for _, r := range rows {
			got = append(got, key{r.MatchID, r.Deal, r.Seat})
		}
		w := want
		if limit > 0 {
			w = want[:limit]
		}
		if !reflect.DeepEqual(got, w) {
			t.Errorf("Results(limit %d) = %v, want %v", limit, got, w)
		}
	}
}
