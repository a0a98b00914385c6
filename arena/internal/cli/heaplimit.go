package cli

import (
	"context"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// The arena runs with GOGC=400 (Execute): what it allocates lives for a deal at most, and a
// heap target of five times the live heap saves a tenth of the CPU. But the target follows the
// live heap of the last collection, and a moment's backlog (deals waiting for the store) sets it
// for many cycles: in a ladder of 6 random bots with 6–10 MB live, the target wandered between
// 30 and 100 MB and the arena's RSS between 70 and 120 MB, which looks like growth over a night.
// boundHeap caps it with a soft memory limit, heapLimit of the live heap, updated every second.

// heapFloor is the Go memory (heap, stacks, runtime) the limit never goes under: up to it,
// small heaps keep GOGC=400's rare collections.
const heapFloor = 48 << 20

// heapLimit is the soft memory limit for a live heap of live bytes: heapFloor, or three times
// the live heap when that is more. Above the floor the collector runs at about GOGC=200 (still
// less often than Go's default), and never chases a heap that is really live: a limit near the
// live heap would make it collect without end.
func heapLimit(live uint64) int64 {
	return max(heapFloor, 3*int64(live))
}

// boundHeap sets the soft memory limit now and every second until ctx ends.
func boundHeap(ctx context.Context) {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	set := func() {
		metrics.Read(sample)
		if sample[0].Value.Kind() == metrics.KindUint64 {
			debug.SetMemoryLimit(heapLimit(sample[0].Value.Uint64()))
		}
	}
	set()
	go func() {
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				set()
			}
		}
	}()
}
