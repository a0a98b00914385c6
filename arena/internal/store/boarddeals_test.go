package store

import (
	"context"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
)

// A standing ladder's own league row plays nothing; its epochs play onto its board. Its deal
// count (what tapp league list and the dashboard's league list show) is its board's: the
// deals of its epochs, those stored before schema version 31 (counted by the migration) and
// those stored after (counted as they are stored). The epochs and a league of its own keep
// their own counts, and LeagueDeals (which tapp db check compares with the stored deals)
// still counts the league's own matches only.
func TestALaddersRowCountsTheDealsOnItsBoard(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		dsn := b.newDSN(t)
		old, err := open(ctx, dsn, boardDealsSchema-1)
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range []string{"club", "club.e1", "club.e2", "other"} {
			if _, err := old.EnsureLeague(ctx, &domain.League{ID: id, Plan: "{}"}); err != nil {
				t.Fatal(err)
			}
		}
		match := func(s *Store, id, league, board string) *domain.Match {
			t.Helper()
			m := &domain.Match{ID: id, Spec: domain.MatchSpec{Rules: mustRules(t, "modern"), Bots: []string{"a", "b", "c"}, Deals: 8, Seed: 1,
				TimeControl: domain.DefaultTimeControl, LeagueID: league, Board: board}, Status: domain.MatchRunning, Started: time.Now()}
			if err := s.CreateMatch(ctx, m); err != nil {
				t.Fatal(err)
			}
			return m
		}
		save := func(s *Store, m *domain.Match, from, to int) {
			t.Helper()
			var ds []*domain.DealRecord
			for n := from; n < to; n++ {
				ds = append(ds, totalsDeal(t, m, n))
			}
			if err := s.SaveDeals(ctx, ds); err != nil {
				t.Fatal(err)
			}
		}
		e1 := match(old, "e1-m", "club.e1", "club")
		save(old, e1, 0, 3)
		mine := match(old, "other-m", "other", "")
		save(old, mine, 0, 2)
		old.Close()

		s := openTest(t, dsn)
		check := func(when string, want map[string][2]int) {
			t.Helper()
			for id, w := range want {
				board, err := s.BoardDeals(ctx, id)
				if err != nil {
					t.Fatal(err)
				}
				own := mustLeagueDeals(t, s, id)
				if board != w[0] || own != w[1] {
					t.Errorf("%s: league %s has %d deals on its board and %d of its own, want %d and %d", when, id, board, own, w[0], w[1])
				}
			}
		}
		check("after the migration", map[string][2]int{"club": {3, 0}, "club.e1": {3, 3}, "other": {2, 2}})
		save(s, e1, 3, 5)
		e2 := match(s, "e2-m", "club.e2", "club")
		save(s, e2, 0, 4)
		save(s, mine, 2, 3)
		check("after more deals", map[string][2]int{"club": {9, 0}, "club.e1": {5, 5}, "club.e2": {4, 4}, "other": {3, 3}})
		if n, err := s.BoardDeals(ctx, "nosuch"); err != nil || n != 0 {
			t.Errorf("BoardDeals of no league = %d, %v; want 0", n, err)
		}
	})
}
