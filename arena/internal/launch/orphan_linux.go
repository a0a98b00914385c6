//go:build linux

package launch

import (
	"os/exec"
	"syscall"
)

// dieWithArena has the kernel kill the bot process when the thread that started it ends
// (Pdeathsig): a bot launched by an arena that dies, however it dies (kill -9 included), does
// not live on as an orphan that tries to reconnect for ever. runOnce keeps that thread for
// the process's lifetime.
func dieWithArena(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
}
