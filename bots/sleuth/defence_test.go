package sleuth

import (
	"context"
	"testing"

	"github.com/tapparena/tapp/bots"
	"github.com/tapparena/tapp/bots/heuristic"
	"github.com/tapparena/tapp/bots/internal/bottest"
	"github.com/tapparena/tapp/engine"
)

// cardDecisions collects the card decisions with a choice in point contracts of games of
// heuristic bots, the defenders' or the declarer's.
func cardDecisions(t *testing.T, r engine.RuleSet, deals int, defender bool) []engine.Observation {
	h := heuristic.New()
	return bottest.Observations(t, r, deals, 21, func(int, *engine.Observation) bots.Bot { return h },
		func(_ int, obs *engine.Observation) bool {
			if obs.Decision != engine.DecideCard || obs.Declarer < 0 {
				return false
			}
			switch obs.Contract {
			case engine.Solo, engine.HeartSolo, engine.Frage:
				return (obs.Seat != obs.Declarer) == defender
			}
			return false
		})
}

// A defender's card in a modern point contract is chosen by play-outs against the rule of
// thumb, not by the solver (Config.SolverDefence keeps the solver's choice): the two choose
// differently somewhere, and each choice is the same every time. The declarer's cards, the
// defence at a table of four and the older variants' defence stay the solver's.
func TestDefenceByPlayOuts(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cfg := Config{Samples: 6, Effort: 80_000, MaxTime: -1, Seed: 3}
	solverCfg := cfg
	solverCfg.SolverDefence = true
	playOuts, solver := New(cfg), New(solverCfg)
	differ := func(obs []engine.Observation) int {
		if len(obs) < 5 {
			t.Fatalf("only %d decisions to compare", len(obs))
		}
		n := 0
		for i := range obs {
			a, err := playOuts.Decide(ctx, &obs[i])
			if err != nil {
				t.Fatal(err)
			}
			b, err := solver.Decide(ctx, &obs[i])
			if err != nil {
				t.Fatal(err)
			}
			if again, _ := playOuts.Decide(ctx, &obs[i]); again != a {
				t.Fatalf("decision %d: %v, then %v", i, a, again)
			}
			if a != b {
				n++
			}
		}
		return n
	}
	modern := engine.DefaultRules(engine.Modern)
	def := cardDecisions(t, modern, 12, true)
	if len(def) < 20 {
		t.Fatalf("only %d defender decisions", len(def))
	}
	if n := differ(def); n == 0 {
		t.Errorf("the play-outs chose as the solver in all %d defender decisions", len(def))
	}
	if n := differ(cardDecisions(t, modern, 6, false)); n != 0 {
		t.Errorf("%d declarer decisions changed: the declarer plays by the solver", n)
	}
	four, err := engine.ParseRuleSet("modern players=4 pack=36")
	if err != nil {
		t.Fatal(err)
	}
	if n := differ(cardDecisions(t, four, 6, true)); n != 0 {
		t.Errorf("%d four-player defender decisions changed: a table of four defends by the solver", n)
	}
	if n := differ(cardDecisions(t, engine.DefaultRules(engine.Classic), 6, true)); n != 0 {
		t.Errorf("%d classic defender decisions changed: the older variants defend by the solver", n)
	}
}
