// Command sleuthtrain fits the sleuth bot's opponent model and calibrations to deals it plays
// against heuristic bots, and writes them with their provenance to bots/sleuth/params.json:
//
//	go run ./scripts/sleuthtrain [-seed 1] [-workers 2] [-scale 1] [-families older,modern-4] [-out bots/sleuth/params.json]
//
// -families retrains only those table families; the others' calibrations and the opponent
// model are kept from the file at -out (its provenance moves under "earlier"). A family
// without enough contracts to fit fails the run, and nothing is written.
//
// The same seed and scale give the same parameters (the provenance records the version, date
// and time taken). Scale 1 is 3,480 deals; the committed params.json is an earlier run of the
// trainer (2,610 deals, 34 minutes on the 2-core machine; its provenance says which).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strings"
	"time"

	"github.com/tapparena/tapp/bots/sleuth"
)

func main() {
	seed := flag.Uint64("seed", 1, "seed of the training deals")
	workers := flag.Int("workers", runtime.NumCPU(), "deals played at once")
	scale := flag.Float64("scale", 1, "number of deals relative to the documented sizes")
	out := flag.String("out", "bots/sleuth/params.json", "where to write the parameters")
	fams := flag.String("families", "", "comma-separated table families to train (modern-3, modern-4, older; empty: all)")
	flag.Parse()
	cfg := sleuth.TrainConfig{Seed: *seed, Workers: *workers, Scale: *scale}
	if *fams != "" {
		cfg.Families = strings.Split(*fams, ",")
		data, err := os.ReadFile(*out)
		if err != nil {
			fmt.Fprintln(os.Stderr, "train: the other families' parameters:", err)
			os.Exit(1)
		}
		if cfg.Base, err = sleuth.ParseParams(data); err != nil {
			fmt.Fprintf(os.Stderr, "train: %s: %v\n", *out, err)
			os.Exit(1)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	start := time.Now()
	last := start
	cfg.Progress = func(done, total int) {
		if time.Since(last) > 5*time.Second || done == total {
			last = time.Now()
			fmt.Fprintf(os.Stderr, "train: %d/%d deals, %s\n", done, total, time.Since(start).Round(time.Second))
		}
	}
	p, err := sleuth.Train(ctx, cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "train:", err)
		os.Exit(1)
	}
	p.Provenance["command"] = "go run ./scripts/sleuthtrain " + strings.Join(os.Args[1:], " ")
	p.Provenance["seconds"] = int(time.Since(start).Seconds())
	p.Provenance["workers"] = *workers
	p.Provenance["go"] = runtime.Version()
	p.Provenance["cpus"] = runtime.NumCPU()
	if rev, err := exec.Command("git", "rev-parse", "HEAD").Output(); err == nil {
		v := strings.TrimSpace(string(rev))
		if st, err := exec.Command("git", "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(st) > 0 {
			v += "+modified"
		}
		p.Provenance["version"] = v
	}
	p.Provenance["date"] = time.Now().UTC().Format(time.DateOnly)
	data, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		fmt.Fprintln(os.Stderr, "train:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, append(data, '\n'), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "train:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "train: wrote %s in %s\n", *out, time.Since(start).Round(time.Second))
}
