//go:build linux

package confine

import (
	"fmt"
	"os"
	"runtime"
	"syscall"

	seccomp "github.com/elastic/go-seccomp-bpf"
	"github.com/landlock-lsm/go-landlock/landlock"
	"golang.org/x/sys/unix"
)

// Denied are the system calls the seccomp filter answers with EPERM: debugging and reading
// other processes, mounts and namespaces, kernel modules, keys, BPF and perf, io_uring
// (which bypasses the filter), clocks, swap and reboot — nothing a card-playing bot needs.
var Denied = []string{
	"ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_getfd", "pidfd_open",
	"mount", "umount2", "pivot_root", "chroot", "unshare", "setns", "move_mount", "open_tree",
	"fsopen", "fsconfig", "fsmount", "fspick", "mount_setattr",
	"init_module", "finit_module", "delete_module", "kexec_load", "kexec_file_load",
	"keyctl", "add_key", "request_key", "bpf", "perf_event_open", "userfaultfd",
	"io_uring_setup", "io_uring_enter", "io_uring_register",
	"open_by_handle_at", "name_to_handle_at", "quotactl", "acct", "syslog",
	"settimeofday", "clock_settime", "clock_adjtime", "adjtimex",
	"swapon", "swapoff", "reboot", "iopl", "ioperm", "vhangup", "personality",
	"fanotify_init", "lookup_dcookie",
}

func confineAndExec(r Rules, argv []string) error {
	// The limits, the Landlock domain and the seccomp filter belong to the thread that
	// calls execve, and the program it starts inherits them.
	runtime.LockOSThread()
	if err := setLimits(r.Limits); err != nil {
		return err
	}
	if err := restrictPaths(r); err != nil {
		return fmt.Errorf("landlock: %w", err)
	}
	if err := filterSyscalls(r.OneProcess); err != nil {
		return fmt.Errorf("seccomp: %w", err)
	}
	path := argv[0]
	if lp, err := lookPath(argv[0]); err == nil {
		path = lp
	}
	return syscall.Exec(path, argv, os.Environ())
}

func setLimits(l Limits) error {
	for _, lim := range []struct {
		name     string
		resource int
		v        int64
	}{{"address space", unix.RLIMIT_AS, l.Memory}, {"processes", unix.RLIMIT_NPROC, l.Processes},
		{"file size", unix.RLIMIT_FSIZE, l.FileSize}, {"open files", unix.RLIMIT_NOFILE, l.OpenFiles}} {
		if lim.v <= 0 {
			continue
		}
		if err := unix.Setrlimit(lim.resource, &unix.Rlimit{Cur: uint64(lim.v), Max: uint64(lim.v)}); err != nil {
			return fmt.Errorf("rlimit %s: %w", lim.name, err)
		}
	}
	if l.CPU > 0 { // SIGXCPU at the limit, SIGKILL a second later
		if err := unix.Setrlimit(unix.RLIMIT_CPU, &unix.Rlimit{Cur: uint64(l.CPU), Max: uint64(l.CPU + 1)}); err != nil {
			return fmt.Errorf("rlimit CPU time: %w", err)
		}
	}
	return nil
}

// restrictPaths allows reading RO, writing RW and connecting to the sockets in Sockets,
// nothing else of the file system, no TCP bind or connect, no signals to processes outside
// the sandbox and no abstract Unix sockets, as far as this kernel's Landlock goes (best
// effort: an older ABI enforces less, never fails).
func restrictPaths(r Rules) error {
	var rules []landlock.Rule
	for _, p := range r.RO {
		rules = append(rules, pathRule(p, false))
	}
	for _, p := range r.RW {
		rules = append(rules, pathRule(p, true))
	}
	for _, p := range r.Sockets {
		rules = append(rules, landlock.RWDirs(p).WithResolveUnix().IgnoreIfMissing())
	}
	return landlock.V11.BestEffort().Restrict(rules...)
}

func pathRule(p string, write bool) landlock.Rule {
	fi, err := os.Stat(p)
	dir := err == nil && fi.IsDir()
	switch {
	case dir && write:
		return landlock.RWDirs(p).IgnoreIfMissing()
	case dir:
		return landlock.RODirs(p).IgnoreIfMissing()
	case write:
		return landlock.RWFiles(p).IgnoreIfMissing()
	}
	return landlock.ROFiles(p).IgnoreIfMissing()
}

// filterSyscalls refuses Denied, and sockets other than Unix ones, with EPERM; with
// oneProcess also every new process (see Rules.OneProcess).
func filterSyscalls(oneProcess bool) error {
	groups := []seccomp.SyscallGroup{
		{Action: seccomp.ActionErrno, Names: Denied},
		{Action: seccomp.ActionErrno, NamesWithCondtions: []seccomp.NameWithConditions{{
			Name:       "socket",
			Conditions: seccomp.ArgumentConditions{{Argument: 0, Operation: seccomp.NotEqual, Value: unix.AF_UNIX}},
		}, {
			// Typing into the arena's terminal (the sandbox shares its session, so that
			// the scheduler does not treat it as a desktop session of its own).
			Name:       "ioctl",
			Conditions: seccomp.ArgumentConditions{{Argument: 1, Operation: seccomp.Equal, Value: unix.TIOCSTI}},
		}, {
			Name:       "ioctl",
			Conditions: seccomp.ArgumentConditions{{Argument: 1, Operation: seccomp.Equal, Value: unix.TIOCLINUX}},
		}}},
	}
	if oneProcess {
		groups = append(groups, processRules()...)
	}
	filter := seccomp.Filter{
		NoNewPrivs: true,
		Flag:       seccomp.FilterFlagTSync,
		Policy:     seccomp.Policy{DefaultAction: seccomp.ActionAllow, Syscalls: groups},
	}
	return seccomp.LoadFilter(filter)
}

// processRules refuse new processes and let threads start, as Chromium's sandbox does: fork
// and vfork, and clone without CLONE_THREAD, fail with EPERM (what a program reports as "not
// permitted"); clone3, whose flags are in memory that seccomp cannot read, fails with ENOSYS,
// on which the C library (glibc's pthread_create) falls back to clone.
func processRules() []seccomp.SyscallGroup {
	return []seccomp.SyscallGroup{
		{Action: seccomp.ActionErrno, Names: []string{"fork", "vfork"}},
		{Action: seccomp.ActionErrno, NamesWithCondtions: []seccomp.NameWithConditions{{
			Name:       "clone",
			Conditions: seccomp.ArgumentConditions{{Argument: 0, Operation: seccomp.BitsNotSet, Value: unix.CLONE_THREAD}},
		}}},
		{Action: seccomp.ActionErrno | seccomp.Action(unix.ENOSYS), Names: []string{"clone3"}},
	}
}

// lookPath finds a program on $PATH as a shell would (the launcher's lookup is not in reach:
// this runs inside the sandbox, before the bot).
func lookPath(name string) (string, error) {
	if name == "" || name[0] == '/' || containsSlash(name) {
		return name, nil
	}
	for _, dir := range splitPath(os.Getenv("PATH")) {
		p := dir + "/" + name
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s: not found on PATH", name)
}

func containsSlash(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '/' {
			return true
		}
	}
	return false
}

func splitPath(p string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(p); i++ {
		if i == len(p) || p[i] == ':' {
			if i > start {
				out = append(out, p[start:i])
			}
			start = i + 1
		}
	}
	return out
}
