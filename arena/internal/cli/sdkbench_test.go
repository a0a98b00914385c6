package cli

import (
	"context"
	"strconv"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/encoding/protowire"

	"github.com/tapparena/tapp/arena/internal/encode"
	"github.com/tapparena/tapp/arena/internal/referee"
	"github.com/tapparena/tapp/arena/wire/grpccodec"
	"github.com/tapparena/tapp/bots/random"
	"github.com/tapparena/tapp/bots/sdk"
	"github.com/tapparena/tapp/engine"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// BenchmarkGoSDKRoundTrip is a Go bot's side of a decision with little else: the Go SDK
// running the random bot, in this process, answers real requests of random modern deals (as
// the arena encodes them, each deal's game ended after its last answer, as the arena does)
// that a bare gRPC stream sends one at a time over loopback. Each op is one round trip:
// the SDK's reading, decoding, deciding and answering, and one bare round trip of gRPC at
// both ends; allocations are both ends'. The arena's figures (BenchmarkArenaGoBots) are
// not comparable with it: no arena, referee, store, or other tables.
func BenchmarkGoSDKRoundTrip(b *testing.B) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addr, streams, stop := serveEchoArena(b, grpc.ForceServerCodecV2(grpccodec.Codec()))
	defer stop()
	botDone := make(chan error, 1)
	go func() {
		botDone <- sdk.Run(ctx, sdk.Config{Arena: addr, Token: "t", Name: "random", MaxReconnect: time.Second}, random.New(1))
	}()
	var s tappv1.BotService_ConnectServer
	select {
	case s = <-streams:
	case err := <-botDone:
		b.Fatal(err)
	}
	var raw grpccodec.Raw
	if err := s.RecvMsg(&raw); err != nil { // the hello
		b.Fatal(err)
	}
	msgs := sdkBenchMessages(b)
	seq := uint64(0)
	send := func(kind protowire.Number, body []byte) {
		seq++
		head := protowire.AppendTag(nil, 1, protowire.VarintType)
		head = protowire.AppendVarint(head, seq)
		head = protowire.AppendTag(head, kind, protowire.BytesType)
		head = protowire.AppendVarint(head, uint64(len(body)))
		if err := s.SendMsg(&grpccodec.Encoded{Head: head, Body: body}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	cpu0 := processesCPU(nil)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m := &msgs[i%len(msgs)]
		send(5, m.request) // ConnectResponse.decision_request
		var answer grpccodec.Raw
		if err := s.RecvMsg(&answer); err != nil {
			b.Fatal(err)
		}
		if m.ended != nil {
			send(8, m.ended) // ConnectResponse.game_ended: the SDK forgets the game
		}
	}
	b.StopTimer()
	b.ReportMetric(float64((processesCPU(nil)-cpu0).Nanoseconds())/1e3/float64(b.N), "cpu-µs/trip")
	cancel()
}

// sdkBenchMessage is one request of BenchmarkGoSDKRoundTrip and, after a deal's last one,
// its game's end (the game id only: the SDK reads no more of it unless asked).
type sdkBenchMessage struct{ request, ended []byte }

// sdkBenchMessages are the requests of random modern deals, a game each, with a deadline an
// hour away.
func sdkBenchMessages(b *testing.B) []sdkBenchMessage {
	rules := engine.DefaultRules(engine.Modern)
	rng := engine.NewRand(1, 0)
	var out []sdkBenchMessage
	var legal []engine.Action
	var r referee.Request
	for n := 0; len(out) < 512; n++ {
		st, err := engine.NewState(rules, engine.DealFromSeed(rules, 1, uint64(n)), engine.Options{})
		if err != nil {
			b.Fatal(err)
		}
		game := "bench/" + strconv.Itoa(n)
		for k := 1; !st.Terminal(); k++ {
			r.Build(st, game, "r"+strconv.Itoa(k), time.Now().Add(time.Hour), 10*time.Second, st.NumEvents())
			out = append(out, sdkBenchMessage{request: encode.AppendRequest(nil, &r)})
			legal = st.LegalActions(legal[:0])
			if err := st.Apply(legal[rng.IntN(len(legal))]); err != nil {
				b.Fatal(err)
			}
		}
		out[len(out)-1].ended = protowire.AppendString(protowire.AppendTag(nil, 1, protowire.BytesType), game)
	}
	return out
}
