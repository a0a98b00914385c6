package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// pythonTables is how many tables BenchmarkArenaPythonBots plays at once: the Python bots are
// slower, so fewer requests in flight keep them as busy.
const pythonTables = 32

// BenchmarkArenaPythonBots: three Python SDK random bots as separate processes, against the
// yardstick of three Go random bots (BenchmarkArenaGoBots/tables=64) playing the same deals
// just before in the same run: go-ratio is the Python bots' deals/s over the Go bots'
// (go-deals/s). The other figures (deals/s, CPU and latency per decision) are the Python run's.
// Issue 31's target is go-ratio ≥ 0.5.
func BenchmarkArenaPythonBots(b *testing.B) {
	py, err := filepath.Abs("../../../.venv/bin/python")
	if err != nil {
		b.Fatal(err)
	}
	if _, err := exec.LookPath(py); err != nil {
		b.Skipf("no Python venv (%v): run make venv", err)
	}
	goRate := benchArena(b, 64, func(name string) []string {
		return []string{tappBin, "bot", "random", "--name", name, "--capacity", "64"}
	})
	// The SDK's random bot, or a throwaway script in its place to measure a floor
	// (bots/python/benchmarks/h2_floor.py, docs/BENCHMARKS.md).
	bot := []string{"-m", "tapp_bot.examples.random"}
	if script := os.Getenv("TAPP_BENCH_PYTHON_BOT"); script != "" {
		bot = []string{script}
	}
	pyRate := benchArena(b, pythonTables, func(name string) []string {
		return append([]string{py}, append(bot, "--name", name, "--capacity", strconv.Itoa(pythonTables), "--log-level", "WARNING")...)
	})
	// After the Python run: b.ResetTimer in it drops the metrics reported before.
	b.ReportMetric(goRate, "go-deals/s")
	b.ReportMetric(pyRate/goRate, "go-ratio")
}
