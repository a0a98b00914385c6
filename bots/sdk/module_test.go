package sdk_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// readmeGoBot returns the Go program of the README's "Write a bot in Go" section.
func readmeGoBot(t *testing.T, readme string) string {
	t.Helper()
	text, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(text), "## Write a bot in Go")
	if !ok {
		t.Fatal("README.md has no section \"Write a bot in Go\"")
	}
	_, code, ok := strings.Cut(section, "```go\n")
	if !ok {
		t.Fatal("the README's Go section has no Go program")
	}
	code, _, _ = strings.Cut(code, "```")
	return code
}

// A bot in a module of its own builds against a clone of this repository, the way the
// README says: go mod init, go mod edit -replace, go mod tidy, go build. Its program is the
// README's example.
func TestBotBuildsInItsOwnModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module with the go command (-short skips it)")
	}
	// Not parallel: the build takes the cores, and the package's other tests keep deadlines.
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(readmeGoBot(t, filepath.Join(root, "README.md"))), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command(goTool, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	run("mod", "init", "example.com/mybot")
	run("mod", "edit", "-replace", "github.com/tapparena/tapp="+root)
	run("mod", "tidy")
	run("build", "-o", filepath.Join(dir, "mybot"), ".")
	if _, err := os.Stat(filepath.Join(dir, "mybot")); err != nil {
		t.Errorf("no bot program built: %v", err)
	}
}
