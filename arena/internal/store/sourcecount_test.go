package store

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/board"
	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/store/storetest"
)

// Every deal source's row counts its cells (rating_sources.cells is what tells the writer of
// a unit whether to read the source's cells): after a league of new sources, duplicate groups
// replayed by the same composition and by another, batches and concurrent writers, and one
// more match replaying stored sources in one batch, the count of each source is the number of
// its cells, and the board is what the raw results say.
func TestDealSourcesCountTheirCells(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := openTest(t, b.newDSN(t))
		storeLeagueOfSyntheticDeals(t, s)
		m := &domain.Match{Spec: domain.MatchSpec{Rules: mustRules(t, "modern"), Bots: []string{"c", "a", "d"}, Deals: 6 * 4,
			Seed: seedOf("L", 0), Duplicate: true, LeagueID: "L", TimeControl: domain.DefaultTimeControl},
			Started: time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)}
		if err := s.CreateMatch(ctx, m); err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(7, 7))
		var batch []*domain.DealRecord
		for n := range m.Spec.Deals {
			batch = append(batch, storetest.RatedDeal(m, n, rng, 0))
		}
		if err := s.SaveDeals(ctx, batch); err != nil {
			t.Fatal(err)
		}
		rows, err := s.r.QueryContext(ctx, `SELECT x.source, x.cells, (SELECT COUNT(*) FROM rating_cells c
	WHERE c.scope = x.scope AND c.source = x.source) FROM rating_sources x ORDER BY x.scope, x.source`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		sources, many := 0, 0
		for rows.Next() {
			var source string
			var count, cells int64
			if err := rows.Scan(&source, &count, &cells); err != nil {
				t.Fatal(err)
			}
			if count != cells {
				t.Errorf("deal source %s counts %d cells, has %d", source, count, cells)
			}
			sources++
			if cells > 1 {
				many++
			}
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		if sources == 0 || many == 0 {
			t.Fatalf("%d deal sources, %d of them with more than one cell: the test shows no count", sources, many)
		}
		for _, f := range []domain.MatchFilter{{}, {LeagueID: "L"}} {
			if got, raw := boardJSON(t, s, f, board.LoadOptions{}), boardJSON(t, s, f, board.LoadOptions{Recompute: true}); got != raw {
				t.Errorf("filter %+v: board:\n%s\nfrom raw results:\n%s", f, got, raw)
			}
		}
	})
}
