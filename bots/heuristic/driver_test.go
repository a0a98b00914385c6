package heuristic

import (
	"context"
	"fmt"
	"testing"

	"github.com/tapparena/tapp/bots"
	"github.com/tapparena/tapp/bots/random"
	"github.com/tapparena/tapp/engine"
)

// ruleSets returns every variant and table the bots must handle: the three variants with
// their options, modern with 3 and 4 players, 36 and 32 cards, Frage on and off.
func ruleSets() []engine.RuleSet {
	var out []engine.RuleSet
	for _, text := range []string{
		"wuerttemberg",
		"wuerttemberg tout=2 pot=on",
		"classic",
		"classic pot=on",
		"modern",
		"modern frage=on",
		"modern pack=32",
		"modern players=4",
		"modern players=4 frage=on",
		"modern players=4 pack=32",
		"modern players=3 pack=32 frage=on",
	} {
		r, err := engine.ParseRuleSet(text)
		if err != nil {
			panic(fmt.Sprintf("rule set %q: %v", text, err))
		}
		out = append(out, r)
	}
	return out
}

// playDeal plays one deal to the end, asking seats[s] for every decision of seat s through
// s.Observe(seat). Every answer must be legal; check, if not nil, sees every observation and
// answer.
func playDeal(tb testing.TB, r engine.RuleSet, d engine.Deal, opts engine.Options, seats []bots.Bot,
	check func(obs *engine.Observation, a engine.Action)) (*engine.State, engine.Outcome) {
	tb.Helper()
	s, err := engine.NewState(r, d, opts)
	if err != nil {
		tb.Fatalf("NewState: %v", err)
	}
	ctx := context.Background()
	for steps := 0; !s.Terminal(); steps++ {
		if steps > 500 {
			tb.Fatalf("deal does not end")
		}
		seat := s.ToMove()
		obs := s.Observe(seat)
		a, err := seats[seat].Decide(ctx, &obs)
		if err != nil {
			tb.Fatalf("%s: seat %s: Decide: %v", r, seat, err)
		}
		if check != nil {
			check(&obs, a)
		}
		if err := s.Apply(a); err != nil {
			tb.Fatalf("%s: deal %s: seat %s decision %s: illegal %s: %v\nhistory %v",
				r, d.Format(r), seat, obs.Decision, a, err, s.History())
		}
	}
	return s, s.Outcome()
}

// table returns the bots of a table: heuristic at seat hero (or everywhere when hero < 0),
// seeded random bots elsewhere.
func table(n, hero int, seed uint64) []bots.Bot {
	out := make([]bots.Bot, n)
	for i := range out {
		if hero < 0 || i == hero {
			out[i] = New()
		} else {
			out[i] = random.New(seed*31 + uint64(i))
		}
	}
	return out
}
