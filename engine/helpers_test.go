package engine

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// Deals used by the rule tests, in card notation (hands in seat order | tapp).
const (
	// dealA: forehand holds every club; middlehand spades and low hearts; rearhand high hearts
	// and diamonds; the tapp DK DT DA (25 points).
	dealA = "C6 C7 C8 C9 CJ CQ CK CT CA SA ST | S6 S7 S8 S9 SJ SQ SK H6 H7 H8 H9 | HJ HQ HK HT HA D6 D7 D8 D9 DJ DQ | DK DT DA"
	// dealB: mixed hands; the tapp H8 H9 DJ (2 points).
	dealB = "CA CT CK SA S6 HT H6 H7 DA D6 D7 | CQ CJ C9 ST SK S7 HA HK D8 D9 DT | C8 C7 C6 SQ SJ S9 S8 HQ HJ DK DQ | H8 H9 DJ"
	// dealC: four players, one suit each; the sixes in the tapp.
	dealC = "CA CT CK CQ SA ST SK SQ | CJ C9 C8 C7 SJ S9 S8 S7 | HA HT HK HQ HJ H9 H8 H7 | DA DT DK DQ DJ D9 D8 D7 | C6 S6 H6 D6"
)

func mustRules(t testing.TB, text string) RuleSet {
	t.Helper()
	r, err := ParseRuleSet(text)
	if err != nil {
		t.Fatalf("ParseRuleSet(%q): %v", text, err)
	}
	return r
}

func mustDeal(t testing.TB, r RuleSet, line string) Deal {
	t.Helper()
	d, err := ParseDeal(r, line)
	if err != nil {
		t.Fatalf("ParseDeal: %v", err)
	}
	return d
}

func mustCard(t testing.TB, text string) Card {
	t.Helper()
	c, err := ParseCard(text)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func mustCards(t testing.TB, text string) CardSet {
	t.Helper()
	c, err := ParseCardSet(text)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// newGame starts a deal from rule-set text and deal text, then plays moves.
func newGame(t testing.TB, rules, deal string, moves string) *State {
	t.Helper()
	r := mustRules(t, rules)
	s, err := NewState(r, mustDeal(t, r, deal), Options{})
	if err != nil {
		t.Fatal(err)
	}
	play(t, s, moves)
	return s
}

// play applies space-separated moves "seat:action", checking the seat to move.
func play(t testing.TB, s *State, moves string) {
	t.Helper()
	for _, m := range strings.Fields(moves) {
		seatText, actText, ok := strings.Cut(m, ":")
		if !ok {
			t.Fatalf("bad move %q", m)
		}
		a, err := ParseAction(actText)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.ToMove().String(); got != seatText {
			t.Fatalf("move %s: seat %s is to move (%s)", m, got, s.Decision())
		}
		if err := s.Apply(a); err != nil {
			t.Fatalf("move %s: %v", m, err)
		}
	}
}

// wantRuleErr checks that action is refused with the given rule id.
func wantRuleErr(t testing.TB, s *State, action, rule string) {
	t.Helper()
	a, err := ParseAction(action)
	if err != nil {
		t.Fatal(err)
	}
	before := s.Clone()
	err = s.Apply(a)
	var re *RuleError
	if !errors.As(err, &re) {
		t.Fatalf("%s: got %v, want a *RuleError %s", action, err, rule)
	}
	if re.Rule != rule {
		t.Fatalf("%s: got rule %s (%v), want %s", action, re.Rule, err, rule)
	}
	if !statesEqual(before, s) {
		t.Fatalf("%s: refused action changed the state", action)
	}
}

// finishFirst plays the first legal action until the deal ends.
func finishFirst(t testing.TB, s *State) {
	t.Helper()
	for !s.Terminal() {
		if err := s.Apply(s.LegalActions(nil)[0]); err != nil {
			t.Fatal(err)
		}
	}
}

// statesEqual compares two states field by field (slices by content, not capacity).
func statesEqual(a, b *State) bool { return reflect.DeepEqual(*a, *b) }

func sumPayoff(o Outcome) int {
	sum := o.PotAfter - o.PotBefore
	for _, p := range o.Payoff {
		sum += p
	}
	return sum
}
