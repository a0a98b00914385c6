//go:build linux

package cli

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"
)

// processesCPU is the CPU time (user and system) used so far by this process and by the
// running processes cmds started: what a benchmark of several processes costs the machine.
func processesCPU(cmds []*exec.Cmd) time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	total := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	for _, c := range cmds {
		if c.Process != nil {
			total += pidCPU(c.Process.Pid)
		}
	}
	return total
}

// pidCPU reads a process's CPU time from /proc/PID/stat (utime and stime, in clock ticks of
// 1/100 s, as Linux reports them to every program).
func pidCPU(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The command name (field 2) is in parentheses and may hold spaces: count from after it.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 13 {
		return 0
	}
	utime, _ := strconv.ParseInt(string(f[11]), 10, 64)
	stime, _ := strconv.ParseInt(string(f[12]), 10, 64)
	return time.Duration(utime+stime) * 10 * time.Millisecond
}
