package cli

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// A new bot author's path through the commands, under the sandbox the commands choose by
// default: a Python bot written by `tapp new bot` is submitted with its token, built in the
// sandbox without the network, passes `tapp bot check` in its sandbox, plays the standing
// ladder of a league file that names it by submission, and stands on the ladder's board.
func TestAHostedPythonBotGoesFromSubmitToTheLaddersBoard(t *testing.T) {
	t.Parallel()
	py := hostedPython(t)
	dir, err := os.MkdirTemp("", "tapp-cli-hosted-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	_ = os.Chmod(dir, 0o755) // the sandbox's user reaches the builds beside the database
	db := filepath.Join(dir, "club.db")
	token, err := tappRun(t, "bots", "add", "pybot", "--db", db)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range strings.Fields(token) { // the token, among what the command says on stderr
		if strings.HasPrefix(f, "tapp_") {
			token = f
		}
	}
	src := filepath.Join(dir, "mybot")
	if out, err := tappRun(t, "new", "bot", "--lang", "python", "--repo", repoRoot(t), src); err != nil {
		t.Fatalf("new bot: %q, %v", out, err)
	}
	out, err := tappRun(t, "submit", "--bot", "pybot", "--lang", "python", "--token", token, "--db", db, "--python", py, src)
	if err != nil || !strings.Contains(out, "stored pybot@1") || !strings.Contains(out, "pybot@1 built in") {
		t.Fatalf("submit = %q, %v; want pybot@1 stored and built", out, err)
	}
	if !strings.Contains(out, "in the bwrap sandbox") && !strings.Contains(out, "in the runsc sandbox") {
		t.Errorf("submit = %q: want the build in a sandbox", out)
	}
	if out, err := tappRun(t, "bot", "check", "--submission", "pybot@1", "--db", db, "--python", py); err != nil {
		t.Fatalf("bot check --submission pybot@1 = %q, %v", out, err)
	}
	league := filepath.Join(dir, "club.yaml")
	write(t, league, fmt.Sprintf(`name: club
db: %s
logs: club-logs
format: ladder
rules: modern players=3
deals: 1
rounds: 2
concurrency: 2
time_control: {per_decision: 5s, overage: 30s, strikes: 20}
bots:
  - submission: pybot@latest
  - {name: random, builtin: random}
  - {name: heuristic, builtin: heuristic}
`, db))
	out, err = tappRun(t, "league", "run", league, "--python", py)
	if err != nil || !strings.Contains(out, "standing ladder club") || !strings.Contains(out, "pybot@1") {
		t.Fatalf("league run = %q, %v; want the ladder's board with pybot@1", out, err)
	}
	board, err := tappRun(t, "ratings", "--league", "club", "--db", db)
	if err != nil || !strings.Contains(board, "pybot@1") {
		t.Errorf("ratings --league club = %q, %v; want pybot@1 on the ladder's board", board, err)
	}
	logs, err := tappRun(t, "submissions", "logs", "pybot@1", "--db", db, "--logs", filepath.Join(dir, "club-logs"))
	if err != nil || !strings.Contains(logs, "== build log of pybot@1") || !strings.Contains(logs, "== run log of pybot@1") {
		t.Errorf("submissions logs pybot@1 = %q, %v; want its build log and its run log", logs, err)
	}
	list, err := tappRun(t, "submissions", "list", "--db", db)
	if err != nil || !strings.Contains(strings.Join(strings.Fields(list), " "), "pybot@1 python ready first") {
		t.Errorf("submissions list = %q, %v; want pybot@1 ready, its gauntlet first", list, err)
	}
}

// tappRun runs the built tapp binary (the sandboxes confine with `tapp __confine`) and
// returns its output, stdout and stderr.
func tappRun(t *testing.T, args ...string) (string, error) {
	t.Helper()
	out, err := exec.Command(tappBin, args...).CombinedOutput()
	return string(out), err
}

// hostedPython is an interpreter for hosted Python bots that the sandbox's user reaches:
// a venv of the system's python3 in a temporary folder, with the checkout's SDK and the
// .venv's grpcio and protobuf copied in (as docs/hosting.md has the organiser install it).
func hostedPython(t *testing.T) string {
	t.Helper()
	hostedPythonOnce.Do(func() { hostedPythonPath, hostedPythonErr = makeHostedPython(repoRoot(t)) })
	if hostedPythonErr != nil {
		t.Skipf("no Python for hosted bots: %v", hostedPythonErr)
	}
	return hostedPythonPath
}

var (
	hostedPythonOnce sync.Once
	hostedPythonPath string
	hostedPythonErr  error
)

func makeHostedPython(repo string) (string, error) {
	venvSite, err := filepath.Glob(filepath.Join(repo, ".venv", "lib", "python3*", "site-packages"))
	if err != nil || len(venvSite) == 0 {
		return "", errors.New("no .venv in the checkout: run `make venv`")
	}
	dir, err := os.MkdirTemp(filepath.Dir(tappBin), "python-") // TestMain removes it
	if err != nil {
		return "", err
	}
	env := filepath.Join(dir, "env")
	if out, err := exec.Command("/usr/bin/python3", "-m", "venv", "--without-pip", env).CombinedOutput(); err != nil {
		return "", fmt.Errorf("python3 -m venv: %w: %s", err, out)
	}
	site, err := filepath.Glob(filepath.Join(env, "lib", "python3*", "site-packages"))
	if err != nil || len(site) != 1 || filepath.Base(filepath.Dir(site[0])) != filepath.Base(filepath.Dir(venvSite[0])) {
		return "", fmt.Errorf("the system's python3 is not the .venv's version (%v, %v)", site, venvSite)
	}
	copies := map[string]string{filepath.Join(repo, "bots", "python", "src") + "/.": site[0],
		filepath.Join(venvSite[0], "typing_extensions.py"): filepath.Join(site[0], "typing_extensions.py")}
	for _, pkg := range []string{"grpc", "google"} {
		copies[filepath.Join(venvSite[0], pkg)+"/."] = filepath.Join(site[0], pkg)
	}
	for from, to := range copies {
		if out, err := exec.Command("cp", "-a", from, to).CombinedOutput(); err != nil {
			return "", fmt.Errorf("cp %s: %w: %s", from, err, out)
		}
	}
	if out, err := exec.Command("chmod", "-R", "a+rX", dir).CombinedOutput(); err != nil {
		return "", fmt.Errorf("chmod: %w: %s", err, out)
	}
	return filepath.Join(env, "bin", "python"), nil
}
