// Package liveness names a league's workers so that a worker on the same host can tell when
// another one's process is gone, and take its jobs over at once instead of waiting for their
// lease to run out. The check is the platform's (signal 0 on Unix, OpenProcess on Windows;
// none elsewhere).
package liveness

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// NewOwner names a worker: host, process id and a random suffix. A worker on the same host
// that finds the process gone takes its jobs over at once instead of waiting for the lease.
func NewOwner() string {
	host, _ := os.Hostname()
	var b [3]byte
	_, _ = rand.Read(b[:])
	return fmt.Sprintf("%s/%d/%s", host, os.Getpid(), hex.EncodeToString(b[:]))
}

// DeadOwners returns the owners (named by NewOwner) that were processes of this host that no
// longer exist; self, owners of other hosts and earlier workers of this process are alive.
func DeadOwners(owners []string, self string) []string {
	host, _ := os.Hostname()
	var dead []string
	for _, o := range owners {
		if pid, ok := pidOnHost(o, host); ok && o != self && pid != os.Getpid() && processGone(pid) {
			dead = append(dead, o)
		}
	}
	return dead
}

// pidOnHost returns the process id of an owner name of host (host/pid/suffix).
func pidOnHost(owner, host string) (int, bool) {
	parts := strings.Split(owner, "/")
	if len(parts) != 3 || parts[0] != host {
		return 0, false
	}
	pid, err := strconv.Atoi(parts[1])
	return pid, err == nil && pid > 0
}
