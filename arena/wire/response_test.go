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

// AppendAnswer writes what EncodeAnswer writes for the same answer, the think time as
// durationpb.New makes it, none when it is not positive.
func TestAppendAnswerIsEncodeAnswer(t *testing.T) {
	t.Parallel()
	for _, think := range []time.Duration{0, -time.Second, 1, 3 * time.Microsecond, 1500 * time.Millisecond, 2 * time.Second, 90 * time.Minute} {
		for _, action := range []string{"HA", "solo:C", ""} {
			a := &tappv1.Answer{GameId: "m-1/7", RequestId: "r12", Action: action}
			if think > 0 {
				a.ThinkTime = durationpb.New(think)
			}
			want := EncodeAnswer(a)
			got := AppendAnswer(make([]byte, 0, AnswerSize(a.GameId, a.RequestId, a.Action)), a.GameId, a.RequestId, a.Action, think)
			if !bytes.Equal(got, want) {
				t.Errorf("%v, think %v: appended %x, want %x", a, think, got, want)
			}
		}
	}
}
