package gocache_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tapparena/tapp/arena/internal/hosting/gocache"
)

// The test binary is the go command's cache program, as the tapp binary is.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == gocache.Command {
		os.Exit(gocache.Main(os.Args[2:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// module writes a Go module of two packages: lib, and app importing it.
func module(t *testing.T, dir, app string) {
	t.Helper()
	files := map[string]string{
		"go.mod":     "module example.com/m\n\ngo 1.24\n",
		"lib/lib.go": "package lib\n\nfunc Double(x int) int { return 2 * x }\n",
		"app/app.go": "package app\n\nimport \"example.com/m/lib\"\n\nfunc F() int { return lib.Double(" + app + ") }\n",
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// goBuild runs the real go command with this binary as GOCACHEPROG and returns the packages
// it compiled (-v) and what the cache program said.
func goBuild(t *testing.T, dir, prog string) (compiled []string, said string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "build", "-v", "-trimpath", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOCACHE="+t.TempDir(), "GOCACHEPROG="+exe+" "+gocache.Command+" "+prog,
		"GOFLAGS=-mod=mod", "GOWORK=off", "GOPROXY=off", "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go build with GOCACHEPROG: %v\n%s", err, out)
	}
	for _, line := range strings.Split(string(out), "\n") {
		switch {
		case strings.HasPrefix(line, "example.com/"):
			compiled = append(compiled, line)
		case line != "":
			said += line + "\n"
		}
	}
	slices.Sort(compiled)
	return compiled, said
}

// snapshot is every file of a folder with its size and content.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		out[path] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// The arena's build fills the shared layer; an author's build reads it, compiles only what
// differs (its own package) into its own layer, and leaves the shared layer as it was.
func TestABuildTakesTheSharedLayerAndWritesOnlyItsOwn(t *testing.T) {
	t.Parallel()
	shared, own := t.TempDir(), t.TempDir()
	arena := t.TempDir()
	module(t, arena, "1")
	if compiled, _ := goBuild(t, arena, "--own "+shared); !slices.Equal(compiled, []string{"example.com/m/app", "example.com/m/lib"}) {
		t.Fatalf("the arena's build compiled %q, want both packages", compiled)
	}
	before := snapshot(t, shared)
	if len(before) == 0 {
		t.Fatal("the arena's build left the shared layer empty")
	}
	author := t.TempDir()
	module(t, author, "21") // the same lib, an app of its own
	compiled, said := goBuild(t, author, "--own "+own+" --shared "+shared)
	if !slices.Equal(compiled, []string{"example.com/m/app"}) {
		t.Errorf("the author's build compiled %q, want only its own package (lib from the shared layer)", compiled)
	}
	if !strings.Contains(said, "answered by the arena's shared layer") || strings.Contains(said, " 0 lookups answered by the arena's shared") {
		t.Errorf("the cache program said %q, want shared hits counted", said)
	}
	if after := snapshot(t, shared); !mapsEqual(before, after) {
		t.Errorf("the author's build changed the shared layer: %d files before, %d after", len(before), len(after))
	}
	if len(snapshot(t, own)) == 0 {
		t.Error("the author's build put nothing into its own layer")
	}
	// Built again, the author's build compiles nothing: its app is in its own layer now.
	if compiled, _ := goBuild(t, author, "--own "+own+" --shared "+shared); len(compiled) != 0 {
		t.Errorf("the second build compiled %q, want nothing", compiled)
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// talk runs one conversation with the cache program and returns its answers after the
// first (the known commands).
func talk(t *testing.T, c *gocache.Cache, lines ...string) []map[string]any {
	t.Helper()
	var out bytes.Buffer
	if err := c.Serve(strings.NewReader(strings.Join(lines, "\n")+"\n"), &out); err != nil {
		t.Fatal(err)
	}
	var answers []map[string]any
	dec := json.NewDecoder(&out)
	for dec.More() {
		var m map[string]any
		if err := dec.Decode(&m); err != nil {
			t.Fatal(err)
		}
		answers = append(answers, m)
	}
	if len(answers) == 0 || answers[0]["KnownCommands"] == nil {
		t.Fatalf("no first answer with the known commands: %v", answers)
	}
	return answers[1:]
}

func id(b byte) string { return base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{b}, 32)) }

func put(reqID int, action, output byte, body string) []string {
	return []string{
		fmt.Sprintf(`{"ID":%d,"Command":"put","ActionID":%q,"OutputID":%q,"BodySize":%d}`, reqID, id(action), id(output), len(body)),
		fmt.Sprintf("%q", base64.StdEncoding.EncodeToString([]byte(body))),
	}
}

// An entry the bot's own layer holds never stands in for the shared layer's; a body cut
// short is a miss, not a wrong answer.
func TestTheSharedLayerComesFirstAndATornBodyIsAMiss(t *testing.T) {
	t.Parallel()
	shared, own := gocache.Layer(t.TempDir()), gocache.Layer(t.TempDir())
	talk(t, &gocache.Cache{Own: shared}, put(1, 0xa1, 0xb1, "the arena's")...)
	c := &gocache.Cache{Shared: shared, Own: own}
	lines := append(put(2, 0xa1, 0xb2, "the author's"), put(3, 0xa2, 0xb3, "its own")...)
	lines = append(lines, `{"ID":4,"Command":"get","ActionID":"`+id(0xa1)+`"}`, `{"ID":5,"Command":"get","ActionID":"`+id(0xa2)+`"}`,
		`{"ID":6,"Command":"get","ActionID":"`+id(0xa3)+`"}`)
	got := talk(t, c, lines...)
	if len(got) != 5 {
		t.Fatalf("answers %v, want 5", got)
	}
	read := func(a map[string]any) string {
		b, err := os.ReadFile(fmt.Sprint(a["DiskPath"]))
		if err != nil {
			t.Fatalf("%v: %v", a, err)
		}
		return string(b)
	}
	if a := got[2]; a["Miss"] == true || read(a) != "the arena's" || a["OutputID"] != id(0xb1) {
		t.Errorf("get of an action both layers hold = %v, want the shared layer's", a)
	}
	if a := got[3]; a["Miss"] == true || read(a) != "its own" {
		t.Errorf("get of the bot's own action = %v, want its own body", a)
	}
	if a := got[4]; a["Miss"] != true {
		t.Errorf("get of an unknown action = %v, want a miss", a)
	}
	// Cut the own body short, as a full disk would.
	if err := os.WriteFile(fmt.Sprint(got[3]["DiskPath"]), []byte("its"), 0o644); err != nil {
		t.Fatal(err)
	}
	again := talk(t, &gocache.Cache{Shared: shared, Own: own}, `{"ID":7,"Command":"get","ActionID":"`+id(0xa2)+`"}`)
	if len(again) != 1 || again[0]["Miss"] != true {
		t.Errorf("get of a torn body = %v, want a miss", again)
	}
}
