package wire

import (
	"bytes"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"

	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// A request encoded once by the referee and framed by the session must reach the bot as the
// very bytes proto.Marshal gives for the whole ConnectResponse.
func TestEncodedRequestIsTheMarshalledResponse(t *testing.T) {
	t.Parallel()
	req := &tappv1.DecisionRequest{GameId: "m1/3", RequestId: "r7", Legal: []string{"HA", "H7"},
		Observation: &tappv1.Observation{Seat: 2, Hand: []string{"HA", "H7", "CT"}}}
	for _, seq := range []uint64{1, 127, 128, 1 << 40} {
		encoded, err := MarshalRequest(req)
		if err != nil {
			t.Fatal(err)
		}
		data, err := Codec().Marshal(EncodeResponse(seq, ResponseDecisionRequest, encoded))
		if err != nil {
			t.Fatal(err)
		}
		got := data.Materialize()
		want, err := proto.MarshalOptions{Deterministic: true}.Marshal(&tappv1.ConnectResponse{Seq: seq,
			Message: &tappv1.ConnectResponse_DecisionRequest{DecisionRequest: req}})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("seq %d: framed %x, want %x", seq, got, want)
		}
	}
}

// Every other message still goes through the protobuf codec.
func TestCodecMarshalsMessages(t *testing.T) {
	t.Parallel()
	msg := &tappv1.ConnectResponse{Seq: 4, Message: &tappv1.ConnectResponse_GoingAway{GoingAway: &tappv1.GoingAway{Reason: "bye"}}}
	data, err := Codec().Marshal(msg)
	if err != nil {
		t.Fatal(err)
	}
	got := &tappv1.ConnectResponse{}
	if err := proto.Unmarshal(data.Materialize(), got); err != nil {
		t.Fatal(err)
	}
	if !proto.Equal(got, msg) {
		t.Errorf("got %v, want %v", got, msg)
	}
}

// An answer is encoded by hand to the very bytes proto.Marshal gives.
func TestEncodeAnswerIsProtoMarshal(t *testing.T) {
	t.Parallel()
	for _, a := range []*tappv1.Answer{
		{GameId: "m-1/7", RequestId: "r12", Action: "HA"},
		{GameId: "g", RequestId: "r1", Action: "solo:C", ThinkTime: durationpb.New(1500 * time.Millisecond)},
		{GameId: "g", RequestId: "r1", Action: "pass", ThinkTime: durationpb.New(3 * time.Microsecond)},
		{GameId: "g", RequestId: "r1", Action: "pass", ThinkTime: durationpb.New(2 * time.Second)},
		{GameId: "g", RequestId: "r2"},
	} {
		want, err := proto.MarshalOptions{Deterministic: true}.Marshal(&tappv1.ConnectRequest{Message: &tappv1.ConnectRequest_Answer{Answer: a}})
		if err != nil {
			t.Fatal(err)
		}
		if got := EncodeAnswer(a).Body; !bytes.Equal(got, want) {
			t.Errorf("%v: encoded %x, want %x", a, got, want)
		}
	}
}
