package store

import (
	"context"
	"fmt"
	"testing"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/store/storetest"
)

// A league's progress shows the deals it has planned from a total kept on its row (schema
// version 34), not from a sum over its jobs: the jobs scheduled before the version are summed
// once by the migration, those scheduled after are added as they are scheduled, a round that
// a second host schedules again adds nothing, and a store still at the older schema (read
// only, as tapp reads a database it may not migrate) sums the jobs as before.
func TestALeaguesPlannedDealsAreKeptOnItsRow(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		dsn := b.newDSN(t)
		old, err := open(ctx, dsn, plannedDealsSchema-1)
		if err != nil {
			t.Fatal(err)
		}
		storetest.Schedule(t, old) // league L: 4 jobs of 6 deals
		scheduleJobs(t, old, "K", 0, 3, 5)
		want := map[string]int{"L": 24, "K": 15, "nosuch": 0}
		checkPlanned(t, old, "at schema 33", want)
		old.Close()

		s := openTest(t, dsn)
		checkPlanned(t, s, "after the migration", want)
		scheduleJobs(t, s, "K", 1, 2, 4)
		scheduleJobs(t, s, "K", 1, 2, 4) // a second host schedules the same round
		storetest.Schedule(t, s)
		want["K"] += 8
		checkPlanned(t, s, "after another round", want)
	})
}

// scheduleJobs schedules round of league (creating it): one match of jobs jobs of deals deals.
func scheduleJobs(t *testing.T, s *Store, league string, round, jobs, deals int) {
	t.Helper()
	ctx := context.Background()
	if _, err := s.EnsureLeague(ctx, &domain.League{ID: league, Plan: "{}"}); err != nil {
		t.Fatal(err)
	}
	m := &domain.Match{ID: fmt.Sprintf("%s-r%d", league, round), Spec: domain.MatchSpec{Rules: mustRules(t, "modern"),
		Bots: []string{"a", "b", "c"}, Deals: jobs, Seed: 1, TimeControl: domain.DefaultTimeControl, LeagueID: league}}
	var js []domain.Job
	for g := range jobs {
		js = append(js, domain.Job{LeagueID: league, Round: round, MatchID: m.ID, FirstGroup: g, Groups: 1, Deals: deals})
	}
	places := []domain.LeagueMatch{{LeagueID: league, Seq: round, Round: round, MatchID: m.ID}}
	if err := s.ScheduleRound(ctx, places, []*domain.Match{m}, js); err != nil {
		t.Fatal(err)
	}
}

func checkPlanned(t *testing.T, s *Store, when string, want map[string]int) {
	t.Helper()
	for league, n := range want {
		jt, err := s.LeagueJobTotals(context.Background(), league)
		if err != nil || jt.DealsPlanned != n || jt.JobsRunning != 0 || jt.Waiting != (n > 0) {
			t.Errorf("%s: LeagueJobTotals(%s) = %+v, %v; want %d deals planned, none running, waiting: %v", when, league, jt, err, n, n > 0)
		}
	}
}
