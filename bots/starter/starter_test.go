package starter

import (
	"os"
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

func TestGoStarterReplacesTheModuleByTheCheckout(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "lowbot")
	files, err := Write(Options{Lang: "go", Dir: dir, Repo: repo(t)})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"main.go", "go.mod", "go.sum", "README.md", "league.yaml"} {
		if !slices.Contains(files, want) {
			t.Errorf("files %q lack %s", files, want)
		}
	}
	mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"module lowbot\n", "require " + Module + " v0.0.0-", "replace " + Module + " => " + repo(t) + "\n", "go.uber.org/zap "} {
		if !strings.Contains(string(mod), want) {
			t.Errorf("go.mod lacks %q:\n%s", want, mod)
		}
	}
	league, _ := os.ReadFile(filepath.Join(dir, "league.yaml"))
	if !strings.Contains(string(league), "{name: lowbot, command: ./lowbot}") {
		t.Errorf("league.yaml does not launch the bot:\n%s", league)
	}
}

func TestPythonStarterInstallsTheCheckoutsSDK(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "pybot")
	if _, err := Write(Options{Lang: "python", Dir: dir, Repo: repo(t)}); err != nil {
		t.Fatal(err)
	}
	req, _ := os.ReadFile(filepath.Join(dir, "requirements.txt"))
	if !strings.Contains(string(req), repo(t)+"/bots/python\n") {
		t.Errorf("requirements.txt does not name the checkout's SDK:\n%s", req)
	}
	bot, _ := os.ReadFile(filepath.Join(dir, "bot.py"))
	if !strings.Contains(string(bot), `name = "pybot"`) {
		t.Errorf("bot.py does not carry the bot's name:\n%s", bot)
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
