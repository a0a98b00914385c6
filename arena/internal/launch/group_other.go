//go:build !unix

package launch

import (
	"os"
	"os/exec"
)

// ownGroup does nothing where there are no process groups: only the process itself is
// stopped.
func ownGroup(*exec.Cmd) {}

// signalGroup interrupts or kills the process itself.
func signalGroup(cmd *exec.Cmd, kill bool) error {
	if cmd.Process == nil {
		return nil
	}
	if kill {
		return cmd.Process.Kill()
	}
	return cmd.Process.Signal(os.Interrupt)
}

// runAs does nothing where processes cannot be started as another user.
func runAs(*exec.Cmd, Credential) {}
