package bottest

import (
	"context"
	"sort"
	"testing"
	"time"

	"github.com/tapparena/tapp/bots"
	"github.com/tapparena/tapp/engine"
)

// Observations plays deals 0..deals-1 of seed under r, every move by play(deal, obs), and
// returns the observations with a choice that keep(deal, obs) accepts: the decisions a bot's
// tests and benchmarks ask it.
func Observations(tb testing.TB, r engine.RuleSet, deals int, seed uint64,
	play func(deal int, obs *engine.Observation) bots.Bot, keep func(deal int, obs *engine.Observation) bool) []engine.Observation {
	tb.Helper()
	var out []engine.Observation
	for i := 0; i < deals; i++ {
		st, err := engine.NewState(r, engine.DealFromSeed(r, seed, uint64(i)), engine.Options{})
		if err != nil {
			tb.Fatal(err)
		}
		for !st.Terminal() {
			obs := st.Observe(st.ToMove())
			if len(obs.Legal) > 1 && keep(i, &obs) {
				out = append(out, obs)
			}
			a, err := play(i, &obs).Decide(context.Background(), &obs)
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

// ReportTimes reports the mean, median, 95th and 99th percentile of a benchmark's decision
// times in milliseconds (mean-ms, median-ms, p95-ms, p99-ms).
func ReportTimes(b *testing.B, times []time.Duration) {
	if len(times) == 0 {
		return
	}
	times = append([]time.Duration(nil), times...)
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
}
