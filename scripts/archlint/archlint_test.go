package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

var allPlatforms = []string{"linux", "darwin", "windows"}

// The tree as committed keeps every rule, on every platform it is built for.
func TestTreeKeepsTheRules(t *testing.T) {
	t.Parallel()
	findings, err := analyze(repoRoot(t), allPlatforms, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(findings) > 0 {
		t.Errorf("archlint finds:\n%s", strings.Join(findings, "\n"))
	}
}

// Each change below is one the architecture forbids; the first ten passed the old
// direct-import lint or were never checked. Each is added as a file through a build overlay
// (nothing is written into the tree) and must be reported at that file, under its rule.
func TestForbiddenChangesFail(t *testing.T) {
	t.Parallel()
	root := repoRoot(t)
	for _, tc := range []struct {
		name string
		pkg  string // where the file goes, in the module
		src  string // the file, after its package clause
		rule string
		want string // in the finding's message
	}{
		{"the protobuf runtime in the referee", "arena/internal/referee",
			`import "google.golang.org/protobuf/proto"
var _ = proto.Marshal`,
			"THIRD_PARTY", "imports google.golang.org/protobuf/proto"},
		{"I/O in the engine", "engine",
			`import "os"
func readDeal(name string) ([]byte, error) { return os.ReadFile(name) }`,
			"CORE_NO_IO", "engine imports os"},
		{"zap in the engine", "engine",
			`import "go.uber.org/zap"
var log = zap.NewNop()`,
			"THIRD_PARTY", "engine (core"},
		{"the league importing the SQL store", "arena/internal/league",
			`import "github.com/tapparena/tapp/arena/internal/store"
var _ = store.Open`,
			"LAYER_ORDER", "arena/internal/league (domain) imports arena/internal/store (adapters)"},
		{"the store importing the server", "arena/internal/store",
			`import _ "github.com/tapparena/tapp/arena/internal/server"`,
			"ADAPTERS_APART", "arena/internal/store depends on arena/internal/server"},
		{"printing in match", "arena/internal/match",
			`import "fmt"
func debug(s string) { fmt.Println(s) }`,
			"LIBRARIES_DO_NOT_PRINT", "uses fmt.Println"},
		{"signals in match", "arena/internal/match",
			`import ("os"; "os/signal")
func init() { signal.Notify(make(chan os.Signal, 1), os.Interrupt) }`,
			"SIGNALS_IN_CLI", "imports os/signal"},
		{"a built-in bot importing the codec", "bots/heuristic",
			`import _ "github.com/tapparena/tapp/arena/wire"`,
			"LAYER_ORDER", "bots/heuristic (core) imports arena/wire (codec)"},
		{"database/sql in rating", "arena/internal/rating",
			`import "database/sql"
var db *sql.DB`,
			"SQL_IN_STORE", "arena/internal/rating imports database/sql"},
		{"exec through golang.org/x/sys/unix", "arena/internal/server",
			`import "golang.org/x/sys/unix"
func run() error { return unix.Exec("/bin/sh", nil, nil) }`,
			"PROCESSES_IN_LAUNCH", "uses golang.org/x/sys/unix.Exec"},

		// More of the same kind: a renamed import, a raw syscall, a library that brings
		// protobuf along, and the other conventions.
		{"os/exec in the store", "arena/internal/store",
			`import "os/exec"
var _ = exec.Command`,
			"PROCESSES_IN_LAUNCH", "imports os/exec"},
		{"execve as a raw system call", "arena/internal/host",
			`import "syscall"
var _ = syscall.SYS_EXECVE`,
			"PROCESSES_IN_LAUNCH", "uses syscall.SYS_EXECVE"},
		{"printing through a renamed import", "arena/internal/league",
			`import p "fmt"
func say() { p.Printf("hello\n") }`,
			"LIBRARIES_DO_NOT_PRINT", "uses fmt.Printf"},
		{"writing to standard error in the referee", "arena/internal/referee",
			`import ("fmt"; "os")
func warn() { fmt.Fprintln(os.Stderr, "late") }`,
			"LIBRARIES_DO_NOT_PRINT", "uses os.Stderr"},
		{"the builtin println in a bot", "bots/random",
			`func trace() { println("here") }`,
			"LIBRARIES_DO_NOT_PRINT", "uses println"},
		{"a library that brings protobuf into the domain", "arena/internal/match",
			`import _ "google.golang.org/genproto/googleapis/rpc/status"`,
			"DOMAIN_IN_PROCESS", "which depends on google.golang.org/protobuf/"},
		{"the standard logger in the store", "arena/internal/store",
			`import "log"
func warn() { log.Print("x") }`,
			"LOGGING_WITH_ZAP", "imports log"},
		{"the clock in the engine", "engine",
			`import "time"
var dealt = time.Now()`,
			"ENGINE_DETERMINISTIC", "engine imports time"},
		{"the network in the domain", "arena/internal/league",
			`import "net"
var _ = net.Dial`,
			"DOMAIN_OFF_THE_NETWORK", "arena/internal/league imports net"},
		{"the analysis solving through the search bot", "arena/internal/analysis",
			`import _ "github.com/tapparena/tapp/bots/search"`,
			"ANALYSIS_WITHOUT_BOTS", "bots/search"},

		// The public API: one entry point for the command, and no internal type handed out.
		{"a second entry point in arena/cli", "arena/cli",
			`import "github.com/tapparena/tapp/arena/internal/cli"
func Execute(args []string) int { return cli.Execute(args) }`,
			"PUBLIC_API", "arena/cli exports Execute"},
		{"the wire decoder handing out a domain type", "arena/wire",
			`import "github.com/tapparena/tapp/arena/internal/domain"
type Clock struct { TimeControl domain.TimeControl; spare domain.TimeControl }`,
			"PUBLIC_API", "exported Clock names arena/internal/domain.TimeControl"},
		{"a public function that takes an internal type", "arena/wire",
			`import d "github.com/tapparena/tapp/arena/internal/domain"
func TimeControlText(tc *d.TimeControl) string { return "" }`,
			"PUBLIC_API", "exported TimeControlText names arena/internal/domain.TimeControl"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			name := filepath.Base(tc.pkg)
			file := filepath.Join(root, tc.pkg, "zz_forbidden.go")
			findings := analyzeWith(t, root, map[string]string{file: "package " + packageName(t, root, tc.pkg, name) + "\n\n" + tc.src + "\n"})
			rel := filepath.Join(tc.pkg, "zz_forbidden.go") + ":"
			found := slices.ContainsFunc(findings, func(f string) bool {
				return strings.HasPrefix(f, rel) && strings.HasSuffix(f, "("+tc.rule+")") && strings.Contains(f, tc.want)
			})
			if !found {
				t.Errorf("no %s finding at %s with %q; archlint finds:\n%s", tc.rule, rel, tc.want, strings.Join(findings, "\n"))
			}
		})
	}
}

// A package that no layer names is a finding: a new package is placed on purpose.
func TestNewPackageNeedsALayer(t *testing.T) {
	t.Parallel()
	root := repoRoot(t)
	dir := filepath.Join(root, "arena", "internal", "zzunplaced")
	findings := analyzeWith(t, root, map[string]string{filepath.Join(dir, "zzunplaced.go"): "// Package zzunplaced is new.\npackage zzunplaced\n"})
	want := "arena/internal/zzunplaced: arena/internal/zzunplaced is in no layer"
	if !slices.ContainsFunc(findings, func(f string) bool { return strings.HasPrefix(f, want) }) {
		t.Errorf("no PACKAGE_HAS_LAYER finding %q; archlint finds:\n%s", want, strings.Join(findings, "\n"))
	}
}

// A package that a program outside the module could import is public only on purpose: the
// arena's own packages go under arena/internal/.
func TestNewPublicPackageFails(t *testing.T) {
	t.Parallel()
	root := repoRoot(t)
	for _, rel := range []string{"arena/zzpublic", "arena/wire/zzcodec", "zzpublic"} {
		t.Run(rel, func(t *testing.T) {
			t.Parallel()
			file := filepath.Join(root, rel, "zz.go")
			findings := analyzeWith(t, root, map[string]string{file: "// Package zz is new.\npackage zz\n\n// X is exported.\nvar X int\n"})
			want := rel + ": " + rel + " can be imported from outside the module"
			if !slices.ContainsFunc(findings, func(f string) bool { return strings.HasPrefix(f, want) && strings.HasSuffix(f, "(PUBLIC_API)") }) {
				t.Errorf("no PUBLIC_API finding %q; archlint finds:\n%s", want, strings.Join(findings, "\n"))
			}
		})
	}
	// Under an internal/ folder, or a command: not importable, so not the public API's concern.
	for _, rel := range []string{"arena/internal/zzplaced", "cmd/zztool"} {
		file := filepath.Join(root, rel, "zz.go")
		name := "zz"
		if strings.HasPrefix(rel, "cmd/") {
			name = "main\n\nfunc main() {}"
		}
		findings := analyzeWith(t, root, map[string]string{file: "// Package zz is new.\npackage " + name + "\n"})
		if slices.ContainsFunc(findings, func(f string) bool { return strings.HasSuffix(f, "(PUBLIC_API)") }) {
			t.Errorf("%s: a PUBLIC_API finding for a package no outside program can import:\n%s", rel, strings.Join(findings, "\n"))
		}
	}
}

// An exception that excuses nothing is reported, so the list of exceptions cannot rot.
func TestUnusedExceptionIsReported(t *testing.T) {
	t.Parallel()
	c := newChecker()
	c.exceptions = append(c.exceptions, exception{rule: "LAYER_ORDER", from: m("engine"), to: []string{m("arena/internal/store")}, used: []bool{false}})
	c.staleExceptions("/repo")
	for _, f := range c.findings {
		if f.rule == "EXCEPTION_UNUSED" && strings.Contains(f.msg, "engine → arena/internal/store excuses nothing") {
			return
		}
	}
	t.Errorf("findings %v lack the unused exception", c.findings)
}

func TestTablesAreWellFormed(t *testing.T) {
	t.Parallel()
	seen := map[string]string{}
	for _, l := range layers {
		for _, p := range l.packages {
			if other, dup := seen[p]; dup {
				t.Errorf("pattern %s is in layers %s and %s", p, other, l.name)
			}
			seen[p] = l.name
		}
	}
	rules := map[string]bool{"LAYER_ORDER": true, "THIRD_PARTY": true, "ADAPTERS_APART": true, "PUBLIC_API": true}
	for _, r := range depRules {
		rules[r.id] = true
	}
	for _, r := range useRules {
		rules[r.id] = true
	}
	for _, e := range exceptions {
		if !rules[e.rule] {
			t.Errorf("an exception names rule %s, which does not exist", e.rule)
		}
		if e.why == "" {
			t.Errorf("the exception to %s for %s says not why", e.rule, e.from)
		}
	}
}

func TestMatch(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		pattern, path string
		want          bool
	}{
		{"os", "os", true},
		{"os", "os/exec", false},
		{"os/...", "os", true},
		{"os/...", "os/exec", true},
		{"os/...", "oslo", false},
		{"...", "anything/at/all", true},
		{"layer:core", m("engine"), true},
		{"layer:core", m("bots/sdk"), false}, // the SDK's own pattern is more specific
		{"layer:adapters", m("bots/sdk"), true},
		{"layer:tool", m("arena/internal/store/storetest"), true},
		{"layer:adapters", m("arena/internal/store/memstore"), true},
	} {
		if got := match(tc.pattern, tc.path); got != tc.want {
			t.Errorf("match(%q, %q) = %v, want %v", tc.pattern, tc.path, got, tc.want)
		}
	}
}

// analyzeWith checks the tree for linux as if files (path → content) were in it.
func analyzeWith(t *testing.T, root string, files map[string]string) []string {
	t.Helper()
	tmp := t.TempDir()
	replace := map[string]string{}
	i := 0
	for path, content := range files {
		i++
		src := filepath.Join(tmp, filepath.Base(path)+"-"+string(rune('a'+i)))
		if err := os.WriteFile(src, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		replace[path] = src
	}
	overlay := filepath.Join(tmp, "overlay.json")
	b, err := json.Marshal(map[string]any{"Replace": replace})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(overlay, b, 0o644); err != nil {
		t.Fatal(err)
	}
	findings, err := analyze(root, []string{"linux"}, overlay)
	if err != nil {
		t.Fatal(err)
	}
	// One platform's graph leaves the other platforms' exceptions unused: not this test's concern.
	return slices.DeleteFunc(findings, func(f string) bool { return strings.HasSuffix(f, "(EXCEPTION_UNUSED)") })
}

// packageName is the name the package in dir declares (a folder's name is not always it).
func packageName(t *testing.T, root, dir, fallback string) string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(root, dir))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".go") && !strings.HasSuffix(e.Name(), "_test.go") {
			b, err := os.ReadFile(filepath.Join(root, dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			for _, line := range strings.Split(string(b), "\n") {
				if name, ok := strings.CutPrefix(line, "package "); ok {
					return strings.TrimSpace(name)
				}
			}
		}
	}
	return fallback
}
