package docs_test

import (
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// goFileInComment is a Go file a comment points at: with its folder from the repository's
// root (arena/internal/store/record.go), or by its bare name, for a file beside the comment.
var goFileInComment = regexp.MustCompile(`(?:\b(?:arena|bots|engine|proto|cmd|docs|scripts|tools)/(?:[A-Za-z0-9_.-]+/)*)?\b[A-Za-z0-9_]+\.go\b`)

// pathInComment is a file or folder of the repository a comment names (docs/replay.md,
// arena/internal/store); one that names a package's identifier (arena/cli.Main) names the
// package's folder.
var pathInComment = regexp.MustCompile(`\b(?:arena|bots|engine|proto|scripts|docs)/[A-Za-z0-9_/.-]*[A-Za-z0-9_]`)

// A comment that sends the reader to a file sends them to one that exists: every Go file a
// comment of the repository's Go code names (its path from the root, or a bare name beside the
// comment's own file) is there, and so is every folder it names. A file or a package that is
// renamed, moved or split leaves no stale pointer behind.
func TestCommentsNameFilesThatExist(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("git", "ls-files", "--cached", "--others", "--exclude-standard", "*.go")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("git ls-files: %v (not a git checkout)", err)
	}
	checked := 0
	for _, rel := range strings.Fields(string(out)) {
		if strings.HasSuffix(rel, ".pb.go") || strings.Contains(rel, "/third_party/") || strings.Contains(rel, "/templates/") {
			continue // generated code, and copies made for the starters
		}
		if _, err := os.Stat(filepath.Join(root, rel)); err != nil {
			continue // deleted in the work tree, not yet in git
		}
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(root, rel), nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			continue
		}
		for _, group := range f.Comments {
			text := group.Text()
			for _, path := range pathInComment.FindAllString(text, -1) {
				checked++
				if !exists(root, path) && !exists(root, path[:max(strings.LastIndex(path, "."), 0)]) {
					t.Errorf("%s: a comment names %s, which is not there", rel, path)
				}
			}
			for _, name := range goFileInComment.FindAllString(text, -1) {
				if strings.Contains(name, "/") {
					continue // a path from the root: above
				}
				checked++
				if path := filepath.Join(filepath.Dir(rel), name); !exists(root, path) {
					t.Errorf("%s: a comment names %s, which is not beside it (%s)", rel, name, path)
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no comment names a Go file: the pattern finds nothing")
	}
}

// exists reports whether path, from the repository's root, is there ("" is not).
func exists(root, path string) bool {
	if path == "" {
		return false
	}
	_, err := os.Stat(filepath.Join(root, path))
	return err == nil
}
