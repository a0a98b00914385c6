package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"go.uber.org/zap"
)

// The strongest built-in bot, sleuth, plays a match end to end under its name — as its own
// process over gRPC and in this process — and, its work (not the clock) bounding every
// decision, the same seed gives the same match on both paths, on however busy a host the
// generous clock allows.
func TestSleuthPlaysTheSameMatchOverGRPCAndInProcess(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	moves := func(name string, extra ...string) [][]string {
		db := filepath.Join(dir, name+".db")
		args := append([]string{"match", "--bots", "sleuth,heuristic,random", "--deals", "1", "--seed", "30",
			"--time", "60s", "--parallel", "1", "--db", db, "--json"}, extra...)
		out, err := exec.Command(tappBin, args...).Output()
		if err != nil {
			t.Fatalf("tapp %v: %v\n%s", args, err, out)
		}
		var res struct {
			Match     string `json:"match"`
			Deals     int    `json:"deals"`
			Fallbacks int    `json:"fallbacks"`
		}
		if err := json.Unmarshal(out, &res); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		if res.Deals != 1 || res.Fallbacks != 0 {
			t.Fatalf("%s: %d deals, %d fallbacks; want 1 deal, none played by the arena\n%s", name, res.Deals, res.Fallbacks, out)
		}
		file := filepath.Join(dir, name+".jsonl")
		mustRun(t, "", "replay", "export", res.Match, "--db", db, "--no-sent", "--out", file)
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		var all [][]string
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			var deal struct {
				Moves []string `json:"moves"`
			}
			if err := json.Unmarshal(sc.Bytes(), &deal); err != nil {
				t.Fatal(err)
			}
			all = append(all, deal.Moves)
		}
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
		return all
	}
	grpc, inproc := moves("grpc"), moves("inproc", "--in-process")
	if len(grpc) != 1 || !slices.EqualFunc(grpc, inproc, slices.Equal) {
		t.Fatalf("the same seed gave different matches:\nover gRPC   %v\nin process %v", grpc, inproc)
	}
}

// `tapp bot` runs the simple bots on one thread, and the search bots, which think for tens of
// milliseconds a decision, on every core: a sleuth serving three tables on one thread would
// take three times as long over each decision and miss the clock on a busy host.
func TestBotThreadsByKind(t *testing.T) {
	t.Parallel()
	for kind, want := range map[string]int{"random": 1, "heuristic": 1, "kibitz": 0, "sleuth": 0} {
		var got int
		var errb bytes.Buffer
		m := &Main{Stdout: io.Discard, Stderr: &errb, Getenv: func(string) string { return "" }, Log: zap.NewNop(),
			SetMaxProcs: func(n int) { got = n }}
		// no token: the command stops with a usage error after choosing its threads
		if err := m.Run(context.Background(), []string{"bot", kind}); err == nil {
			t.Fatalf("tapp bot %s without a token: no error", kind)
		}
		if got != want {
			t.Errorf("tapp bot %s: GOMAXPROCS set to %d, want %d (0: left alone)", kind, got, want)
		}
	}
}
