package store

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/tapparena/tapp/arena"
)

// scheduleTestLeague stores league L with one round of two duplicate matches of 2 groups
// (6 deals each), one job per group, and returns the matches.
func scheduleTestLeague(t *testing.T, s *Store) []*arena.Match {
	t.Helper()
	ctx := context.Background()
	if _, err := s.EnsureLeague(ctx, &arena.League{ID: "L", Plan: `{"x":1}`}); err != nil {
		t.Fatalf("EnsureLeague: %v", err)
	}
	var places []arena.LeagueMatch
	var matches []*arena.Match
	var jobs []arena.Job
	for i := range 2 {
		m := &arena.Match{ID: fmt.Sprintf("L-r0-m%d", i), Spec: arena.MatchSpec{
			Rules: testRules(t), Bots: []string{"a", "b", "c"}, Deals: 2, Seed: 7, Duplicate: true,
			TimeControl: arena.DefaultTimeControl, LeagueID: "L",
		}}
		matches = append(matches, m)
		places = append(places, arena.LeagueMatch{LeagueID: "L", Seq: i, Round: 0, MatchID: m.ID})
		for g := range 2 {
			jobs = append(jobs, arena.Job{LeagueID: "L", Round: 0, MatchID: m.ID, FirstGroup: g, Groups: 1, Deals: 6})
		}
	}
	if err := s.ScheduleRound(ctx, places, matches, jobs); err != nil {
		t.Fatalf("ScheduleRound: %v", err)
	}
	return matches
}

func TestLeagueScheduleIsIdempotent(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		scheduleTestLeague(t, s)
		scheduleTestLeague(t, s) // a second host schedules the same round
		l, err := s.EnsureLeague(ctx, &arena.League{ID: "L", Plan: `{"other":1}`})
		if err != nil || l.Plan != `{"x":1}` || l.Status != arena.LeagueRunning {
			t.Errorf("EnsureLeague of an existing league = %+v, %v; want the stored plan, running", l, err)
		}
		lms, err := s.LeagueMatches(ctx, "L")
		if err != nil || len(lms) != 2 || lms[1].MatchID != "L-r0-m1" {
			t.Errorf("LeagueMatches = %+v, %v", lms, err)
		}
		counts, err := s.RoundCounts(ctx, "L")
		want := []arena.RoundCounts{{Round: 0, Available: 4, DealsPlanned: 24}}
		if err != nil || !reflect.DeepEqual(counts, want) {
			t.Errorf("RoundCounts = %+v, %v; want %+v", counts, err, want)
		}
		if err := s.SetLeagueStatus(ctx, "L", arena.LeagueStopped); err != nil {
			t.Fatal(err)
		}
		if ls, err := s.ListLeagues(ctx); err != nil || len(ls) != 1 || ls[0].Status != arena.LeagueStopped {
			t.Errorf("ListLeagues = %+v, %v", ls, err)
		}
		if err := s.SetLeagueStatus(ctx, "nope", arena.LeagueStopped); !errors.Is(err, arena.ErrNotFound) {
			t.Errorf("SetLeagueStatus(unknown) = %v, want ErrNotFound", err)
		}
	})
}
