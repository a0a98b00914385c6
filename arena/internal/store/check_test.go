package store

import (
	"context"
	"strings"
	"testing"

	"github.com/tapparena/tapp/arena/internal/app"
	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/match"
	"github.com/tapparena/tapp/arena/internal/store/storetest"
)

// tapp db check's use case on either backend: a sound store has no problem; a stored deal
// changed under the store breaks its match's chain; the database engine's check says what it
// checked (PostgreSQL without amcheck: a note, not a silent pass).
func TestCheckStoreOnEachBackend(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := openTest(t, b.newDSN(t))
		m := &domain.Match{Spec: domain.MatchSpec{Rules: testRules(t), Bots: []string{"a", "b", "c"}, Deals: 1, Seed: 3,
			Duplicate: true, TimeControl: domain.DefaultTimeControl}}
		if err := match.Commit(m); err != nil {
			t.Fatal(err)
		}
		if err := s.CreateMatch(ctx, m); err != nil {
			t.Fatal(err)
		}
		for n := range 6 {
			if err := s.SaveDeal(ctx, storetest.SampleDeal(t, m, n, 8, 30)); err != nil {
				t.Fatal(err)
			}
		}
		m.Status = domain.MatchFinished
		if err := s.UpdateMatch(ctx, m); err != nil {
			t.Fatal(err)
		}
		c, err := app.CheckStore(ctx, s, nil)
		if err != nil || !c.OK() || c.Matches != 1 || c.Complete != 1 || c.Deals != 6 || c.Integrity.Method == "" {
			t.Fatalf("CheckStore of a sound store = %+v, %v", c, err)
		}
		if b.name == "postgres" && c.Integrity.Method == "none" && len(c.Integrity.Notes) == 0 {
			t.Error("PostgreSQL's pages unchecked without a note saying so")
		}
		if _, err := s.w.ExecContext(ctx, s.rebind(`UPDATE deals SET duration_us = duration_us + 1 WHERE match_id = ? AND number = 2`), m.ID); err != nil {
			t.Fatal(err)
		}
		c, err = app.CheckStore(ctx, s, nil)
		if err != nil || c.OK() || !strings.Contains(strings.Join(c.Problems, "\n"), "REC-CHAIN") {
			t.Errorf("CheckStore after a deal was changed = %+v, %v; want a REC-CHAIN problem", c, err)
		}
	})
}
