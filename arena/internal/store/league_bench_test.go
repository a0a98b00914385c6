package store

import (
	"context"
	"testing"

	"github.com/tapparena/tapp/arena/internal/domain"
)

// BenchmarkSaveLeagueDeals is BenchmarkSaveDeals/batch=64 for the deals of a league's
// duplicate match, as a league stores them (with the league's running totals): what keeping
// the totals in the deal's transaction costs.
//
//	go test ./arena/internal/store -run '^$' -bench SaveLeagueDeals -benchtime 20000x -count 3
func BenchmarkSaveLeagueDeals(b *testing.B) {
	ctx := context.Background()
	s := openTest(b, sqliteBackend.newDSN(b))
	deals := benchDeals(b, s)
	if _, err := s.EnsureLeague(ctx, &domain.League{ID: "B", Plan: "{}"}); err != nil {
		b.Fatal(err)
	}
	m := &domain.Match{ID: "B-r0-m0", Spec: domain.MatchSpec{Rules: testRules(b), Bots: deals[0].Seating,
		Deals: 1 << 20, Seed: 3, Duplicate: true, TimeControl: domain.DefaultTimeControl, LeagueID: "B"}}
	if err := s.ScheduleRound(ctx, []domain.LeagueMatch{{LeagueID: "B", MatchID: m.ID}}, []*domain.Match{m}, nil); err != nil {
		b.Fatal(err)
	}
	const batch = 64
	n := 0
	cpu := processCPU(b)
	for b.Loop() {
		ds := make([]*domain.DealRecord, batch)
		for i := range ds {
			ds[i] = renumbered(deals[n%len(deals)], m.ID, n)
			ds[i].Group = n / 6
			n++
		}
		if err := s.SaveDeals(ctx, ds); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(n), "µs/deal")
	b.ReportMetric(float64((processCPU(b)-cpu).Microseconds())/float64(n), "CPU-µs/deal")
}
