//go:build !unix && !windows

package liveness

// processGone never declares a process gone where the platform gives no way to check: its
// jobs are then taken over when their lease runs out, as those of a worker on another host.
func processGone(int) bool { return false }
