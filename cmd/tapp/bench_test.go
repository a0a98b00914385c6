package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/tapparena/tapp/arena"
	"github.com/tapparena/tapp/arena/store"
	"github.com/tapparena/tapp/engine"
)

// benchArena plays b.N deals of modern Tapp among three bot processes started by botCmd, with
// many tables at once, and reports deals/s and the per-decision latency seen by the arena
// (from the request to the answer's arrival, bot thinking included: an upper bound on what
// the arena adds, since these bots think for microseconds).
func benchArena(b *testing.B, parallel int, botCmd func(name string) []string) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st, err := store.Open(ctx, filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	m := &Main{Log: zap.NewNop(), Executable: tappBin}
	a, err := m.startArena(ctx, st, "127.0.0.1:0", "", 5*time.Second)
	if err != nil {
		b.Fatal(err)
	}
	defer a.stop()
	names := []string{"b1", "b2", "b3"}
	for _, n := range names {
		token := "bench-" + n
		a.srv.AddLaunchToken(token, n)
		if err := a.ensureBot(ctx, n); err != nil {
			b.Fatal(err)
		}
		args := botCmd(n)
		cmd := exec.CommandContext(ctx, args[0], append(args[1:], "--arena", a.addr, "--token", token)...)
		// Interrupt, not kill, so that a bot started with TAPP_CPUPROFILE writes its profile.
		cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
		cmd.WaitDelay = 5 * time.Second
		if dir := os.Getenv("TAPP_BENCH_PROFILE_DIR"); dir != "" {
			cmd.Env = append(os.Environ(), "TAPP_CPUPROFILE="+filepath.Join(dir, n+".cpu"))
		}
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		defer func() { cancel(); _ = cmd.Wait() }()
	}
	if err := a.waitConnected(ctx, names, 30*time.Second); err != nil {
		b.Fatal(err)
	}
	a.runner.Parallel = parallel
	spec := arena.MatchSpec{Rules: engine.DefaultRules(engine.Modern), Bots: names, Deals: b.N, Seed: 1,
		TimeControl: arena.TimeControl{PerDecision: 5 * time.Second, Overage: 10 * time.Second, MaxStrikes: 3}}
	mt, err := a.runner.Create(ctx, spec)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	start := time.Now()
	if _, err := a.runner.Run(ctx, mt); err != nil {
		b.Fatal(err)
	}
	elapsed := time.Since(start)
	b.StopTimer()
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "deals/s")
	deals, err := st.Deals(ctx, mt.ID)
	if err != nil {
		b.Fatal(err)
	}
	var lat, added []time.Duration
	for _, d := range deals {
		for _, dec := range d.Decisions {
			lat = append(lat, dec.Latency)
			added = append(added, dec.Latency-dec.Think)
		}
	}
	reportQuantiles(b, lat, "decision")
	reportQuantiles(b, added, "arena-added")
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

// BenchmarkArenaGoBots: three built-in random Go bots as separate processes over loopback gRPC.
func BenchmarkArenaGoBots(b *testing.B) {
	benchArena(b, 64, func(name string) []string {
		return []string{tappBin, "bot", "random", "--name", name, "--capacity", "64"}
	})
}

// BenchmarkArenaPythonBots: three Python SDK random bots as separate processes.
func BenchmarkArenaPythonBots(b *testing.B) {
	py, err := filepath.Abs("../../.venv/bin/python")
	if err != nil {
		b.Fatal(err)
	}
	if _, err := exec.LookPath(py); err != nil {
		b.Skipf("no Python venv (%v): run make venv", err)
	}
	benchArena(b, 32, func(name string) []string {
		return []string{py, "-m", "tapp_bot.examples.random", "--name", name, "--capacity", strconv.Itoa(32), "--log-level", "WARNING"}
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
