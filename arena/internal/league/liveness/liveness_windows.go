//go:build windows

package liveness

import (
	"errors"

	"golang.org/x/sys/windows"
)

// stillActive is the exit code GetExitCodeProcess reports for a process that runs.
const stillActive = 259

// processGone reports whether no process with this id runs on this host: opening an id that
// names no process fails with ERROR_INVALID_PARAMETER, and a process that has exited but is
// still held open by someone reports an exit code other than STILL_ACTIVE.
func processGone(pid int) bool {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return errors.Is(err, windows.ERROR_INVALID_PARAMETER)
	}
	defer windows.CloseHandle(h)
	var code uint32
	if err := windows.GetExitCodeProcess(h, &code); err != nil {
		return false
	}
	return code != stillActive
}
