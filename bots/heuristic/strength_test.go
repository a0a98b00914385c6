package heuristic

import (
	"math"
	"testing"

	"github.com/tapparena/tapp/engine"
)

// strength plays deals with the heuristic at one seat and seeded random bots at the others,
// the heuristic's seat rotating from deal to deal, and returns the heuristic's mean payoff per
// deal, the random bots' mean payoff per bot and deal, and the standard error of the
// heuristic's mean.
func strength(tb testing.TB, r engine.RuleSet, deals int, seed uint64) (hero, others, stderr float64) {
	var sum, sumSq, rest float64
	for i := 0; i < deals; i++ {
		d := engine.DealFromSeed(r, seed, uint64(i))
		h := i % r.Players
		_, out := playDeal(tb, r, d, engine.Options{}, table(r.Players, h, seed+uint64(i)), nil)
		p := float64(out.Payoff[h])
		sum += p
		sumSq += p * p
		for s := 0; s < r.Players; s++ {
			if s != h {
				rest += float64(out.Payoff[s])
			}
		}
	}
	n := float64(deals)
	hero = sum / n
	others = rest / (n * float64(r.Players-1))
	stderr = math.Sqrt((sumSq/n - hero*hero) / n)
	return hero, others, stderr
}

// TestStrengthAgainstRandom: the heuristic bot against two random bots over seeded deals of
// modern and classic, with rotating seats, must win clearly: its mean payoff per deal positive
// by a margin of several standard errors, and above the random bots' mean.
func TestStrengthAgainstRandom(t *testing.T) {
	t.Parallel()
	deals := 3000
	if testing.Short() {
		deals = 300
	}
	for _, text := range []string{"modern", "classic", "modern players=4", "wuerttemberg"} {
		r, err := engine.ParseRuleSet(text)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(text, func(t *testing.T) {
			t.Parallel()
			hero, others, se := strength(t, r, deals, 20261129)
			t.Logf("%s: %d deals: heuristic mean %+.2f ± %.2f per deal, random mean %+.2f", r, deals, hero, se, others)
			if hero <= 3*se || hero <= others {
				t.Errorf("heuristic mean %.2f (stderr %.2f), random mean %.2f: want heuristic > 3 stderr and > random", hero, se, others)
			}
		})
	}
}
