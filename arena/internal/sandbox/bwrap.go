package sandbox

import (
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/tapparena/tapp/arena/internal/launch"
	"github.com/tapparena/tapp/arena/internal/launch/confine"
)

// confinePath is where the confining program is bound inside a bwrap sandbox.
const confinePath = "/run/tapp-confine"

// bwrap is the bubblewrap back end: every namespace unshared (so no network but its own
// loopback, no other process visible), an empty root with the system folders, the code and
// the socket bound in, a tmpfs scratch of bounded size, no capabilities, no new user
// namespaces, a new session (no terminal to inject into); then confine's Landlock, seccomp
// and rlimits.
type bwrap struct {
	bin string
	o   Options
}

func (*bwrap) Name() string { return Bwrap }

func (b *bwrap) User() *launch.Credential { return b.o.User }

func (b *bwrap) Launch(s Spec) (launch.Spec, error) {
	args := []string{b.bin,
		"--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent",
		"--hostname", "tapp-sandbox", "--cap-drop", "ALL", "--clearenv"}
	if b.o.User != nil {
		uid, gid := strconv.Itoa(int(b.o.User.UID)), strconv.Itoa(int(b.o.User.GID))
		args = append(args, "--uid", uid, "--gid", gid)
	}
	ro := []string{}
	for _, m := range systemMounts() {
		if target, err := os.Readlink(m.Source); err == nil { // /bin -> usr/bin on merged-/usr systems
			args = append(args, "--symlink", target, m.Target)
			continue
		}
		args = append(args, "--ro-bind", m.Source, m.Target)
		ro = append(ro, m.Target)
	}
	args = append(args, "--proc", "/proc", "--dev", "/dev")
	if s.Limits.Scratch > 0 {
		args = append(args, "--size", strconv.FormatInt(s.Limits.Scratch, 10))
	}
	args = append(args, "--perms", "0700", "--tmpfs", Scratch)
	rw := []string{Scratch, "/dev/null", "/dev/zero", "/dev/full", "/dev/urandom", "/dev/random"}
	ro = append(ro, "/proc", "/dev/shm")
	for _, m := range s.Mounts {
		if m.Writable {
			args = append(args, "--bind", m.Source, m.Target)
			rw = append(rw, m.Target)
		} else {
			args = append(args, "--ro-bind", m.Source, m.Target)
			ro = append(ro, m.Target)
		}
	}
	var sockets []string
	if s.Socket != "" {
		args = append(args, "--bind", s.Socket, SocketDir)
		sockets = append(sockets, SocketDir)
	}
	args = append(args, "--ro-bind", b.o.Confine, confinePath)
	ro = append(ro, confinePath)
	dir := s.Dir
	if dir == "" {
		dir = Scratch
	}
	args = append(args, "--chdir", dir)
	for _, kv := range s.Env {
		k, v, _ := strings.Cut(kv, "=")
		args = append(args, "--setenv", k, v)
	}
	l := s.Limits
	rules := confine.Rules{RO: ro, RW: rw, Sockets: sockets, OneProcess: l.OneProcess, Limits: confine.Limits{
		Memory: l.Memory, CPU: cpuSeconds(l.CPU), Processes: int64(l.Processes),
		FileSize: l.FileSize, OpenFiles: int64(l.OpenFiles)}}
	args = append(args, "--", confinePath, confine.Command)
	args = append(args, confine.Args(rules, s.Command)...)
	return launch.Spec{Command: args, CleanEnv: true, Group: true, Credential: b.o.User, Limits: limitsOf(l),
		Env: []string{"PATH=/usr/bin:/bin"}, Dir: "/"}, nil
}

// cpuSeconds is the RLIMIT_CPU of a CPU limit: a little above it, so that the launcher's
// watch (which stops the whole tree and says why in the bot's log) comes first, and the
// kernel's limit only catches a process that hides from the watch.
func cpuSeconds(d time.Duration) int64 {
	if d <= 0 {
		return 0
	}
	return int64((d+time.Second-1)/time.Second) + 2
}
