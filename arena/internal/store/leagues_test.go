package store

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/league/queuetest"
)

func TestLeagueScheduleIsIdempotent(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		queuetest.Schedule(t, s)
		queuetest.Schedule(t, s) // a second host schedules the same round
		l, err := s.EnsureLeague(ctx, &domain.League{ID: "L", Plan: `{"other":1}`})
		if err != nil || l.Plan != `{"x":1}` || l.Status != domain.LeagueRunning {
			t.Errorf("EnsureLeague of an existing league = %+v, %v; want the stored plan, running", l, err)
		}
		lms, err := s.LeagueMatches(ctx, "L")
		if err != nil || len(lms) != 2 || lms[1].MatchID != "L-r0-m1" {
			t.Errorf("LeagueMatches = %+v, %v", lms, err)
		}
		counts, err := s.RoundCounts(ctx, "L")
		want := []domain.RoundCounts{{Round: 0, Available: 4, DealsPlanned: 24}}
		if err != nil || !reflect.DeepEqual(counts, want) {
			t.Errorf("RoundCounts = %+v, %v; want %+v", counts, err, want)
		}
		if err := s.SetLeagueStatus(ctx, "L", domain.LeagueStopped); err != nil {
			t.Fatal(err)
		}
		if ls, err := s.ListLeagues(ctx); err != nil || len(ls) != 1 || ls[0].Status != domain.LeagueStopped {
			t.Errorf("ListLeagues = %+v, %v", ls, err)
		}
		if err := s.SetLeagueStatus(ctx, "nope", domain.LeagueStopped); !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("SetLeagueStatus(unknown) = %v, want ErrNotFound", err)
		}
	})
}
