//go:build !unix

package analysis

// cpuSeconds is not measured here.
func cpuSeconds() float64 { return 0 }
