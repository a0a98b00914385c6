package league_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/league"
	"github.com/tapparena/tapp/arena/internal/league/leaguestore"
	"github.com/tapparena/tapp/arena/internal/league/plan"
	"github.com/tapparena/tapp/arena/internal/store"
	"github.com/tapparena/tapp/arena/internal/store/memstore"
)

// BenchmarkLeagueStore plays a round-robin league of four random bots over real gRPC (the
// bots in this process) on the in-memory store and on SQLite, and reports deals per second:
// the difference is what the store costs a league. b.N is the number of deal sources per
// match (4 tables × 6 seatings each).
//
//	go test -run '^$' -bench LeagueStore -benchtime 50x -count 3 ./arena/internal/league
func BenchmarkLeagueStore(b *testing.B) {
	for _, backend := range []string{"memory", "sqlite"} {
		b.Run(backend, func(b *testing.B) {
			ctx := context.Background()
			var st leaguestore.Store
			if backend == "memory" {
				st = memstore.New()
			} else {
				s, err := store.Open(ctx, filepath.Join(b.TempDir(), "bench.db"))
				if err != nil {
					b.Fatal(err)
				}
				defer s.Close()
				st = s
			}
			a := newArena(b, st, map[string]string{"r1": "random", "r2": "random", "r3": "random", "r4": "random"})
			p := testPlan(b, fmt.Sprintf("bench-%d", b.N), plan.RoundRobin, 1, b.N)
			p.Bots = []string{"r1", "r2", "r3", "r4"}
			r := &league.Runner{Store: st, Seats: a.srv, Concurrency: 8, Lease: 30 * time.Second}
			b.ResetTimer()
			start := time.Now()
			out, err := r.Run(ctx, p, time.Time{})
			if err != nil || !out.Finished {
				b.Fatalf("league: %v %+v", err, out)
			}
			b.ReportMetric(float64(out.Played)/time.Since(start).Seconds(), "deals/s")
		})
	}
}
