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
	"github.com/tapparena/tapp/bots/starter"
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

// BenchmarkHostedDecisionLatency measures what a sandbox adds to a hosted bot's decisions:
// the same Go bot (this test binary's "play" mode: the SDK, the first legal action) runs
// unconfined (none: the yardstick), under bubblewrap and under gVisor, each a hosted version
// of its own on one arena, with two in-process random bots. Each of the b.N rounds plays one
// match of two deals for each back end in turn, so that the machine's load falls on all
// alike. The latency is the referee's, from the request's hand-off to the accepted answer;
// every back end's p50 and p90 are reported, and the sandboxes' p50 as a ratio to none's.
// TAPP_BENCH_BUSY=8 runs eight CPU-bound processes beside it, as on a user's busy host;
// TAPP_THINK=20ms has the bot compute for that long per decision (a searching bot) instead
// of answering at once; TAPP_BENCH_ENV=K=V,… adds to the bot's environment.
//
//	go test -run '^$' -bench HostedDecisionLatency -benchtime 20x ./arena/internal/hosting
func BenchmarkHostedDecisionLatency(b *testing.B) {
	benchHostedLatency(b, nil, func(dir, bot string) *hosting.Artifact { return benchArtifact(b, dir, bot) })
}

// BenchmarkHostedPythonDecisionLatency is BenchmarkHostedDecisionLatency for a Python bot:
// the starter of `tapp new bot --lang python` (the lowest legal card, the SDK's defaults
// otherwise) on the hosted bots' Python runtime, unconfined, under bubblewrap and under
// gVisor. TAPP_BENCH_ENV=GRPC_POLL_STRATEGY=poll (say) tries a setting of grpcio's.
//
//	go test -run '^$' -bench HostedPythonDecisionLatency -benchtime 20x ./arena/internal/hosting
func BenchmarkHostedPythonDecisionLatency(b *testing.B) {
	rt := python(b)
	benchHostedLatency(b, rt, func(dir, bot string) *hosting.Artifact { return benchPythonArtifact(b, dir, bot) })
}

func benchHostedLatency(b *testing.B, rt *hosting.PythonRuntime, artifact func(dir, bot string) *hosting.Artifact) {
	if n, _ := strconv.Atoi(os.Getenv("TAPP_BENCH_BUSY")); n > 0 {
		stop := burnCPU(b, n)
		defer stop()
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	work := benchDir(b)
	st, err := store.Open(ctx, filepath.Join(work, "bench.db")) // memstore keeps no decision records
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	h, err := host.Start(ctx, host.Config{Store: st, Listen: "127.0.0.1:0"})
	if err != nil {
		b.Fatal(err)
	}
	var wg sync.WaitGroup
	var all []*hosting.Seats
	defer func() {
		h.StopWithin(time.Second)
		for _, s := range all {
			s.Close()
		}
		cancel()
		wg.Wait()
	}()
	exe, _ := os.Executable()
	var names, backends []string
	for _, name := range []string{sandbox.None, sandbox.Bwrap, sandbox.Runsc} {
		dir := benchDir(b)
		sb, err := sandbox.New(name, sandbox.Options{Work: dir, Confine: exe})
		if err != nil {
			b.Logf("%s: %v", name, err)
			continue
		}
		seats := &hosting.Seats{Host: h, Sandbox: sb, Python: rt, Dir: dir, LogDir: filepath.Join(dir, "logs")}
		all = append(all, seats)
		a := artifact(dir, "bench-"+name)
		if _, err := seats.Start(ctx, a, 1, 1, append([]string{"TAPP_HOSTILE=play", "TAPP_THINK=" + os.Getenv("TAPP_THINK")}, benchEnv...)...); err != nil {
			b.Fatal(err)
		}
		names, backends = append(names, a.Sub.Name()), append(backends, name)
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
	if err := h.WaitConnected(ctx, append(slices.Clone(names), "random-1", "random-2"), time.Minute); err != nil {
		b.Fatal(err)
	}
	latencies := make([][]time.Duration, len(names))
	b.ResetTimer()
	for round := range b.N {
		for k, name := range names {
			bots := []string{name, "random-1", "random-2"}
			m, err := h.Runner.Create(ctx, domain.MatchSpec{Rules: engine.DefaultRules(engine.Modern), Bots: bots, Deals: 2, Seed: uint64(round),
				TimeControl: domain.TimeControl{PerDecision: 5 * time.Second, Overage: time.Minute, MaxStrikes: 100}})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := h.Runner.Run(ctx, m); err != nil {
				b.Fatal(err)
			}
			records, err := st.Deals(ctx, m.ID)
			if err != nil {
				b.Fatal(err)
			}
			for _, d := range records {
				for _, x := range d.Decisions {
					if x.Bot == name && !x.Fallback {
						latencies[k] = append(latencies[k], x.Latency)
					}
				}
			}
		}
	}
	b.StopTimer()
	var base float64
	for k, backend := range backends {
		l := latencies[k]
		if len(l) == 0 {
			b.Fatalf("%s made no decision", names[k])
		}
		slices.Sort(l)
		p50 := float64(l[len(l)/2].Microseconds())
		b.ReportMetric(p50, backend+"-p50-µs")
		b.ReportMetric(float64(l[len(l)*9/10].Microseconds()), backend+"-p90-µs")
		if backend == sandbox.None {
			base = p50
		} else if base > 0 {
			b.ReportMetric(p50/base, backend+"-p50-vs-none")
		}
	}
	b.ReportMetric(0, "ns/op")
}

// benchArtifact is a "built" Go version whose program is this test binary.
func benchArtifact(b *testing.B, dir, bot string) *hosting.Artifact {
	exe, _ := os.Executable()
	bin, _ := os.ReadFile(exe)
	a := &hosting.Artifact{Sub: domain.Submission{Bot: bot, Version: 1, Lang: hosting.Go}, Src: filepath.Join(dir, "src"), Out: filepath.Join(dir, "out")}
	for _, d := range []string{a.Src, a.Out} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			b.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(a.Out, "bot"), bin, 0o755); err != nil {
		b.Fatal(err)
	}
	return a
}

// benchPythonArtifact is a "built" Python version: the Python starter, as tapp new bot writes it.
func benchPythonArtifact(b *testing.B, dir, bot string) *hosting.Artifact {
	a := &hosting.Artifact{Sub: domain.Submission{Bot: bot, Version: 1, Lang: hosting.Python, Entry: "bot.py"},
		Src: filepath.Join(dir, "src"), Out: filepath.Join(dir, "out")}
	if _, err := starter.Write(starter.Options{Lang: "python", Dir: a.Src, Name: "pybench", Repo: repoRoot(b)}); err != nil {
		b.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(a.Out, "site"), 0o755); err != nil {
		b.Fatal(err)
	}
	if out, err := exec.Command("chmod", "-R", "a+rX", dir).CombinedOutput(); err != nil {
		b.Fatalf("chmod: %v: %s", err, out)
	}
	return a
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
