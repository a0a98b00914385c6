package engine

import (
	"reflect"
	"testing"
)

// ObserveInto gives what Observe gives (an empty list may be empty where Observe's is nil), for every seat (and the public view) at every
// decision of random deals of every variant, into one reused observation: its slices hold
// nothing of an earlier observation, however long that one's were.
func TestObserveIntoIsObserve(t *testing.T) {
	t.Parallel()
	rng := NewRand(5, 6)
	var o Observation
	for _, text := range []string{"modern", "modern players=4", "modern frage=on", "classic", "wuerttemberg"} {
		r := mustRules(t, text)
		for n := range 40 {
			s, err := NewState(r, DealFromSeed(r, 9, uint64(n)), Options{})
			if err != nil {
				t.Fatal(err)
			}
			for {
				for seat := NoSeat; seat < Seat(r.Players); seat++ {
					s.ObserveInto(seat, &o)
					if got, want := emptyAsNil(o), emptyAsNil(s.Observe(seat)); !reflect.DeepEqual(got, want) {
						t.Fatalf("%s, deal %d, seat %d: ObserveInto =\n%+v\nObserve =\n%+v", text, n, seat, o, want)
					}
				}
				if s.Terminal() {
					break
				}
				legal := s.LegalActions(nil)
				if err := s.Apply(legal[rng.IntN(len(legal))]); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

// BenchmarkObserveInto is BenchmarkObserve into a reused observation: no allocation.
func BenchmarkObserveInto(b *testing.B) {
	r := DefaultRules(Modern)
	s, _ := NewState(r, DealFromSeed(r, 1, 0), Options{})
	legal := s.LegalActions(nil)
	for len(s.tricks[:s.nTricks]) < 4 {
		legal = s.LegalActions(legal[:0])
		if err := s.Apply(legal[0]); err != nil {
			b.Fatal(err)
		}
	}
	var o Observation
	b.ReportAllocs()
	for b.Loop() {
		s.ObserveInto(s.ToMove(), &o)
	}
}

// emptyAsNil is o with its empty lists nil.
func emptyAsNil(o Observation) Observation {
	if len(o.Legal) == 0 {
		o.Legal = nil
	}
	if len(o.History) == 0 {
		o.History, o.Bids = nil, nil
	}
	if len(o.Bids) == 0 {
		o.Bids = nil
	}
	if len(o.Tricks) == 0 {
		o.Tricks = nil
	}
	return o
}
