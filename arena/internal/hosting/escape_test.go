package hosting_test

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/host"
	"github.com/tapparena/tapp/arena/internal/hosting"
	"github.com/tapparena/tapp/arena/internal/hosting/gocache"
	"github.com/tapparena/tapp/arena/internal/launch"
	"github.com/tapparena/tapp/arena/internal/launch/confine"
	"github.com/tapparena/tapp/arena/internal/sandbox"
	"github.com/tapparena/tapp/arena/internal/store"
	"github.com/tapparena/tapp/arena/internal/store/memstore"
	"github.com/tapparena/tapp/bots/random"
	"github.com/tapparena/tapp/bots/sdk"
	"github.com/tapparena/tapp/engine"
)

// The test binary is the sandbox's confining program and Go builds' cache program (as the
// tapp binary is) and the hostile bot (hostile_test.go).
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == confine.Command {
		os.Exit(confine.Main(os.Args[2:], os.Stderr))
	}
	if len(os.Args) > 1 && os.Args[1] == gocache.Command {
		os.Exit(gocache.Main(os.Args[2:], os.Stdin, os.Stdout, os.Stderr))
	}
	if mode := os.Getenv("TAPP_HOSTILE"); mode != "" {
		os.Exit(hostileMain(mode))
	}
	code := m.Run()
	if pyDir != "" {
		_ = os.RemoveAll(pyDir)
	}
	os.Exit(code)
}

// sandboxes returns every sandbox this host has (none excluded: it confines nothing), each
// with its own work folder.
func sandboxes(t *testing.T) map[string]sandbox.Sandbox {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]sandbox.Sandbox{}
	for _, name := range []string{sandbox.Runsc, sandbox.Bwrap} {
		sb, err := sandbox.New(name, sandbox.Options{Work: openDir(t), Confine: exe})
		if err != nil {
			t.Logf("%s: %v: not tested", name, err)
			continue
		}
		out[name] = sb
	}
	if len(out) == 0 {
		t.Skip("no sandbox on this host (install runsc or bubblewrap): the escape suite did not run")
	}
	return out
}

// openDir is a temporary folder the sandbox's unprivileged user can reach (t.TempDir's
// parent is closed to other users).
func openDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "tapp-hosting-test-")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	return dir
}

// hostileArtifact is a "built" Go version whose program is this test binary; with a
// setuid-root copy of it shipped in its source when the test runs as root.
func hostileArtifact(t *testing.T, dir string) (*hosting.Artifact, bool) {
	t.Helper()
	exe, _ := os.Executable()
	bin, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	a := &hosting.Artifact{Sub: domain.Submission{Bot: "hostile", Version: 1, Lang: hosting.Go},
		Src: filepath.Join(dir, "src"), Out: filepath.Join(dir, "out")}
	for _, d := range []string{a.Src, a.Out} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(a.Out, "bot"), bin, 0o755); err != nil {
		t.Fatal(err)
	}
	suid := os.Geteuid() == 0
	if suid {
		p := filepath.Join(a.Src, "suid")
		if err := os.WriteFile(p, bin, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, 0o4755); err != nil {
			t.Fatal(err)
		}
	}
	return a, suid
}

// listeners are the host's own loopback services an escaped bot would reach: each counts
// what arrives.
type listeners struct {
	tcp, udp, dns net.Addr
	hits          atomic.Int32
}

func startListeners(t *testing.T) *listeners {
	t.Helper()
	l := &listeners{}
	tl, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tl.Close() })
	go func() {
		for {
			c, err := tl.Accept()
			if err != nil {
				return
			}
			l.hits.Add(1)
			c.Close()
		}
	}()
	l.tcp = tl.Addr()
	for _, addr := range []*net.Addr{&l.udp, &l.dns} {
		pc, err := net.ListenPacket("udp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { pc.Close() })
		go func() {
			buf := make([]byte, 512)
			for {
				n, from, err := pc.ReadFrom(buf)
				if err != nil {
					return
				}
				l.hits.Add(1)
				_, _ = pc.WriteTo(buf[:n], from)
			}
		}()
		*addr = pc.LocalAddr()
	}
	return l
}

// freePort is a TCP port nobody listens on now.
func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// escapeLimits are tight limits, so that the bombs end quickly.
var escapeLimits = sandbox.Limits{Memory: 2 << 30, CPU: 60 * time.Second, Processes: 48, OneProcess: true,
	FileSize: 32 << 20, OpenFiles: 256, Scratch: 16 << 20, Output: 256 << 10}

// The escape suite: a hostile bot, in each sandbox present, tries to connect out (TCP, UDP,
// DNS), listen, read the database, the tokens, another submission and the arena's /proc,
// write outside its scratch folder, ptrace and signal the arena, start a process (spawn,
// fork, clone3), fork-bomb, memory-bomb and fill its disk — all in one sandbox start — and
// then plays a match, trying to start a process at every decision. Every attempt fails and
// is named in its log with the reason; the match is played to its end with the bot's own
// decisions, the database keeps every deal, and the other bots play as usual. A second start
// runs a setuid-root program it ships and floods its output.
func TestEscapeSuite(t *testing.T) {
	t.Parallel()
	for name, sb := range sandboxes(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			escapeSuite(t, sb)
		})
	}
}

func escapeSuite(t *testing.T, sb sandbox.Sandbox) {
	ctx := context.Background()
	dir := openDir(t)
	dbPath := filepath.Join(dir, "arena.db")
	st, err := store.Open(ctx, dbPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	tokens := filepath.Join(dir, "tokens.env")
	if err := os.WriteFile(tokens, []byte("TAPP_ADMIN_TOKEN=secret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "builds", "rival", "1", "src")
	if err := os.MkdirAll(other, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(other, "bot.py"), []byte("secret strategy"), 0o644); err != nil {
		t.Fatal(err)
	}
	h, err := host.Start(ctx, host.Config{Store: st, Listen: "127.0.0.1:0", Grace: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	seats := &hosting.Seats{Host: h, Sandbox: sb, Dir: dir, Limits: escapeLimits, LogDir: filepath.Join(dir, "logs")}
	stopped := false
	stop := func() {
		if !stopped {
			stopped = true
			h.StopWithin(2 * time.Second)
			seats.Close()
		}
	}
	t.Cleanup(stop)

	a, suid := hostileArtifact(t, filepath.Join(dir, "hostile"))
	l := startListeners(t)
	listenPort := freePort(t)
	mode := "probe"
	if m := os.Getenv("TAPP_TEST_HOSTILE_MODE"); m != "" {
		mode = m
	}
	env := []string{"TAPP_HOSTILE=" + mode, "HOSTILE_TCP_ARENA=" + h.Addr, "HOSTILE_TCP_HOST=" + l.tcp.String(),
		"HOSTILE_UDP_HOST=" + l.udp.String(), "HOSTILE_DNS_HOST=" + l.dns.String(),
		"HOSTILE_LISTEN_PORT=" + strconv.Itoa(listenPort), "HOSTILE_DB=" + dbPath, "HOSTILE_TOKENS=" + tokens,
		"HOSTILE_OTHER=" + other, "HOSTILE_ARENA_PID=" + strconv.Itoa(os.Getpid()), "HOSTILE_WRITE=" + dir}
	if suid {
		env = append(env, "HOSTILE_SUID=/bot/suid")
	}
	proc, err := seats.Start(ctx, a, 4, 1, env...)
	if err != nil {
		t.Fatal(err)
	}
	// Two ordinary bots, in this process, over TCP.
	pctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	for i, name := range []string{"random-1", "random-2"} {
		token := h.OneTimeToken(name)
		if err := h.EnsureBot(ctx, name); err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = sdk.Run(pctx, sdk.Config{Arena: h.Addr, Token: token, Name: name, Capacity: 4, MaxReconnect: time.Second}, random.New(uint64(i+1)))
		}()
	}
	bots := []string{a.Sub.Name(), "random-1", "random-2"}
	if err := h.WaitConnected(ctx, bots, 90*time.Second); err != nil {
		t.Fatalf("%v\n%s", err, readLog(t, seats, a))
	}
	// On the host, nothing of the sandbox runs as root: the launcher started it as the
	// sandbox's unprivileged user (gVisor's root inside is that user outside).
	if os.Geteuid() == 0 {
		uids := treeUIDs(proc.Pid())
		if len(uids) == 0 {
			t.Errorf("found no process of the sandbox on the host")
		}
		for pid, ids := range uids {
			if strings.Contains(" "+ids+" ", " 0 ") {
				t.Errorf("%s: process %d of the sandbox runs as root on the host (Uid: %s)", sb.Name(), pid, ids)
			}
		}
	}
	// The bot listens inside its sandbox, if it may: the host cannot reach it there.
	if c, err := net.DialTimeout("tcp", "127.0.0.1:"+strconv.Itoa(listenPort), time.Second); err == nil {
		c.Close()
		t.Errorf("the host reached a port the sandboxed bot listens on")
	}
	const deals = 6
	m, err := h.Runner.Create(ctx, domain.MatchSpec{Rules: engine.DefaultRules(engine.Modern), Bots: bots, Deals: deals, Seed: 5,
		TimeControl: domain.TimeControl{PerDecision: 5 * time.Second, Overage: 30 * time.Second, MaxStrikes: 50}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := h.Runner.Run(ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	if res.Deals != deals {
		t.Errorf("the match stored %d deals, want %d", res.Deals, deals)
	}
	records, err := st.Deals(ctx, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	own := 0
	for _, d := range records {
		for _, x := range d.Decisions {
			if x.Bot == a.Sub.Name() && !x.Fallback {
				own++
			}
		}
	}
	if own == 0 {
		t.Errorf("the hostile bot made no decision of its own: it did not get to play")
	}
	if fallbacks := fallbacksOf(records, a.Sub.Name()); fallbacks > 0 {
		t.Errorf("the hostile bot got %d fallbacks: its attempts cost it its answers", fallbacks)
	}
	stop()
	cancel()
	wg.Wait()
	if p := proc.Restarts(); p > 0 {
		t.Errorf("the hostile bot was restarted %d times: an attempt took its program down\n%s", p, readLog(t, seats, a))
	}

	log := readLog(t, seats, a)
	want := []string{"connect-tcp-arena", "connect-tcp", "connect-udp", "connect-dns", "connect-dns-system",
		"read-database", "read-tokens", "read-other-submission", "read-arena-proc-cmdline", "read-arena-proc-environ",
		"read-arena-root", "ptrace-arena", "signal-arena", "spawn", "fork", "clone3", "fork-bomb", "memory-bomb", "disk-fill",
		"write-outside-scratch /bot/planted", "write-outside-scratch /build/planted", "write-outside-scratch /usr/planted",
		"write-outside-scratch /planted", "write-outside-scratch " + dir + "/planted", "fork-while-playing"}
	flood := floodRun(t, seats, a, suid)
	if suid {
		if !regexp.MustCompile(`(?m)^escape setuid: blocked: \S.*$`).MatchString(flood) {
			t.Errorf("%s: no line \"escape setuid: blocked: REASON\" in the second run's log:\n%.2000s", sb.Name(), flood)
		}
	}
	for _, line := range strings.Split(flood, "\n") {
		if strings.Contains(line, "ESCAPED") {
			t.Errorf("%s: %s", sb.Name(), line)
		}
	}
	if !strings.Contains(flood, "tapp arena: output over the limit of") {
		t.Errorf("the stdout flood is not named in the log:\n%.2000s", flood)
	}
	if len(flood) > 2*int(escapeLimits.Output) {
		t.Errorf("the log grew to %d bytes, over its cap of %d", len(flood), escapeLimits.Output)
	}
	for _, name := range want {
		re := regexp.MustCompile(`(?m)^escape ` + regexp.QuoteMeta(name) + `: blocked: \S.*$`)
		if line := re.FindString(log); line == "" {
			t.Errorf("%s: no line \"escape %s: blocked: REASON\" in the bot's log", sb.Name(), name)
		} else {
			t.Logf("%s", line)
		}
	}
	if !regexp.MustCompile(`(?m)^escape listen: (blocked: \S|listening-inside)`).MatchString(log) {
		t.Errorf("no report of the listen attempt")
	}
	for _, line := range strings.Split(log, "\n") {
		if strings.Contains(line, "ESCAPED") {
			t.Errorf("%s: %s", sb.Name(), line)
		}
	}
	if n := l.hits.Load(); n != 0 {
		t.Errorf("the host's listeners got %d connections or datagrams from the sandbox", n)
	}
	for _, p := range []string{filepath.Join(a.Src, "planted"), filepath.Join(a.Out, "planted"), filepath.Join(dir, "planted"), "/usr/planted", "/planted"} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("the bot wrote %s", p)
		}
	}
	// The store is intact: reopened, it has every deal of the match.
	st.Close()
	again, err := store.Open(ctx, dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if n, err := again.DealNumbers(ctx, m.ID); err != nil || len(n) != deals {
		t.Errorf("after the match the database has deals %v (%v), want %d", n, err, deals)
	}
}

// fallbacksOf counts the fallbacks the referee played for bot.
func fallbacksOf(records []domain.DealRecord, bot string) int {
	n := 0
	for _, d := range records {
		for _, x := range d.Decisions {
			if x.Bot == bot && x.Fallback {
				n++
			}
		}
	}
	return n
}

// floodRun starts the hostile version once more, in mode flood (the setuid program, then the
// output flood), to its end, and returns that run's log.
func floodRun(t *testing.T, seats *hosting.Seats, a *hosting.Artifact, suid bool) string {
	t.Helper()
	spec, err := seats.RunSpec(a, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	spec.Env = append(spec.Env, "TAPP_HOSTILE=flood")
	if suid {
		spec.Env = append(spec.Env, "HOSTILE_SUID=/bot/suid")
	}
	ls, err := seats.Sandbox.Launch(spec)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(seats.LogDir, "flood.stderr.log")
	ls.Name, ls.Once, ls.StderrPath = "flood", true, path
	p, err := launch.Start(context.Background(), ls, nil)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.Done():
	case <-time.After(2 * time.Minute):
		p.Stop()
		t.Fatalf("the flood run did not end")
	}
	b, _ := os.ReadFile(path)
	return string(b)
}

func readLog(t *testing.T, seats *hosting.Seats, a *hosting.Artifact) string {
	t.Helper()
	b, _ := os.ReadFile(hosting.LogPath(seats.LogDir, a.Sub.Name()))
	return string(b)
}

// A bot in an endless loop is stopped at its CPU time limit, in every sandbox (gVisor does
// not enforce RLIMIT_CPU: the launcher's watch over the process tree does), the reason is in
// its log, and it is restarted.
func TestAnEndlessLoopIsStoppedAtTheCPULimit(t *testing.T) {
	t.Parallel()
	for name, sb := range sandboxes(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			dir := openDir(t)
			h, err := host.Start(ctx, host.Config{Store: memstore.New(), Listen: "127.0.0.1:0"})
			if err != nil {
				t.Fatal(err)
			}
			limits := escapeLimits
			limits.CPU = time.Second
			seats := &hosting.Seats{Host: h, Sandbox: sb, Dir: dir, Limits: limits, LogDir: filepath.Join(dir, "logs")}
			defer seats.Close()
			defer h.StopWithin(time.Second)
			a, _ := hostileArtifact(t, filepath.Join(dir, "spinner"))
			p, err := seats.Start(ctx, a, 1, 1, "TAPP_HOSTILE=spin")
			if err != nil {
				t.Fatal(err)
			}
			for deadline := time.Now().Add(2 * time.Minute); p.Restarts() == 0; time.Sleep(50 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("the spinning bot was not stopped within 2 minutes:\n%s", readLog(t, seats, a))
				}
			}
			log := readLog(t, seats, a)
			if !strings.Contains(log, "escape infinite-loop: spinning") || !strings.Contains(log, "tapp arena: stopped by the arena: CPU time limit of 1s reached") {
				t.Errorf("the log does not say the loop was stopped at the CPU limit:\n%s", log)
			}
		})
	}
}

// The suite's attempts are real: without a sandbox (none) the same program reaches the
// host's listeners and reads the database and the tokens.
func TestTheEscapeAttemptsSucceedWithoutASandbox(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := openDir(t)
	db := filepath.Join(dir, "arena.db")
	tokens := filepath.Join(dir, "tokens.env")
	for _, f := range []string{db, tokens} {
		if err := os.WriteFile(f, []byte("secret"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	sb, err := sandbox.New(sandbox.None, sandbox.Options{Work: dir})
	if err != nil {
		t.Fatal(err)
	}
	h, err := host.Start(ctx, host.Config{Store: memstore.New(), Listen: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	seats := &hosting.Seats{Host: h, Sandbox: sb, Dir: dir, Limits: escapeLimits, LogDir: filepath.Join(dir, "logs")}
	defer seats.Close()
	defer h.StopWithin(time.Second)
	a, _ := hostileArtifact(t, filepath.Join(dir, "hostile"))
	l := startListeners(t)
	p, err := seats.Start(ctx, a, 1, 1, "TAPP_HOSTILE=probe-light", "HOSTILE_TCP_ARENA="+h.Addr, "HOSTILE_TCP_HOST="+l.tcp.String(),
		"HOSTILE_UDP_HOST="+l.udp.String(), "HOSTILE_DNS_HOST="+l.dns.String(), "HOSTILE_LISTEN_PORT="+strconv.Itoa(freePort(t)),
		"HOSTILE_DB="+db, "HOSTILE_TOKENS="+tokens, "HOSTILE_OTHER="+dir, "HOSTILE_ARENA_PID=0", "HOSTILE_WRITE="+filepath.Join(dir, "logs"))
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(time.Minute); !strings.Contains(readLog(t, seats, a), "escape clone3:"); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the probe did not finish:\n%s", readLog(t, seats, a))
		}
	}
	p.Retire()
	log := readLog(t, seats, a)
	for _, name := range []string{"connect-tcp-arena", "connect-tcp", "connect-udp", "read-database", "read-tokens", "read-other-submission",
		"spawn", "fork", "clone3"} {
		if !strings.Contains(log, "escape "+name+": ESCAPED") {
			t.Errorf("without a sandbox, %s did not succeed:\n%s", name, log)
		}
	}
	if l.hits.Load() == 0 {
		t.Errorf("the host's listeners heard nothing from an unconfined program")
	}
}

// treeUIDs returns the real, effective, saved and file-system user ids ("Uid:" of
// /proc/PID/status) of root and every process below it.
func treeUIDs(root int) map[int]string {
	parent := map[int]int{}
	uids := map[int]string{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/status")
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "PPid:"); ok {
				parent[pid], _ = strconv.Atoi(strings.TrimSpace(v))
			}
			if v, ok := strings.CutPrefix(line, "Uid:"); ok {
				uids[pid] = strings.Join(strings.Fields(v), " ")
			}
		}
	}
	out := map[int]string{}
	for pid := range uids {
		for q, hops := pid, 0; q > 0 && hops < 64; q, hops = parent[q], hops+1 {
			if q == root {
				out[pid] = uids[pid]
				break
			}
		}
	}
	return out
}

// A hostile Python bot (testdata/hostile-python), submitted, built and run in each sandbox
// present, tries at every decision to fork, to start a program, to connect to the arena's TCP
// port and to read the arena's database: it plays its match to the end deciding every time
// itself, and its log names each attempt as blocked, with the reason.
func TestAHostilePythonBotPlaysOnWhileEveryAttemptFails(t *testing.T) {
	t.Parallel()
	rt := python(t)
	for name, sb := range sandboxes(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			dir := openDir(t)
			st, token := registered(t, dir, "hostile-py")
			src, err := os.ReadFile(filepath.Join("testdata", "hostile-python", "bot.py"))
			if err != nil {
				t.Fatal(err)
			}
			srcDir := filepath.Join(dir, "src")
			if err := os.MkdirAll(srcDir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(srcDir, "bot.py"), src, 0o644); err != nil {
				t.Fatal(err)
			}
			sub, err := hosting.Submit(ctx, st, hosting.Request{Bot: "hostile-py", Token: token, Lang: hosting.Python, Source: pack(t, srcDir)})
			if err != nil {
				t.Fatal(err)
			}
			a, err := (&hosting.Builder{Sandbox: sb, Dir: dir, Python: rt}).Build(ctx, st, sub)
			if err != nil {
				t.Fatalf("%v\n%s", err, sub.BuildLog)
			}
			log := playsAMatch(t, st, sb, rt, a, dir, func(h *host.Host) []string {
				_, port, _ := net.SplitHostPort(h.Addr)
				return []string{"HOSTILE_ARENA_PORT=" + port, "HOSTILE_DATABASE=" + filepath.Join(dir, "arena.db")}
			})
			for _, line := range strings.Split(log, "\n") {
				if strings.Contains(line, "ESCAPED") {
					t.Errorf("%s: %s", name, line)
				}
			}
			for _, attempt := range []string{"fork", "spawn", "connect-tcp-arena", "read-database"} {
				re := regexp.MustCompile(`(?m)^escape ` + attempt + `: blocked: \S.*$`)
				if n := len(re.FindAllString(log, -1)); n < 3 {
					t.Errorf("%s: %d lines \"escape %s: blocked: REASON\" in the log, want one per decision (at least 3):\n%.3000s", name, n, attempt, log)
				}
			}
		})
	}
}
