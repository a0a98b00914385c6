package storetest

import (
	"context"
	"reflect"
	"testing"

	"github.com/tapparena/tapp/arena/internal/domain"
)

// The league's running totals, kept as deals are stored: what the league's schedule and its
// SPRT read as they go.

// The league's units are running totals of the deals stored, per unit (here: duplicate
// group), with each bot's net by its position in the match, read from a round on.
func testLeagueUnits(t *testing.T, s Store) {
	ctx := context.Background()
	ms := Schedule(t, s)
	jobs, err := s.Claim(ctx, "L", "w", 4, lease)
	if err != nil || len(jobs) != 4 {
		t.Fatalf("Claim = %+v, %v", jobs, err)
	}
	var items []domain.JobDeal
	for n := range 8 { // group 0 of match 0 complete, group 1 two deals in
		items = append(items, domain.JobDeal{Deal: leagueDeal(ms[0], n), JobID: jobs[n/6].ID})
	}
	if err := s.SaveJobDeals(ctx, items); err != nil {
		t.Fatal(err)
	}
	for n := range 3 {
		if _, err := s.SaveJobDeal(ctx, leagueDeal(ms[1], n), jobs[2].ID); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.LeagueUnits(ctx, "L", 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []domain.LeagueUnit{
		{Round: 0, MatchID: ms[0].ID, Group: 0, Deals: 6, Net: []int64{60, -30, -30}},
		{Round: 0, MatchID: ms[0].ID, Group: 1, Deals: 2, Net: []int64{20, -10, -10}},
		{Round: 0, MatchID: ms[1].ID, Group: 0, Deals: 3, Net: []int64{30, -15, -15}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("LeagueUnits from round 0 = %+v, want %+v", got, want)
	}
	if later, err := s.LeagueUnits(ctx, "L", 1); err != nil || len(later) != 0 {
		t.Errorf("LeagueUnits from round 1 = %+v, %v; want none", later, err)
	}
}

// LeagueSeats counts each bot's seats in the matches of a range of schedule positions only.
func testLeagueSeats(t *testing.T, s Store) {
	ctx := context.Background()
	Schedule(t, s)
	m := &domain.Match{ID: "L-r1-m0", Spec: domain.MatchSpec{Rules: Rules(t, "modern"), Bots: []string{"a", "b", "d"}, Deals: 2, Seed: 7,
		TimeControl: domain.DefaultTimeControl, LeagueID: "L"}}
	places := []domain.LeagueMatch{{LeagueID: "L", Seq: 2, Round: 1, MatchID: m.ID}}
	jobs := []domain.Job{{LeagueID: "L", Round: 1, MatchID: m.ID, FirstGroup: 0, Groups: 2, Deals: 2}}
	if err := s.ScheduleRound(ctx, places, []*domain.Match{m}, jobs); err != nil {
		t.Fatalf("ScheduleRound: %v", err)
	}
	for _, tc := range []struct {
		from, to int
		want     map[string]int
	}{
		{0, 2, map[string]int{"a": 2, "b": 2, "c": 2}},
		{1, 3, map[string]int{"a": 2, "b": 2, "c": 1, "d": 1}},
		{2, 3, map[string]int{"a": 1, "b": 1, "d": 1}},
		{3, 9, map[string]int{}},
	} {
		got, err := s.LeagueSeats(ctx, "L", tc.from, tc.to)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("LeagueSeats(%d, %d) = %v, want %v", tc.from, tc.to, got, tc.want)
		}
	}
}
