package sleuth

import (
	"context"
	"testing"

	"github.com/tapparena/tapp/bots"
	"github.com/tapparena/tapp/bots/heuristic"
	"github.com/tapparena/tapp/bots/internal/bottest"
	"github.com/tapparena/tapp/bots/search"
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

// Against a searching declarer and fellow defender the play-outs' assumption — that the
// others finish the deal by the rule of thumb, errors included — is the wrong one, and the
// bot defends by the solver in the worlds where the evidence says the others are not
// rule-of-thumb players. In deals whose cards kibitz (a searcher) plays at the other seats,
// from the fourth trick on (by then each seat has departed from the rule of thumb or not),
// the default bot chooses as the solver's defence almost always, and departs from the
// play-outs' defence; against heuristic bots it keeps to the play-outs more often than
// against kibitz, and departs from the solver somewhere.
func TestDefenceBySolverAgainstSearchers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cfg := Config{Samples: 6, Effort: 80_000, MaxTime: -1, Seed: 3}
	solverCfg, playOutCfg := cfg, cfg
	solverCfg.SolverDefence = true
	playOutCfg.PlayOutDefence = true
	def, solver, playOuts := New(cfg), New(solverCfg), New(playOutCfg)
	// agreement counts the decisions where the default chooses as the solver's defence and
	// as the play-outs'
	agreement := func(obs []engine.Observation) (asSolver, asPlayOuts int) {
		for i := range obs {
			a, err := def.Decide(ctx, &obs[i])
			if err != nil {
				t.Fatal(err)
			}
			s, err := solver.Decide(ctx, &obs[i])
			if err != nil {
				t.Fatal(err)
			}
			p, err := playOuts.Decide(ctx, &obs[i])
			if err != nil {
				t.Fatal(err)
			}
			if again, _ := def.Decide(ctx, &obs[i]); again != a {
				t.Fatalf("decision %d: %v, then %v", i, a, again)
			}
			if a == s {
				asSolver++
			}
			if a == p {
				asPlayOuts++
			}
		}
		return asSolver, asPlayOuts
	}
	modern := engine.DefaultRules(engine.Modern)
	h := heuristic.New()
	kibitz := search.New(search.Config{Samples: 8, Budget: -1, Seed: 5})
	lateDefence := func(_ int, obs *engine.Observation) bool {
		if obs.Decision != engine.DecideCard || obs.Declarer < 0 || obs.Seat == obs.Declarer || len(obs.Tricks) < 3 {
			return false
		}
		switch obs.Contract {
		case engine.Solo, engine.HeartSolo, engine.Frage:
			return true
		}
		return false
	}
	vsSearcher := bottest.Observations(t, modern, 16, 21, func(_ int, obs *engine.Observation) bots.Bot {
		if obs.Decision == engine.DecideCard {
			return kibitz // the heuristic bids, so that the same point contracts come up
		}
		return h
	}, lateDefence)
	if len(vsSearcher) < 20 {
		t.Fatalf("only %d defender decisions against kibitz", len(vsSearcher))
	}
	asSolver, asPlayOuts := agreement(vsSearcher)
	t.Logf("against kibitz, %d decisions: as the solver %d, as the play-outs %d", len(vsSearcher), asSolver, asPlayOuts)
	if asPlayOuts == len(vsSearcher) {
		t.Errorf("against kibitz the default chose as the play-outs in all %d decisions", len(vsSearcher))
	}
	if asSolver < len(vsSearcher)*95/100 {
		t.Errorf("against kibitz the default chose as the solver only %d times of %d", asSolver, len(vsSearcher))
	}
	searcherPlayOuts := float64(asPlayOuts) / float64(len(vsSearcher))
	vsHeuristic := bottest.Observations(t, modern, 12, 21, func(int, *engine.Observation) bots.Bot { return h }, lateDefence)
	asSolver, asPlayOuts = agreement(vsHeuristic)
	t.Logf("against heuristic bots, %d decisions: as the solver %d, as the play-outs %d", len(vsHeuristic), asSolver, asPlayOuts)
	if asSolver == len(vsHeuristic) {
		t.Errorf("against heuristic bots the default chose as the solver in all %d decisions", len(vsHeuristic))
	}
	if p := float64(asPlayOuts) / float64(len(vsHeuristic)); p <= searcherPlayOuts {
		t.Errorf("the default chose as the play-outs in %.0f%% of the decisions against heuristic bots, %.0f%% against kibitz", 100*p, 100*searcherPlayOuts)
	}
}
