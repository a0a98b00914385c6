//go:build linux

package launch

import (
	"bytes"
	"os"
	"strconv"
	"time"
)

// clockTicks is Linux's USER_HZ, the unit of the CPU times in /proc/PID/stat (100 on every
// architecture Go supports).
const clockTicks = 100

// treeCPU is the CPU time used by the process root and all its descendants (those still
// running, and those they have waited for), from /proc; false when root is gone.
func treeCPU(root int) (time.Duration, bool) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0, false
	}
	type proc struct{ ppid, ticks int64 }
	procs := make(map[int64]proc, len(entries))
	for _, e := range entries {
		pid, err := strconv.ParseInt(e.Name(), 10, 64)
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue // gone meanwhile
		}
		// The fields after the command (in parentheses, which may hold anything) are
		// space-separated: state ppid pgrp session tty tpgid flags minflt cminflt majflt
		// cmajflt utime stime cutime cstime ...
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		f := bytes.Fields(b[i+1:])
		if len(f) < 15 {
			continue
		}
		ppid, _ := strconv.ParseInt(string(f[1]), 10, 64)
		var ticks int64
		for _, k := range []int{11, 12, 13, 14} {
			v, _ := strconv.ParseInt(string(f[k]), 10, 64)
			ticks += v
		}
		procs[pid] = proc{ppid, ticks}
	}
	if _, ok := procs[int64(root)]; !ok {
		return 0, false
	}
	var total int64
	for pid, p := range procs {
		for q, hops := pid, 0; hops < 64; hops++ {
			if q == int64(root) {
				total += p.ticks
				break
			}
			parent, ok := procs[q]
			if !ok || parent.ppid == q {
				break
			}
			q = parent.ppid
		}
	}
	return time.Duration(total) * time.Second / clockTicks, true
}
