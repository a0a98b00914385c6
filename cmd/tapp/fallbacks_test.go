package main

import (
	"strings"
	"testing"
)

// Results with more than 1% fallbacks say so; results with fewer say nothing.
func TestFallbackWarning(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		fallbacks, decisions int
		warn                 bool
	}{{0, 0, false}, {0, 1000, false}, {10, 1000, false}, {11, 1000, true}, {830, 1000, true}} {
		got := fallbackWarning(c.fallbacks, c.decisions)
		if (got != "") != c.warn || c.warn && !strings.Contains(got, "fallbacks") {
			t.Errorf("fallbackWarning(%d, %d) = %q, want a warning: %v", c.fallbacks, c.decisions, got, c.warn)
		}
	}
}
