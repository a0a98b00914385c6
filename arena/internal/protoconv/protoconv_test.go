package protoconv

import (
	"encoding/base64"
	"slices"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/tapparena/tapp/engine"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

func TestEventKindsMatchTheProtoEnum(t *testing.T) {
	t.Parallel()
	for k := engine.EvDealt; k <= engine.EvSettled; k++ {
		name := tappv1.EventKind_name[int32(EventKindToProto(k))]
		if name == "" || engine.EventKind(EventKindToProto(k)-1) != k {
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

// The reveal's lay-away is the last deal end's of the log, read from its tail, in every
// variant and with Frage (whose declarer lays cards away), finished or not.
func TestRevealDiscardsAreTheLogs(t *testing.T) {
	t.Parallel()
	frage, err := engine.ParseRuleSet("modern frage=on")
	if err != nil {
		t.Fatal(err)
	}
	rulesets := []engine.RuleSet{engine.DefaultRules(engine.Wuerttemberg), engine.DefaultRules(engine.Classic), engine.DefaultRules(engine.Modern), frage}
	laidAway := 0
	for _, rules := range rulesets {
		rng := engine.NewRand(5, 0)
		for n := range uint64(200) {
			st, err := engine.NewState(rules, engine.DealFromSeed(rules, 5, n), engine.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var legal []engine.Action
			for moves := 0; !st.Terminal(); moves++ {
				if n%10 == 0 && moves == 3 {
					break // unfinished: no deal end
				}
				legal = st.LegalActions(legal[:0])
				if err := st.Apply(legal[rng.IntN(len(legal))]); err != nil {
					t.Fatal(err)
				}
			}
			var want []string
			for _, e := range st.Events() {
				if e.Kind == engine.EvDealEnd {
					want = CardsToProto(e.Discards)
				}
			}
			got := RevealToProto(rules, st.Deal(), st).GetDiscarded()
			if !slices.Equal(got, want) {
				t.Fatalf("%s deal %d: discarded %v, the log says %v", rules, n, got, want)
			}
			laidAway += len(got)
		}
	}
	if laidAway == 0 {
		t.Fatal("no deal laid cards away: the test sees nothing")
	}
}
