package hosting_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/host"
	"github.com/tapparena/tapp/arena/internal/hosting"
	"github.com/tapparena/tapp/arena/internal/sandbox"
	"github.com/tapparena/tapp/arena/internal/store"
	"github.com/tapparena/tapp/bots/random"
	"github.com/tapparena/tapp/bots/sdk"
	"github.com/tapparena/tapp/engine"
)

// benchEnv is added to the bot's environment (TAPP_BENCH_ENV=K=V,K=V).
var benchEnv = splitEnv(os.Getenv("TAPP_BENCH_ENV"))

func splitEnv(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

// noneP50 is the unsandboxed bot's p50 of this run: the yardstick of the sandboxes' ratio.
var noneP50 = map[int]float64{}

// BenchmarkHostedDecisionLatency measures what a sandbox adds to a hosted bot's decisions:
// the same Go bot (this test binary's "play" mode: the SDK, first legal action) runs
// unconfined (none: the yardstick, measured first in the same run), under bubblewrap and
// under gVisor, and plays b.N deals of one table against two in-process random bots. The
// latency is the referee's, from the request's hand-off to the accepted answer; p50 and p90
// are reported, and each sandbox's p50 as a ratio to none's. TAPP_BENCH_BUSY=8 runs eight
// CPU-bound processes beside it, as on a user's busy host; TAPP_THINK=20ms has the bot
// compute for that long per decision (a searching bot) instead of answering at once;
// TAPP_BENCH_ENV=K=V,… adds to the bot's environment.
//
//	go test -run '^$' -bench HostedDecisionLatency -benchtime 200x -count 3 ./arena/internal/hosting
func BenchmarkHostedDecisionLatency(b *testing.B) {
	if n, _ := strconv.Atoi(os.Getenv("TAPP_BENCH_BUSY")); n > 0 {
		stop := burnCPU(b, n)
		defer stop()
	}
	exe, _ := os.Executable()
	for _, name := range []string{sandbox.None, sandbox.Bwrap, sandbox.Runsc} {
		b.Run(name, func(b *testing.B) {
			work := benchDir(b)
			sb, err := sandbox.New(name, sandbox.Options{Work: work, Confine: exe})
			if err != nil {
				b.Skip(err)
			}
			latencies := playDeals(b, sb, work, b.N)
			slices.Sort(latencies)
			p50 := float64(latencies[len(latencies)/2].Microseconds())
			p90 := float64(latencies[len(latencies)*9/10].Microseconds())
			b.ReportMetric(p50, "p50-µs")
			b.ReportMetric(p90, "p90-µs")
			b.ReportMetric(0, "ns/op")
			if name == sandbox.None {
				noneP50[b.N] = p50
			} else if base := noneP50[b.N]; base > 0 {
				b.ReportMetric(p50/base, "p50-vs-none")
			}
		})
	}
}

func benchDir(b *testing.B) string {
	dir, err := os.MkdirTemp("", "tapp-hosting-bench-")
	if err != nil {
		b.Fatal(err)
	}
	_ = os.Chmod(dir, 0o755)
	b.Cleanup(func() { _ = os.RemoveAll(dir) })
	return dir
}

// playDeals plays deals deals of the hosted bot with two random bots and returns the hosted
// bot's decision latencies.
func playDeals(b *testing.B, sb sandbox.Sandbox, dir string, deals int) []time.Duration {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st, err := store.Open(ctx, filepath.Join(dir, "bench.db")) // memstore keeps no decision records
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	h, err := host.Start(ctx, host.Config{Store: st, Listen: "127.0.0.1:0"})
	if err != nil {
		b.Fatal(err)
	}
	seats := &hosting.Seats{Host: h, Sandbox: sb, Dir: dir, LogDir: filepath.Join(dir, "logs")}
	var wg sync.WaitGroup
	defer func() {
		h.StopWithin(time.Second)
		seats.Close()
		cancel()
		wg.Wait()
	}()
	exe, _ := os.Executable()
	bin, _ := os.ReadFile(exe)
	a := &hosting.Artifact{Sub: domain.Submission{Bot: "bench", Version: 1, Lang: hosting.Go}, Src: filepath.Join(dir, "src"), Out: filepath.Join(dir, "out")}
	for _, d := range []string{a.Src, a.Out} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			b.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(a.Out, "bot"), bin, 0o755); err != nil {
		b.Fatal(err)
	}
	if _, err := seats.Start(ctx, a, 1, 1, append([]string{"TAPP_HOSTILE=play", "TAPP_THINK=" + os.Getenv("TAPP_THINK")}, benchEnv...)...); err != nil {
		b.Fatal(err)
	}
	for i, name := range []string{"random-1", "random-2"} {
		token := h.OneTimeToken(name)
		_ = h.EnsureBot(ctx, name)
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = sdk.Run(ctx, sdk.Config{Arena: h.Addr, Token: token, Name: name, Capacity: 1, MaxReconnect: time.Second}, random.New(uint64(i+1)))
		}()
	}
	bots := []string{a.Sub.Name(), "random-1", "random-2"}
	if err := h.WaitConnected(ctx, bots, time.Minute); err != nil {
		b.Fatal(err)
	}
	m, err := h.Runner.Create(ctx, domain.MatchSpec{Rules: engine.DefaultRules(engine.Modern), Bots: bots, Deals: deals, Seed: 11,
		TimeControl: domain.TimeControl{PerDecision: 5 * time.Second, Overage: time.Minute, MaxStrikes: 100}})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	if _, err := h.Runner.Run(ctx, m); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	records, err := st.Deals(ctx, m.ID)
	if err != nil {
		b.Fatal(err)
	}
	var out []time.Duration
	for _, d := range records {
		for _, x := range d.Decisions {
			if x.Bot == a.Sub.Name() && !x.Fallback {
				out = append(out, x.Latency)
			}
		}
	}
	if len(out) == 0 {
		b.Fatal("the hosted bot made no decision")
	}
	return out
}

// burnCPU runs n CPU-bound processes (this binary spinning) until stop.
func burnCPU(b *testing.B, n int) (stop func()) {
	exe, _ := os.Executable()
	var cmds []*exec.Cmd
	for range n {
		cmd := exec.Command(exe)
		cmd.Env = append(os.Environ(), "TAPP_HOSTILE=spin")
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	return func() {
		for _, c := range cmds {
			_ = c.Process.Kill()
			_ = c.Wait()
		}
	}
}
