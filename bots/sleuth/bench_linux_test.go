package sleuth

import (
	"context"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/tapparena/tapp/bots"
	"github.com/tapparena/tapp/bots/heuristic"
	"github.com/tapparena/tapp/bots/internal/bottest"
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
	h := heuristic.New()
	return bottest.Observations(tb, r, deals, seed, func(int, *engine.Observation) bots.Bot { return h },
		func(i int, obs *engine.Observation) bool { return int(obs.Seat) == i%r.Players })
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
			bottest.ReportTimes(b, times)
		})
	}
}
