package store

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/yardstick"
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

// BenchmarkLeagueProgress times what a league's progress (the dashboard's GetLeagueProgress,
// and a league worker with no job in hand, at each poll) reads of its job queue, in a league of
// 20,000 matches of one job each (100 rounds of 200, a ladder's shape; all but 8 jobs done):
// count, the old count of every job by round and state (RoundCounts, summed), against
// totals, the kept totals (LeagueJobTotals). Each reports its wall and CPU time a call (the
// process's: on PostgreSQL the server's is not in it) and its wall time in random deals of the
// engine timed in the same run (yardstick-µs/deal, in-deals), on SQLite and, with
// TAPP_TEST_POSTGRES, PostgreSQL.
//
//	go test ./arena/internal/store -run '^$' -bench LeagueProgress -benchtime 300x
func BenchmarkLeagueProgress(b *testing.B) {
	const rounds, perRound = 100, 200
	want := domain.LeagueJobTotals{DealsPlanned: rounds * perRound * 6, JobsRunning: 8}
	reads := []struct {
		name string
		read func(s *Store, ctx context.Context, league string) (domain.LeagueJobTotals, error)
	}{
		{"count", func(s *Store, ctx context.Context, league string) (domain.LeagueJobTotals, error) {
			counts, err := s.RoundCounts(ctx, league)
			var t domain.LeagueJobTotals
			for _, c := range counts {
				t.DealsPlanned, t.JobsRunning = t.DealsPlanned+c.DealsPlanned, t.JobsRunning+c.Running
				t.Waiting = t.Waiting || c.Available > 0
			}
			return t, err
		}},
		{"totals", (*Store).LeagueJobTotals},
	}
	for _, be := range []backend{sqliteBackend, postgresBackend} {
		b.Run(be.name, func(b *testing.B) {
			ctx := context.Background()
			s := openTest(b, be.newDSN(b))
			scheduleBenchLeague(b, s, "P", rounds, perRound)
			for _, r := range reads {
				b.Run(r.name, func(b *testing.B) {
					yard := yardstick.New().WallPerDeal(20000)
					cpu := processCPU(b)
					for b.Loop() {
						if t, err := r.read(s, ctx, "P"); err != nil || t != want {
							b.Fatalf("%+v, %v; want %+v", t, err, want)
						}
					}
					n := float64(b.N)
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n/1e3, "µs/call")
					b.ReportMetric(float64((processCPU(b)-cpu).Nanoseconds())/n/1e3, "CPU-µs/call")
					b.ReportMetric(float64(yard.Nanoseconds())/1e3, "yardstick-µs/deal")
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n/float64(yard.Nanoseconds()), "in-deals")
				})
			}
		})
	}
}

// scheduleBenchLeague schedules rounds of perRound one-job matches (6 deals a job), marks
// every job done but the 8 it leaves claimed.
func scheduleBenchLeague(b *testing.B, s *Store, league string, rounds, perRound int) {
	b.Helper()
	ctx := context.Background()
	if _, err := s.EnsureLeague(ctx, &domain.League{ID: league, Plan: "{}"}); err != nil {
		b.Fatal(err)
	}
	for r := range rounds {
		var places []domain.LeagueMatch
		var matches []*domain.Match
		var jobs []domain.Job
		for i := range perRound {
			m := &domain.Match{ID: fmt.Sprintf("%s-r%d-m%d", league, r, i), Spec: domain.MatchSpec{Rules: testRules(b),
				Bots: []string{"a", "b", "c"}, Deals: 6, Seed: 1, Duplicate: true, TimeControl: domain.DefaultTimeControl, LeagueID: league}}
			matches = append(matches, m)
			places = append(places, domain.LeagueMatch{LeagueID: league, Seq: r*perRound + i, Round: r, MatchID: m.ID})
			jobs = append(jobs, domain.Job{LeagueID: league, Round: r, MatchID: m.ID, Groups: 1, Deals: 6})
		}
		if err := s.ScheduleRound(ctx, places, matches, jobs); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := s.w.ExecContext(ctx, s.rebind(`UPDATE league_jobs SET state = 'done' WHERE league_id = ?`), league); err != nil {
		b.Fatal(err)
	}
	if _, err := s.w.ExecContext(ctx, s.rebind(`UPDATE league_jobs SET state = 'available' WHERE league_id = ? AND round = ?`), league, rounds-1); err != nil {
		b.Fatal(err)
	}
	if _, err := s.Claim(ctx, league, "host/1/a", 8, time.Hour); err != nil {
		b.Fatal(err)
	}
	if _, err := s.w.ExecContext(ctx, s.rebind(`UPDATE league_jobs SET state = 'done' WHERE league_id = ? AND state = 'available'`), league); err != nil {
		b.Fatal(err)
	}
	if s.dialect == postgresDialect { // as autovacuum soon would: no dead index entries of the jobs' earlier states
		if _, err := s.w.ExecContext(ctx, `VACUUM ANALYZE league_jobs`); err != nil {
			b.Fatal(err)
		}
	}
}
