package storetest

import (
	"cmp"
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/engine"
)

// Results lists every seat's result of the deals a filter selects: by match (in the order the
// matches started, then by id), deal and seat, with the match's league and rule set.
func testResults(t *testing.T, s Store) {
	ctx := context.Background()
	m1 := NewMatch(t, s, "L1", "a", "b", "c")
	m2 := NewMatch(t, s, "L2", "b", "c", "d")
	// m0 started first though it is stored last.
	m0 := &domain.Match{ID: "m0", Started: m1.Started.Add(-time.Hour), Spec: m1.Spec}
	m0.Spec.LeagueID, m0.Spec.Bots = "", []string{"d", "e", "a"}
	if err := s.CreateMatch(ctx, m0); err != nil {
		t.Fatal(err)
	}
	for _, d := range []struct {
		m *domain.Match
		n int
	}{{m1, 6}, {m2, 0}, {m1, 0}, {m0, 1}} {
		if err := s.SaveDeal(ctx, SampleDeal(t, d.m, d.n, 2, 10)); err != nil {
			t.Fatalf("SaveDeal: %v", err)
		}
	}

	all, err := s.Results(ctx, domain.MatchFilter{})
	if err != nil {
		t.Fatalf("Results: %v", err)
	}
	type key struct {
		match string
		deal  int
		seat  engine.Seat
	}
	var got []key
	for _, r := range all {
		got = append(got, key{r.MatchID, r.Deal, r.Seat})
	}
	ms := []*domain.Match{m0, m1, m2}
	slices.SortFunc(ms, func(a, b *domain.Match) int {
		return cmp.Or(a.Started.Compare(b.Started), strings.Compare(a.ID, b.ID))
	})
	var want []key
	for _, m := range ms {
		for _, n := range map[string][]int{m0.ID: {1}, m1.ID: {0, 6}, m2.ID: {0}}[m.ID] {
			for seat := range engine.Seat(3) {
				want = append(want, key{m.ID, n, seat})
			}
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Results order = %v, want by match, deal and seat %v", got, want)
	}
	wantRow := domain.ResultRow{MatchID: m1.ID, LeagueID: "L1", Deal: 6, Group: 1, Rules: m1.Spec.Rules.String(),
		SeatResult: domain.SeatResult{Bot: "b", Seat: 1, Payoff: -5, Points: 30, Tricks: 3}}
	if i := slices.Index(got, key{m1.ID, 6, 1}); i < 0 || !reflect.DeepEqual(all[i], wantRow) {
		t.Errorf("Results has %+v at %d, want %+v", all[max(i, 0)], i, wantRow)
	}
	for _, limit := range []int{1, 4, 11, len(all)} {
		part, err := s.Results(ctx, domain.MatchFilter{Limit: limit})
		if err != nil || !reflect.DeepEqual(part, all[:limit]) {
			t.Errorf("Results with limit %d = %d rows, %v; want the first %d", limit, len(part), err, limit)
		}
	}

	for _, c := range []struct {
		f    domain.MatchFilter
		want int
	}{
		{domain.MatchFilter{LeagueID: "L1"}, 6},
		{domain.MatchFilter{LeagueID: "L2"}, 3},
		{domain.MatchFilter{Bot: "a"}, 9}, // every seat of the matches a played in
		{domain.MatchFilter{Bot: "d"}, 6},
		{domain.MatchFilter{Bot: "b"}, 9},
		{domain.MatchFilter{Rules: Rules(t, "classic").String()}, 0},
		{domain.MatchFilter{Rules: Rules(t, "modern").String()}, 12},
		{domain.MatchFilter{Since: m1.Started}, 9},
		{domain.MatchFilter{Limit: 4}, 4},
		{domain.MatchFilter{MatchID: m2.ID}, 3},
		{domain.MatchFilter{MatchID: m1.ID, Bot: "a"}, 6},
		{domain.MatchFilter{MatchID: m1.ID, Bot: "d"}, 0},
	} {
		rows, err := s.Results(ctx, c.f)
		if err != nil {
			t.Fatalf("Results(%+v): %v", c.f, err)
		}
		if len(rows) != c.want {
			t.Errorf("Results(%+v) = %d rows, want %d", c.f, len(rows), c.want)
		}
	}
}
