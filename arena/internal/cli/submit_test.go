package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An author submits a version with the bot's token and follows it with tapp submissions; a
// wrong token and a Go module without its vendor folder are refused in words, nothing stored.
func TestSubmitStoresAVersionForTheTokenHolderOnly(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "club.db")
	token, err := cli(t, "bots", "add", "pybot", "--db", db)
	if err != nil {
		t.Fatal(err)
	}
	token = strings.TrimSpace(token)
	src := filepath.Join(dir, "pybot")
	write(t, filepath.Join(src, "bot.py"), "print('a bot')\n")
	out, err := cli(t, "submit", "--bot", "pybot", "--lang", "python", "--token", token, "--db", db, "--no-build", src)
	if err != nil || !strings.Contains(out, "stored pybot@1: python") || !strings.Contains(out, "queued") {
		t.Fatalf("submit = %q, %v", out, err)
	}
	if _, err := cli(t, "submit", "--bot", "pybot", "--lang", "python", "--token", "tapp_not-its-token", "--db", db, "--no-build", src); err == nil ||
		!strings.Contains(err.Error(), "only its token holder submits versions") {
		t.Errorf("a submission with another token: %v, want a refusal naming the token holder", err)
	}
	gomod := filepath.Join(dir, "gobot")
	write(t, filepath.Join(gomod, "go.mod"), "module gobot\n\ngo 1.24\n")
	write(t, filepath.Join(gomod, "main.go"), "package main\n\nfunc main() {}\n")
	if _, err := cli(t, "submit", "--bot", "pybot", "--lang", "go", "--token", token, "--db", db, "--no-build", gomod); err == nil ||
		!strings.Contains(err.Error(), "go mod vendor") {
		t.Errorf("a Go module without vendor/: %v, want the advice to vendor it", err)
	}
	list, err := cli(t, "submissions", "list", "--db", db)
	if err != nil || strings.Count(list, "pybot@") != 1 || !strings.Contains(list, "pybot@1  python  queued") {
		t.Errorf("submissions list = %q, %v: want pybot@1 alone, queued", list, err)
	}
	show, err := cli(t, "submissions", "show", "pybot@latest", "--db", db)
	if err != nil || !strings.HasPrefix(show, "pybot@1\n") || !strings.Contains(show, "entry bot.py") {
		t.Errorf("submissions show pybot@latest = %q, %v", show, err)
	}
	if _, err := cli(t, "submissions", "show", "pybot@7", "--db", db); err == nil || strings.Contains(err.Error(), "goroutine") {
		t.Errorf("an unknown version: %v, want an error in words", err)
	}
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
