package random

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/tapparena/tapp/engine"
)

func ruleSets(t *testing.T) []engine.RuleSet {
	var out []engine.RuleSet
	for _, text := range []string{
		"wuerttemberg", "wuerttemberg tout=2 pot=on", "classic", "classic pot=on",
		"modern", "modern frage=on", "modern pack=32", "modern players=4",
		"modern players=4 frage=on", "modern players=4 pack=32",
	} {
		r, err := engine.ParseRuleSet(text)
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		out = append(out, r)
	}
	return out
}

// play plays deal number i of seed with random bots seeded botSeed+seat at every seat and
// returns the history; every answer must be legal (in obs.Legal and accepted by Apply).
func play(t *testing.T, r engine.RuleSet, seed, i, botSeed uint64, opts engine.Options) []engine.Move {
	t.Helper()
	s, err := engine.NewState(r, engine.DealFromSeed(r, seed, i), opts)
	if err != nil {
		t.Fatal(err)
	}
	bots := make([]*Bot, r.Players)
	for p := range bots {
		bots[p] = New(botSeed + uint64(p)).(*Bot)
	}
	for !s.Terminal() {
		seat := s.ToMove()
		obs := s.Observe(seat)
		a, err := bots[seat].Decide(context.Background(), &obs)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, l := range obs.Legal {
			found = found || l == a
		}
		if !found {
			t.Fatalf("%s: %s not in obs.Legal %v", r, a, obs.Legal)
		}
		if err := s.Apply(a); err != nil {
			t.Fatalf("%s: illegal %s: %v", r, a, err)
		}
	}
	return append([]engine.Move(nil), s.History()...)
}

// TestAlwaysLegal plays thousands of deals of every variant and table size (forced Ramsch
// included, R-SESSION-3) and checks every answer is legal.
func TestAlwaysLegal(t *testing.T) {
	t.Parallel()
	deals := 1000
	if testing.Short() {
		deals = 200
	}
	for _, r := range ruleSets(t) {
		t.Run(r.String(), func(t *testing.T) {
			t.Parallel()
			for i := 0; i < deals; i++ {
				opts := engine.Options{ForcedRamsch: r.Variant == engine.Modern && i%20 == 19}
				play(t, r, 3, uint64(i), uint64(i)*7, opts)
			}
		})
	}
}

// TestReproducible: the same seeds give the same deal history, also when many deals run at
// once in any order; another bot seed gives another history.
func TestReproducible(t *testing.T) {
	t.Parallel()
	r := engine.DefaultRules(engine.Modern)
	const n = 64
	first := make([][]engine.Move, n)
	for i := range first {
		first[i] = play(t, r, 9, uint64(i), 42, engine.Options{})
	}
	var wg sync.WaitGroup
	second := make([][]engine.Move, n)
	for i := n - 1; i >= 0; i-- {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			second[i] = play(t, r, 9, uint64(i), 42, engine.Options{})
		}(i)
	}
	wg.Wait()
	differ := 0
	for i := range first {
		if !slices.Equal(first[i], second[i]) {
			t.Fatalf("deal %d: history differs on replay:\n%v\n%v", i, first[i], second[i])
		}
		if !slices.Equal(first[i], play(t, r, 9, uint64(i), 43, engine.Options{})) {
			differ++
		}
	}
	if differ < n/2 {
		t.Errorf("another bot seed changed only %d of %d histories", differ, n)
	}
}

// TestSameObservationSameAction: asking twice, or from a copy of the observation, gives the
// same action.
func TestSameObservationSameAction(t *testing.T) {
	t.Parallel()
	r := engine.DefaultRules(engine.Classic)
	s, err := engine.NewState(r, engine.DealFromSeed(r, 1, 1), engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b := New(5)
	for !s.Terminal() {
		obs := s.Observe(s.ToMove())
		a1, _ := b.Decide(context.Background(), &obs)
		again := s.Observe(s.ToMove())
		a2, _ := b.Decide(context.Background(), &again)
		if a1 != a2 {
			t.Fatalf("same observation: %s then %s", a1, a2)
		}
		if err := s.Apply(a1); err != nil {
			t.Fatal(err)
		}
	}
}

// TestUniform: over many decisions the choice is spread evenly over the legal actions
// (each index within 10% of its expected count).
func TestUniform(t *testing.T) {
	t.Parallel()
	r := engine.DefaultRules(engine.Modern)
	counts := map[int][]int{} // by number of legal actions
	for i := 0; i < 400; i++ {
		s, err := engine.NewState(r, engine.DealFromSeed(r, 77, uint64(i)), engine.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for !s.Terminal() {
			obs := s.Observe(s.ToMove())
			k := Choose(uint64(i), &obs)
			n := len(obs.Legal)
			if counts[n] == nil {
				counts[n] = make([]int, n)
			}
			counts[n][k]++
			if err := s.Apply(obs.Legal[k]); err != nil {
				t.Fatal(err)
			}
		}
	}
	for n, c := range counts {
		total := 0
		for _, x := range c {
			total += x
		}
		if total < 200*n {
			continue // too few samples to judge
		}
		exp := float64(total) / float64(n)
		for k, x := range c {
			if d := float64(x) - exp; d > 0.1*exp || d < -0.1*exp {
				t.Errorf("%d legal actions: index %d chosen %d times, expected about %.0f", n, k, x, exp)
			}
		}
	}
}

func TestNoLegal(t *testing.T) {
	t.Parallel()
	if _, err := New(1).Decide(context.Background(), &engine.Observation{}); err == nil {
		t.Error("Decide with no legal action returned no error")
	}
}
