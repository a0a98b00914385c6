package hosting_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/botcheck"
	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/host"
	"github.com/tapparena/tapp/arena/internal/hosting"
	"github.com/tapparena/tapp/arena/internal/launch"
	"github.com/tapparena/tapp/arena/internal/sandbox"
	"github.com/tapparena/tapp/arena/internal/server"
	"github.com/tapparena/tapp/arena/internal/store"
	"github.com/tapparena/tapp/bots/random"
	"github.com/tapparena/tapp/bots/sdk"
	"github.com/tapparena/tapp/bots/starter"
	"github.com/tapparena/tapp/engine"
)

// repoRoot is the checkout this test runs in.
func repoRoot(t testing.TB) string {
	t.Helper()
	wd, _ := os.Getwd()
	root, err := starter.FindRepo(wd)
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// python is the hosted bots' Python runtime for the tests: a virtual environment of the
// system's python3 in a folder the sandbox's user can reach, with grpcio, protobuf and hpack from the
// checkout's .venv (`make venv`; make test makes it) and tapp_bot from bots/python — what
// docs/hosting.md has an organiser install.
func python(t testing.TB) *hosting.PythonRuntime {
	t.Helper()
	pyOnce.Do(func() { pyRuntime, pyErr = makePython(repoRoot(t)) })
	if pyErr != nil {
		t.Skipf("no Python runtime for hosted bots: %v", pyErr)
	}
	return pyRuntime
}

var (
	pyOnce    sync.Once
	pyRuntime *hosting.PythonRuntime
	pyErr     error
	pyDir     string // removed by TestMain
)

func makePython(repo string) (*hosting.PythonRuntime, error) {
	venvSite, err := filepath.Glob(filepath.Join(repo, ".venv", "lib", "python3*", "site-packages"))
	if err != nil || len(venvSite) == 0 {
		return nil, errors.New("no .venv in the checkout: run `make venv`")
	}
	system := "/usr/bin/python3"
	if _, err := os.Stat(system); err != nil {
		return nil, err
	}
	if pyDir, err = os.MkdirTemp("", "tapp-hosted-python-"); err != nil {
		return nil, err
	}
	_ = os.Chmod(pyDir, 0o755)
	env := filepath.Join(pyDir, "env")
	if out, err := exec.Command(system, "-m", "venv", "--without-pip", env).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("python3 -m venv: %w: %s", err, out)
	}
	site, err := filepath.Glob(filepath.Join(env, "lib", "python3*", "site-packages"))
	if err != nil || len(site) != 1 || filepath.Base(filepath.Dir(site[0])) != filepath.Base(filepath.Dir(venvSite[0])) {
		return nil, fmt.Errorf("the system's python3 is not the .venv's version (%v, %v)", site, venvSite)
	}
	copies := map[string]string{filepath.Join(repo, "bots", "python", "src"): site[0]}
	for _, pkg := range []string{"grpc", "google", "pip", "hpack"} { // hpack: the SDK's own HTTP/2 transport
		copies[filepath.Join(venvSite[0], pkg)] = filepath.Join(site[0], pkg)
	}
	copies[filepath.Join(venvSite[0], "typing_extensions.py")] = filepath.Join(site[0], "typing_extensions.py")
	for from, to := range copies {
		if fi, err := os.Stat(from); err == nil && fi.IsDir() {
			from += "/."
		}
		if out, err := exec.Command("cp", "-a", from, to).CombinedOutput(); err != nil {
			return nil, fmt.Errorf("cp %s: %w: %s", from, err, out)
		}
	}
	if out, err := exec.Command("chmod", "-R", "a+rX", pyDir).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("chmod: %w: %s", err, out)
	}
	return hosting.FindPython(context.Background(), filepath.Join(env, "bin", "python"))
}

// defaultSandbox is the sandbox the hosting commands choose by default (sandbox.New("")).
func defaultSandbox(t *testing.T) sandbox.Sandbox {
	t.Helper()
	exe, _ := os.Executable()
	sb, err := sandbox.New("", sandbox.Options{Work: openDir(t), Confine: exe})
	if err != nil {
		t.Skip(err)
	}
	return sb
}

// registered opens a store with one registered bot and returns the bot's token.
func registered(t *testing.T, dir, bot string) (*store.Store, string) {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(dir, "arena.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	token := server.NewToken("bot_")
	if err := st.CreateBot(context.Background(), &domain.Bot{Name: bot, TokenHash: server.HashToken(token)}); err != nil {
		t.Fatal(err)
	}
	return st, token
}

func pack(t *testing.T, dir string) []byte {
	t.Helper()
	b, err := hosting.Pack(dir)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A Python bot written from the starter is submitted with its token, built in the sandbox
// and plays a match there through its Unix socket, deciding for itself.
func TestAStarterPythonBotIsSubmittedBuiltAndPlaysSandboxed(t *testing.T) {
	t.Parallel()
	rt := python(t)
	sb := defaultSandbox(t)
	ctx := context.Background()
	dir := openDir(t)
	st, token := registered(t, dir, "pybot")
	src := filepath.Join(dir, "pybot")
	if _, err := starter.Write(starter.Options{Lang: "python", Dir: src, Name: "pybot", Repo: repoRoot(t)}); err != nil {
		t.Fatal(err)
	}
	sub, err := hosting.Submit(ctx, st, hosting.Request{Bot: "pybot", Token: token, Lang: hosting.Python, Source: pack(t, src)})
	if err != nil {
		t.Fatal(err)
	}
	if sub.Name() != "pybot@1" || sub.Status != domain.SubmissionQueued || sub.Entry != "bot.py" {
		t.Fatalf("submitted %+v", sub)
	}
	b := &hosting.Builder{Sandbox: sb, Dir: dir, Python: rt}
	a, err := b.Build(ctx, st, sub)
	if err != nil {
		t.Fatalf("%v\n%s", err, sub.BuildLog)
	}
	stored, err := st.Submission(ctx, "pybot", 1)
	if err != nil || stored.Status != domain.SubmissionReady || !strings.Contains(stored.BuildLog, "tapp_bot from the arena") {
		t.Fatalf("stored after the build: %+v, %v", stored, err)
	}
	playsAMatch(t, st, sb, rt, a, dir, nil)
}

// playsAMatch plays a match of the version with two random bots, checks it decided every
// time itself, and returns its log. env, if not nil, adds to the version's environment.
func playsAMatch(t *testing.T, st *store.Store, sb sandbox.Sandbox, rt *hosting.PythonRuntime, a *hosting.Artifact, dir string,
	env func(*host.Host) []string) string {
	t.Helper()
	ctx := context.Background()
	h, err := host.Start(ctx, host.Config{Store: st, Listen: "127.0.0.1:0", Grace: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	seats := &hosting.Seats{Host: h, Sandbox: sb, Python: rt, Dir: dir, LogDir: filepath.Join(dir, "logs")}
	defer seats.Close()
	defer h.StopWithin(2 * time.Second)
	var extra []string
	if env != nil {
		extra = env(h)
	}
	if _, err := seats.Start(ctx, a, 4, 1, extra...); err != nil {
		t.Fatal(err)
	}
	pctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()
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
		log, _ := os.ReadFile(hosting.LogPath(seats.LogDir, a.Sub.Name()))
		t.Fatalf("%v\n%s", err, log)
	}
	m, err := h.Runner.Create(ctx, domain.MatchSpec{Rules: engine.DefaultRules(engine.Modern), Bots: bots, Deals: 3, Seed: 2,
		TimeControl: domain.TimeControl{PerDecision: 5 * time.Second, Overage: 30 * time.Second, MaxStrikes: 20}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Runner.Run(ctx, m); err != nil {
		t.Fatal(err)
	}
	deals, err := st.Deals(ctx, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	own, fallbacks := 0, 0
	for _, d := range deals {
		for _, x := range d.Decisions {
			if x.Bot == a.Sub.Name() {
				if x.Fallback {
					fallbacks++
				} else {
					own++
				}
			}
		}
	}
	log, _ := os.ReadFile(hosting.LogPath(seats.LogDir, a.Sub.Name()))
	if own == 0 || fallbacks > 0 {
		t.Errorf("%s decided %d times itself and got %d fallbacks\n%.3000s", a.Sub.Name(), own, fallbacks, log)
	}
	return string(log)
}

// A build that fails is a clear status with the reason in its log, and nothing playable.
func TestAFailedBuildIsAStatusWithItsLog(t *testing.T) {
	t.Parallel()
	rt := python(t)
	sb := defaultSandbox(t)
	ctx := context.Background()
	dir := openDir(t)
	st, token := registered(t, dir, "broken")
	src := filepath.Join(dir, "broken")
	if err := os.MkdirAll(src, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "bot.py"), []byte("import tapp_bot\n\ndef card(self, request)\n    return 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sub, err := hosting.Submit(ctx, st, hosting.Request{Bot: "broken", Token: token, Lang: hosting.Python, Source: pack(t, src)})
	if err != nil {
		t.Fatal(err)
	}
	b := &hosting.Builder{Sandbox: sb, Dir: dir, Python: rt}
	_, err = b.Build(ctx, st, sub)
	var be *hosting.BuildError
	if !errors.As(err, &be) {
		t.Fatalf("Build = %v, want a BuildError", err)
	}
	stored, _ := st.Submission(ctx, "broken", 1)
	if stored.Status != domain.SubmissionFailed || !strings.Contains(stored.BuildLog, "bot.py:3: SyntaxError") {
		t.Errorf("stored %s with log %q, want failed with the file and line", stored.Status, stored.BuildLog)
	}
	if _, ok := b.Local(stored); ok {
		t.Errorf("a failed build left a playable artifact")
	}
}

// Go builds run offline in the sandbox: a module with its dependencies vendored builds; one
// that imports a module it did not vendor fails, and its log says what is missing.
func TestAGoModuleBuildsOfflineFromItsVendorFolder(t *testing.T) {
	t.Parallel()
	sb := defaultSandbox(t)
	ctx := context.Background()
	dir := openDir(t)
	st, token := registered(t, dir, "gobot")
	write := func(name string, files map[string]string) []byte {
		src := filepath.Join(dir, name)
		for f, text := range files {
			p := filepath.Join(src, f)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return pack(t, src)
	}
	// println, not fmt: half the standard packages to compile into the bot's fresh cache (30,
	// not 61), which under gVisor's ptrace platform is a minute of this test.
	good := write("good", map[string]string{
		"go.mod":                         "module gobot\n\ngo 1.24\n\nrequire example.com/helper v1.0.0\n",
		"main.go":                        "package main\n\nimport \"example.com/helper\"\n\nfunc main() { println(helper.Name) }\n",
		"vendor/modules.txt":             "# example.com/helper v1.0.0\n## explicit; go 1.24\nexample.com/helper\n",
		"vendor/example.com/helper/h.go": "package helper\n\nconst Name = \"vendored\"\n",
	})
	bad := write("bad", map[string]string{
		"go.mod":             "module gobot\n\ngo 1.24\n",
		"main.go":            "package main\n\nimport \"example.com/missing\"\n\nfunc main() { missing.Run() }\n",
		"vendor/modules.txt": "",
	})
	b := &hosting.Builder{Sandbox: sb, Dir: dir}
	sub, err := hosting.Submit(ctx, st, hosting.Request{Bot: "gobot", Token: token, Lang: hosting.Go, Source: good})
	if err != nil {
		t.Fatal(err)
	}
	a, err := b.Build(ctx, st, sub)
	if err != nil {
		t.Fatalf("%v\n%s", err, sub.BuildLog)
	}
	if fi, err := os.Stat(filepath.Join(a.Out, "bot")); err != nil || fi.Mode()&0o111 == 0 {
		t.Errorf("no executable bot in %s: %v", a.Out, err)
	}
	sub2, err := hosting.Submit(ctx, st, hosting.Request{Bot: "gobot", Token: token, Lang: hosting.Go, Source: bad})
	if err != nil {
		t.Fatal(err)
	}
	if sub2.Version != 2 {
		t.Errorf("the second submission is version %d", sub2.Version)
	}
	_, err = b.Build(ctx, st, sub2)
	var be *hosting.BuildError
	if !errors.As(err, &be) || !strings.Contains(be.Log, "example.com/missing") {
		t.Fatalf("Build = %v, want a BuildError naming the missing module", err)
	}
}

// Only the bot's token holder submits its versions; a Go module without its vendor folder
// is refused at once with what to do.
func TestSubmitChecksTheTokenAndTheSource(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := openDir(t)
	st, token := registered(t, dir, "mine")
	other := server.NewToken("bot_")
	if err := st.CreateBot(ctx, &domain.Bot{Name: "theirs", TokenHash: server.HashToken(other)}); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(dir, "src")
	_ = os.MkdirAll(src, 0o755)
	_ = os.WriteFile(filepath.Join(src, "go.mod"), []byte("module mine\n\ngo 1.24\n"), 0o644)
	_ = os.WriteFile(filepath.Join(src, "main.go"), []byte("package main\nfunc main() {}\n"), 0o644)
	source := pack(t, src)
	for _, tc := range []struct {
		name, bot, token, lang string
		want                   error
		says                   string
	}{
		{"no token", "mine", "", hosting.Go, domain.ErrForbidden, "give the bot's token"},
		{"another bot's token", "mine", other, hosting.Go, domain.ErrForbidden, "not bot mine's"},
		{"no vendor folder", "mine", token, hosting.Go, domain.ErrInvalid, "go mod vendor"},
		{"no entry file", "mine", token, hosting.Python, domain.ErrInvalid, "bot.py is not in the source"},
		{"unknown language", "mine", token, "rust", domain.ErrInvalid, "unknown language"},
	} {
		_, err := hosting.Submit(ctx, st, hosting.Request{Bot: tc.bot, Token: tc.token, Lang: tc.lang, Source: source})
		if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: Submit = %v, want %v saying %q", tc.name, err, tc.want, tc.says)
		}
	}
	if subs, _ := st.Submissions(ctx, ""); len(subs) != 0 {
		t.Errorf("refused submissions were stored: %v", subs)
	}
}

// `tapp bot check --submission`: the conformance check runs the version in its sandbox,
// connected through its Unix socket to the check's arena (whose proxy cuts a stream to test
// the resume), and every item passes.
func TestABotCheckRunsTheVersionInItsSandbox(t *testing.T) {
	t.Parallel()
	sb := defaultSandbox(t)
	dir := openDir(t)
	a, _ := hostileArtifact(t, filepath.Join(dir, "bot"))
	seats := &hosting.Seats{Sandbox: sb, Dir: dir}
	defer seats.Close()
	report, err := botcheck.Run(context.Background(), botcheck.Config{Name: a.Sub.Name(), Deals: 1, Questions: 1,
		Rules: []engine.RuleSet{engine.DefaultRules(engine.Modern)},
		Start: func(ctx context.Context, arena string, env []string, stderr string) (*launch.Process, error) {
			return seats.StartChecked(ctx, a, arena, append(env, "TAPP_HOSTILE=play"), stderr)
		}})
	if err != nil {
		t.Fatal(err)
	}
	if !report.Passed() {
		t.Fatalf("the check failed in the %s sandbox: %+v", sb.Name(), report.Failed())
	}
}
