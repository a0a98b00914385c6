// Package bottest holds what the tests of the built-in bots share: the rule sets every bot
// must handle and a driver that plays a deal with a bot per seat, checking every answer.
package bottest

import (
	"context"
	"testing"

	"github.com/tapparena/tapp/bots"
	"github.com/tapparena/tapp/engine"
)

// RuleSets returns the rule sets a bot must play, by name: the three variants, modern with
// four players, the 32-card pack (both), Frage on, and classic with the pot.
func RuleSets(t testing.TB) map[string]engine.RuleSet {
	t.Helper()
	out := map[string]engine.RuleSet{
		"modern":       engine.DefaultRules(engine.Modern),
		"classic":      engine.DefaultRules(engine.Classic),
		"wuerttemberg": engine.DefaultRules(engine.Wuerttemberg),
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

// PlayDeal plays one deal: the first moves from script, then each seat's bot (by seat and
// decision). Every answer must be one of the legal actions exactly.
func PlayDeal(t testing.TB, r engine.RuleSet, deal engine.Deal, opts engine.Options, seat func(engine.Seat, engine.Decision) bots.Bot, script []engine.Action) *engine.State {
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
			a, err = seat(st.ToMove(), obs.Decision).Decide(ctx, &obs)
			if err != nil {
				t.Fatalf("%s: Decide: %v", obs.Decision, err)
			}
			if !legal(obs.Legal, a) {
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

func legal(list []engine.Action, a engine.Action) bool {
	for _, l := range list {
		if l == a {
			return true
		}
	}
	return false
}

// ScriptedContracts lists biddings that make every contract happen with every table family:
// modern (Frage on, and four players) with seat 1 declaring each contract after the others
// pass, and everybody passing (Ramsch); the older variants with forehand bidding each
// contract. Name says which.
func ScriptedContracts(t testing.TB) []Scripted {
	sets := RuleSets(t)
	var out []Scripted
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
				out = append(out, Scripted{rs, r, script})
			}
		}
		var script []engine.Action
		for k := 0; k < r.Players; k++ {
			script = append(script, engine.PassAction())
		}
		out = append(out, Scripted{rs, r, script})
	}
	for _, rs := range []string{"classic", "classic-pot", "wuerttemberg"} {
		for _, c := range sets[rs].Contracts() {
			out = append(out, Scripted{rs, sets[rs], []engine.Action{engine.BidAction(c, engine.NoSuit), engine.PassAction(), engine.PassAction()}})
		}
	}
	return out
}

// Scripted is a rule set with the start of a bidding.
type Scripted struct {
	Name   string
	Rules  engine.RuleSet
	Script []engine.Action
}
