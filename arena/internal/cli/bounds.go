package cli

import (
	"errors"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
)

// bounds checks a command's counts and durations after its flags are parsed, as a league
// file's settings are checked: every value out of its range is a usage error naming the flag
// and the range, all of them at once.
type bounds struct {
	fs   *flag.FlagSet
	errs []string
}

func checkBounds(fs *flag.FlagSet) *bounds { return &bounds{fs: fs} }

// count wants name's value v from lo to hi.
func (b *bounds) count(name string, v, lo, hi int) *bounds {
	if v < lo || v > hi {
		b.errs = append(b.errs, fmt.Sprintf("--%s %d: want a whole number from %d to %d", name, v, lo, hi))
	}
	return b
}

// countIfSet is count for a flag whose default (not given) is outside the range.
func (b *bounds) countIfSet(name string, v, lo, hi int) *bounds {
	if isSet(b.fs, name) {
		b.count(name, v, lo, hi)
	}
	return b
}

// duration wants name's value d from lo to hi.
func (b *bounds) duration(name string, d, lo, hi time.Duration) *bounds {
	if d < lo || d > hi {
		b.errs = append(b.errs, fmt.Sprintf("--%s %v: want a duration from %v to %v", name, d, lo, hi))
	}
	return b
}

// durationOrZero is duration where 0 also stands for the default.
func (b *bounds) durationOrZero(name string, d, lo, hi time.Duration) *bounds {
	if d != 0 {
		b.duration(name, d, lo, hi)
	}
	return b
}

// timeControl checks a match's clock as every match's is checked (domain.TimeControl.Check),
// naming the flags that set it.
func (b *bounds) timeControl(tc domain.TimeControl, perDecision, overage, strikes string) *bounds {
	err := tc.Check()
	var te *domain.TimeControlError
	if errors.As(err, &te) {
		name := map[string]string{"per_decision": perDecision, "overage": overage, "strikes": strikes}[te.Field]
		b.errs = append(b.errs, fmt.Sprintf("--%s: %s", name, te.Msg))
	}
	return b
}

func (b *bounds) err() error {
	if len(b.errs) == 0 {
		return nil
	}
	return usagef("%s", strings.Join(b.errs, "\n"))
}

// isSet reports whether the flag was given on the command line.
func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}
