package search

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

// The bot's actions are legal in every variant, at every kind of decision, against random
// bidders (which make all sorts of contracts happen).
func TestBotLegalRandomGames(t *testing.T) {
	deals := 12
	if testing.Short() {
		deals = 3
	}
	bot := New(Config{Samples: 4, Budget: 20 * time.Millisecond, Seed: 1})
	for name, r := range bottest.RuleSets(t) {
		t.Run(name, func(t *testing.T) {
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
func TestBotLegalEveryContract(t *testing.T) {
	bot := New(Config{Samples: 3, Budget: 20 * time.Millisecond, Seed: 2})
	all := func(engine.Seat, engine.Decision) bots.Bot { return bot }
	for i, c := range bottest.ScriptedContracts(t) {
		name := fmt.Sprintf("%s/%v", c.Name, c.Script[len(c.Script)-1])
		t.Run(name, func(t *testing.T) {
			for k := 0; k < 2; k++ {
				deal := engine.DealFromSeed(c.Rules, 99, uint64(10*i+k))
				st := bottest.PlayDeal(t, c.Rules, deal, engine.Options{}, all, c.Script)
				if st.Contract() == engine.NoContract {
					t.Fatalf("no contract played")
				}
			}
		})
	}
}

// With a sample budget (no time limit) the same seed and observation give the same action,
// whatever ran before and with any number of threads.
func TestBotDeterministic(t *testing.T) {
	sets := bottest.RuleSets(t)
	r := sets["modern-4p-32"]
	var observations []engine.Observation
	filler := random.New(5)
	for i := 0; i < 3; i++ {
		deal := engine.DealFromSeed(r, 5, uint64(i))
		st, _ := engine.NewState(r, deal, engine.Options{})
		for !st.Terminal() {
			obs := st.Observe(st.ToMove())
			if len(obs.Legal) > 1 && len(observations) < 40 && (obs.Decision != engine.DecideCard || len(obs.Tricks) >= 2) {
				observations = append(observations, obs)
			}
			a, _ := filler.Decide(context.Background(), &obs)
			if err := st.Apply(a); err != nil {
				t.Fatal(err)
			}
		}
	}
	ctx := context.Background()
	a := New(Config{Samples: 6, Budget: -1, Seed: 42})
	b := New(Config{Samples: 6, Budget: -1, Seed: 42, Threads: 3})
	var first []engine.Action
	for _, obs := range observations {
		x, err := a.Decide(ctx, &obs)
		if err != nil {
			t.Fatal(err)
		}
		first = append(first, x)
	}
	// again, in reverse order, single- and multi-threaded
	for i := len(observations) - 1; i >= 0; i-- {
		obs := observations[i]
		x, _ := a.Decide(ctx, &obs)
		y, _ := b.Decide(ctx, &obs)
		if x != first[i] || y != first[i] {
			t.Fatalf("observation %d (%s): %v, then %v and %v (3 threads)", i, obs.Decision, first[i], x, y)
		}
	}
}

// A cancelled context or an expired budget still yields a legal action quickly.
func TestBotBudget(t *testing.T) {
	r := bottest.RuleSets(t)["modern"]
	deal := engine.DealFromSeed(r, 3, 0)
	st, _ := engine.NewState(r, deal, engine.Options{})
	// seat 1 plays a Solo in its longest suit; everyone else passes
	_ = st.Apply(engine.PlayAction())
	_ = st.Apply(engine.PassAction())
	_ = st.Apply(engine.PassAction())
	_ = st.Apply(engine.BidAction(engine.Solo, engine.Clubs))
	obs := st.Observe(st.ToMove())
	bot := New(Config{Samples: 1000, Budget: 50 * time.Millisecond})
	t0 := time.Now()
	a, err := bot.Decide(context.Background(), &obs)
	if err != nil {
		t.Fatal(err)
	}
	// Unbounded, these 1000 samples take minutes: 10 s tells a kept budget from an ignored
	// one on however busy a machine (the bound is a margin, not a speed target).
	if d := time.Since(t0); d > 10*time.Second {
		t.Errorf("decision took %v with a 50ms budget", d)
	}
	if _, ok := pimc.FindLegal(obs.Legal, a); !ok {
		t.Fatalf("illegal %v", a)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	a, err = New(Config{Samples: 1000, Budget: -1}).Decide(ctx, &obs)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := pimc.FindLegal(obs.Legal, a); !ok {
		t.Fatalf("illegal %v", a)
	}
}
