package wire

import (
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/tapparena/tapp/arena/internal/encode"
	"github.com/tapparena/tapp/arena/internal/encode/encodetest"
	"github.com/tapparena/tapp/arena/internal/referee"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// benchEncoded is the requests of encodetest.States in wire form, as the arena sends them.
func benchEncoded(b *testing.B) [][]byte {
	states := encodetest.States(b, 200)
	encoded := make([][]byte, len(states))
	var req referee.Request
	for i, st := range states {
		req.Build(st, "m-0123456789/17", "r12", time.Unix(1e9, 0), time.Second, st.NumEvents())
		encoded[i] = encode.AppendRequest(nil, &req)
	}
	return encoded
}

// BenchmarkDecodeRequest is a Go bot's part: the request decoded from wire form and the
// engine's observation rebuilt from it.
func BenchmarkDecodeRequest(b *testing.B) {
	encoded := benchEncoded(b)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		req := &tappv1.DecisionRequest{}
		if err := proto.Unmarshal(encoded[i%len(encoded)], req); err != nil {
			b.Fatal(err)
		}
		if _, err := ObservationFromProto(req.GetObservation(), req.GetLegal()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeRequestDirect is BenchmarkDecodeRequest with DecodeRequest, as the Go SDK
// reads requests: the same observation, without the protobuf messages.
func BenchmarkDecodeRequestDirect(b *testing.B) {
	encoded := benchEncoded(b)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		r, err := DecodeRequest(encoded[i%len(encoded)])
		if err != nil || r.Err != nil {
			b.Fatal(err, r.Err)
		}
	}
}
