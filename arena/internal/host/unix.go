package host

import (
	"fmt"
	"net"
	"os"
)

// ServeUnix serves bots on a Unix socket at path too, besides the TCP address: a sandboxed
// bot has no network and reaches the arena only through the socket bound into its sandbox.
// The socket belongs to the owner given (the sandbox's user; -1: this process's) and is open
// to every user (gVisor checks it against the sandbox's own view of its owner): keep it in
// a folder that others may traverse but not list, under a name no one guesses (a bot still
// needs its token). Closing the listener removes it.
func (h *Host) ServeUnix(path string, uid, gid int) (net.Listener, error) {
	_ = os.Remove(path) // a socket left by a process that died
	lis, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("listening on %s: %w", path, err)
	}
	if err := os.Chmod(path, 0o666); err != nil {
		_ = lis.Close()
		return nil, err
	}
	if uid >= 0 {
		if err := os.Chown(path, uid, gid); err != nil {
			_ = lis.Close()
			return nil, err
		}
	}
	go func() { _ = h.Server.Serve(lis) }()
	return lis, nil
}
