package cli

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
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
	authorsPath(t, "pybot", "python", []string{"--python", py}, nil)
}

// The same path for a Go bot written by `tapp new bot --lang go` and vendored (`go mod
// vendor`, as its README says). Its build compiles the bot's own package only: the SDK,
// gRPC, protobuf and the standard library they use come from the arena's shared build cache,
// which the arena compiles once from its own checkout (--go-sdk; here before the build, and
// the submit's output says so), and which the build reads without being able to write.
func TestAHostedGoBotGoesFromSubmitToTheLaddersBoard(t *testing.T) {
	t.Parallel()
	out := authorsPath(t, "gobot", "go", []string{"--go-sdk", repoRoot(t)}, func(src string) {
		vendor := exec.Command("go", "mod", "vendor")
		vendor.Dir = src
		vendor.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
		if out, err := vendor.CombinedOutput(); err != nil {
			t.Fatalf("go mod vendor in the new bot: %v\n%s", err, out)
		}
	})
	if !strings.Contains(out, "the shared Go build cache is ready") {
		t.Errorf("submit = %q: want the shared cache compiled (once, in this fresh hosting folder) and said so", out)
	}
	var compiled []string
	for _, line := range strings.Split(out, "\n") {
		if pkg, ok := strings.CutPrefix(strings.TrimSpace(line), "gobot@1 | "); ok && !strings.Contains(pkg, " ") {
			compiled = append(compiled, pkg) // go build -v: a package's path as it compiles it
		}
	}
	if len(compiled) != 1 || compiled[0] != "mybot" {
		t.Errorf("the build of gobot@1 compiled %q, want only the bot's own package (mybot, its module); submit said:\n%s", compiled, out)
	}
	if !strings.Contains(out, "lookups answered by the arena's shared layer") {
		t.Errorf("submit = %q: want the build's cache line", out)
	}
}

// authorsPath runs a new author's commands for a bot of lang and returns what submit said:
// tapp new bot, prepare (the author's own step), tapp submit, tapp bot check --submission,
// tapp league run of a ladder naming the submission, tapp ratings, tapp submissions logs
// and list. hosting are the hosting flags every command gets.
func authorsPath(t *testing.T, bot, lang string, hosting []string, prepare func(src string)) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "tapp-cli-hosted-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	_ = os.Chmod(dir, 0o755) // the sandbox's user reaches the builds beside the database
	db := filepath.Join(dir, "club.db")
	token, err := tappRun(t, "bots", "add", bot, "--db", db)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range strings.Fields(token) { // the token, among what the command says on stderr
		if strings.HasPrefix(f, "tapp_") {
			token = f
		}
	}
	src := filepath.Join(dir, "mybot")
	if out, err := tappRun(t, "new", "bot", "--lang", lang, "--repo", repoRoot(t), src); err != nil {
		t.Fatalf("new bot: %q, %v", out, err)
	}
	if prepare != nil {
		prepare(src)
	}
	v := bot + "@1"
	submitted, err := tappRun(t, append([]string{"submit", "--bot", bot, "--lang", lang, "--token", token, "--db", db, src}, hosting...)...)
	if err != nil || !strings.Contains(submitted, "stored "+v) || !strings.Contains(submitted, v+" built in") {
		t.Fatalf("submit = %q, %v; want %s stored and built", submitted, err, v)
	}
	if !strings.Contains(submitted, "in the bwrap sandbox") && !strings.Contains(submitted, "in the runsc sandbox") {
		t.Errorf("submit = %q: want the build in a sandbox", submitted)
	}
	if out, err := tappRun(t, append([]string{"bot", "check", "--submission", v, "--db", db}, hosting...)...); err != nil {
		t.Fatalf("bot check --submission %s = %q, %v", v, out, err)
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
  - submission: %s@latest
  - {name: random, builtin: random}
  - {name: heuristic, builtin: heuristic}
`, db, bot))
	out, err := tappRun(t, append([]string{"league", "run", league}, hosting...)...)
	if err != nil || !strings.Contains(out, "standing ladder club") || !strings.Contains(out, v) {
		t.Fatalf("league run = %q, %v; want the ladder's board with %s", out, err, v)
	}
	leagues, err := tappRun(t, "league", "list", "--db", db)
	if err != nil {
		t.Fatalf("league list = %q, %v", leagues, err)
	}
	if ladder, epochs := ladderDeals(leagues, "club"); ladder == 0 || ladder != epochs {
		t.Errorf("league list shows the ladder club with %d deals, its epochs with %d; want the ladder's board (its epochs' deals), not 0:\n%s",
			ladder, epochs, leagues)
	}
	board, err := tappRun(t, "ratings", "--league", "club", "--db", db)
	if err != nil || !strings.Contains(board, v) {
		t.Errorf("ratings --league club = %q, %v; want %s on the ladder's board", board, err, v)
	}
	logs, err := tappRun(t, "submissions", "logs", v, "--db", db, "--logs", filepath.Join(dir, "club-logs"))
	if err != nil || !strings.Contains(logs, "== build log of "+v) || !strings.Contains(logs, "== run log of "+v) {
		t.Errorf("submissions logs %s = %q, %v; want its build log and its run log", v, logs, err)
	}
	list, err := tappRun(t, "submissions", "list", "--db", db)
	if err != nil || !strings.Contains(strings.Join(strings.Fields(list), " "), v+" "+lang+" ready first") {
		t.Errorf("submissions list = %q, %v; want %s ready, its gauntlet first", list, err, v)
	}
	return submitted
}

// ladderDeals reads tapp league list: the deals of the ladder's own row, and the sum of
// its epochs' (NAME.HASH) rows.
func ladderDeals(list, ladder string) (own, epochs int) {
	for _, line := range strings.Split(list, "\n") {
		f := strings.Fields(line)
		i := slices.Index(f, "tapp") // the deals column comes just before "tapp ratings --league ID"
		if len(f) == 0 || i < 1 {
			continue
		}
		n, err := strconv.Atoi(f[i-1])
		switch {
		case err != nil:
		case f[0] == ladder:
			own = n
		case strings.HasPrefix(f[0], ladder+"."):
			epochs += n
		}
	}
	return own, epochs
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
