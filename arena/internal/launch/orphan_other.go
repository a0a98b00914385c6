//go:build !linux

package launch

import "os/exec"

// dieWithArena does nothing where the kernel cannot signal a process when its parent dies: a
// bot launched by an arena that is killed outright lives on there until it is stopped.
func dieWithArena(cmd *exec.Cmd) {}
