package hosting_test

// The hostile bot of the escape suite: this test binary, run inside the sandbox with
// TAPP_HOSTILE set. In "probe" mode it tries every escape in turn, says in its log how each
// ended ("escape NAME: blocked: REASON" or "escape NAME: ESCAPED: WHAT"), and then plays its
// matches through the SDK as a bot that plays the first legal action, trying to start
// processes all the while. Its targets (the arena's TCP port and pid, the database, the
// tokens, another submission's folder, the host's listeners) come in its environment, as an
// attacker who knows the host would know them. The output flood and the setuid program,
// which end a run's log and a run's program, are a second start of their own ("flood").

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"

	"github.com/tapparena/tapp/bots"
	"github.com/tapparena/tapp/bots/sdk"
	"github.com/tapparena/tapp/engine"
)

// hostileMain runs the hostile bot in one of its modes and returns its exit status.
func hostileMain(mode string) int {
	switch mode {
	case "probe":
		probeNetworkAndFiles()
		probeProcesses()
		probeBombs()
		return play(true)
	case "play":
		return play(false)
	case "think": // a bot that computes for TAPP_THINK per decision, as a searching bot does
		return play(false)
	case "probe-light": // without the bombs: what an unconfined program would do to the host
		probeNetworkAndFiles()
		probeProcesses()
		return 0
	case "flood":
		return setuidThenFlood()
	case "spin": // an endless loop, as a bot stuck in its search
		fmt.Fprintln(os.Stderr, "escape infinite-loop: spinning")
		for i := 0; ; i++ {
			_ = i * i
		}
	case "poison-cache": // a Go build that tries to change the shared build cache
		return poisonCache()
	case "child-sleep":
		time.Sleep(20 * time.Second)
		return 0
	}
	fmt.Fprintln(os.Stderr, "unknown mode", mode)
	return 2
}

// report writes an attempt's outcome into the bot's log.
func report(name string, escaped bool, format string, args ...any) {
	verdict := "blocked"
	if escaped {
		verdict = "ESCAPED"
	}
	fmt.Fprintf(os.Stderr, "escape %s: %s: %s\n", name, verdict, fmt.Sprintf(format, args...))
}

// blockedIf reports the attempt as blocked when err is set (its reason), escaped otherwise.
func blockedIf(name string, err error, what string) {
	if err != nil {
		report(name, false, "%v", err)
		return
	}
	report(name, true, "%s", what)
}

func probeNetworkAndFiles() {
	env := os.Getenv
	arenaPID, _ := strconv.Atoi(env("HOSTILE_ARENA_PID"))

	// The network: the arena's own TCP port, a listener of the host, UDP, DNS.
	c, err := net.DialTimeout("tcp", env("HOSTILE_TCP_ARENA"), 2*time.Second)
	if c != nil {
		c.Close()
	}
	blockedIf("connect-tcp-arena", err, "connected to the arena's TCP port "+env("HOSTILE_TCP_ARENA"))
	c, err = net.DialTimeout("tcp", env("HOSTILE_TCP_HOST"), 2*time.Second)
	if c == nil {
		blockedIf("connect-tcp", err, "")
	} else {
		_, err = c.Write([]byte("escaped\n"))
		c.Close()
		blockedIf("connect-tcp", err, "connected out to "+env("HOSTILE_TCP_HOST"))
	}
	blockedIf("connect-udp", udpRoundTrip(env("HOSTILE_UDP_HOST")), "a datagram to "+env("HOSTILE_UDP_HOST")+" came back")
	r := &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
		d := net.Dialer{Timeout: 2 * time.Second}
		return d.DialContext(ctx, "udp", env("HOSTILE_DNS_HOST"))
	}}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	addrs, err := r.LookupHost(ctx, "arena.example")
	cancel()
	blockedIf("connect-dns", err, fmt.Sprintf("resolved arena.example to %v", addrs))
	if _, err := net.LookupHost("localhost.localdomain.example"); err == nil {
		report("connect-dns-system", true, "the system resolver answered")
	} else {
		report("connect-dns-system", false, "%v", err)
	}
	lis, err := net.Listen("tcp", "0.0.0.0:"+env("HOSTILE_LISTEN_PORT"))
	if err != nil {
		report("listen", false, "%v", err)
	} else {
		// Listening on its own loopback is not reaching anyone: the test checks that the host
		// cannot connect to it.
		fmt.Fprintf(os.Stderr, "escape listen: listening-inside: %s\n", lis.Addr())
		go func() {
			for {
				c, err := lis.Accept()
				if err != nil {
					return
				}
				c.Close()
			}
		}()
	}

	// Files of the arena: the database, the tokens, another submission, the arena's /proc.
	readFile := func(name, path string) {
		b, err := os.ReadFile(path)
		blockedIf(name, err, fmt.Sprintf("read %d bytes of %s", len(b), path))
	}
	readFile("read-database", env("HOSTILE_DB"))
	readFile("read-tokens", env("HOSTILE_TOKENS"))
	_, err = os.ReadDir(env("HOSTILE_OTHER"))
	blockedIf("read-other-submission", err, "listed "+env("HOSTILE_OTHER"))
	for _, what := range []string{"cmdline", "environ"} {
		p := fmt.Sprintf("/proc/%d/%s", arenaPID, what)
		b, err := os.ReadFile(p)
		switch {
		case err != nil:
			report("read-arena-proc-"+what, false, "%v", err)
		case strings.Contains(string(b), "-test.") || strings.Contains(string(b), "TAPP_ESCAPE_MARKER"):
			report("read-arena-proc-"+what, true, "read the arena's %s", p)
		default:
			report("read-arena-proc-"+what, false, "%s is another process in the sandbox's own pid namespace, not the arena", p)
		}
	}
	_, err = os.ReadDir(fmt.Sprintf("/proc/%d/root/", arenaPID))
	if err == nil {
		if _, err2 := os.Stat(fmt.Sprintf("/proc/%d/root%s", arenaPID, env("HOSTILE_DB"))); err2 == nil {
			report("read-arena-root", true, "reached the database through /proc/%d/root", arenaPID)
		} else {
			report("read-arena-root", false, "/proc/%d/root is not the host's: %v", arenaPID, err2)
		}
	} else {
		report("read-arena-root", false, "%v", err)
	}

	// Writing outside the scratch folder.
	targets := []string{"/bot/planted", "/build/planted", "/usr/planted", "/planted", env("HOSTILE_WRITE") + "/planted"}
	if env("TAPP_HOSTILE") == "probe-light" { // unconfined: the system's folders are left alone
		targets = targets[len(targets)-1:]
	}
	for _, p := range targets {
		err := os.WriteFile(p, []byte("x"), 0o644)
		blockedIf("write-outside-scratch "+p, err, "wrote "+p)
	}

	// The arena's process: ptrace and signals (not without its pid: kill(0) is its own group).
	if arenaPID <= 0 {
		return
	}
	err = syscall.PtraceAttach(arenaPID)
	if err == nil {
		_ = syscall.PtraceDetach(arenaPID)
	}
	blockedIf("ptrace-arena", err, fmt.Sprintf("attached to pid %d", arenaPID))
	err = syscall.Kill(arenaPID, syscall.SIGTERM)
	if err == nil {
		report("signal-arena", arenaPID <= 3, "sent SIGTERM to pid %d of its own pid namespace", arenaPID)
	} else {
		report("signal-arena", false, "%v", err)
	}

}

func probeBombs() {
	forkBomb()
	memoryBomb()
	diskFill()
}

// setuidThenFlood runs the setuid-root program shipped with the bot in its own place (exec:
// starting it as a child is refused), which says whether the bit gave it root; then floods
// its output, which ends what the run's log keeps.
func setuidThenFlood() int {
	if suid := os.Getenv("HOSTILE_SUID"); suid != "" && os.Getenv("HOSTILE_EUID") == "" {
		env := append(os.Environ(), "HOSTILE_EUID="+strconv.Itoa(os.Geteuid()))
		err := syscall.Exec(suid, []string{suid}, env)
		report("setuid", false, "exec %s: %v", suid, err)
	}
	if was := os.Getenv("HOSTILE_EUID"); was != "" {
		if now := strconv.Itoa(os.Geteuid()); now != was {
			report("setuid", true, "changed its user from %s to %s", was, now)
		} else {
			report("setuid", false, "the setuid bit gave nothing: euid=%s", now)
		}
	}
	flood := strings.Repeat("flood flood flood flood flood flood flood flood flood flood\n", 1<<12)
	fmt.Fprintln(os.Stderr, "escape stdout-flood: flooding 32 MiB")
	for n := 0; n < 32<<20; n += len(flood) {
		os.Stdout.WriteString(flood)
	}
	return 0
}

func udpRoundTrip(addr string) error {
	c, err := net.Dial("udp", addr)
	if err != nil {
		return err
	}
	defer c.Close()
	if _, err := c.Write([]byte("escaped")); err != nil {
		return err
	}
	_ = c.SetReadDeadline(time.Now().Add(time.Second))
	buf := make([]byte, 64)
	_, err = c.Read(buf)
	return err
}

// probeProcesses tries to start a process in every way there is: a program (fork and exec,
// as os/exec does: clone with CLONE_VM|CLONE_VFORK), a bare fork, and clone3, whose flags a
// seccomp filter cannot see.
func probeProcesses() {
	blockedIf("spawn", spawn(), "started a child process")
	blockedIf("fork", rawFork(), "forked a child")
	blockedIf("clone3", rawClone3(), "started a child with clone3")
}

// forkBomb starts sleeping children until the sandbox refuses more.
func forkBomb() {
	exe, _ := os.Executable()
	var kids []*exec.Cmd
	var err error
	for len(kids) < 2000 {
		cmd := exec.Command(exe)
		cmd.Env = append(os.Environ(), "TAPP_HOSTILE=child-sleep")
		if err = cmd.Start(); err != nil {
			break
		}
		kids = append(kids, cmd)
	}
	for _, k := range kids {
		_ = k.Process.Kill()
		_ = k.Wait()
	}
	if err != nil && len(kids) == 0 {
		report("fork-bomb", false, "not one process started: %v", err)
	} else {
		report("fork-bomb", true, "started %d processes (%v)", len(kids), err)
	}
}

// spawn starts a child, as os/exec does, and waits for it.
func spawn() error {
	exe, _ := os.Executable()
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), "TAPP_HOSTILE=child-sleep")
	if err := cmd.Start(); err != nil {
		return err
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	return nil
}

// rawFork forks by the fork system call; a child exits at once.
func rawFork() error {
	pid, _, errno := syscall.RawSyscall(syscall.SYS_FORK, 0, 0, 0)
	if errno != 0 {
		return errno
	}
	if pid == 0 {
		syscall.RawSyscall(syscall.SYS_EXIT_GROUP, 0, 0, 0)
	}
	var ws syscall.WaitStatus
	_, _ = syscall.Wait4(int(pid), &ws, 0, nil)
	return nil
}

// sysClone3 is clone3's number on amd64 and arm64 (every architecture since Linux 5.3).
const sysClone3 = 435

// rawClone3 starts a process with clone3 (flags 0, SIGCHLD at its end); a child exits at once.
func rawClone3() error {
	args := struct{ flags, pidfd, childTID, parentTID, exitSignal, stack, stackSize, tls uint64 }{exitSignal: uint64(syscall.SIGCHLD)}
	pid, _, errno := syscall.RawSyscall(sysClone3, uintptr(unsafe.Pointer(&args)), unsafe.Sizeof(args), 0)
	if errno != 0 {
		return errno
	}
	if pid == 0 {
		syscall.RawSyscall(syscall.SYS_EXIT_GROUP, 0, 0, 0)
	}
	var ws syscall.WaitStatus
	_, _ = syscall.Wait4(int(pid), &ws, 0, nil)
	return nil
}

// memoryBomb maps memory in 64 MiB pieces, each touched, until the sandbox refuses more,
// then gives it back (in this process: a child may not be started, and the Go heap would
// end the bot at the first refusal).
func memoryBomb() {
	const piece = 64 << 20
	var maps [][]byte
	var err error
	for len(maps) < (16<<30)/piece {
		var b []byte
		if b, err = syscall.Mmap(-1, 0, piece, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE); err != nil {
			break
		}
		for i := 0; i < len(b); i += 4096 {
			b[i] = 1
		}
		maps = append(maps, b)
	}
	for _, b := range maps {
		_ = syscall.Munmap(b)
	}
	if err != nil {
		report("memory-bomb", false, "refused after %d MiB: %v", len(maps)*piece>>20, err)
	} else {
		report("memory-bomb", true, "mapped %d MiB", len(maps)*piece>>20)
	}
}

// diskFill writes its scratch folder full.
func diskFill() {
	f, err := os.Create("/tmp/fill")
	if err != nil {
		report("disk-fill", false, "%v", err)
		return
	}
	defer os.Remove("/tmp/fill")
	defer f.Close()
	chunk := make([]byte, 1<<20)
	written := 0
	for written < 4<<30 {
		n, err := f.Write(chunk)
		written += n
		if err != nil {
			report("disk-fill", false, "stopped after %d MiB: %v", written>>20, err)
			return
		}
	}
	report("disk-fill", true, "wrote %d MiB", written>>20)
}

// play plays the bot's matches: the first legal action every time. With forking, it tries
// to start a process at every decision (in a goroutine of its own, so that its answers stay
// on time), and names the outcome in its log: the first attempts, then every hundredth.
func play(forking bool) int {
	cfg, err := sdk.ConfigFromEnv()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	cfg.Capacity = max(cfg.Capacity, 1)
	cfg.MaxReconnect = 30 * time.Second
	think, _ := time.ParseDuration(os.Getenv("TAPP_THINK"))
	attempts := make(chan struct{}, 1)
	if forking {
		go func() {
			n := 0
			for range attempts {
				if n++; n <= 3 || n%100 == 0 {
					blockedIf("fork-while-playing", spawn(), fmt.Sprintf("started a child process at attempt %d", n))
				} else if spawn() == nil {
					report("fork-while-playing", true, "started a child process at attempt %d", n)
				}
			}
		}()
	}
	first := bots.Func(func(_ context.Context, obs *engine.Observation) (engine.Action, error) {
		select {
		case attempts <- struct{}{}:
		default:
		}
		for start, x := time.Now(), 0; time.Since(start) < think; x++ { // CPU, not sleep: a search
			_ = x * x
		}
		return obs.Legal[0], nil
	})
	err = sdk.Run(context.Background(), cfg, first)
	if err != nil && !errors.Is(err, sdk.ErrGoingAway) {
		fmt.Fprintln(os.Stderr, "play:", err)
		return 1
	}
	return 0
}
