package cli

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// repoRoot is the checkout these tests run in (cmd/tapp is two levels down).
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// runTappIn runs the built tapp binary in dir and fails the test when it fails.
func runTappIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command(tappBin, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("tapp %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func TestNewGoBotBuildsPlaysAndPassesBotCheck(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	runTappIn(t, work, "new", "bot", "--lang", "go", "--repo", repoRoot(t), "mybot")
	dir := filepath.Join(work, "mybot")
	mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "replace github.com/tapparena/tapp => ./third_party/tapp\n"; !strings.Contains(string(mod), want) {
		t.Errorf("go.mod lacks %q:\n%s", want, mod)
	}
	build := exec.Command("go", "build", "-o", "mybot", ".")
	build.Dir = dir
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("the starter does not build: %v\n%s", err, out)
	}
	out := runTappIn(t, dir, "bot", "check", "--cmd", "./mybot", "--deals", "2", "--questions", "1")
	if !strings.Contains(out, "all 34 items pass") {
		t.Errorf("bot check of the Go starter:\n%s", out)
	}
	out = runTappIn(t, dir, "league", "run", "league.yaml", "--db", "memory:")
	if !strings.Contains(out, "mybot") || !strings.Contains(out, "heuristic") {
		t.Errorf("the starter's league prints no leaderboard with the bot:\n%s", out)
	}
}

func TestNewPythonBotInstallsPlaysAndPassesBotCheck(t *testing.T) {
	t.Parallel()
	venv := filepath.Join(repoRoot(t), ".venv")
	if _, err := os.Stat(filepath.Join(venv, "bin", "python")); err != nil {
		t.Skipf("no .venv in the repository (run `make venv`; `make test` does): %v", err)
	}
	work := t.TempDir()
	runTappIn(t, work, "new", "bot", "--lang", "python", "--repo", repoRoot(t), "pybot")
	dir := filepath.Join(work, "pybot")
	// requirements.txt names the checkout's SDK: pip resolves it (without installing).
	pip := exec.Command(filepath.Join(venv, "bin", "pip"), "install", "--dry-run", "--no-deps", "--no-build-isolation",
		"--disable-pip-version-check", "-r", "requirements.txt")
	pip.Dir = dir
	if out, err := pip.CombinedOutput(); err != nil || !strings.Contains(string(out), "Would install tapp-bot") {
		t.Fatalf("pip does not resolve the starter's requirements.txt: %v\n%s", err, out)
	}
	// The repository's .venv has the SDK installed: it stands in for the starter's own.
	if err := os.Symlink(venv, filepath.Join(dir, ".venv")); err != nil {
		t.Fatal(err)
	}
	out := runTappIn(t, dir, "bot", "check", "--cmd", ".venv/bin/python bot.py", "--deals", "2", "--questions", "1", "--connect-timeout", "60s")
	if !strings.Contains(out, "all 34 items pass") {
		t.Errorf("bot check of the Python starter:\n%s", out)
	}
	out = runTappIn(t, dir, "league", "run", "league.yaml", "--db", "memory:")
	if !strings.Contains(out, "pybot") {
		t.Errorf("the starter's league prints no leaderboard with the bot:\n%s", out)
	}
}

func TestNewBotRefusesAFullFolderAndAnUnknownLanguage(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	if err := os.WriteFile(filepath.Join(work, "x"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"new", "bot", "--lang", "go", "--repo", repoRoot(t), work},
		{"new", "bot", "--lang", "rust", "--repo", repoRoot(t), filepath.Join(work, "r")},
	} {
		out, err := exec.Command(tappBin, args...).CombinedOutput()
		if err == nil {
			t.Errorf("tapp %s succeeds:\n%s", strings.Join(args, " "), out)
		}
	}
}

func TestBotCheckExitsNonZeroWhenAnItemFails(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(tappBin, "bot", "check", "--cmd", "sh -c 'echo no bot here >&2; exit 3'", "--connect-timeout", "3s")
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("exit = %v, want status 1\n%s", err, out)
	}
	for _, want := range []string{"FAIL  connect", "crash", "stderr: no bot here"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	out, _ = exec.Command(tappBin, "bot", "check", "--cmd", "sh -c 'exit 3'", "--connect-timeout", "2s", "--json").Output()
	var report struct {
		Items []struct {
			Name string `json:"name"`
			Pass bool   `json:"pass"`
			Fix  string `json:"fix"`
		} `json:"items"`
	}
	if err := json.Unmarshal(out, &report); err != nil || len(report.Items) != 1 || report.Items[0].Pass || report.Items[0].Fix == "" {
		t.Errorf("--json report = %s (%v), want one failed connect item with a fix", out, err)
	}
	usage := exec.Command(tappBin, "bot", "check")
	if err := usage.Run(); !errors.As(err, &exit) || exit.ExitCode() != 2 {
		t.Errorf("tapp bot check without a bot: %v, want a usage error (status 2)", err)
	}
}
