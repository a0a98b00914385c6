package cli

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"testing"
	"time"

	"go.uber.org/zap"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/proto"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/encode"
	"github.com/tapparena/tapp/arena/internal/referee"
	"github.com/tapparena/tapp/arena/internal/store"
	"github.com/tapparena/tapp/engine"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// benchArena plays b.N deals of modern Tapp among three bot processes started by botCmd, with
// many tables at once, and reports deals/s and the per-decision latency seen by the arena
// (from the request to the answer's arrival, bot thinking included: an upper bound on what
// the arena adds, since these bots think for microseconds). It returns the deals/s.
func benchArena(b *testing.B, parallel int, botCmd func(name string) []string) float64 {
	return benchArenaClock(b, parallel, domain.TimeControl{PerDecision: 5 * time.Second, Overage: 10 * time.Second, MaxStrikes: 3}, nil, botCmd)
}

// benchArenaAgainstEcho is benchArena with the yardstick (yardstick_test.go) run first, with
// as many round trips in flight as tables and about as many round trips as the deals have
// decisions, so that the arena's figures come with their ratios to it (echo-ratio: decisions
// per second over the echo's round trips per second; echo-cpu-ratio: CPU per decision over
// the echo's CPU per round trip, all processes counted in both).
func benchArenaAgainstEcho(b *testing.B, parallel int, botCmd func(name string) []string) {
	b.StopTimer()
	echo := runYardstick(b, parallel, max(b.N*decisionsPerDeal, 1000))
	b.StartTimer()
	benchArenaClock(b, parallel, domain.TimeControl{PerDecision: 5 * time.Second, Overage: 10 * time.Second, MaxStrikes: 3}, &echo, botCmd)
}

// decisionsPerDeal is about the decisions of a random modern deal for three (17.6).
const decisionsPerDeal = 18

// benchArenaClock is benchArena under the given clock. Besides the rates it reports the
// strikes and fallbacks (arena-caused: these bots answer at once) and the quantiles of each
// decision's arena share (from the engine asking to the request's hand-off to the bot's
// connection, which the bot is never charged). It returns the deals/s, for a benchmark that
// reports its ratio to another run.
func benchArenaClock(b *testing.B, parallel int, tc domain.TimeControl, echo *echoYardstick, botCmd func(name string) []string) float64 {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	defer debug.SetGCPercent(debug.SetGCPercent(400)) // as the tapp program runs the arena
	st, err := store.Open(ctx, filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	m := &Main{Log: zap.NewNop(), Executable: tappBin}
	a, err := m.startHost(ctx, st, "127.0.0.1:0", "", 5*time.Second, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer a.Stop()
	names := []string{"b1", "b2", "b3"}
	var cmds []*exec.Cmd
	for _, n := range names {
		token := "bench-" + n
		a.Server.AddLaunchToken(token, n)
		if err := a.EnsureBot(ctx, n); err != nil {
			b.Fatal(err)
		}
		args := botCmd(n)
		cmd := exec.CommandContext(ctx, args[0], append(args[1:], "--arena", a.Addr, "--token", token)...)
		// Interrupt, not kill, so that a bot started with TAPP_CPUPROFILE writes its profile.
		cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
		cmd.WaitDelay = 5 * time.Second
		if dir := os.Getenv("TAPP_BENCH_PROFILE_DIR"); dir != "" {
			cmd.Env = append(os.Environ(), "TAPP_CPUPROFILE="+filepath.Join(dir, n+".cpu"))
		}
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		cmds = append(cmds, cmd)
		defer func() { cancel(); _ = cmd.Wait() }()
	}
	if err := a.WaitConnected(ctx, names, 30*time.Second); err != nil {
		b.Fatal(err)
	}
	a.Runner.Parallel = parallel
	spec := domain.MatchSpec{Rules: engine.DefaultRules(engine.Modern), Bots: names, Deals: b.N, Seed: 1, TimeControl: tc}
	mt, err := a.Runner.Create(ctx, spec)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	var mem0, mem1 runtime.MemStats
	runtime.ReadMemStats(&mem0)
	cpu0, arena0 := processesCPU(cmds), processesCPU(nil)
	start := time.Now()
	if _, err := a.Runner.Run(ctx, mt); err != nil {
		b.Fatal(err)
	}
	elapsed := time.Since(start)
	cpu, arenaCPU := processesCPU(cmds)-cpu0, processesCPU(nil)-arena0
	runtime.ReadMemStats(&mem1)
	b.StopTimer()
	rate := float64(b.N) / elapsed.Seconds()
	b.ReportMetric(rate, "deals/s")
	deals, err := st.Deals(ctx, mt.ID)
	if err != nil {
		b.Fatal(err)
	}
	decisions := 0
	for _, d := range deals {
		decisions += len(d.Decisions)
	}
	if decisions > 0 {
		perDecision := cpu / time.Duration(decisions)
		b.ReportMetric(float64(perDecision.Nanoseconds())/1e3, "cpu-µs/decision")
		// The same apart: the arena's process (the store in it) and the bots' processes, and
		// the arena's allocations (its garbage collector's work) per decision.
		b.ReportMetric(float64((arenaCPU/time.Duration(decisions)).Nanoseconds())/1e3, "arena-cpu-µs/decision")
		b.ReportMetric(float64(((cpu-arenaCPU)/time.Duration(decisions)).Nanoseconds())/1e3, "bots-cpu-µs/decision")
		b.ReportMetric(float64(mem1.Mallocs-mem0.Mallocs)/float64(decisions), "arena-allocs/decision")
		if echo != nil {
			// The same round trips in flight over bare gRPC, in this run just before: the rate of
			// decisions against the echo's round trips, and the CPU of each against the echo's.
			b.ReportMetric(float64(decisions)/elapsed.Seconds()/echo.rate, "echo-ratio")
			b.ReportMetric(float64(perDecision)/float64(echo.cpuPerTrip), "echo-cpu-ratio")
			b.ReportMetric(echo.rate, "echo-trips/s")
			b.ReportMetric(float64(echo.cpuPerTrip.Nanoseconds())/1e3, "echo-cpu-µs/trip")
		}
	}
	var lat, added, share []time.Duration
	strikes, fallbacks := 0, 0
	for _, d := range deals {
		for _, dec := range d.Decisions {
			lat = append(lat, dec.Latency)
			added = append(added, dec.Latency-dec.Think)
			share = append(share, dec.ArenaShare)
			if dec.Strike {
				strikes++
			}
			if dec.Fallback {
				fallbacks++
			}
		}
	}
	reportQuantiles(b, lat, "decision")
	reportQuantiles(b, added, "arena-added")
	reportQuantiles(b, share, "arena-share")
	if len(share) > 0 {
		b.ReportMetric(float64(share[len(share)-1].Nanoseconds())/1e3, "max-µs/arena-share") // sorted by reportQuantiles
	}
	b.ReportMetric(float64(strikes), "strikes")
	b.ReportMetric(float64(fallbacks), "fallbacks")
	// The tables playing at once on average: below the tables asked for when deals wait for
	// the store (or the admission control held some back), and the arena share with it, as
	// fewer requests are queued for the bots at once (docs/BENCHMARKS.md, issue 31).
	if stored, err := st.GetMatch(ctx, mt.ID); err == nil && stored.Admission != nil {
		b.ReportMetric(stored.Admission.Mean, "mean-tables")
	}
	return rate
}

// reportQuantiles reports the median and 99th percentile of ds in µs as p50-µs/what and
// p99-µs/what.
func reportQuantiles(b *testing.B, ds []time.Duration, what string) {
	if len(ds) == 0 {
		return
	}
	slices.Sort(ds)
	b.ReportMetric(float64(ds[len(ds)/2].Nanoseconds())/1e3, "p50-µs/"+what)
	b.ReportMetric(float64(ds[len(ds)*99/100].Nanoseconds())/1e3, "p99-µs/"+what)
}

// BenchmarkArenaGoBots: three built-in random Go bots as separate processes over loopback gRPC,
// at 64 and at 128 tables at once. Each bot answers its requests one at a time, so the rate
// grows with the tables in flight until the CPU is full.
func BenchmarkArenaGoBots(b *testing.B) {
	for _, tables := range []int{64, 128} {
		b.Run(fmt.Sprintf("tables=%d", tables), func(b *testing.B) {
			benchArenaAgainstEcho(b, tables, func(name string) []string {
				return []string{tappBin, "bot", "random", "--name", name, "--capacity", strconv.Itoa(tables)}
			})
		})
	}
}

// BenchmarkArenaFairClock: the load — 200 tables at once, 100 ms per decision (with
// the default overage and strikes), three Go random bots that answer at once. Every strike or
// fallback here is the arena's doing; the target is none.
func BenchmarkArenaFairClock(b *testing.B) {
	tc := domain.DefaultTimeControl
	tc.PerDecision = 100 * time.Millisecond
	benchArenaClock(b, 200, tc, nil, func(name string) []string {
		return []string{tappBin, "bot", "random", "--name", name, "--capacity", "200"}
	})
}

// BenchmarkArenaLatencyOneTable: the same three Go bot processes at a single table, so the
// per-decision latency is the arena's own round trip (request built, sent, answered, checked)
// without queueing behind other tables.
func BenchmarkArenaLatencyOneTable(b *testing.B) {
	benchArena(b, 1, func(name string) []string {
		return []string{tappBin, "bot", "random", "--name", name, "--capacity", "1"}
	})
}

// BenchmarkLoopbackFloorOneTable is the floor under BenchmarkArenaLatencyOneTable: the same
// traffic — real requests of random deals, in turn to three bot processes, each answering at
// once — over bare gRPC streams, with no arena, referee, engine or SDK. What one table's
// latency has above this is what the arena and the SDK add; this part is the transport and
// the operating system waking the processes up.
func BenchmarkLoopbackFloorOneTable(b *testing.B) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addr, streams, stop := serveEchoArena(b)
	defer stop()
	var bots []tappv1.BotService_ConnectServer
	for range 3 {
		cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "TAPP_BENCH_ECHO="+addr)
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		defer func() { cancel(); _ = cmd.Wait() }()
		select {
		case s := <-streams:
			bots = append(bots, s)
		case <-time.After(10 * time.Second):
			b.Fatal("echo bot did not connect")
		}
	}
	requests := floorRequests(b)
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s := bots[i%len(bots)]
		start := time.Now()
		if err := s.Send(requests[i%len(requests)]); err != nil {
			b.Fatal(err)
		}
		if _, err := s.Recv(); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	reportQuantiles(b, lat, "round-trip")
}

// echoArena hands each bot stream to the benchmark and keeps it open.
type echoArena struct {
	tappv1.UnimplementedBotServiceServer
	streams chan tappv1.BotService_ConnectServer
}

func (e echoArena) Connect(s tappv1.BotService_ConnectServer) error {
	e.streams <- s
	<-s.Context().Done()
	return nil
}

// floorRequests are the decision requests of a few random modern deals.
func floorRequests(b *testing.B) []*tappv1.ConnectResponse {
	rules := engine.DefaultRules(engine.Modern)
	rng := engine.NewRand(1, 0)
	var out []*tappv1.ConnectResponse
	var legal []engine.Action
	for n := 0; len(out) < 200; n++ {
		st, err := engine.NewState(rules, engine.DealFromSeed(rules, 1, uint64(n)), engine.Options{})
		if err != nil {
			b.Fatal(err)
		}
		for !st.Terminal() {
			var r referee.Request
			r.Build(st, "m/1", "r1", time.Now(), 0, st.NumEvents())
			req := &tappv1.DecisionRequest{}
			if err := proto.Unmarshal(encode.AppendRequest(nil, &r), req); err != nil {
				b.Fatal(err)
			}
			out = append(out, &tappv1.ConnectResponse{Message: &tappv1.ConnectResponse_DecisionRequest{DecisionRequest: req}})
			legal = st.LegalActions(legal[:0])
			if err := st.Apply(legal[rng.IntN(len(legal))]); err != nil {
				b.Fatal(err)
			}
		}
	}
	return out
}

// runEchoBot is a bot process for BenchmarkLoopbackFloorOneTable: it answers every request at
// once with its first legal action, on one thread as the simple built-in bots run.
func runEchoBot(addr string) int {
	runtime.GOMAXPROCS(1)
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return 1
	}
	stream, err := tappv1.NewBotServiceClient(conn).Connect(context.Background())
	if err != nil {
		return 1
	}
	for {
		msg, err := stream.Recv()
		if err != nil {
			return 0
		}
		req := msg.GetDecisionRequest()
		answer := &tappv1.Answer{GameId: req.GetGameId(), RequestId: req.GetRequestId(), Action: req.GetLegal()[0]}
		if err := stream.Send(&tappv1.ConnectRequest{Message: &tappv1.ConnectRequest_Answer{Answer: answer}}); err != nil {
			return 0
		}
	}
}
