package docs_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/tapparena/tapp"

// modulePackages lists the module's Go packages, relative to it ("engine", "arena/internal/cli").
func modulePackages(t *testing.T, root string) []string {
	t.Helper()
	cmd := exec.Command("go", "list", "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []string
	for _, p := range strings.Fields(string(out)) {
		pkgs = append(pkgs, strings.TrimPrefix(strings.TrimPrefix(p, module), "/"))
	}
	return pkgs
}

// packagesTable is the paths that the first column of ARCHITECTURE.md's package table names.
func packagesTable(t *testing.T, doc string) []string {
	t.Helper()
	var named []string
	for _, row := range tableRows(section(t, doc, "packages")) {
		named = append(named, codes(row[0])...)
	}
	if len(named) == 0 {
		t.Fatal("the packages table of ARCHITECTURE.md names nothing")
	}
	return named
}

// pathLike is a backticked span that names a place in the repository.
var pathLike = regexp.MustCompile(`^(arena|bots|engine|proto|cmd|docs|scripts|tools)(/[A-Za-z0-9_.*/-]*)?$`)

// ARCHITECTURE.md is checked against the code: every package of the module has its line in
// the table (a line that names a folder without Go code, such as proto, covers the packages
// below it), and everything the document names in the repository exists.
func TestArchitectureNamesEveryPackage(t *testing.T) {
	t.Parallel()
	root := repoRoot(t)
	doc := readDoc(t, filepath.Join(root, "docs", "ARCHITECTURE.md"))
	pkgs := modulePackages(t, root)
	named := packagesTable(t, doc)
	covered := func(p string) bool {
		for _, n := range named {
			if p == n || !slices.Contains(pkgs, n) && strings.HasPrefix(p, n+"/") {
				return true
			}
		}
		return false
	}
	for _, p := range pkgs {
		if !covered(p) {
			t.Errorf("package %s has no line in the table of docs/ARCHITECTURE.md", p)
		}
	}
	for _, n := range named {
		if _, err := os.Stat(filepath.Join(root, n)); err != nil {
			t.Errorf("the table of docs/ARCHITECTURE.md names %s, which does not exist", n)
		}
	}
	for _, span := range codes(doc) {
		span = strings.TrimSuffix(strings.Fields(span + " ")[0], ".")
		if !pathLike.MatchString(span) {
			continue
		}
		path := strings.TrimSuffix(span, "/...")
		if matches, err := filepath.Glob(filepath.Join(root, path)); err != nil || len(matches) == 0 {
			t.Errorf("docs/ARCHITECTURE.md names `%s`, which does not exist", span)
		}
	}
}

// The check above finds what it is for.
func TestArchitectureCheckFindsMissingAndUnknownPackages(t *testing.T) {
	t.Parallel()
	doc := "<!-- packages -->\n| package | what |\n|---|---|\n| `engine`, `bots/gone` | x |\n<!-- end packages -->\n"
	named := packagesTable(t, doc)
	if !slices.Equal(named, []string{"engine", "bots/gone"}) {
		t.Errorf("names %q, want engine and bots/gone", named)
	}
	if _, err := os.Stat(filepath.Join(repoRoot(t), "bots/gone")); err == nil {
		t.Error("bots/gone exists")
	}
	if !pathLike.MatchString("arena/internal/server/sdk_*_test.go") || pathLike.MatchString("domain.Store") {
		t.Error("pathLike does not tell paths from identifiers")
	}
}
