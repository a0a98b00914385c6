package server

import (
	"bytes"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/tapparena/tapp/arena/internal/protoconv"
	wf "github.com/tapparena/tapp/arena/internal/wireform"
	"github.com/tapparena/tapp/arena/wire/grpccodec"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// An answer is read straight into an Answer; anything else, or an answer in another shape,
// reads as protobuf reads it.
func TestRawRequestDecode(t *testing.T) {
	t.Parallel()
	for _, msg := range []*tappv1.ConnectRequest{
		{Message: &tappv1.ConnectRequest_Answer{Answer: &tappv1.Answer{GameId: "m/1", RequestId: "r3", Action: "HA"}}},
		{Message: &tappv1.ConnectRequest_Answer{Answer: &tappv1.Answer{GameId: "m/1", RequestId: "r3", Action: "pass",
			ThinkTime: durationpb.New(1234567 * time.Microsecond)}}},
		{Message: &tappv1.ConnectRequest_Answer{Answer: &tappv1.Answer{}}},
		{Message: &tappv1.ConnectRequest_Hello{Hello: &tappv1.Hello{Name: "x", Capacity: 3}}},
		{},
	} {
		b, err := proto.Marshal(msg)
		if err != nil {
			t.Fatal(err)
		}
		got, err := decodeRequest(&grpccodec.Raw{B: b})
		if err != nil || !proto.Equal(got, msg) {
			t.Errorf("decode(%v) = %v, %v", msg, got, err)
		}
	}
	// Invalid UTF-8 in an answer is refused as protobuf refuses it.
	bad := []byte{0x12, 0x03, 0x1a, 0x01, 0xff}
	if _, err := decodeRequest(&grpccodec.Raw{B: bad}); err == nil {
		t.Error("an answer with invalid UTF-8 decoded")
	}
	if _, err := decodeRequest(&grpccodec.Raw{B: []byte{0x12, 0x09, 0x0a}}); err == nil {
		t.Error("a truncated answer decoded")
	}
}

// A request encoded once by the referee and framed by the session must reach the bot as the
// very bytes proto.Marshal gives for the whole ConnectResponse.
func TestEncodedRequestIsTheMarshalledResponse(t *testing.T) {
	t.Parallel()
	req := &tappv1.DecisionRequest{GameId: "m1/3", RequestId: "r7", Legal: []string{"HA", "H7"},
		Observation: &tappv1.Observation{Seat: 2, Hand: []string{"HA", "H7", "CT"}}}
	for _, seq := range []uint64{1, 127, 128, 1 << 40} {
		encoded, err := protoconv.MarshalRequest(req)
		if err != nil {
			t.Fatal(err)
		}
		framed := frameInFront(append(make([]byte, maxResponseHead), encoded...), seq, wf.ResponseDecisionRequest)
		data, err := grpccodec.Codec().Marshal(&grpccodec.Encoded{Body: framed})
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

// A message framed in the room in front of it is its head and its body, whatever the sizes of
// its seq and its body; the body is left where it was.
func TestFrameInFrontIsEncodeResponse(t *testing.T) {
	t.Parallel()
	for _, seq := range []uint64{1, 127, 128, 1 << 40, 1<<64 - 1} {
		for _, size := range []int{0, 1, 127, 128, 20000} {
			body := bytes.Repeat([]byte{0x5a}, size)
			buf := append(make([]byte, maxResponseHead), body...)
			got := frameInFront(buf, seq, wf.ResponseDecisionRequest)
			want := append(appendResponseHead(nil, seq, wf.ResponseDecisionRequest, size), body...)
			if !bytes.Equal(got, want) {
				t.Fatalf("seq %d, body %d bytes: framed %x, want %x", seq, size, got, want)
			}
			if !bytes.Equal(buf[maxResponseHead:], body) {
				t.Fatalf("seq %d, body %d bytes: the body moved", seq, size)
			}
		}
	}
}
