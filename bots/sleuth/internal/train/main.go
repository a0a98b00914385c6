// Command train fits the sleuth bot's opponent model and calibrations to deals it plays
// against heuristic bots, and writes them with their provenance to bots/sleuth/params.json:
//
//	go run ./bots/sleuth/internal/train [-seed 1] [-workers 2] [-scale 1] [-out bots/sleuth/params.json]
//
// The same seed and scale give the same file (but for the provenance's version). At scale 1
// it takes about 40 minutes on two cores.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"time"

	"github.com/tapparena/tapp/bots/sleuth"
)

func main() {
	seed := flag.Uint64("seed", 1, "seed of the training deals")
	workers := flag.Int("workers", runtime.NumCPU(), "deals played at once")
	scale := flag.Float64("scale", 1, "number of deals relative to the documented sizes")
	out := flag.String("out", "bots/sleuth/params.json", "where to write the parameters")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	start := time.Now()
	last := start
	p, err := sleuth.Train(ctx, sleuth.TrainConfig{Seed: *seed, Workers: *workers, Scale: *scale,
		Progress: func(done, total int) {
			if time.Since(last) > 5*time.Second || done == total {
				last = time.Now()
				fmt.Fprintf(os.Stderr, "train: %d/%d deals, %s\n", done, total, time.Since(start).Round(time.Second))
			}
		}})
	if err != nil {
		fmt.Fprintln(os.Stderr, "train:", err)
		os.Exit(1)
	}
	p.Provenance["seconds"] = int(time.Since(start).Seconds())
	p.Provenance["workers"] = *workers
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
