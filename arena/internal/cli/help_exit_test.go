package cli

import (
	"bytes"
	"errors"
	"os/exec"
	"strings"
	"testing"
)

// The tapp binary exits 0 for help and the version, on the top level as for a command, and
// 2 for a mistake on the command line (an unknown flag, a value that does not parse, one out
// of range): what a script or a shell sees, beyond what Run returns.
func TestHelpAndVersionExitZero(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		want string // on stdout
		code int
	}{
		{[]string{"-h"}, "tapp ", 0}, {[]string{"--help"}, "tapp ", 0}, {[]string{"help"}, "tapp ", 0},
		{[]string{"--version"}, "protocol tapp.v1", 0}, {[]string{"version"}, "protocol tapp.v1", 0},
		{[]string{"league", "run", "-h"}, "tapp league run", 0}, {[]string{"db", "--help"}, "tapp db", 0},
		{[]string{"match", "--no-such-flag"}, "", 2}, {[]string{"match", "--deals", "many"}, "", 2},
		{[]string{"match", "--deals", "0"}, "", 2}, {[]string{"web", "--no-such-flag"}, "", 2},
		{[]string{"submissions", "show", "-h"}, "Usage: tapp submissions show NAME@V\n", 0},
		{[]string{"submissions", "no-such-subcommand"}, "", 2},
		{[]string{"sprt", "--no-such-flag"}, "", 2}, {[]string{"version", "--no-such-flag"}, "", 2},
	} {
		cmd := exec.Command(tappBin, c.args...)
		var out, errs bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errs
		err := cmd.Run()
		code := 0
		if err != nil {
			code = -1
			var exit *exec.ExitError
			if errors.As(err, &exit) {
				code = exit.ExitCode()
			}
		}
		if code != c.code || !strings.Contains(out.String(), c.want) {
			t.Errorf("tapp %s: exit %d, stdout %q, stderr %q; want exit %d with %q on stdout",
				strings.Join(c.args, " "), code, out.String(), errs.String(), c.code, c.want)
		}
	}
}
