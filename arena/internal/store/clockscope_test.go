package store

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
)

// A match keeps whose clock it was played under and how the admission control ran it; a
// match stored before schema version 19 reads back as played: one clock per match.
func TestMatchKeepsItsClockScopeAndAdmission(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		dsn := b.newDSN(t)
		old, err := open(ctx, dsn, clockScopeSchema-1)
		if err != nil {
			t.Fatal(err)
		}
		spec := domain.MatchSpec{Rules: mustRules(t, "modern"), Bots: []string{"a", "b", "c"}, Deals: 4, Seed: 1,
			TimeControl: domain.DefaultTimeControl}
		before := &domain.Match{ID: "before", Spec: spec, Status: domain.MatchRunning, Started: time.Now()}
		if err := old.CreateMatch(ctx, before); err != nil {
			t.Fatal(err)
		}
		old.Close()

		s := openTest(t, dsn)
		perMatch := spec
		perMatch.TimeControl.Scope = domain.ClockPerMatch
		for _, m := range []*domain.Match{
			{ID: "game", Spec: spec, Status: domain.MatchRunning, Started: time.Now()},
			{ID: "match", Spec: perMatch, Status: domain.MatchRunning, Started: time.Now()},
		} {
			if err := s.CreateMatch(ctx, m); err != nil {
				t.Fatal(err)
			}
		}
		for id, want := range map[string]domain.ClockScope{"before": domain.ClockPerMatch, "game": "", "match": domain.ClockPerMatch} {
			m, err := s.GetMatch(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if m.Spec.TimeControl.Scope != want || m.Admission != nil {
				t.Errorf("match %s: clock scope %q, admission %+v; want %q and none", id, m.Spec.TimeControl.Scope, m.Admission, want)
			}
		}
		m, _ := s.GetMatch(ctx, "game")
		m.Status, m.Decisions = domain.MatchAborted, 10
		m.Admission = &domain.Admission{Asked: 200, Most: 200, Mean: 147.5, Fewest: 48, Lowered: 3, Pauses: 1, Paused: 2100 * time.Millisecond}
		if err := s.UpdateMatch(ctx, m); err != nil {
			t.Fatal(err)
		}
		back, err := s.GetMatch(ctx, "game")
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(back.Admission, m.Admission) {
			t.Errorf("admission read back %+v, want %+v", back.Admission, m.Admission)
		}
	})
}
