package botcheck_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/botcheck"
)

// repoRoot is the repository's root, three folders up from this package.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// bareClient returns the Python code block of protocol.md that follows the bare-client marker.
func bareClient(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "docs", "protocol.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	i := strings.Index(doc, "<!-- bare-client")
	if i < 0 {
		t.Fatal("protocol.md has no bare-client marker")
	}
	rest := doc[i:]
	start := strings.Index(rest, "```python\n")
	if start < 0 {
		t.Fatal("no python block after the bare-client marker")
	}
	rest = rest[start+len("```python\n"):]
	end := strings.Index(rest, "\n```")
	if end < 0 {
		t.Fatal("the bare client's block is not closed")
	}
	return rest[:end+1]
}

// The bare client of protocol.md, with stubs generated from proto/ as the page says and no
// SDK on its path, passes the whole conformance check against a real arena: every variant
// and decision kind, a resume after a dropped stream, and the shutdown.
func TestBareClientOfProtocolPassesBotCheck(t *testing.T) {
	t.Parallel()
	py := filepath.Join(repoRoot(t), ".venv", "bin", "python")
	if _, err := os.Stat(py); err != nil {
		t.Skipf("no .venv in the repository (run `make venv`; `make test` does): %v", err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "bare_bot.py"), []byte(bareClient(t)), 0o644); err != nil {
		t.Fatal(err)
	}
	gen := filepath.Join(dir, "gen")
	if err := os.MkdirAll(gen, 0o755); err != nil {
		t.Fatal(err)
	}
	protos, _ := filepath.Glob(filepath.Join(repoRoot(t), "proto", "tapp", "v1", "*.proto"))
	args := append([]string{"-m", "grpc_tools.protoc", "-I", filepath.Join(repoRoot(t), "proto"), "--python_out=" + gen, "--grpc_python_out=" + gen}, protos...)
	if out, err := exec.Command(py, args...).CombinedOutput(); err != nil {
		t.Fatalf("generating the stubs as protocol.md says: %v\n%s", err, out)
	}
	for _, init := range []string{"tapp/__init__.py", "tapp/v1/__init__.py"} {
		if err := os.WriteFile(filepath.Join(gen, init), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	where := exec.Command(py, "-c", "import tapp.v1.bot_pb2 as m; print(m.__file__)")
	where.Env = append(os.Environ(), "PYTHONPATH="+gen)
	if out, err := where.Output(); err != nil || !strings.HasPrefix(string(out), gen) {
		t.Fatalf("the generated stubs are not the ones imported: %s %v", out, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	r, err := botcheck.Run(ctx, botcheck.Config{Command: "env PYTHONPATH=gen " + py + " bare_bot.py", Dir: dir,
		Deals: 2, Questions: 1, ConnectTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range r.Items {
		if !it.Pass {
			t.Errorf("%s: %s (fix: %s) %q", it.Name, it.Reason, it.Fix, it.Notes)
		}
	}
	if !r.Passed() {
		t.Fatalf("the bare client of protocol.md fails the bot check: %s", r.Summary())
	}
}
