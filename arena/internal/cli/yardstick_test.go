package cli

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/encoding/protowire"

	"github.com/tapparena/tapp/arena/internal/encode"
	"github.com/tapparena/tapp/arena/internal/referee"
	"github.com/tapparena/tapp/arena/wire/grpccodec"
	"github.com/tapparena/tapp/engine"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// The yardstick of the arena over gRPC (issue 31): a raw grpc-go bidirectional-stream echo with
// the traffic of BenchmarkArenaGoBots and nothing else. The test process keeps `tables` round
// trips in flight, each one a real decision request of a random deal (its bytes as the arena
// sends them) to one of three client processes, in turn, over one stream each; a client
// answers each message at once, on one thread as the simple built-in bots run, with an answer
// naming it. No arena, referee, engine, store or SDK: what the arena's rate has below this
// one, and its CPU per decision above this one's per round trip, is the arena's own cost.
//
// BenchmarkArenaGoBots runs the yardstick in the same process right before each of its runs
// and reports its figures as ratios to it; BenchmarkEchoYardstick runs it alone.

// echoClients is the number of client processes: the three bots of a modern table.
const echoClients = 3

// echoYardstick is one run of the echo: round trips per second, and the CPU time of all the
// processes (this one and the clients) per round trip.
type echoYardstick struct {
	rate       float64 // round trips per second
	cpuPerTrip time.Duration
	trips      int
}

// BenchmarkEchoYardstick runs the echo alone at 64 and 128 round trips in flight; each op is
// one round trip.
func BenchmarkEchoYardstick(b *testing.B) {
	for _, tables := range []int{64, 128} {
		b.Run(fmt.Sprintf("tables=%d", tables), func(b *testing.B) {
			y := runYardstick(b, tables, b.N)
			b.ReportMetric(y.rate, "trips/s")
			b.ReportMetric(float64(y.cpuPerTrip.Nanoseconds())/1e3, "cpu-µs/trip")
		})
	}
}

// serveEchoArena serves echoArena on a loopback port with the given server options: its
// address, the streams bots open on it, and how to stop it.
func serveEchoArena(b *testing.B, opts ...grpc.ServerOption) (string, chan tappv1.BotService_ConnectServer, func()) {
	b.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	streams := make(chan tappv1.BotService_ConnectServer)
	srv := grpc.NewServer(opts...)
	tappv1.RegisterBotServiceServer(srv, echoArena{streams: streams})
	go func() { _ = srv.Serve(lis) }()
	return lis.Addr().String(), streams, srv.Stop
}

// runYardstick runs the echo for trips round trips with tables in flight.
func runYardstick(b *testing.B, tables, trips int) echoYardstick {
	b.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addr, streams, stop := serveEchoArena(b, grpc.ForceServerCodecV2(grpccodec.Codec()))
	defer stop()
	var clients []*echoLine
	var cmds []*exec.Cmd
	for range echoClients {
		cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "TAPP_BENCH_YARDSTICK="+addr)
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		cmds = append(cmds, cmd)
		defer func() { cancel(); _ = cmd.Wait() }()
		select {
		case s := <-streams:
			clients = append(clients, newEchoLine(s))
		case <-time.After(10 * time.Second):
			b.Fatal("echo client did not connect")
		}
	}
	bodies := yardstickBodies(b)
	for _, c := range clients { // a first round trip each, so that every connection is warm
		if err := c.roundTrip(bodies[0]); err != nil {
			b.Fatal(err)
		}
	}

	var next sync.WaitGroup
	var mu sync.Mutex
	left := trips
	take := func() bool {
		mu.Lock()
		defer mu.Unlock()
		left--
		return left >= 0
	}
	cpu0 := processesCPU(cmds)
	start := time.Now()
	for t := range tables {
		next.Go(func() {
			for k := t; take(); k++ {
				if err := clients[k%len(clients)].roundTrip(bodies[k%len(bodies)]); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	next.Wait()
	elapsed := time.Since(start)
	cpu := processesCPU(cmds) - cpu0
	return echoYardstick{rate: float64(trips) / elapsed.Seconds(), cpuPerTrip: cpu / time.Duration(trips), trips: trips}
}

// echoLine is the server's end of one client's stream: round trips from many goroutines at
// once, each waiting for the answer that names it (the arena's sessions do the same with
// request ids).
type echoLine struct {
	s       tappv1.BotService_ConnectServer
	sendMu  sync.Mutex
	mu      sync.Mutex
	seq     uint64
	waiting map[uint64]chan struct{}
	failed  chan struct{}
	err     error
}

func newEchoLine(s tappv1.BotService_ConnectServer) *echoLine {
	l := &echoLine{s: s, waiting: map[uint64]chan struct{}{}, failed: make(chan struct{})}
	go l.receive()
	return l
}

// roundTrip sends body with a new sequence number and waits for its answer.
func (l *echoLine) roundTrip(body []byte) error {
	done := make(chan struct{})
	l.mu.Lock()
	l.seq++
	seq := l.seq
	l.waiting[seq] = done
	l.mu.Unlock()
	head := protowire.AppendVarint(protowire.AppendTag(nil, 1, protowire.VarintType), seq)
	l.sendMu.Lock()
	err := l.s.SendMsg(&grpccodec.Encoded{Head: head, Body: body})
	l.sendMu.Unlock()
	if err != nil {
		return err
	}
	select {
	case <-done:
		return nil
	case <-l.failed:
		return l.err
	}
}

// receive hands each answer to the round trip it names.
func (l *echoLine) receive() {
	for {
		var raw grpccodec.Raw
		if err := l.s.RecvMsg(&raw); err != nil {
			l.err = err
			close(l.failed)
			return
		}
		seq, ok := echoedSeq(raw.B)
		l.mu.Lock()
		done := l.waiting[seq]
		delete(l.waiting, seq)
		l.mu.Unlock()
		if ok && done != nil {
			close(done)
		}
	}
}

// echoedSeq reads the sequence number an echo answer names (as its request id).
func echoedSeq(b []byte) (uint64, bool) {
	_, _, n := protowire.ConsumeTag(b) // ConnectRequest.answer
	if n < 0 {
		return 0, false
	}
	answer, m := protowire.ConsumeBytes(b[n:])
	if m < 0 {
		return 0, false
	}
	for len(answer) > 0 {
		num, typ, k := protowire.ConsumeTag(answer)
		if k < 0 {
			return 0, false
		}
		answer = answer[k:]
		if num == 2 && typ == protowire.BytesType { // Answer.request_id
			id, _ := protowire.ConsumeBytes(answer)
			seq, err := strconv.ParseUint(string(id), 10, 64)
			return seq, err == nil
		}
		if k = protowire.ConsumeFieldValue(num, typ, answer); k < 0 {
			return 0, false
		}
		answer = answer[k:]
	}
	return 0, false
}

// yardstickBodies are DecisionRequest messages (as the oneof field of a ConnectResponse, the
// arena's Body) of random modern deals, as the arena encodes them.
func yardstickBodies(b *testing.B) [][]byte {
	rules := engine.DefaultRules(engine.Modern)
	rng := engine.NewRand(1, 0)
	var out [][]byte
	var legal []engine.Action
	var r referee.Request
	for n := 0; len(out) < 256; n++ {
		st, err := engine.NewState(rules, engine.DealFromSeed(rules, 1, uint64(n)), engine.Options{})
		if err != nil {
			b.Fatal(err)
		}
		for !st.Terminal() {
			r.Build(st, "m/"+strconv.Itoa(n), "r1", time.Now(), 10*time.Second, 0)
			req := encode.AppendRequest(nil, &r)
			body := protowire.AppendTag(nil, 5, protowire.BytesType) // ConnectResponse.decision_request
			out = append(out, append(protowire.AppendVarint(body, uint64(len(req))), req...))
			legal = st.LegalActions(legal[:0])
			if err := st.Apply(legal[rng.IntN(len(legal))]); err != nil {
				b.Fatal(err)
			}
		}
	}
	return out
}

// runYardstickClient is a client process of the yardstick: it answers every message at once
// with an Answer whose request id is the message's sequence number, on one thread.
func runYardstickClient(addr string) int {
	runtime.GOMAXPROCS(1)
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return 1
	}
	stream, err := tappv1.NewBotServiceClient(conn).Connect(context.Background(), grpc.ForceCodecV2(grpccodec.Codec()))
	if err != nil {
		return 1
	}
	for {
		var raw grpccodec.Raw
		if err := stream.RecvMsg(&raw); err != nil {
			return 0
		}
		_, _, n := protowire.ConsumeTag(raw.B) // ConnectResponse.seq
		if n < 0 {
			return 1
		}
		seq, _ := protowire.ConsumeVarint(raw.B[n:])
		inner := protowire.AppendTag(nil, 2, protowire.BytesType)
		id := strconv.AppendUint(nil, seq, 10)
		msg := protowire.AppendTag(nil, 2, protowire.BytesType) // Answer.request_id
		msg = protowire.AppendBytes(msg, id)
		msg = protowire.AppendTag(msg, 3, protowire.BytesType) // Answer.action
		msg = protowire.AppendString(msg, "x")
		answer := protowire.AppendBytes(inner, msg)
		if err := stream.SendMsg(&grpccodec.Encoded{Body: answer}); err != nil {
			return 0
		}
	}
}
