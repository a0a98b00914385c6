package sleuth

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/tapparena/tapp/bots"
	"github.com/tapparena/tapp/bots/internal/bottest"
	"github.com/tapparena/tapp/bots/internal/pimc"
	"github.com/tapparena/tapp/bots/random"
	"github.com/tapparena/tapp/engine"
)

// small is a bot that thinks little: the tests check what it does, not how well.
func small(seed uint64) *Bot {
	return New(Config{Samples: 4, Effort: 40_000, MaxTime: -1, Seed: seed})
}

// The bot's actions are legal in every variant and table size, at every kind of decision,
// against random bidders (which make all sorts of contracts happen).
func TestLegalRandomGames(t *testing.T) {
	t.Parallel()
	deals := 8
	if testing.Short() {
		deals = 2
	}
	bot := small(1)
	for name, r := range bottest.RuleSets(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			for i := 0; i < deals; i++ {
				deal := engine.DealFromSeed(r, 77, uint64(i))
				rnd := random.New(uint64(i))
				me := engine.Seat(i % r.Players)
				bottest.PlayDeal(t, r, deal, engine.Options{}, func(s engine.Seat, dec engine.Decision) bots.Bot {
					if s == me || dec == engine.DecideCard && i%2 == 0 {
						return bot
					}
					return rnd
				}, nil)
			}
		})
	}
}

// Every contract declared by the bot (the bidding scripted), with the bot at every seat.
func TestLegalEveryContract(t *testing.T) {
	t.Parallel()
	bot := small(2)
	all := func(engine.Seat, engine.Decision) bots.Bot { return bot }
	for i, c := range bottest.ScriptedContracts(t) {
		t.Run(fmt.Sprintf("%s/%v", c.Name, c.Script[len(c.Script)-1]), func(t *testing.T) {
			t.Parallel()
			deal := engine.DealFromSeed(c.Rules, 99, uint64(i))
			if st := bottest.PlayDeal(t, c.Rules, deal, engine.Options{}, all, c.Script); st.Contract() == engine.NoContract {
				t.Fatal("no contract played")
			}
		})
	}
}

// observations collects decisions with a choice from random games of rule set r.
func observations(t *testing.T, r engine.RuleSet, deals int, seed uint64) []engine.Observation {
	filler := random.New(seed)
	return bottest.Observations(t, r, deals, seed, func(int, *engine.Observation) bots.Bot { return filler },
		func(int, *engine.Observation) bool { return true })
}

// The same seed and observation give the same action, whatever the bot decided before and
// whether or not a (generous) clock runs: the work, not the time, bounds a decision.
func TestDeterministic(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"modern", "modern-4p-32", "classic"} {
		r := bottest.RuleSets(t)[name]
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			obs := observations(t, r, 2, 5)
			ctx := context.Background()
			a := New(Config{Samples: 6, Effort: 60_000, MaxTime: -1, Seed: 42})
			b := New(Config{Samples: 6, Effort: 60_000, MaxTime: time.Minute, Seed: 42})
			var first []engine.Action
			for i := range obs {
				x, err := a.Decide(ctx, &obs[i])
				if err != nil {
					t.Fatal(err)
				}
				first = append(first, x)
			}
			for i := len(obs) - 1; i >= 0; i-- {
				x, _ := a.Decide(ctx, &obs[i])
				y, _ := b.Decide(ctx, &obs[i])
				if x != first[i] || y != first[i] {
					t.Fatalf("observation %d (%s): %v, then %v and %v (with a clock)", i, obs[i].Decision, first[i], x, y)
				}
			}
		})
	}
}

// A cancelled context or a short clock still yields a legal action, quickly, in the bidding
// and in the play, however much work the bot is allowed.
func TestClock(t *testing.T) {
	t.Parallel()
	r := engine.DefaultRules(engine.Modern)
	st, _ := engine.NewState(r, engine.DealFromSeed(r, 3, 0), engine.Options{})
	bid := st.Observe(st.ToMove()) // the first bid
	for _, a := range []engine.Action{engine.PlayAction(), engine.PassAction(), engine.PassAction(), engine.BidAction(engine.Solo, engine.Clubs)} {
		if err := st.Apply(a); err != nil {
			t.Fatal(err)
		}
	}
	card := st.Observe(st.ToMove())
	huge := Config{Samples: 1000, Effort: 1 << 40}
	for _, obs := range []engine.Observation{bid, card} {
		for name, ctx := range map[string]func() (context.Context, context.CancelFunc){
			"cancelled": func() (context.Context, context.CancelFunc) {
				ctx, cancel := context.WithCancel(context.Background())
				cancel()
				return ctx, cancel
			},
			"deadline": func() (context.Context, context.CancelFunc) {
				return context.WithTimeout(context.Background(), 100*time.Millisecond)
			},
		} {
			ctx, cancel := ctx()
			t0 := time.Now()
			a, err := New(huge).Decide(ctx, &obs)
			cancel()
			if err != nil {
				t.Fatalf("%s %s: %v", obs.Decision, name, err)
			}
			// unbounded, this decision takes hours: 10 s tells a kept clock from an ignored one on
			// however busy a machine
			if d := time.Since(t0); d > 10*time.Second {
				t.Errorf("%s %s: decision took %v", obs.Decision, name, d)
			}
			if _, ok := pimc.FindLegal(obs.Legal, a); !ok {
				t.Fatalf("%s: illegal %v", name, a)
			}
		}
	}
}

func TestTrainedParams(t *testing.T) {
	t.Parallel()
	p := TrainedParams()
	if !p.Model.Valid() || len(p.Calibrations) != len(families) || p.Provenance == nil {
		t.Fatalf("embedded params: %+v", p)
	}
	if _, err := ParseParams([]byte(`{"model":{"sharp":[1,1,1,1],"loose":[0.5,0.5,0.5,0.5],"prior":0.5}}`)); err == nil {
		t.Fatal("a model with certainties accepted")
	}
}
