// Package yardstick times the engine's own random deal in the same run as a benchmark, so
// that the benchmark's figures can be given as ratios to it: on a shared host the load moves
// both alike, and a ratio means more than an absolute time.
package yardstick

import (
	"time"

	"github.com/tapparena/tapp/engine"
)

// RandomDeals plays the deals of the engine's BenchmarkRandomDeal: seeded deals of modern
// Tapp for three, every decision a random legal action, on one state reset for each deal.
type RandomDeals struct {
	rules engine.RuleSet
	st    *engine.State
	rng   *engine.Rand
	legal []engine.Action
}

// New returns a yardstick whose deals start from the same seed every time.
func New() *RandomDeals {
	rules := engine.DefaultRules(engine.Modern)
	st, err := engine.NewState(rules, engine.DealFromSeed(rules, 1, 0), engine.Options{})
	if err != nil {
		panic(err) // the default rules and a seeded deal: a broken engine, not a bad input
	}
	return &RandomDeals{rules: rules, st: st, rng: engine.NewRand(1, 2), legal: make([]engine.Action, 0, 64)}
}

// Play plays n deals.
func (y *RandomDeals) Play(n int) {
	for range n {
		if err := y.st.Reset(y.rules, engine.DealFromRand(y.rules, y.rng), engine.Options{}); err != nil {
			panic(err)
		}
		for !y.st.Terminal() {
			y.legal = y.st.LegalActions(y.legal[:0])
			if err := y.st.Apply(y.legal[y.rng.IntN(len(y.legal))]); err != nil {
				panic(err)
			}
		}
	}
}

// WallPerDeal plays n deals and returns the wall time of one.
func (y *RandomDeals) WallPerDeal(n int) time.Duration {
	start := time.Now()
	y.Play(n)
	return time.Since(start) / time.Duration(n)
}

// CPUPerDeal plays n deals and returns the process's CPU time of one (0 where CPUTime is not
// measured).
func (y *RandomDeals) CPUPerDeal(n int) time.Duration {
	c0 := CPUTime()
	y.Play(n)
	return (CPUTime() - c0) / time.Duration(n)
}
