package store

import (
	"context"
	"slices"
	"testing"
	"time"
)

// BenchmarkSaveDeal stores realistic deal records on SQLite (40 decisions, each with about
// 1 KB of request JSON, plus moves and 3 results) and reports the median time per deal.
//
//	go test ./arena/store -run '^$' -bench SaveDeal -benchtime 300x
func BenchmarkSaveDeal(b *testing.B) { benchmarkSaveDeal(b, sqliteBackend) }

// BenchmarkSaveDealPostgres is the same on PostgreSQL (TAPP_TEST_POSTGRES).
func BenchmarkSaveDealPostgres(b *testing.B) { benchmarkSaveDeal(b, postgresBackend) }

func benchmarkSaveDeal(b *testing.B, be backend) {
	ctx := context.Background()
	s := openTest(b, be.newDSN(b))
	m := newMatch(b, s, "bench", "a", "b", "c")
	template := sampleDeal(b, m, 0, 40, 1024)
	var times []time.Duration
	n := 0
	for b.Loop() {
		d := *template
		d.Number = n
		n++
		start := time.Now()
		if err := s.SaveDeal(ctx, &d); err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(times)
	if len(times) > 0 {
		b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "ms/deal-median")
		b.ReportMetric(float64(times[len(times)*9/10].Microseconds())/1000, "ms/deal-p90")
	}
}
