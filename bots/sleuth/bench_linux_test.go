package sleuth

import (
	"context"
	"runtime"
	"sort"
	"syscall"
	"testing"
	"time"

	"github.com/tapparena/tapp/bots/heuristic"
	"github.com/tapparena/tapp/engine"
)

// threadCPU is the CPU time of the calling OS thread (Linux: RUSAGE_THREAD).
func threadCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(1, &ru) // RUSAGE_THREAD
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// decisionsOf collects the decisions with a choice of one seat per deal (seat = deal number
// modulo the players) in games of heuristic bots, the bot's seat being the one that would sit
// there in a match against them.
func decisionsOf(tb testing.TB, r engine.RuleSet, deals int, seed uint64) []engine.Observation {
	var out []engine.Observation
	h := heuristic.New()
	for i := 0; i < deals; i++ {
		st, err := engine.NewState(r, engine.DealFromSeed(r, seed, uint64(i)), engine.Options{})
		if err != nil {
			tb.Fatal(err)
		}
		for !st.Terminal() {
			obs := st.Observe(st.ToMove())
			if len(obs.Legal) > 1 && int(obs.Seat) == i%r.Players {
				out = append(out, obs)
			}
			a, err := h.Decide(context.Background(), &obs)
			if err != nil {
				tb.Fatal(err)
			}
			if err := st.Apply(a); err != nil {
				tb.Fatal(err)
			}
		}
	}
	return out
}

// BenchmarkDecide times Decide at the default settings (with no clock) on one core, in CPU time of the
// deciding thread (what the decision costs whatever else the machine runs), over the
// decisions with a choice of one seat in 60 games of heuristic bots per variant; it reports
// the mean, median, 95th and 99th percentile milliseconds per decision.
func BenchmarkDecide(b *testing.B) {
	for _, v := range []engine.Variant{engine.Modern, engine.Classic, engine.Wuerttemberg} {
		b.Run(v.String(), func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			obs := decisionsOf(b, engine.DefaultRules(v), 60, 11)
			// the work alone bounds each decision: without a request deadline the default cap
			// (DefaultMaxTime of wall time) would cut decisions short on a busy machine
			bot := New(Config{Seed: 1, MaxTime: -1})
			var times []time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				o := obs[i%len(obs)]
				t0 := threadCPU()
				if _, err := bot.Decide(context.Background(), &o); err != nil {
					b.Fatal(err)
				}
				times = append(times, threadCPU()-t0)
			}
			sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
			var sum time.Duration
			for _, d := range times {
				sum += d
			}
			ms := func(d time.Duration) float64 { return float64(d) / 1e6 }
			b.ReportMetric(ms(sum/time.Duration(len(times))), "mean-ms")
			b.ReportMetric(ms(times[len(times)/2]), "median-ms")
			b.ReportMetric(ms(times[(len(times)*95)/100]), "p95-ms")
			b.ReportMetric(ms(times[(len(times)*99)/100]), "p99-ms")
		})
	}
}
