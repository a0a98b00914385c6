package protoconv

import (
	"encoding/base64"
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
