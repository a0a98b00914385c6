// Package confine is the first program inside a bubblewrap sandbox: `tapp __confine RULES --
// COMMAND` sets the resource limits (rlimits), restricts the file system and the network
// with Landlock, installs a seccomp filter that refuses the system calls a bot has no use
// for (ptrace, mount, namespaces, kernel keys, BPF, non-Unix sockets, new processes, ...), and then
// replaces itself with the bot's command, which inherits all of it. The namespaces
// bubblewrap made hide the rest of the machine; these rules are the second wall, and the
// limits hold the bot to its share.
//
// It lives under the launcher because it starts the bot's program (exec): the launcher
// stays the one place that starts processes.
package confine

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Command is the hidden tapp subcommand that runs Main.
const Command = "__confine"

// Rules say what a confined program may use.
type Rules struct {
	RO []string // paths it may read and execute (directories or files)
	RW []string // paths it may also write (its scratch directory, /dev/null)
	// Sockets are directories holding the Unix sockets it may connect to (the arena's).
	Sockets []string
	Limits  Limits
	// OneProcess refuses the program every new process (fork, vfork, and clone or clone3
	// of anything but a thread) with an error, while its threads start as usual: a bot
	// that tries to fork keeps playing with the error in hand, where a process limit
	// would have taken its runtime's threads as well.
	OneProcess bool
}

// Limits are the rlimits of the confined program (0: left as they are).
type Limits struct {
	Memory    int64 // RLIMIT_AS, bytes of address space
	CPU       int64 // RLIMIT_CPU, seconds (SIGXCPU, then SIGKILL a second later)
	Processes int64 // RLIMIT_NPROC: processes and threads of its user
	FileSize  int64 // RLIMIT_FSIZE, bytes (a larger write fails with EFBIG)
	OpenFiles int64 // RLIMIT_NOFILE
}

// Args returns the command line of Main (after the program and Command) that confines argv
// by the rules.
func Args(r Rules, argv []string) []string {
	var out []string
	for _, p := range r.RO {
		out = append(out, "--ro", p)
	}
	for _, p := range r.RW {
		out = append(out, "--rw", p)
	}
	for _, p := range r.Sockets {
		out = append(out, "--socket", p)
	}
	if r.OneProcess {
		out = append(out, "--one-process")
	}
	l := r.Limits
	for _, kv := range []struct {
		name string
		v    int64
	}{{"as", l.Memory}, {"cpu", l.CPU}, {"nproc", l.Processes}, {"fsize", l.FileSize}, {"nofile", l.OpenFiles}} {
		if kv.v > 0 {
			out = append(out, "--"+kv.name, strconv.FormatInt(kv.v, 10))
		}
	}
	return append(append(out, "--"), argv...)
}

type pathList []string

func (p *pathList) String() string     { return strings.Join(*p, ",") }
func (p *pathList) Set(v string) error { *p = append(*p, v); return nil }

// parse reads Args' command line.
func parse(args []string, stderr io.Writer) (Rules, []string, error) {
	var r Rules
	fs := flag.NewFlagSet(Command, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Var((*pathList)(&r.RO), "ro", "a path it may read")
	fs.Var((*pathList)(&r.RW), "rw", "a path it may write")
	fs.Var((*pathList)(&r.Sockets), "socket", "a directory of sockets it may connect to")
	fs.BoolVar(&r.OneProcess, "one-process", false, "refuse new processes (threads are allowed)")
	fs.Int64Var(&r.Limits.Memory, "as", 0, "RLIMIT_AS")
	fs.Int64Var(&r.Limits.CPU, "cpu", 0, "RLIMIT_CPU")
	fs.Int64Var(&r.Limits.Processes, "nproc", 0, "RLIMIT_NPROC")
	fs.Int64Var(&r.Limits.FileSize, "fsize", 0, "RLIMIT_FSIZE")
	fs.Int64Var(&r.Limits.OpenFiles, "nofile", 0, "RLIMIT_NOFILE")
	if err := fs.Parse(args); err != nil {
		return r, nil, err
	}
	if fs.NArg() == 0 {
		return r, nil, errors.New("no command to run")
	}
	return r, fs.Args(), nil
}

// Main confines this process and replaces it with the command; it returns only when that
// fails (exit status 126, the reason on stderr: the bot's log, as the command gives it).
func Main(args []string, stderr io.Writer) int {
	r, argv, err := parse(args, stderr)
	if err == nil {
		err = confineAndExec(r, argv)
	}
	fmt.Fprintf(stderr, "tapp sandbox: %v\n", err)
	return 126
}
