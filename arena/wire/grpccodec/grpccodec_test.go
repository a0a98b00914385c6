package grpccodec

import (
	"testing"

	"google.golang.org/protobuf/proto"

	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

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
