package engine

import (
	"errors"
	"fmt"
	"testing"
)

// fuzzRules are the rule sets the fuzzer's first byte chooses from.
var fuzzRules = []string{
	"modern", "modern players=4", "modern frage=on", "modern players=4 pack=32 frage=on",
	"modern pack=32", "classic", "classic pot=on", "wuerttemberg", "wuerttemberg pot=on",
}

// FuzzApply drives a deal with byte-chosen actions, legal and illegal: Apply never panics, a
// refused action (always a *RuleError) leaves the state unchanged, an accepted one keeps every
// card in exactly one place, and a finished deal settles to zero. Seed corpus:
// testdata/fuzz/FuzzApply.
func FuzzApply(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte{5, 9, 200, 201, 202, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		r := mustRules(t, fuzzRules[int(data[0])%len(fuzzRules)])
		opts := Options{ForcedRamsch: r.Variant == Modern && data[1]&0x80 != 0}
		if r.Pot {
			opts.Pot = int(data[1] & 0x0F)
		}
		s, err := NewState(r, DealFromSeed(r, uint64(data[1]), uint64(len(data))), opts)
		if err != nil {
			t.Fatal(err)
		}
		rng := NewRand(uint64(len(data)), 3)
		data = data[2:]
		var buf []Action
		for i := 0; i < len(data); i++ {
			b := data[i]
			var a Action
			switch {
			case b < 160:
				buf = s.LegalActions(buf[:0])
				if len(buf) == 0 {
					a = CardAction(Card(b))
				} else {
					a = buf[int(b)%len(buf)]
				}
			case b < 250 && i+3 < len(data):
				a = Action{Kind: ActionKind(b - 160), Contract: Contract(data[i+1]), Suit: Suit(data[i+2]), Card: Card(data[i+3])}
				if b&1 == 0 {
					a.Kind = ActionKind(b % 12)
					a.Contract = Contract(data[i+1] % 12)
					a.Suit = Suit(data[i+2] % 5)
					a.Card = Card(data[i+3] % 38)
				}
				i += 3
			case b == 250:
				o := s.Observe(Seat(rng.IntN(r.Players)))
				st, err := o.Sample(rng)
				if err != nil {
					t.Fatalf("sample: %v", err)
				}
				if st.Terminal() != s.Terminal() || len(st.History()) != len(s.History()) {
					t.Fatalf("sample not at the same point")
				}
				continue
			default:
				a = Action{Kind: ActionKind(b)}
			}
			before := s.Clone()
			checkErr := s.Check(a)
			err := s.Apply(a)
			if (checkErr == nil) != (err == nil) {
				t.Fatalf("Check %v but Apply %v for %+v", checkErr, err, a)
			}
			if err != nil {
				var re *RuleError
				if !errors.As(err, &re) || re.Rule == "" {
					t.Fatalf("Apply(%+v): %v is not a *RuleError with a rule id", a, err)
				}
				if !statesEqual(before, s) {
					t.Fatalf("refused %+v changed the state", a)
				}
				continue
			}
			if err := invariants(s); err != nil {
				t.Fatalf("after %s: %v", a, err)
			}
		}
		if s.Terminal() && sumPayoff(s.Outcome()) != 0 {
			t.Fatalf("settlement does not sum to zero: %+v", s.Outcome())
		}
	})
}

// invariants: every card of the pack is in exactly one place (a hand, the lying tapp, the
// lay-away, or played), and the seat to move is at the table unless terminal.
func invariants(s *State) error {
	var all CardSet
	count := 0
	parts := []CardSet{s.tapp, s.discards}
	for seat := 0; seat < int(s.n); seat++ {
		parts = append(parts, s.hands[seat], s.played[seat])
	}
	for _, p := range parts {
		all |= p
		count += p.Len()
	}
	if all != s.rules.Pack() || count != s.rules.PackSize {
		return fmt.Errorf("cards not conserved: %d cards, missing %s", count, s.rules.Pack()&^all)
	}
	if s.Terminal() != (s.ToMove() == NoSeat) {
		return fmt.Errorf("terminal %v, to move %s", s.Terminal(), s.ToMove())
	}
	if !s.Terminal() && (s.ToMove() < 0 || int(s.ToMove()) >= s.rules.Players) {
		return fmt.Errorf("to move %s", s.ToMove())
	}
	return nil
}

// TestZeroState_NeverPanics: a zero State is inert.
func TestZeroState_NeverPanics(t *testing.T) {
	t.Parallel()
	var s State
	if err := s.Apply(PassAction()); err == nil {
		t.Errorf("zero state accepted an action")
	}
	_ = s.LegalActions(nil)
	_ = s.Observe(0)
	_ = s.EventsFor(0, 5)
	_ = s.Clone()
}
