package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/credentials/insecure"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/store"
	"github.com/tapparena/tapp/bots/random"
	"github.com/tapparena/tapp/engine"
)

// BenchmarkArenaBusyHost is issue 28's "done means", on every path a match is played by:
// `tapp match` (three launched `tapp bot random` processes), `tapp match --arena` (a `tapp
// serve` with three `tapp bot random` processes connected by token), `tapp match
// --in-process`, `tapp league run` (a round robin of the three) and `tapp sprt`, each at 200
// tables × 100 ms and at 400 tables × 50 ms per decision, with the default clock (10 s bank
// and 3 strikes, per game), every deal stored in SQLite. The busy host is
// scripts/busy-host.sh's: it starts eight CPU-bound processes beside the benchmark, says the
// load average they ran at, and kills them. The bots answer at once (the Go random bot):
// every strike, fallback or forfeit is the host's or the arena's doing, and the target is
// none, with the tables the admission control ran reported. b.N is the deals of a path (the
// SPRT plays whole rounds up to it, or stops sooner on a decision; deals/s counts what it
// played). The yardstick, timed in the same run just before each path, is the engine's
// random deals per second on one core of the same busy host. TAPP_BENCH_PATHS
// (comma-separated) picks paths.
//
//	scripts/busy-host.sh -n 8 -- go test -run '^$' -bench BenchmarkArenaBusyHost -benchtime 10000x ./arena/internal/cli
func BenchmarkArenaBusyHost(b *testing.B) {
	paths := []string{"match", "arena", "in-process", "league", "sprt"}
	if only := os.Getenv("TAPP_BENCH_PATHS"); only != "" {
		paths = splitList(only)
	}
	for _, path := range paths {
		for _, c := range []struct {
			tables int
			per    time.Duration
		}{{200, 100 * time.Millisecond}, {400, 50 * time.Millisecond}} {
			b.Run(fmt.Sprintf("path=%s/tables=%d/time=%v", path, c.tables, c.per), func(b *testing.B) {
				benchBusyPath(b, path, c.tables, c.per)
			})
		}
	}
}

// busyRun is one path's run: the tapp command that plays it, and where its deals are stored.
type busyRun struct {
	args []string
	env  []string
	db   string
}

// busyCommand is the command line that plays b.N deals on path.
func busyCommand(b *testing.B, path string, tables int, per time.Duration) busyRun {
	dir := b.TempDir()
	db := filepath.Join(dir, "busy.db")
	perText := per.String()
	match := []string{"match", "--bots", "random,random,random", "--deals", strconv.Itoa(b.N), "--seed", "1",
		"--time", perText, "--db", db, "--json"}
	switch path {
	case "match":
		return busyRun{args: append(match, "--parallel", strconv.Itoa(tables)), db: db}
	case "in-process":
		return busyRun{args: append(match, "--parallel", strconv.Itoa(tables), "--in-process"), db: db}
	case "arena":
		a := startServeAt(b, insecure.NewCredentials(), db, "127.0.0.1:0", "--parallel", strconv.Itoa(tables))
		names := []string{"b1", "b2", "b3"}
		for _, n := range names {
			a.startBot(n, nil, tappBin, "bot", "random", "--name", n, "--capacity", strconv.Itoa(tables))
		}
		a.waitConnected(names...)
		return busyRun{args: []string{"match", "--arena", a.addr, "--bots", strings.Join(names, ","), "--deals", strconv.Itoa(b.N),
			"--seed", "1", "--time", perText, "--json"}, env: []string{"TAPP_ADMIN_TOKEN=" + e2eAdmin}, db: db}
	case "league":
		file := filepath.Join(dir, "busy.yaml")
		text := fmt.Sprintf(`name: busy
rules: modern
format: round-robin
deals: %d
duplicate: false
seed: 1
concurrency: %d
time_control: {per_decision: %s}
bots:
  - {name: r1, builtin: random, seed: 1}
  - {name: r2, builtin: random, seed: 2}
  - {name: r3, builtin: random, seed: 3}
`, b.N, tables, perText)
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
		return busyRun{args: []string{"league", "run", file, "--db", db, "--logs", filepath.Join(dir, "logs"), "--json"}, db: db}
	case "sprt":
		// A round of --deals sources is 2 × 6 deals each (a pair of duplicate groups of three
		// players): tables/12 sources keep the tables asked for busy.
		sources := max(tables/12+1, 1)
		botsFile := filepath.Join(dir, "bots.yaml")
		bots := "bots:\n  - {name: r1, builtin: random, seed: 1}\n  - {name: r2, builtin: random, seed: 2}\n" +
			"  - {name: r3, builtin: random, seed: 3}\n  - {name: r4, builtin: random, seed: 4}\n"
		if err := os.WriteFile(botsFile, []byte(bots), 0o644); err != nil {
			b.Fatal(err)
		}
		return busyRun{args: []string{"sprt", "--bots", botsFile, "--candidate", "r1", "--baseline", "r2", "--field", "r3,r4",
			"--deals", strconv.Itoa(sources), "--max-pairs", strconv.Itoa(max(b.N/12, 1)), "--concurrency", strconv.Itoa(tables),
			"--time", perText, "--seed", "1", "--db", db, "--logs", filepath.Join(dir, "logs"), "--json"}, db: db}
	}
	b.Fatalf("unknown path %q", path)
	return busyRun{}
}

func benchBusyPath(b *testing.B, path string, tables int, per time.Duration) {
	run := busyCommand(b, path, tables, per)
	yard := yardstick()
	loadBefore := loadAverage()
	cmd := exec.Command(tappBin, run.args...)
	cmd.Env = append(os.Environ(), run.env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	b.ResetTimer()
	start := time.Now()
	out, err := cmd.Output()
	elapsed := time.Since(start)
	b.StopTimer()
	if err != nil {
		b.Fatalf("tapp %s: %v\n%s\n%s", strings.Join(run.args, " "), err, out, stderr.String())
	}
	var res struct {
		Tables  *domain.Admission `json:"tables"`
		Outcome struct {
			Admission *domain.Admission `json:"admission"`
		} `json:"outcome"`
		Match string `json:"match"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		b.Fatalf("tapp %s printed no JSON: %v\n%s", run.args[0], err, out)
	}
	adm := res.Tables
	if adm == nil {
		adm = res.Outcome.Admission
	}
	if path == "arena" { // the admin API's answer does not carry them: the arena's store does
		m := readMatch(b, run.db, res.Match)
		adm = m.Admission
	}
	f := busyFigures(b, run.db)
	rate := float64(f.deals) / elapsed.Seconds()
	b.ReportMetric(rate, "deals/s")
	b.ReportMetric(yard, "yardstick-deals/s")
	b.ReportMetric(rate/yard, "ratio")
	reportQuantiles(b, f.latency, "decision")
	reportQuantiles(b, f.share, "arena-share")
	b.ReportMetric(float64(f.deals), "deals")
	b.ReportMetric(float64(f.strikes), "strikes")
	b.ReportMetric(float64(f.fallbacks), "fallbacks")
	b.ReportMetric(float64(f.forfeits), "forfeits")
	b.ReportMetric(float64(f.retimed), "retimed")
	if adm != nil {
		b.ReportMetric(float64(adm.Most), "tables-most")
		b.ReportMetric(adm.Mean, "tables-mean")
		b.ReportMetric(adm.AllowedMean, "tables-allowed-mean")
		b.ReportMetric(float64(adm.Pauses), "pauses")
		b.ReportMetric(adm.Paused.Seconds(), "paused-s")
		b.ReportMetric(float64(adm.Fewest), "tables-fewest")
		b.ReportMetric(float64(adm.Lowered), "lowered")
	}
	b.Logf("%s: %d deals in %v; load average %s before, %s after; %s", path, f.deals, elapsed.Round(time.Millisecond),
		loadBefore, loadAverage(), tablesLine(adm))
}

// readMatch reads one match from the store at db.
func readMatch(b *testing.B, db, id string) *domain.Match {
	st, err := store.Open(context.Background(), db)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	m, err := st.GetMatch(context.Background(), id)
	if err != nil {
		b.Fatal(err)
	}
	return m
}

// busyTotals are what the deals stored at a path's store say about its clocks.
type busyTotals struct {
	deals, strikes, fallbacks, forfeits, retimed int
	latency, share                               []time.Duration
}

// busyFigures reads every match and deal stored at db.
func busyFigures(b *testing.B, db string) busyTotals {
	ctx := context.Background()
	st, err := store.Open(ctx, db)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	ms, err := st.ListMatches(ctx, domain.MatchFilter{})
	if err != nil {
		b.Fatal(err)
	}
	var f busyTotals
	for _, m := range ms {
		f.forfeits += len(m.Forfeited)
		deals, err := st.Deals(ctx, m.ID)
		if err != nil {
			b.Fatal(err)
		}
		f.deals += len(deals)
		for _, d := range deals {
			for _, dec := range d.Decisions {
				if dec.RequestID != "" {
					f.latency = append(f.latency, dec.Latency)
					f.share = append(f.share, dec.ArenaShare)
				}
				if dec.Strike {
					f.strikes++
				}
				if dec.Fallback {
					f.fallbacks++
				}
				f.retimed += dec.Retimed
			}
		}
	}
	return f
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
