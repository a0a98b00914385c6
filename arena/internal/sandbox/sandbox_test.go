package sandbox_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/launch"
	"github.com/tapparena/tapp/arena/internal/launch/confine"
	"github.com/tapparena/tapp/arena/internal/sandbox"
)

// The test binary is also the sandbox's confining program (as the tapp binary is) and the
// program confined: `TEST __confine …` and `TEST probe`.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == confine.Command {
		os.Exit(confine.Main(os.Args[2:], os.Stderr))
	}
	if len(os.Args) > 1 && os.Args[1] == "probe" {
		os.Exit(probe())
	}
	os.Exit(m.Run())
}

// probe prints what the confined program sees: its user, the root folder, its scratch.
func probe() int {
	entries, err := os.ReadDir("/")
	if err != nil { // Landlock (bwrap) does not even let it list the root
		fmt.Printf("root-listing=%v\n", err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	fmt.Printf("uid=%d euid=%d\n", os.Getuid(), os.Geteuid())
	fmt.Printf("root=%s\n", strings.Join(names, ","))
	err = os.WriteFile("/tmp/x", []byte("ok"), 0o600)
	fmt.Printf("scratch=%v\n", err)
	_, err = os.ReadFile(os.Getenv("SECRET"))
	fmt.Printf("secret=%v\n", err)
	return 0
}

// present returns the sandboxes this host has (none excluded), each set up in its own
// work directory.
func present(t *testing.T) map[string]sandbox.Sandbox {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]sandbox.Sandbox{}
	for _, name := range []string{sandbox.Runsc, sandbox.Bwrap} {
		work := openDir(t)
		sb, err := sandbox.New(name, sandbox.Options{Work: work, Confine: exe})
		if err != nil {
			t.Logf("%s: %v (not tested)", name, err)
			continue
		}
		out[name] = sb
	}
	if len(out) == 0 {
		t.Skip("no sandbox on this host: install runsc or bubblewrap")
	}
	return out
}

// readable makes a copy of the test binary that the sandbox's user can read.
func readableCopy(t *testing.T) string {
	t.Helper()
	exe, _ := os.Executable()
	dir := openDir(t)
	b, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "bot")
	if err := os.WriteFile(p, b, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// openDir is a temporary folder that the sandbox's user can reach (t.TempDir's parent is
// closed to others).
func openDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "tapp-sandbox-test-")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	return dir
}

func runOnce(t *testing.T, sb sandbox.Sandbox, s sandbox.Spec) (string, error) {
	t.Helper()
	ls, err := sb.Launch(s)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	ls.Name, ls.Once, ls.Output = sb.Name(), true, &out
	p, err := launch.Start(context.Background(), ls, nil)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.Done():
	case <-time.After(60 * time.Second):
		p.Stop()
		t.Fatalf("%s: the program did not end", sb.Name())
	}
	return out.String(), p.Err()
}

// A sandboxed program runs as an unprivileged user, sees only the system folders, its code
// and its scratch, may write only its scratch, and cannot read a file of the arena's.
func TestASandboxedProgramSeesOnlyItsOwnFiles(t *testing.T) {
	t.Parallel()
	secret := filepath.Join(t.TempDir(), "tokens.txt")
	if err := os.WriteFile(secret, []byte("admin token"), 0o644); err != nil {
		t.Fatal(err)
	}
	code := readableCopy(t)
	for name, sb := range present(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			out, err := runOnce(t, sb, sandbox.Spec{
				Command: []string{"/code/bot", "probe"},
				Env:     []string{"SECRET=" + secret, "HOME=/tmp"},
				Mounts:  []sandbox.Mount{{Source: code, Target: "/code"}},
				// 2 GiB of address space: a Go program reserves nearly 1 GiB as it starts (at a
				// 900 MB limit 34 of 50 starts of this binary fail), so 1 GiB failed at random.
				Limits: sandbox.Limits{Memory: 2 << 30, Processes: 64, Scratch: 8 << 20, Output: 1 << 20},
			})
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			// Inside gVisor the program is root of gVisor's kernel (the host's unprivileged user
			// outside, which the escape suite checks on the host); elsewhere it is that user.
			if os.Geteuid() == 0 && name != sandbox.Runsc && (strings.Contains(out, "uid=0 ") || strings.Contains(out, "euid=0\n")) {
				t.Errorf("the sandboxed program runs as root:\n%s", out)
			}
			for _, want := range []string{"scratch=<nil>", "secret=open " + secret + ": no such file or directory"} {
				if !strings.Contains(out, want) {
					t.Errorf("want %q in:\n%s", want, out)
				}
			}
			root := ""
			for _, l := range strings.Split(out, "\n") {
				if r, ok := strings.CutPrefix(l, "root="); ok {
					root = r
				}
			}
			if root == "" && !strings.Contains(out, "root-listing=open /: permission denied") {
				t.Errorf("no listing of the root, nor Landlock's refusal:\n%s", out)
			}
			for _, dir := range strings.Split(root, ",") {
				switch dir {
				case "", "usr", "lib", "lib64", "lib32", "bin", "sbin", "code", "tmp", "proc", "dev", "run", "sys":
				default:
					t.Errorf("the sandbox shows /%s of the host (root: %s)", dir, root)
				}
			}
		})
	}
}
