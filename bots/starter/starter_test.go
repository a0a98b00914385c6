package starter

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func repo(t *testing.T) string {
	t.Helper()
	r, err := FindRepo(".")
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// A Go starter carries its own copy of the SDK and names it by a relative path; its go.mod
// requires what the SDK needs, not the arena's database drivers, browser or YAML.
func TestGoStarterCopiesTheSDK(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "lowbot")
	files, err := Write(Options{Lang: "go", Dir: dir, Repo: repo(t)})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"main.go", "go.mod", "go.sum", "README.md", "league.yaml", "third_party/tapp/"} {
		if !slices.Contains(files, want) {
			t.Errorf("files %q lack %s", files, want)
		}
	}
	mod := read(t, dir, "go.mod")
	for _, want := range []string{"module lowbot\n", "require github.com/tapparena/tapp v0.0.0-", "google.golang.org/grpc ",
		"replace github.com/tapparena/tapp => ./third_party/tapp\n"} {
		if !strings.Contains(mod, want) {
			t.Errorf("go.mod lacks %q:\n%s", want, mod)
		}
	}
	for _, arenaOnly := range []string{"pgx", "chromedp", "modernc.org/sqlite", "go-yaml", "vanguard", "progressbar", "mvdan.cc/sh"} {
		if strings.Contains(mod, arenaOnly) || strings.Contains(read(t, dir, "go.sum"), arenaOnly) {
			t.Errorf("go.mod or go.sum names %s, which the SDK does not use:\n%s", arenaOnly, mod)
		}
	}
	for _, want := range []string{"go.mod", "LICENSE", "bots/sdk/sdk.go", "engine/deal.go", "proto/tapp/v1/bot.pb.go"} {
		if _, err := os.Stat(filepath.Join(dir, GoSDKDir, want)); err != nil {
			t.Errorf("the SDK's copy lacks %s: %v", want, err)
		}
	}
	if tests, _ := filepath.Glob(filepath.Join(dir, GoSDKDir, "bots", "sdk", "*_test.go")); len(tests) > 0 {
		t.Errorf("the SDK's copy has its tests: %v", tests)
	}
	if !strings.Contains(read(t, dir, "league.yaml"), "{name: lowbot, command: ./lowbot}") {
		t.Errorf("league.yaml does not launch the bot:\n%s", read(t, dir, "league.yaml"))
	}
	namesNoCheckout(t, dir)
}

// Moved elsewhere and vendored, the Go starter builds with the network off and an empty
// module cache: what an arena that builds submitted bots with -mod=vendor needs.
func TestGoStarterBuildsOfflineOnceVendored(t *testing.T) {
	if testing.Short() {
		t.Skip("builds gRPC from vendor/ (-short)")
	}
	t.Parallel()
	work := t.TempDir()
	if _, err := Write(Options{Lang: "go", Dir: filepath.Join(work, "first"), Repo: repo(t)}); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(work, "moved", "vendbot")
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(work, "first"), dir); err != nil {
		t.Fatal(err)
	}
	goCmd(t, dir, nil, "mod", "vendor") // from the module cache the arena's own build filled
	empty := t.TempDir()
	goCmd(t, dir, []string{"GOPROXY=off", "GOMODCACHE=" + empty, "GOFLAGS=-mod=vendor"}, "build", "-o", filepath.Join(work, "bin"), ".")
	if _, err := os.Stat(filepath.Join(work, "bin")); err != nil {
		t.Fatal(err)
	}
}

func TestPythonStarterCopiesTheSDK(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "pybot")
	files, err := Write(Options{Lang: "python", Dir: dir, Repo: repo(t)})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(files, "third_party/tapp-bot/") {
		t.Errorf("files %q lack the SDK's copy", files)
	}
	if req := read(t, dir, "requirements.txt"); !strings.Contains(req, "\n./third_party/tapp-bot\n") {
		t.Errorf("requirements.txt does not install the SDK's copy:\n%s", req)
	}
	for _, want := range []string{"pyproject.toml", "README.md", "LICENSE", "src/tapp_bot/__init__.py", "src/tapp_bot/proto/tapp/v1/bot_pb2.py"} {
		if _, err := os.Stat(filepath.Join(dir, PythonSDKDir, want)); err != nil {
			t.Errorf("the SDK's copy lacks %s: %v", want, err)
		}
	}
	if bot := read(t, dir, "bot.py"); !strings.Contains(bot, `name = "pybot"`) {
		t.Errorf("bot.py does not carry the bot's name:\n%s", bot)
	}
	namesNoCheckout(t, dir)
}

// namesNoCheckout fails when a file of the project names the checkout it was made from.
func namesNoCheckout(t *testing.T, dir string) {
	t.Helper()
	checkout := repo(t)
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if b, err := os.ReadFile(path); err != nil {
			return err
		} else if strings.Contains(string(b), checkout) {
			t.Errorf("%s names the checkout %s", path, checkout)
		}
		if strings.Contains(path, "__pycache__") {
			t.Errorf("%s is a cache", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func goCmd(t *testing.T, dir string, env []string, args ...string) {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), append([]string{"GOWORK=off"}, env...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

func TestWriteRefusesBadInput(t *testing.T) {
	t.Parallel()
	full := t.TempDir()
	if err := os.WriteFile(filepath.Join(full, "x"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		o    Options
		want string
	}{
		{"language", Options{Lang: "rust", Dir: filepath.Join(t.TempDir(), "a"), Repo: repo(t)}, "unknown language"},
		{"name", Options{Lang: "go", Dir: filepath.Join(t.TempDir(), "9 lives"), Repo: repo(t)}, "bot name"},
		{"not a checkout", Options{Lang: "go", Dir: filepath.Join(t.TempDir(), "a"), Repo: t.TempDir()}, "not a Tapp Arena checkout"},
		{"folder not empty", Options{Lang: "go", Dir: full, Name: "ok", Repo: repo(t)}, "not empty"},
	} {
		if _, err := Write(tc.o); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
}
