package launch

import (
	"fmt"
	"os"
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/shell"
)

// envAssignment is a leading NAME=VALUE word of a command line, as a shell reads it.
var envAssignment = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)

// Split splits a command line as a POSIX shell would: quotes and backslashes are honoured and
// $VAR is expanded from the environment, and leading NAME=VALUE words set the program's
// environment. It runs no shell: pipes, redirections and `;` are not interpreted (start
// `sh -c '…'` for those).
func Split(command string) (argv, env []string, err error) {
	fields, err := shell.Fields(command, os.Getenv)
	if err != nil {
		return nil, nil, fmt.Errorf("command %q: %w", command, err)
	}
	for len(fields) > 0 && envAssignment.MatchString(fields[0]) {
		env, fields = append(env, fields[0]), fields[1:]
	}
	if len(fields) == 0 || strings.TrimSpace(fields[0]) == "" {
		return nil, nil, fmt.Errorf("command %q: no program to run", command)
	}
	return fields, env, nil
}
