package engine

import (
	"math"
	"strings"
	"testing"
)

// R-POT-CAP: the pot holds at most MaxPot; a payment into it (the ante, a lost Frage's, a
// lost Solo's) that would take it past MaxPot pays only what fills it. The payments between
// the players are those of R-POT as ever.
func TestPotCap_R_POT_CAP(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		contract Contract
		points   int // the declarer's
		potIn    int
		ante     int // what the dealer (seat 2) pays in
		paidIn   int // what the declarer (seat 1) pays in (negative: takes out)
	}{
		{"a lost Solo doubles the pot below the cap", Solo, 59, 1000, 2, 1002},
		{"a lost Solo fills the pot to the cap", Solo, 59, MaxPot/2 + 10, 2, MaxPot/2 - 12},
		{"the ante fills the pot to the cap", Solo, 59, MaxPot - 1, 1, 0},
		{"a full pot takes no ante and no lost Solo", Solo, 59, MaxPot, 0, 0},
		{"a full pot takes no lost Frage", Frage, 53, MaxPot, 0, 0},
		{"a lost Frage fills the pot to the cap", Frage, 53, MaxPot - 3, 2, 1},
		{"a won Solo takes the full pot", Solo, 75, MaxPot, 0, -MaxPot},
	}
	for _, tc := range tests {
		capped := scored(t, "classic pot=on", tc.contract, tc.points, false, false, tc.potIn)
		free := scored(t, "classic pot=on", tc.contract, tc.points, false, false, 0) // the same game, a pot far from the cap
		if want := tc.potIn + tc.ante + tc.paidIn; capped.PotAfter != want || capped.PotAfter > MaxPot {
			t.Errorf("%s: pot %d→%d, want %d (at most %d)", tc.name, tc.potIn, capped.PotAfter, want, MaxPot)
		}
		// What the players pay each other does not change; only what goes into the pot.
		if capped.Payoff[0] != free.Payoff[0] {
			t.Errorf("%s: defender's payoff %d, want %d as without the cap", tc.name, capped.Payoff[0], free.Payoff[0])
		}
		freePaidIn := free.PotAfter - 2 // the uncapped pot started at 0 and took the ante
		if got, want := capped.Payoff[1], free.Payoff[1]+freePaidIn-tc.paidIn; got != want {
			t.Errorf("%s: declarer's payoff %d, want %d", tc.name, got, want)
		}
		if got, want := capped.Payoff[2], free.Payoff[2]+2-tc.ante; got != want {
			t.Errorf("%s: dealer's payoff %d, want %d", tc.name, got, want)
		}
	}
}

// A pot carried in above the cap is refused with the rule's id.
func TestPotCarriedInAboveTheCapIsAnError_R_POT_CAP(t *testing.T) {
	t.Parallel()
	r := mustRules(t, "classic pot=on")
	if _, err := NewState(r, DealFromSeed(r, 1, 1), Options{Pot: MaxPot}); err != nil {
		t.Errorf("a full pot carried in: %v", err)
	}
	if _, err := NewState(r, DealFromSeed(r, 1, 1), Options{Pot: MaxPot + 1}); err == nil || !strings.Contains(err.Error(), "R-POT-CAP") {
		t.Errorf("a pot of MaxPot+1 carried in: %v, want an error naming R-POT-CAP", err)
	}
}

// R-POT, R-POT-CAP over a long session of random play, the pot carried from deal to deal as
// the arena does: the lost Solos that double it would take it past 32 bits within about a
// hundred deals and past 64 bits within a few thousand; with the cap every pot and payoff
// fits the wire's 32-bit fields and every settlement sums to zero.
func TestPotStaysWithinTheCapOverALongSession_R_POT_CAP(t *testing.T) {
	t.Parallel()
	for _, text := range []string{"classic pot=on", "wuerttemberg pot=on"} {
		r := mustRules(t, text)
		rng := NewRand(23, 0)
		var legal []Action
		pot, full := 0, 0
		for n := range 8000 {
			s, err := NewState(r, DealFromSeed(r, 23, uint64(n)), Options{Pot: pot})
			if err != nil {
				t.Fatalf("%s deal %d: %v", text, n, err)
			}
			for !s.Terminal() {
				legal = s.LegalActions(legal[:0])
				if err := s.Apply(legal[rng.IntN(len(legal))]); err != nil {
					t.Fatal(err)
				}
			}
			o := s.Outcome()
			if sumPayoff(o) != 0 || o.PotAfter < 0 || o.PotAfter > MaxPot {
				t.Fatalf("%s deal %d: payoff %v pot %d→%d: R-POT-CAP broken", text, n, o.Payoff, o.PotBefore, o.PotAfter)
			}
			for _, p := range o.Payoff {
				if p > math.MaxInt32 || p < math.MinInt32 {
					t.Fatalf("%s deal %d: payoff %v does not fit 32 bits", text, n, o.Payoff)
				}
			}
			if o.PotAfter == MaxPot {
				full++
			}
			pot = o.PotAfter
		}
		if full == 0 {
			t.Errorf("%s: the pot never reached the cap in 8000 random deals; the test shows nothing", text)
		}
	}
}
