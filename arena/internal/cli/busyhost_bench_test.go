package cli

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/store"
	"github.com/tapparena/tapp/bots/random"
	"github.com/tapparena/tapp/engine"
)

// BenchmarkArenaBusyHost is issue 28's "done means": three `tapp bot random` processes (Go,
// answering at once) at 200 tables × 100 ms and at 400 tables × 50 ms per decision, with the
// default clock (10 s bank and 3 strikes, per game), every deal stored in SQLite, beside
// TAPP_BENCH_SPINNERS CPU-bound processes (`sh -c 'while :; do :; done'`, at the arena's own
// niceness) that the benchmark starts and stops. Every strike, fallback or forfeit is the
// host's or the arena's doing; the target is none, with the tables the admission control ran
// reported. The yardstick, timed in the same run just before the match, is the engine's
// random deals per second on one core of the same busy host.
//
//	TAPP_BENCH_SPINNERS=8 go test -run '^$' -bench BenchmarkArenaBusyHost -benchtime 10000x ./arena/internal/cli
func BenchmarkArenaBusyHost(b *testing.B) {
	spinners, _ := strconv.Atoi(os.Getenv("TAPP_BENCH_SPINNERS"))
	for _, c := range []struct {
		tables int
		per    time.Duration
	}{{200, 100 * time.Millisecond}, {400, 50 * time.Millisecond}} {
		b.Run(fmt.Sprintf("tables=%d/time=%v", c.tables, c.per), func(b *testing.B) {
			stop := startSpinners(b, spinners)
			defer stop()
			tc := domain.DefaultTimeControl
			tc.PerDecision = c.per
			benchBusyHost(b, c.tables, tc)
		})
	}
}

// startSpinners starts n CPU-bound processes and returns what stops them.
func startSpinners(b *testing.B, n int) func() {
	var cmds []*exec.Cmd
	for range n {
		cmd := exec.Command("sh", "-c", "while :; do :; done")
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	if n > 0 {
		time.Sleep(5 * time.Second) // let the load average see them
	}
	return func() {
		for _, c := range cmds {
			_ = c.Process.Kill()
			_ = c.Wait()
		}
	}
}

// yardstick is the engine's random deals per second on this host now (one goroutine, 1 s).
func yardstick() float64 {
	rules := engine.DefaultRules(engine.Modern)
	bot := random.New(1)
	st, _ := engine.NewState(rules, engine.DealFromSeed(rules, 1, 0), engine.Options{})
	ctx := context.Background()
	start, n := time.Now(), 0
	for time.Since(start) < time.Second {
		if err := st.Reset(rules, engine.DealFromSeed(rules, 1, uint64(n)), engine.Options{}); err != nil {
			panic(err)
		}
		for !st.Terminal() {
			obs := st.Observe(st.ToMove())
			a, err := bot.Decide(ctx, &obs)
			if err != nil {
				panic(err)
			}
			if err := st.Apply(a); err != nil {
				panic(err)
			}
		}
		n++
	}
	return float64(n) / time.Since(start).Seconds()
}

func loadAverage() string {
	text, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	return strings.Join(strings.Fields(string(text))[:3], " ")
}

func benchBusyHost(b *testing.B, tables int, tc domain.TimeControl) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st, err := store.Open(ctx, filepath.Join(b.TempDir(), "busy.db"))
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
	for _, n := range names {
		token := "busy-" + n
		a.Server.AddLaunchToken(token, n)
		if err := a.EnsureBot(ctx, n); err != nil {
			b.Fatal(err)
		}
		cmd := exec.CommandContext(ctx, tappBin, "bot", "random", "--name", n, "--capacity", strconv.Itoa(tables),
			"--arena", a.Addr, "--token", token)
		cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
		cmd.WaitDelay = 5 * time.Second
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		defer func() { cancel(); _ = cmd.Wait() }()
	}
	if err := a.WaitConnected(ctx, names, 30*time.Second); err != nil {
		b.Fatal(err)
	}
	a.Runner.Parallel = tables
	spec := domain.MatchSpec{Rules: engine.DefaultRules(engine.Modern), Bots: names, Deals: b.N, Seed: 1, TimeControl: tc}
	mt, err := a.Runner.Create(ctx, spec)
	if err != nil {
		b.Fatal(err)
	}
	yard := yardstick()
	loadBefore := loadAverage()
	b.ResetTimer()
	start := time.Now()
	res, err := a.Runner.Run(ctx, mt)
	if err != nil {
		b.Fatal(err)
	}
	elapsed := time.Since(start)
	b.StopTimer()
	rate := float64(b.N) / elapsed.Seconds()
	b.ReportMetric(rate, "deals/s")
	b.ReportMetric(yard, "yardstick-deals/s")
	b.ReportMetric(rate/yard, "ratio")
	deals, err := st.Deals(ctx, mt.ID)
	if err != nil {
		b.Fatal(err)
	}
	var lat, share []time.Duration
	strikes, fallbacks := 0, 0
	for _, d := range deals {
		for _, dec := range d.Decisions {
			if dec.RequestID != "" {
				lat = append(lat, dec.Latency)
				share = append(share, dec.ArenaShare)
			}
			if dec.Strike {
				strikes++
			}
			if dec.Fallback {
				fallbacks++
			}
		}
	}
	reportQuantiles(b, lat, "decision")
	reportQuantiles(b, share, "arena-share")
	b.ReportMetric(float64(strikes), "strikes")
	b.ReportMetric(float64(fallbacks), "fallbacks")
	b.ReportMetric(float64(len(res.Forfeited)), "forfeits")
	if adm := mt.Admission; adm != nil {
		b.ReportMetric(float64(adm.Most), "tables-most")
		b.ReportMetric(adm.Mean, "tables-mean")
		b.ReportMetric(float64(adm.Fewest), "tables-fewest")
		b.ReportMetric(float64(adm.Lowered), "lowered")
	}
	slices.Sort(share)
	b.Logf("%d deals in %v; load average %s before the match, %s after; %s", b.N, elapsed.Round(time.Millisecond),
		loadBefore, loadAverage(), tablesLine(mt.Admission))
}
