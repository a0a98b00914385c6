package hosting

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tapparena/tapp/arena/internal/host"
	"github.com/tapparena/tapp/arena/internal/launch"
	"github.com/tapparena/tapp/arena/internal/sandbox"
)

// RunLimits bound a running version: its memory, its processes and threads, the files it
// writes and its log; a run that has used its CPU time is stopped and restarted (a bot in an
// endless loop loses its games on time meanwhile, as the referee plays for a late bot).
var RunLimits = sandbox.Limits{
	Memory: 4 << 30, CPU: 4 * time.Hour, Processes: 128, OneProcess: true, FileSize: 64 << 20, OpenFiles: 256,
	Scratch: 64 << 20, Output: 4 << 20,
}

// Seats runs built versions in sandboxes, connected to an arena host through a Unix socket of
// their own.
type Seats struct {
	Host    *host.Host
	Sandbox sandbox.Sandbox
	Python  *PythonRuntime // for Python versions
	Dir     string         // the hosting folder: sockets/
	Limits  sandbox.Limits // default RunLimits
	LogDir  string         // where each version's log goes (NAME@V.stderr.log)

	mu        sync.Mutex
	listeners []net.Listener
	dirs      []string
}

// Start launches a version under its name (NAME@V), offered capacity games at once: a
// supervised process in its sandbox, restarted when it dies, its stderr and the arena's notes
// on it (limits reached) in its log. Env is added to its environment.
func (s *Seats) Start(ctx context.Context, a *Artifact, capacity int, seed uint64, env ...string) (*launch.Process, error) {
	name := a.Sub.Name()
	if err := s.Host.EnsureBot(ctx, name); err != nil {
		return nil, err
	}
	socketDir, err := s.socketDir()
	if err != nil {
		return nil, err
	}
	uid, gid := -1, -1
	if u := s.Sandbox.User(); u != nil {
		uid, gid = int(u.UID), int(u.GID)
	}
	lis, err := s.Host.ServeUnix(filepath.Join(socketDir, sandbox.SocketName), uid, gid)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.listeners = append(s.listeners, lis)
	s.mu.Unlock()
	token := s.Host.OneTimeToken(name)
	spec, err := s.RunSpec(a, capacity, seed)
	if err != nil {
		return nil, err
	}
	spec.Socket = socketDir
	spec.Env = append(spec.Env, "TAPP_TOKEN="+token)
	spec.Env = append(spec.Env, env...)
	ls, err := s.Sandbox.Launch(spec)
	if err != nil {
		return nil, err
	}
	ls.Name = name
	if s.LogDir != "" {
		if err := os.MkdirAll(s.LogDir, 0o755); err != nil {
			return nil, err
		}
		ls.StderrPath = LogPath(s.LogDir, name)
	}
	return s.Host.Launch(ctx, ls)
}

// LogPath is the log file of a version in a folder of logs.
func LogPath(dir, name string) string {
	return filepath.Join(dir, strings.ReplaceAll(name, "/", "_")+".stderr.log")
}

// RunSpec is the sandbox spec that runs a built version (without its socket and token).
func (s *Seats) RunSpec(a *Artifact, capacity int, seed uint64) (sandbox.Spec, error) {
	limits := s.Limits
	if limits == (sandbox.Limits{}) {
		limits = RunLimits
	}
	env := append([]string{"TAPP_ARENA=" + sandbox.ArenaAddress, "TAPP_BOT_NAME=" + a.Sub.Name(),
		"TAPP_CAPACITY=" + strconv.Itoa(capacity), "TAPP_SEED=" + strconv.FormatUint(seed, 10)}, baseEnv...)
	mounts := []sandbox.Mount{{Source: a.Src, Target: srcDir}, {Source: a.Out, Target: outDir}}
	switch a.Sub.Lang {
	case Go:
		return sandbox.Spec{Command: []string{outDir + "/bot"}, Env: env, Dir: sandbox.Scratch, Mounts: mounts, Limits: limits}, nil
	case Python:
		if s.Python == nil {
			return sandbox.Spec{}, fmt.Errorf("%s is a Python bot, and this arena has no Python environment for hosted bots (--python)", a.Sub.Name())
		}
		env = append(env, "PYTHONPATH="+outDir+"/site:"+srcDir, "PYTHONDONTWRITEBYTECODE=1", "PYTHONNOUSERSITE=1",
			"PYTHONUNBUFFERED=1", "MALLOC_ARENA_MAX=2")
		mounts = append(mounts, s.Python.mounts()...)
		return sandbox.Spec{Command: []string{s.Python.Executable, srcDir + "/" + a.Sub.Entry}, Env: env, Dir: srcDir,
			Mounts: mounts, Limits: limits}, nil
	}
	return sandbox.Spec{}, fmt.Errorf("unknown language %q", a.Sub.Lang)
}

// socketDir makes a private folder for one socket, owned by the sandbox's user.
func (s *Seats) socketDir() (string, error) {
	var b [6]byte
	_, _ = rand.Read(b[:])
	dir := filepath.Join(s.Dir, "sockets", hex.EncodeToString(b[:]))
	if err := os.MkdirAll(dir, 0o711); err != nil {
		return "", err
	}
	if err := os.Chmod(dir, 0o711); err != nil {
		return "", err
	}
	if err := os.Chmod(filepath.Dir(dir), 0o711); err != nil {
		return "", err
	}
	if u := s.Sandbox.User(); u != nil {
		if err := os.Chown(dir, int(u.UID), int(u.GID)); err != nil {
			return "", err
		}
	}
	s.mu.Lock()
	s.dirs = append(s.dirs, dir)
	s.mu.Unlock()
	return dir, nil
}

// Close stops serving the versions' sockets and removes them (the host stops the processes).
func (s *Seats) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, l := range s.listeners {
		_ = l.Close()
	}
	for _, d := range s.dirs {
		_ = os.RemoveAll(d)
	}
	s.listeners, s.dirs = nil, nil
}

// chownSocket gives a listener's socket to the sandbox's user, open to all (see
// host.ServeUnix for why).
func chownSocket(lis net.Listener, sb sandbox.Sandbox) error {
	path := lis.Addr().String()
	if err := os.Chmod(path, 0o666); err != nil {
		return err
	}
	if u := sb.User(); u != nil {
		return os.Chown(path, int(u.UID), int(u.GID))
	}
	return nil
}
