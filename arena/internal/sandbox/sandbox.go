// Package sandbox runs hosted bots' code — hostile until shown otherwise — in a sandbox of
// its own: one interface with several back ends, chosen by name or the strongest this host
// has. A Spec says what the program sees (its read-only code, a small private scratch
// directory, the folder of the one Unix socket the arena hands it) and its limits; a back
// end turns it into the command line the launcher (arena/internal/launch) starts, run as an
// unprivileged user when the arena is root.
//
//   - runsc: gVisor (`runsc --rootless --network=none run`): the bot's system calls are served
//     by gVisor's own kernel in user space, so a kernel bug on the host is out of its reach;
//     no network at all, an empty root with only the mounts named; about 0.3–0.8 s to start.
//   - bwrap: bubblewrap namespaces (user, mount, pid, network, ipc, uts, cgroup) with an empty
//     root, then Landlock, a seccomp filter and rlimits applied by `tapp __confine`
//     (arena/internal/launch/confine) before the bot's program starts; about 0.1 s.
//   - none: the program runs as it is, for trusted local bots (limits from outside only).
//
// What each guarantees and what it does not is in docs/hosting.md, and the escape suite
// (arena/internal/hosting's tests) checks it on every back end present.
package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tapparena/tapp/arena/internal/launch"
)

// The back ends' names (--sandbox).
const (
	Runsc = "runsc"
	Bwrap = "bwrap"
	None  = "none"
)

// DefaultOrder is the order in which New("") takes the back ends present: those within the
// latency budget first (see New).
var DefaultOrder = []string{Bwrap, Runsc}

// Names lists the back ends, strongest first.
var Names = []string{Runsc, Bwrap, None}

// Paths inside every sandbox.
const (
	// SocketDir holds the arena's Unix socket, SocketName in it.
	SocketDir  = "/run/tapp"
	SocketName = "arena.sock"
	// Scratch is the private writable directory (also HOME and TMPDIR).
	Scratch = "/tmp"
)

// ArenaAddress is the address a sandboxed bot connects to (TAPP_ARENA): gRPC's unix: scheme,
// understood by the Go and the Python SDK alike.
const ArenaAddress = "unix://" + SocketDir + "/" + SocketName

// Limits bound what a sandboxed program may use. Zero fields take no limit.
type Limits struct {
	Memory    int64         // bytes of address space (RLIMIT_AS)
	CPU       time.Duration // CPU time per run of the whole process tree
	Processes int           // processes and threads (RLIMIT_NPROC)
	// OneProcess refuses the program any other process (fork, vfork, clone and clone3
	// of a process fail with an error) while its threads start as usual: a hosted bot
	// that tries to fork keeps its threads, and plays on.
	OneProcess bool
	FileSize   int64         // bytes of any one file written (RLIMIT_FSIZE)
	OpenFiles  int           // open file descriptors (RLIMIT_NOFILE)
	Scratch    int64         // bytes of the scratch directory (a tmpfs of this size)
	Wall       time.Duration // wall time per run
	Output     int64         // bytes of stdout and stderr kept per run
}

// Mount makes a host path visible inside the sandbox.
type Mount struct {
	Source   string // host path
	Target   string // path inside
	Writable bool
}

// Spec is one program to run in a sandbox.
type Spec struct {
	Command []string // program and arguments, as paths inside the sandbox
	Env     []string // its whole environment, KEY=VALUE (nothing of the arena's is passed)
	Dir     string   // working directory inside (default Scratch)
	Mounts  []Mount  // besides the system's read-only /usr, /lib, /bin and the scratch
	// Socket is the host directory bound at SocketDir: the arena's socket for this program.
	Socket string
	Limits Limits
}

// Options configure a back end on this host.
type Options struct {
	// Work is a private directory for the back end's state (runsc's bundles and state).
	Work string
	// Confine is the host path of a program that runs confine.Main as `PROG __confine …`
	// (the tapp binary): bwrap runs it inside the sandbox before the bot.
	Confine string
	// User is who the sandbox runs as when the arena runs as root (default nobody,
	// 65534:65534). An arena that is not root runs it as itself inside a user namespace.
	User *launch.Credential
}

// Sandbox is a back end that confines programs.
type Sandbox interface {
	// Name is the back end's name (Runsc, Bwrap, None).
	Name() string
	// Launch returns the launcher's spec that runs s confined; the caller adds the name,
	// the log file and supervision.
	Launch(s Spec) (launch.Spec, error)
	// User is who the confined program runs as on the host (nil: the arena's own user):
	// the folders it writes must be its own.
	User() *launch.Credential
}

// ErrNotAvailable says a back end is missing on this host.
var ErrNotAvailable = errors.New("sandbox not available")

// New returns the back end of that name, or for "" the default: the strongest present that
// keeps within the latency budget of a hosted bot's decision (at most 20% at p50 over the
// same bot unconfined), bwrap, then runsc; never none, which confines nothing: ask for it
// by name. runsc is the stronger wall but not the default: on the ptrace platform (the only
// one Debian's gVisor has; KVM does not start in a VM without nested virtualisation) every
// system call of the bot costs tens of µs, and a decision takes several times as long
// (docs/BENCHMARKS.md, "Hosted bots"). Ask for it by name where that is worth it.
func New(name string, o Options) (Sandbox, error) {
	if o.User == nil && os.Geteuid() == 0 {
		o.User = &launch.Credential{UID: 65534, GID: 65534}
	}
	if o.Work == "" {
		return nil, errors.New("sandbox: no work directory")
	}
	if o.User != nil {
		if err := Reachable(o.Work); err != nil {
			return nil, err
		}
	}
	switch name {
	case "":
		var missing []string
		for _, n := range DefaultOrder {
			sb, err := New(n, o)
			if err == nil {
				return sb, nil
			}
			missing = append(missing, err.Error())
		}
		return nil, fmt.Errorf("%w: %s; install gVisor's runsc or bubblewrap (Debian: apt-get install runsc bubblewrap), or run trusted bots with --sandbox none",
			ErrNotAvailable, strings.Join(missing, "; "))
	case Runsc:
		bin, err := findProgram("runsc")
		if err != nil {
			return nil, err
		}
		return &runsc{bin: bin, o: o}, nil
	case Bwrap:
		bin, err := findProgram("bwrap")
		if err != nil {
			return nil, err
		}
		if !userNamespaces() {
			return nil, fmt.Errorf("bwrap: this kernel does not let users make user namespaces (user.max_user_namespaces is 0)")
		}
		if o.Confine == "" {
			return nil, errors.New("bwrap: no confining program (the tapp binary) given")
		}
		// The sandbox's user binds it from the host: a copy in the work directory is in
		// its reach wherever tapp is installed.
		confine, err := CopyExecutable(o.Confine, filepath.Join(o.Work, "confine"))
		if err != nil {
			return nil, fmt.Errorf("bwrap: %w", err)
		}
		o.Confine = confine
		return &bwrap{bin: bin, o: o}, nil
	case None:
		return none{o: o}, nil
	}
	return nil, fmt.Errorf("unknown sandbox %q (one of %s)", name, strings.Join(Names, ", "))
}

// Present lists the back ends this host has, strongest first (none always).
func Present(o Options) []string {
	var out []string
	for _, n := range Names {
		if _, err := New(n, o); err == nil {
			out = append(out, n)
		}
	}
	return out
}

// findProgram looks for a program on $PATH and in the usual system folders.
func findProgram(name string) (string, error) {
	dirs := filepath.SplitList(os.Getenv("PATH"))
	dirs = append(dirs, "/usr/bin", "/usr/sbin", "/usr/local/bin", "/bin", "/sbin")
	for _, d := range dirs {
		p := filepath.Join(d, name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s: not installed (not found on PATH)", name)
}

// userNamespaces reports whether unprivileged user namespaces can be made here.
func userNamespaces() bool {
	b, err := os.ReadFile("/proc/sys/user/max_user_namespaces")
	if err != nil {
		return false
	}
	return strings.TrimSpace(string(b)) != "0"
}

// systemMounts are the host's read-only system folders every sandbox sees: the dynamic
// loader and libraries, the Python interpreter and its standard library. /etc is left out
// (it names the host's users and services); so are /home, /root, /var, /srv and /proc's
// host view.
func systemMounts() []Mount {
	var out []Mount
	for _, d := range []string{"/usr", "/lib", "/lib64", "/lib32", "/bin", "/sbin"} {
		if _, err := os.Lstat(d); err == nil {
			out = append(out, Mount{Source: d, Target: d})
		}
	}
	return out
}

// limitsOf returns what the launcher enforces from outside.
func limitsOf(l Limits) launch.Limits {
	return launch.Limits{Output: l.Output, CPU: l.CPU, Wall: l.Wall}
}

// none runs the program unconfined: paths inside are the mounts' host paths.
type none struct{ o Options }

func (none) Name() string { return None }

func (none) User() *launch.Credential { return nil }

func (n none) Launch(s Spec) (launch.Spec, error) {
	outside := func(p string) string {
		for _, m := range s.Mounts {
			if p == m.Target || strings.HasPrefix(p, m.Target+"/") {
				return m.Source + strings.TrimPrefix(p, m.Target)
			}
		}
		return p
	}
	argv := make([]string, len(s.Command))
	for i, a := range s.Command {
		argv[i] = outside(a)
	}
	scratch, err := os.MkdirTemp(n.o.Work, "scratch-")
	if err != nil {
		return launch.Spec{}, err
	}
	env := make([]string, 0, len(s.Env))
	for _, kv := range s.Env {
		k, v, _ := strings.Cut(kv, "=")
		switch v {
		case ArenaAddress:
			v = "unix://" + filepath.Join(s.Socket, SocketName)
		case Scratch:
			v = scratch
		default:
			v = outside(v)
		}
		env = append(env, k+"="+v)
	}
	dir := s.Dir
	if dir == "" || dir == Scratch {
		dir = scratch
	}
	return launch.Spec{Command: argv, Env: env, Dir: outside(dir), CleanEnv: true, Group: true, Limits: limitsOf(s.Limits)}, nil
}

// Reachable checks that every folder above path (and path itself) lets others through
// (o+x): the sandbox's unprivileged user must reach the code and the socket bound from
// there.
func Reachable(path string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	for p := abs; ; p = filepath.Dir(p) {
		fi, err := os.Stat(p)
		if err != nil {
			return err
		}
		if fi.Mode().Perm()&0o001 == 0 {
			return fmt.Errorf("sandbox: %s is closed to other users (mode %s), so the sandbox's unprivileged user cannot reach %s: chmod o+x %s, or put the hosting folder elsewhere (--hosting-dir)",
				p, fi.Mode().Perm(), abs, p)
		}
		if p == filepath.Dir(p) {
			return nil
		}
	}
}

// CopyExecutable copies the program at src to dst (once: an existing copy of the same size
// and time is kept), readable and executable by everyone.
func CopyExecutable(src, dst string) (string, error) {
	si, err := os.Stat(src)
	if err != nil {
		return "", err
	}
	if di, err := os.Stat(dst); err == nil && di.Size() == si.Size() && !di.ModTime().Before(si.ModTime()) {
		return dst, nil
	}
	b, err := os.ReadFile(src)
	if err != nil {
		return "", err
	}
	tmp := dst + ".new"
	if err := os.WriteFile(tmp, b, 0o755); err != nil {
		return "", err
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return "", err
	}
	return dst, os.Rename(tmp, dst)
}
