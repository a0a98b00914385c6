package builtin

import (
	"context"
	"slices"
	"testing"

	"github.com/tapparena/tapp/engine"
)

func TestNames(t *testing.T) {
	t.Parallel()
	got := Names()
	want := []string{"heuristic", "kibitz", "random", "sleuth"}
	if !slices.Equal(got, want) {
		t.Fatalf("Names() = %v, want %v", got, want)
	}
}

func TestNewEveryName(t *testing.T) {
	t.Parallel()
	r := engine.DefaultRules(engine.Modern)
	s, err := engine.NewState(r, engine.DealFromSeed(r, 1, 0), engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range Names() {
		b, err := New(name, 7)
		if err != nil {
			t.Fatalf("New(%q): %v", name, err)
		}
		obs := s.Observe(s.ToMove())
		a, err := b.Decide(context.Background(), &obs)
		if err != nil {
			t.Fatalf("%s: Decide: %v", name, err)
		}
		if err := s.Check(a); err != nil {
			t.Fatalf("%s: Decide returned illegal %s: %v", name, a, err)
		}
	}
}

func TestNewUnknown(t *testing.T) {
	t.Parallel()
	if _, err := New("nosuchbot", 1); err == nil {
		t.Fatal(`New("nosuchbot") returned no error`)
	}
	if b, err := New(" Heuristic ", 1); err != nil || b == nil {
		t.Fatalf(`New(" Heuristic ") = %v, %v; want a bot`, b, err)
	}
}
