//go:build !unix

package yardstick

import "time"

// CPUTime is not measured here: 0.
func CPUTime() time.Duration { return 0 }
