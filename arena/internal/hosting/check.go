package hosting

import (
	"context"
	"io"
	"net"
	"path/filepath"
	"strings"

	"github.com/tapparena/tapp/arena/internal/launch"
	"github.com/tapparena/tapp/arena/internal/sandbox"
)

// StartChecked starts a built version in its sandbox for `tapp bot check --submission`: the
// check's arena listens on TCP (its proxy cuts streams to test a resume), so the version's
// Unix socket forwards each connection to arena. Env (TAPP_TOKEN, TAPP_BOT_NAME) is the
// check's; TAPP_ARENA becomes the socket.
func (s *Seats) StartChecked(ctx context.Context, a *Artifact, arena string, env []string, stderr string) (*launch.Process, error) {
	socketDir, err := s.socketDir()
	if err != nil {
		return nil, err
	}
	lis, err := net.Listen("unix", filepath.Join(socketDir, sandbox.SocketName))
	if err != nil {
		return nil, err
	}
	if err := chownSocket(lis, s.Sandbox); err != nil {
		_ = lis.Close()
		return nil, err
	}
	s.mu.Lock()
	s.listeners = append(s.listeners, lis)
	s.mu.Unlock()
	go forward(lis, arena)
	spec, err := s.RunSpec(a, 4, 1)
	if err != nil {
		return nil, err
	}
	spec.Socket = socketDir
	for _, kv := range env {
		if !strings.HasPrefix(kv, "TAPP_ARENA=") {
			spec.Env = append(spec.Env, kv)
		}
	}
	ls, err := s.Sandbox.Launch(spec)
	if err != nil {
		return nil, err
	}
	ls.Name, ls.StderrPath = a.Sub.Name(), stderr
	return launch.Start(ctx, ls, nil)
}

// forward copies every connection to lis to and from a TCP connection to addr.
func forward(lis net.Listener, addr string) {
	for {
		c, err := lis.Accept()
		if err != nil {
			return
		}
		go func() {
			defer c.Close()
			up, err := net.Dial("tcp", addr)
			if err != nil {
				return
			}
			defer up.Close()
			done := make(chan struct{}, 2)
			go func() { _, _ = io.Copy(up, c); done <- struct{}{} }()
			go func() { _, _ = io.Copy(c, up); done <- struct{}{} }()
			<-done
		}()
	}
}
