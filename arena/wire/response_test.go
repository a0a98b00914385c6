package wire

import (
	"bytes"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"

	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

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
		if got := EncodeAnswer(a); !bytes.Equal(got, want) {
			t.Errorf("%v: encoded %x, want %x", a, got, want)
		}
	}
}
