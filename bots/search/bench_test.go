package search

import (
	"context"
	"testing"
	"time"

	"github.com/tapparena/tapp/bots"
	"github.com/tapparena/tapp/bots/heuristic"
	"github.com/tapparena/tapp/bots/internal/bottest"
	"github.com/tapparena/tapp/bots/random"
	"github.com/tapparena/tapp/engine"
)

// decideObservations collects the decisions (with a choice) of heuristic-bot games, the
// bidding of every third deal random (to vary the contracts).
func decideObservations(tb testing.TB, r engine.RuleSet, deals int, seed uint64) []engine.Observation {
	h, rnd := heuristic.New(), random.New(seed)
	return bottest.Observations(tb, r, deals, seed, func(i int, obs *engine.Observation) bots.Bot {
		if obs.Decision != engine.DecideCard && i%3 == 0 {
			return rnd
		}
		return h
	}, func(int, *engine.Observation) bool { return true })
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
			bottest.ReportTimes(b, times)
		})
	}
}
