//go:build unix

package launch

import (
	"os/exec"
	"syscall"
)

// ownGroup starts the command in a process group of its own, so that stopping it also stops
// the programs it started (a script that runs python).
func ownGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
}

// signalGroup asks the command's process group to end (SIGINT, as Ctrl-C would), or kills it.
func signalGroup(cmd *exec.Cmd, kill bool) error {
	if cmd.Process == nil {
		return nil
	}
	sig := syscall.SIGINT
	if kill {
		sig = syscall.SIGKILL
	}
	return syscall.Kill(-cmd.Process.Pid, sig)
}

// runAs starts the command as another user, with no supplementary groups.
func runAs(cmd *exec.Cmd, c Credential) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Credential = &syscall.Credential{Uid: c.UID, Gid: c.GID, Groups: []uint32{}}
}
