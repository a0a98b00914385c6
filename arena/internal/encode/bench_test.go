package encode

import (
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/encode/encodetest"
	"github.com/tapparena/tapp/arena/internal/protoconv"
	"github.com/tapparena/tapp/arena/internal/referee"
	"github.com/tapparena/tapp/engine"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// benchRequest is the request for st's decision as protobuf messages, the reference path.
func benchRequest(st *engine.State) *tappv1.DecisionRequest {
	obs := st.Observe(st.ToMove())
	return &tappv1.DecisionRequest{
		GameId: "m-0123456789/17", RequestId: "r12", Decision: protoconv.DecisionToProto(obs.Decision),
		Legal: protoconv.ActionsToProto(obs.Legal), Deadline: protoconv.Timestamp(time.Unix(1e9, 0)),
		OverageLeft: protoconv.Duration(time.Second), Observation: protoconv.ObservationToProto(&obs),
	}
}

// BenchmarkEncodeRequest is BenchmarkAppendRequest the reference way: the protobuf messages
// built and marshalled.
func BenchmarkEncodeRequest(b *testing.B) {
	states := encodetest.States(b, 200)
	b.ReportAllocs()
	size := 0
	for i := 0; b.Loop(); i++ {
		enc, err := protoconv.MarshalRequest(benchRequest(states[i%len(states)]))
		if err != nil {
			b.Fatal(err)
		}
		size += len(enc)
	}
	b.ReportMetric(float64(size)/float64(b.N), "bytes/request")
}

// BenchmarkAppendRequest is the encoder alone, as a bot's request costs it: the seat's
// observation made and encoded in wire form, the same bytes as BenchmarkEncodeRequest's.
func BenchmarkAppendRequest(b *testing.B) {
	states := encodetest.States(b, 200)
	b.ReportAllocs()
	var buf []byte
	for i := 0; b.Loop(); i++ {
		st := states[i%len(states)]
		obs := st.Observe(st.ToMove())
		buf = AppendRequest(buf[:0], &referee.Request{GameID: "m-0123456789/17", RequestID: "r12", Legal: obs.Legal,
			Deadline: time.Unix(1e9, 0), OverageLeft: time.Second, Observation: &obs})
	}
}

// BenchmarkBuildAndAppendRequest is the arena's whole part of a decision request: the
// request built from the state as the referee builds it (referee.Request.Build: the seat's
// observation, legal actions and events) and encoded.
func BenchmarkBuildAndAppendRequest(b *testing.B) {
	states := encodetest.States(b, 200)
	b.ReportAllocs()
	var buf []byte
	var req referee.Request
	for i := 0; b.Loop(); i++ {
		st := states[i%len(states)]
		req.Build(st, "m-0123456789/17", "r12", time.Unix(1e9, 0), time.Second, st.NumEvents())
		buf = AppendRequest(buf[:0], &req)
	}
}
