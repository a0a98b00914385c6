//go:build unix

package replay

import (
	"os/exec"
	"syscall"
)

// setGroup starts the command in a process group of its own, so that stopping it also stops
// the programs it started (sh -c "python bot.py" runs python under sh).
func setGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// signalGroup asks the command's process group to end (SIGTERM), or kills it.
func signalGroup(cmd *exec.Cmd, kill bool) {
	if cmd.Process == nil {
		return
	}
	sig := syscall.SIGTERM
	if kill {
		sig = syscall.SIGKILL
	}
	_ = syscall.Kill(-cmd.Process.Pid, sig)
}
