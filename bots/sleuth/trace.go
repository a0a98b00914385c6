package sleuth

import (
	"fmt"
	"os"
)

// TEMPORARY development trace (SLEUTH_TRACE=1); removed before merge.
var traceOn = os.Getenv("SLEUTH_TRACE") != ""

func tracef(format string, args ...any) { fmt.Fprintf(os.Stderr, format+"\n", args...) }
