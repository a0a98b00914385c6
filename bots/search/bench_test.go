package search

import (
	"context"
	"sort"
	"testing"
	"time"

	"github.com/tapparena/tapp/bots/heuristic"
	"github.com/tapparena/tapp/bots/random"
	"github.com/tapparena/tapp/engine"
)

// decideObservations collects the decisions (with a choice) of heuristic-bot games.
func decideObservations(tb testing.TB, r engine.RuleSet, deals int, seed uint64) []engine.Observation {
	var out []engine.Observation
	h := heuristic.New()
	rnd := random.New(seed)
	for i := 0; i < deals; i++ {
		st, err := engine.NewState(r, engine.DealFromSeed(r, seed, uint64(i)), engine.Options{})
		if err != nil {
			tb.Fatal(err)
		}
		for !st.Terminal() {
			obs := st.Observe(st.ToMove())
			if len(obs.Legal) > 1 {
				out = append(out, obs)
			}
			bot := h
			if obs.Decision != engine.DecideCard && i%3 == 0 {
				bot = rnd // vary the contracts
			}
			a, err := bot.Decide(context.Background(), &obs)
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

// BenchmarkDecide times Decide at the default settings on one core over the decisions of
// random games (modern 3 players and classic), reporting the mean, median, 95th and 99th
// percentile milliseconds per decision.
func BenchmarkDecide(b *testing.B) {
	for _, v := range []engine.Variant{engine.Modern, engine.Classic} {
		b.Run(v.String(), func(b *testing.B) {
			obs := decideObservations(b, engine.DefaultRules(v), 40, 7)
			bot := New(Config{})
			var times []time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				o := obs[i%len(obs)]
				t0 := time.Now()
				if _, err := bot.Decide(context.Background(), &o); err != nil {
					b.Fatal(err)
				}
				times = append(times, time.Since(t0))
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
