package docs_test

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// Every Markdown file of the repository links only to files of the repository that exist,
// and to anchors that exist in them: a link outside (a folder beside the checkout, a web address) is broken in
// a user's clone or offline. No network is used.
func TestMarkdownLinksStayInTheRepositoryAndResolve(t *testing.T) {
	t.Parallel()
	root := repoRoot(t)
	files := markdownFiles(t, root)
	if len(files) < 5 {
		t.Fatalf("found only %d Markdown files under %s", len(files), root)
	}
	anchors := map[string]map[string]bool{} // file → its anchors, read on demand
	anchorsOf := func(path string) map[string]bool {
		if a, ok := anchors[path]; ok {
			return a
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return nil
		}
		anchors[path] = headingAnchors(string(b))
		return anchors[path]
	}
	checked := 0
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, file)
		for _, l := range links(string(b)) {
			checked++
			if err := checkLink(root, file, l.target, anchorsOf); err != nil {
				t.Errorf("%s:%d: link %q: %v", rel, l.line, l.target, err)
			}
		}
	}
	if checked < 20 {
		t.Errorf("only %d links checked: the link pattern misses links", checked)
	}
}

func TestLinkCheckFindsBrokenLinks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	doc := filepath.Join(dir, "a.md")
	text := "# Title\n\n## Some Section: here\n\n[ok](#some-section-here) [ok](b.md#b) [x](../outside.md) [x](https://example.com)\n" +
		"[x](missing.md) [x](#nowhere) [x](b.md#nope)\n\n```\n[not a link](nowhere.md)\n```\n`[code](nowhere.md)`\n"
	if err := os.WriteFile(doc, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "b.md"), []byte("# B\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	anchorsOf := func(path string) map[string]bool {
		b, _ := os.ReadFile(path)
		return headingAnchors(string(b))
	}
	var broken []string
	for _, l := range links(text) {
		if err := checkLink(dir, doc, l.target, anchorsOf); err != nil {
			broken = append(broken, l.target)
		}
	}
	want := []string{"../outside.md", "https://example.com", "missing.md", "#nowhere", "b.md#nope"}
	if fmt.Sprint(broken) != fmt.Sprint(want) {
		t.Errorf("broken links = %q, want %q", broken, want)
	}
}

// markdownFiles lists the repository's Markdown files, leaving out what is not the project's
// (the virtualenv, git, built binaries).
func markdownFiles(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", ".venv", "bin", "node_modules", ".pytest_cache", "__pycache__":
				return filepath.SkipDir
			}
			if strings.HasSuffix(d.Name(), ".egg-info") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".md") {
			out = append(out, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

type link struct {
	target string
	line   int
}

var (
	inlineLink = regexp.MustCompile(`!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)`)
	refLink    = regexp.MustCompile(`^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$`)
	codeSpan   = regexp.MustCompile("`[^`]*`")
	htmlAnchor = regexp.MustCompile(`<a\s+(?:id|name)="([^"]+)"`)
)

// links returns the link targets of a Markdown text, outside code blocks and code spans.
func links(text string) []link {
	var out []link
	fenced := false
	for i, line := range strings.Split(text, "\n") {
		if t := strings.TrimSpace(line); strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fenced = !fenced
			continue
		}
		if fenced || strings.HasPrefix(line, "    ") && !strings.HasPrefix(strings.TrimSpace(line), "-") {
			continue
		}
		line = codeSpan.ReplaceAllString(line, "")
		for _, m := range inlineLink.FindAllStringSubmatch(line, -1) {
			out = append(out, link{m[1], i + 1})
		}
		if m := refLink.FindStringSubmatch(line); m != nil {
			out = append(out, link{m[1], i + 1})
		}
	}
	return out
}

var scheme = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)

func checkLink(root, from, target string, anchorsOf func(string) map[string]bool) error {
	if scheme.MatchString(target) {
		return fmt.Errorf("points outside the repository (a web address): link to a file of the repository instead")
	}
	path, anchor, _ := strings.Cut(target, "#")
	dest := from
	if path != "" {
		if strings.HasPrefix(path, "/") {
			return fmt.Errorf("an absolute path: use a path relative to the document")
		}
		dest = filepath.Join(filepath.Dir(from), filepath.FromSlash(path))
		if rel, err := filepath.Rel(root, dest); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return fmt.Errorf("points outside the repository (%s): a user's clone does not have it", dest)
		}
		if _, err := os.Stat(dest); err != nil {
			return fmt.Errorf("no such file in the repository")
		}
	}
	if anchor == "" {
		return nil
	}
	if !strings.HasSuffix(dest, ".md") {
		return nil // an anchor into source (#L12) is not checked
	}
	if !anchorsOf(dest)[anchor] {
		return fmt.Errorf("no heading or anchor %q in %s", anchor, filepath.Base(dest))
	}
	return nil
}

// headingAnchors returns the anchors GitHub gives a document's headings (lower case,
// punctuation dropped, spaces as hyphens, repeats numbered), and its explicit <a id> anchors.
func headingAnchors(text string) map[string]bool {
	out := map[string]bool{}
	count := map[string]int{}
	fenced := false
	for _, line := range strings.Split(text, "\n") {
		if t := strings.TrimSpace(line); strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fenced = !fenced
			continue
		}
		for _, m := range htmlAnchor.FindAllStringSubmatch(line, -1) {
			out[m[1]] = true
		}
		if fenced || !strings.HasPrefix(line, "#") {
			continue
		}
		title := strings.TrimSpace(strings.TrimLeft(line, "#"))
		slug := slugify(title)
		if n := count[slug]; n > 0 {
			out[fmt.Sprintf("%s-%d", slug, n)] = true
		} else {
			out[slug] = true
		}
		count[slug]++
	}
	return out
}

func slugify(title string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(title) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}
