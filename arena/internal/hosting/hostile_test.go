package hosting_test

// The hostile bot of the escape suite: this test binary, run inside the sandbox with
// TAPP_HOSTILE set. In "probe" mode it tries every escape in turn, says in its log how each
// ended ("escape NAME: blocked: REASON" or "escape NAME: ESCAPED: WHAT"), and then plays its
// matches through the SDK as a bot that plays the first legal action. Its targets (the
// arena's TCP port and pid, the database, the tokens, another submission's folder, the
// host's listeners) come in its environment, as an attacker who knows the host would know
// them.

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

	"github.com/tapparena/tapp/bots"
	"github.com/tapparena/tapp/bots/sdk"
	"github.com/tapparena/tapp/engine"
)

// hoard is what the memory bomb keeps.
var hoard [][]byte

// hostileMain runs the hostile bot in one of its modes and returns its exit status.
func hostileMain(mode string) int {
	switch mode {
	case "probe":
		probeAll()
		return play()
	case "play":
		return play()
	case "think": // a bot that computes for TAPP_THINK per decision, as a searching bot does
		return play()
	case "probe-light": // without the bombs: what an unconfined program would do to the host
		probeNetworkAndFiles()
		return 0
	case "spin": // an endless loop, as a bot stuck in its search
		fmt.Fprintln(os.Stderr, "escape infinite-loop: spinning")
		for i := 0; ; i++ {
			_ = i * i
		}
	case "child-sleep":
		time.Sleep(20 * time.Second)
		return 0
	case "child-membomb":
		for total := 0; total < 8<<30; total += 32 << 20 {
			b := make([]byte, 32<<20)
			for i := range b {
				b[i] = 1
			}
			hoard = append(hoard, b) // kept, so that the memory stays taken
			fmt.Printf("%d\n", (total+32<<20)>>20)
		}
		return 0
	case "whoami":
		fmt.Printf("euid=%d\n", os.Geteuid())
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

func probeAll() {
	probeNetworkAndFiles()
	probeBombs()
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

	// The arena's process: ptrace and signals.
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

	// A setuid-root program shipped with the bot.
	if suid := env("HOSTILE_SUID"); suid != "" {
		cmd := exec.Command(suid)
		cmd.Env = append(os.Environ(), "TAPP_HOSTILE=whoami")
		out, err := cmd.CombinedOutput()
		switch {
		case err != nil:
			report("setuid", false, "%v", err)
		case !strings.Contains(string(out), fmt.Sprintf("euid=%d\n", os.Geteuid())):
			report("setuid", true, "changed its user from %d: %s", os.Geteuid(), strings.TrimSpace(string(out)))
		default:
			report("setuid", false, "the setuid bit gave nothing: %s", strings.TrimSpace(string(out)))
		}
	}

}

func probeBombs() {
	forkBomb()
	memoryBomb()
	diskFill()
	// The flood last: what comes after the log's cap is dropped.
	flood := strings.Repeat("flood flood flood flood flood flood flood flood flood flood\n", 1<<12)
	fmt.Fprintln(os.Stderr, "escape stdout-flood: flooding 32 MiB")
	for n := 0; n < 32<<20; n += len(flood) {
		os.Stdout.WriteString(flood)
	}
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
	if err != nil {
		report("fork-bomb", false, "stopped after %d processes: %v", len(kids), err)
	} else {
		report("fork-bomb", true, "started %d processes", len(kids))
	}
}

// memoryBomb lets a child allocate until it is stopped.
func memoryBomb() {
	exe, _ := os.Executable()
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), "TAPP_HOSTILE=child-membomb")
	out, err := cmd.Output()
	lines := strings.Fields(string(out))
	last := "0"
	if len(lines) > 0 {
		last = lines[len(lines)-1]
	}
	if err != nil {
		report("memory-bomb", false, "the allocating child was stopped at %s MiB: %v", last, err)
	} else {
		report("memory-bomb", true, "allocated %s MiB", last)
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

// play plays the bot's matches: the first legal action every time.
func play() int {
	cfg, err := sdk.ConfigFromEnv()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	cfg.Capacity = max(cfg.Capacity, 1)
	cfg.MaxReconnect = 30 * time.Second
	think, _ := time.ParseDuration(os.Getenv("TAPP_THINK"))
	first := bots.Func(func(_ context.Context, obs *engine.Observation) (engine.Action, error) {
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
