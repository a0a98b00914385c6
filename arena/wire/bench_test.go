package wire

import (
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/tapparena/tapp/engine"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// benchStates returns the state before every decision of a few random modern deals: the mix
// of requests a random bot gets.
func benchStates(b *testing.B) []*engine.State {
	b.Helper()
	rules := engine.DefaultRules(engine.Modern)
	rng := engine.NewRand(11, 0)
	var out []*engine.State
	var legal []engine.Action
	for n := 0; len(out) < 200; n++ {
		st, err := engine.NewState(rules, engine.DealFromSeed(rules, 5, uint64(n)), engine.Options{})
		if err != nil {
			b.Fatal(err)
		}
		for !st.Terminal() {
			out = append(out, st.Clone())
			legal = st.LegalActions(legal[:0])
			if err := st.Apply(legal[rng.IntN(len(legal))]); err != nil {
				b.Fatal(err)
			}
		}
	}
	return out
}

func benchRequest(st *engine.State) *tappv1.DecisionRequest {
	obs := st.Observe(st.ToMove())
	return &tappv1.DecisionRequest{
		GameId: "m-0123456789/17", RequestId: "r12", Decision: DecisionToProto(obs.Decision),
		Legal: ActionsToProto(obs.Legal), Deadline: Timestamp(time.Unix(1e9, 0)), OverageLeft: Duration(time.Second),
		Observation: ObservationToProto(&obs),
	}
}

// benchEncoded is benchStates' requests in wire form.
func benchEncoded(b *testing.B) [][]byte {
	states := benchStates(b)
	encoded := make([][]byte, len(states))
	for i, st := range states {
		var err error
		if encoded[i], err = MarshalRequest(benchRequest(st)); err != nil {
			b.Fatal(err)
		}
	}
	return encoded
}

// BenchmarkEncodeRequest is the arena's part of a decision request: the seat's observation
// built and encoded in wire form.
func BenchmarkEncodeRequest(b *testing.B) {
	states := benchStates(b)
	b.ReportAllocs()
	size := 0
	for i := 0; b.Loop(); i++ {
		enc, err := MarshalRequest(benchRequest(states[i%len(states)]))
		if err != nil {
			b.Fatal(err)
		}
		size += len(enc)
	}
	b.ReportMetric(float64(size)/float64(b.N), "bytes/request")
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

// BenchmarkAppendRequest is BenchmarkEncodeRequest with the hand-written encoder the referee
// uses: the same bytes, without building the protobuf messages.
func BenchmarkAppendRequest(b *testing.B) {
	states := benchStates(b)
	b.ReportAllocs()
	var buf []byte
	for i := 0; b.Loop(); i++ {
		st := states[i%len(states)]
		obs := st.Observe(st.ToMove())
		buf = AppendRequest(buf[:0], &Request{GameID: "m-0123456789/17", RequestID: "r12", Legal: obs.Legal,
			Deadline: time.Unix(1e9, 0), OverageLeft: time.Second, Observation: &obs})
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
