package wire

import (
	"reflect"
	"testing"

	"github.com/tapparena/tapp/arena/internal/encode/encodetest"
	"github.com/tapparena/tapp/arena/internal/protoconv"
	"github.com/tapparena/tapp/engine"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// TestObservationRoundTrip checks that what a Go bot rebuilds from the wire is exactly the
// observation the arena sent, at every decision of random deals of every variant.
func TestObservationRoundTrip(t *testing.T) {
	t.Parallel()
	for _, text := range []string{"wuerttemberg pot=on", "classic", "modern frage=on", "modern players=4", "modern pack=32"} {
		rules, err := engine.ParseRuleSet(text)
		if err != nil {
			t.Fatal(err)
		}
		rng := engine.NewRand(7, 0)
		for n := 0; n < 200; n++ {
			st, err := engine.NewState(rules, engine.DealFromSeed(rules, 3, uint64(n)), engine.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var legal []engine.Action
			for !st.Terminal() {
				seat := st.ToMove()
				want := st.Observe(seat)
				po := protoconv.ObservationToProto(&want)
				got, err := ObservationFromProto(po, protoconv.ActionsToProto(want.Legal))
				if err != nil {
					t.Fatalf("%s deal %d: %v", text, n, err)
				}
				if !reflect.DeepEqual(*got, want) {
					t.Fatalf("%s deal %d: round trip differs\n got %+v\nwant %+v", text, n, *got, want)
				}
				legal = st.LegalActions(legal[:0])
				if err := st.Apply(legal[rng.IntN(len(legal))]); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

func TestMalformedObservationsAreErrorsNotPanics(t *testing.T) {
	t.Parallel()
	cases := map[string]*tappv1.Observation{
		"bad rules":    {Rules: "chess"},
		"bad card":     {Rules: "modern", Hand: []string{"ZZ"}},
		"duplicate":    {Rules: "modern", Hand: []string{"HA", "HA"}},
		"too many":     {Rules: "modern", HandSizes: []int32{1, 2, 3, 4, 5}},
		"bad trump":    {Rules: "modern", Trump: "X"},
		"bad history":  {Rules: "modern", History: []*tappv1.Move{{Seat: 0, Action: "jump"}}},
		"long trick":   {Rules: "modern", Current: &tappv1.Trick{Cards: []string{"HA", "HT", "HK", "HQ", "HJ"}}},
		"bad void":     {Rules: "modern", Voids: []string{"Q"}},
		"bad contract": {Rules: "modern", Contract: "grand"},
		"bad called":   {Rules: "modern", Called: "H1"},
	}
	for name, po := range cases {
		if _, err := ObservationFromProto(po, nil); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := ObservationFromProto(&tappv1.Observation{Rules: "modern"}, []string{"nonsense"}); err == nil {
		t.Error("bad legal action: no error")
	}
}

// What a Go bot reads of a game's end is the engine's outcome and deal the arena settled,
// for random deals of every variant (Frage lay-aways among them).
func TestSettlementAndRevealRoundTrip(t *testing.T) {
	t.Parallel()
	for _, text := range encodetest.RuleSets {
		rules, err := engine.ParseRuleSet(text)
		if err != nil {
			t.Fatal(err)
		}
		rng := engine.NewRand(4, 0)
		for n := range 100 {
			deal := engine.DealFromSeed(rules, 2, uint64(n))
			st, err := engine.NewState(rules, deal, engine.Options{})
			if err != nil {
				t.Fatal(err)
			}
			encodetest.PlayOut(t, st, rng)
			want := st.Outcome()
			got, err := OutcomeFromProto(protoconv.SettlementForPlayers(protoconv.OutcomeToProto(want), rules.Players))
			if err != nil || got != want {
				t.Fatalf("%s deal %d: outcome %+v, %v; want %+v", text, n, got, err, want)
			}
			var discarded engine.CardSet
			for _, e := range st.Events() {
				if e.Kind == engine.EvDealEnd {
					discarded = e.Discards
				}
			}
			gotDeal, gotDiscarded, err := RevealFromProto(protoconv.RevealToProto(rules, deal, st))
			if err != nil || gotDeal != deal || gotDiscarded != discarded {
				t.Fatalf("%s deal %d: reveal %v, %s, %v; want %v, %s", text, n, gotDeal, gotDiscarded, err, deal, discarded)
			}
		}
	}
	if _, err := OutcomeFromProto(&tappv1.Settlement{Contract: "grand"}); err == nil {
		t.Error("a settlement with an unknown contract read without error")
	}
	if _, _, err := RevealFromProto(&tappv1.Reveal{Tapp: []string{"HA", "HA"}}); err == nil {
		t.Error("a reveal with a card twice read without error")
	}
}
