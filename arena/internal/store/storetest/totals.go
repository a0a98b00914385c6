package storetest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/engine"
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

// A league counts its scheduled and finished matches, and each bot's deals, decisions,
// strikes, fallbacks and forfeited deals, as rounds are scheduled and deals stored.
func testLeagueBotsAndMatchCounts(t *testing.T, s Store) {
	ctx := context.Background()
	ms := Schedule(t, s)
	Schedule(t, s) // scheduled again: nothing is counted twice
	counts := func(wantMatches, wantFinished int) {
		t.Helper()
		l, err := s.GetLeague(ctx, "L")
		if err != nil {
			t.Fatal(err)
		}
		if l.Matches != wantMatches || l.MatchesFinished != wantFinished {
			t.Errorf("league L: %d matches, %d finished; want %d, %d", l.Matches, l.MatchesFinished, wantMatches, wantFinished)
		}
	}
	counts(2, 0)
	jobs, err := s.Claim(ctx, "L", "w", 4, lease)
	if err != nil || len(jobs) != 4 {
		t.Fatalf("Claim = %+v, %v", jobs, err)
	}
	decide := func(d *domain.DealRecord, seat int, strike, fallback, asked bool) {
		x := domain.DecisionRecord{Index: len(d.Decisions), Seat: engine.Seat(seat), Bot: d.Seating[seat], Decision: engine.DecideCard,
			Strike: strike, Fallback: fallback, Action: mustAction(t, "HA")}
		if asked {
			x.RequestID = fmt.Sprintf("r%d", len(d.Decisions)+1)
		}
		d.Decisions = append(d.Decisions, x)
	}
	var items []domain.JobDeal
	for n := range 12 { // both groups of match 0: the match is finished
		d := leagueDeal(ms[0], n)
		decide(d, 0, false, false, true)
		decide(d, 1, false, false, true)
		decide(d, 2, false, false, true)
		if n == 3 {
			decide(d, 0, true, true, true)   // a: late, the fallback played
			decide(d, 1, false, true, false) // b: forfeited, played without asking …
			decide(d, 1, false, true, false) // … twice: one forfeited deal
		}
		items = append(items, domain.JobDeal{Deal: d, JobID: jobs[n/6].ID})
	}
	if err := s.SaveJobDeals(ctx, items); err != nil {
		t.Fatal(err)
	}
	other := leagueDeal(ms[1], 0)
	decide(other, 2, true, true, true)
	if _, err := s.SaveJobDeal(ctx, other, jobs[2].ID); err != nil {
		t.Fatal(err)
	}
	counts(2, 1)
	got, err := s.LeagueBots(ctx, "L")
	if err != nil {
		t.Fatal(err)
	}
	want := []domain.LeagueBot{
		{Bot: "a", Deals: 13, Decisions: 13, Strikes: 1, Fallbacks: 1},
		{Bot: "b", Deals: 13, Decisions: 14, Fallbacks: 2, Forfeited: 1},
		{Bot: "c", Deals: 13, Decisions: 13, Strikes: 1, Fallbacks: 1},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("LeagueBots = %+v, want %+v", got, want)
	}
	if none, err := s.LeagueBots(ctx, "nobody"); err != nil || len(none) != 0 {
		t.Errorf("LeagueBots of an unknown league = %+v, %v; want none", none, err)
	}
}

// A league is paused and resumed; pausing an unknown league is domain.ErrNotFound.
func testLeaguePause(t *testing.T, s Store) {
	ctx := context.Background()
	Schedule(t, s)
	paused := func(want bool) {
		t.Helper()
		l, err := s.GetLeague(ctx, "L")
		if err != nil {
			t.Fatal(err)
		}
		ls, err := s.ListLeagues(ctx)
		if err != nil || len(ls) != 1 {
			t.Fatalf("ListLeagues = %+v, %v", ls, err)
		}
		if l.Paused != want || ls[0].Paused != want {
			t.Errorf("league L paused: GetLeague %v, ListLeagues %v; want %v", l.Paused, ls[0].Paused, want)
		}
	}
	paused(false)
	if err := s.SetLeaguePaused(ctx, "L", true); err != nil {
		t.Fatal(err)
	}
	paused(true)
	if err := s.SetLeaguePaused(ctx, "L", false); err != nil {
		t.Fatal(err)
	}
	paused(false)
	if err := s.SetLeaguePaused(ctx, "nobody", true); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("SetLeaguePaused of an unknown league: %v, want ErrNotFound", err)
	}
}
