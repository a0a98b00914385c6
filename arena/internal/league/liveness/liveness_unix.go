//go:build unix

package liveness

import (
	"errors"
	"syscall"
)

// processGone reports whether no process with this id exists on this host. Signal 0 checks
// for the process without touching it; a process of another user (EPERM) exists.
func processGone(pid int) bool {
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}
