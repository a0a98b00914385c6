package grpccodec

import (
	"bytes"
	"testing"

	"google.golang.org/grpc/mem"
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

// A Raw holds a copy of the message, whatever gRPC does with its buffer afterwards; received
// into again, it reuses its bytes when they are large enough, and never keeps more than
// maxReuse for the next message.
func TestRawCopiesAndReuses(t *testing.T) {
	t.Parallel()
	c := Codec()
	var raw Raw
	first := []byte("a decision request")
	if err := c.Unmarshal(mem.BufferSlice{mem.SliceBuffer(first)}, &raw); err != nil {
		t.Fatal(err)
	}
	kept := raw.B
	first[0] = 'X' // gRPC reuses its buffer
	if string(raw.B) != "a decision request" {
		t.Fatalf("raw %q changed with gRPC's buffer", raw.B)
	}
	if err := c.Unmarshal(mem.BufferSlice{mem.SliceBuffer([]byte("an ")), mem.SliceBuffer([]byte("answer"))}, &raw); err != nil {
		t.Fatal(err)
	}
	if string(raw.B) != "an answer" || &raw.B[0] != &kept[0] {
		t.Fatalf("second message %q: want it in the first one's bytes", raw.B)
	}
	big := bytes.Repeat([]byte{'b'}, maxReuse+1)
	if err := c.Unmarshal(mem.BufferSlice{mem.SliceBuffer(big)}, &raw); err != nil || !bytes.Equal(raw.B, big) {
		t.Fatalf("large message: %v", err)
	}
	if err := c.Unmarshal(mem.BufferSlice{mem.SliceBuffer([]byte("small"))}, &raw); err != nil || string(raw.B) != "small" {
		t.Fatalf("after a large message: %q %v", raw.B, err)
	}
	if cap(raw.B) > maxReuse {
		t.Fatalf("kept %d bytes after a large message, want at most %d", cap(raw.B), maxReuse)
	}
}
