package search

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/tapparena/tapp/bots"
	"github.com/tapparena/tapp/bots/random"
	"github.com/tapparena/tapp/engine"
)

func ruleSets(t testing.TB) map[string]engine.RuleSet {
	out := map[string]engine.RuleSet{}
	for _, text := range []struct{ name, v string }{
		{"modern", "modern"}, {"classic", "classic"}, {"wuerttemberg", "wuerttemberg"},
	} {
		v, err := engine.ParseVariant(text.v)
		if err != nil {
			t.Fatal(err)
		}
		out[text.name] = engine.DefaultRules(v)
	}
	m := out["modern"]
	m4 := m
	m4.Players = 4
	out["modern-4p"] = m4
	m32 := m
	m32.PackSize = 32
	out["modern-32"] = m32
	m432 := m4
	m432.PackSize = 32
	out["modern-4p-32"] = m432
	mf := engine.DefaultRules(engine.Modern)
	mf.Frage = true
	mf.Stakes[engine.Frage], mf.Stakes[engine.Solo], mf.Stakes[engine.HeartSolo] = 5, 10, 15
	mf.Stakes[engine.Bettel], mf.Stakes[engine.Rufer] = 20, 20
	out["modern-frage"] = mf
	cp := out["classic"]
	cp.Pot = true
	out["classic-pot"] = cp
	for name, r := range out {
		if err := r.Validate(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	return out
}

// playDeal plays one deal with the given bots per seat and checks that every action is legal.
func playDeal(t testing.TB, r engine.RuleSet, deal engine.Deal, opts engine.Options, seat func(engine.Seat, engine.Decision) bots.Bot, script []engine.Action) *engine.State {
	t.Helper()
	st, err := engine.NewState(r, deal, opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for step := 0; !st.Terminal(); step++ {
		var a engine.Action
		if step < len(script) {
			a = script[step]
		} else {
			obs := st.Observe(st.ToMove())
			bot := seat(st.ToMove(), obs.Decision)
			a, err = bot.Decide(ctx, &obs)
			if err != nil {
				t.Fatalf("%s: Decide: %v", obs.Decision, err)
			}
			if _, ok := findLegal(obs.Legal, a); !ok {
				t.Fatalf("illegal action %v at %s decision; legal %v", a, obs.Decision, obs.Legal)
			}
		}
		if err := st.Apply(a); err != nil {
			t.Fatalf("apply %v: %v", a, err)
		}
		if step > 200 {
			t.Fatal("deal does not end")
		}
	}
	return st
}

// The bot's actions are legal in every variant, at every kind of decision, against random
// bidders (which make all sorts of contracts happen).
func TestBotLegalRandomGames(t *testing.T) {
	deals := 12
	if testing.Short() {
		deals = 3
	}
	bot := New(Config{Samples: 4, Budget: 20 * time.Millisecond, Seed: 1})
	for name, r := range ruleSets(t) {
		t.Run(name, func(t *testing.T) {
			for i := 0; i < deals; i++ {
				deal := engine.DealFromSeed(r, 77, uint64(i))
				rnd := random.New(uint64(i))
				me := engine.Seat(i % r.Players)
				playDeal(t, r, deal, engine.Options{}, func(s engine.Seat, dec engine.Decision) bots.Bot {
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
	sets := ruleSets(t)
	type tc struct {
		rules  string
		script []engine.Action
	}
	var cases []tc
	// modern: seat 1 says play, the others pass, seat 1 names the contract
	for _, rs := range []string{"modern-frage", "modern-4p"} {
		r := sets[rs]
		for _, c := range r.Contracts() {
			suits := []engine.Suit{engine.NoSuit}
			if c == engine.Solo || c == engine.Rufer || c == engine.Durch {
				suits = []engine.Suit{engine.Clubs, engine.Diamonds}
			}
			for _, su := range suits {
				script := []engine.Action{engine.PlayAction()}
				for k := 2; k < r.Players; k++ {
					script = append(script, engine.PassAction())
				}
				script = append(script, engine.PassAction(), engine.BidAction(c, su))
				cases = append(cases, tc{rs, script})
			}
		}
		// everybody passes: Ramsch
		var script []engine.Action
		for k := 0; k < r.Players; k++ {
			script = append(script, engine.PassAction())
		}
		cases = append(cases, tc{rs, script})
	}
	// older variants: forehand bids, the others pass
	for _, rs := range []string{"classic", "classic-pot", "wuerttemberg"} {
		for _, c := range sets[rs].Contracts() {
			cases = append(cases, tc{rs, []engine.Action{engine.BidAction(c, engine.NoSuit), engine.PassAction(), engine.PassAction()}})
		}
	}
	for i, c := range cases {
		r := sets[c.rules]
		name := fmt.Sprintf("%s/%v", c.rules, c.script[len(c.script)-1])
		t.Run(name, func(t *testing.T) {
			for k := 0; k < 2; k++ {
				deal := engine.DealFromSeed(r, 99, uint64(10*i+k))
				st := playDeal(t, r, deal, engine.Options{}, all, c.script)
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
	sets := ruleSets(t)
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
	r := ruleSets(t)["modern"]
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
	if _, ok := findLegal(obs.Legal, a); !ok {
		t.Fatalf("illegal %v", a)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	a, err = New(Config{Samples: 1000, Budget: -1}).Decide(ctx, &obs)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := findLegal(obs.Legal, a); !ok {
		t.Fatalf("illegal %v", a)
	}
}
