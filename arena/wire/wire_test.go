package wire

import (
	"encoding/base64"
	"reflect"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

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
				po := ObservationToProto(&want)
				got, err := ObservationFromProto(po, ActionsToProto(want.Legal))
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

func TestEventKindsMatchTheProtoEnum(t *testing.T) {
	t.Parallel()
	for k := engine.EvDealt; k <= engine.EvSettled; k++ {
		name := tappv1.EventKind_name[int32(EventKindToProto(k))]
		if name == "" || EventKindFromProto(EventKindToProto(k)) != k {
			t.Errorf("engine event %s maps to proto %q", k, name)
		}
	}
	for d := engine.DecideNone + 1; d <= engine.DecideCard; d++ {
		want := "DECISION_" + map[engine.Decision]string{engine.DecideBid: "BID", engine.DecideContract: "CONTRACT",
			engine.DecideTrump: "TRUMP", engine.DecideDiscard: "DISCARD", engine.DecideCall: "CALL", engine.DecideGive: "GIVE",
			engine.DecideTout: "TOUT", engine.DecideCard: "CARD"}[d]
		if got := DecisionToProto(d).String(); got != want {
			t.Errorf("decision %s maps to %s, want %s", d, got, want)
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

// A recorded request reads back from each of its three forms: wire form (records now), base64
// of it (records stored before schema version 4) and protobuf JSON (replay exports).
func TestDecodeSentReadsEveryRecordedForm(t *testing.T) {
	t.Parallel()
	want := &tappv1.DecisionRequest{GameId: "m1/2", RequestId: "r3", Legal: []string{"HA", "play"},
		Observation: &tappv1.Observation{Seat: 1, Hand: []string{"HA"}}}
	wireForm, err := MarshalRequest(want)
	if err != nil {
		t.Fatal(err)
	}
	jsonForm, err := protojson.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	forms := map[string][]byte{
		"wire":   wireForm,
		"base64": []byte(base64.StdEncoding.EncodeToString(wireForm)),
		"json":   jsonForm,
	}
	for name, sent := range forms {
		got, err := DecodeSent(sent)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !proto.Equal(got, want) {
			t.Errorf("%s: got %v, want %v", name, got, want)
		}
	}
	if _, err := DecodeSent([]byte{0x0A, 0xFF}); err == nil {
		t.Error("a truncated request decoded without error")
	}
}
