// Package docs_test checks the documents against the code: the action strings and settlement
// examples of rules.md against the engine, every rule id of the engine and the arena against
// rules.md and protocol.md, every Markdown link of the repository against its files, and the
// bare Python client of protocol.md against a real arena.
package docs_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// repoRoot is the repository (this package is docs/).
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

func readDoc(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// section returns the lines between "<!-- NAME" and "<!-- end NAME -->".
func section(t *testing.T, doc, name string) []string {
	t.Helper()
	start := strings.Index(doc, "<!-- "+name)
	end := strings.Index(doc, "<!-- end "+name+" -->")
	if start < 0 || end < start {
		t.Fatalf("no section %q in the document", name)
	}
	return strings.Split(strings.TrimSpace(doc[start:end]), "\n")[1:]
}

// tableRows returns the cells of a Markdown table's body rows (header and rule skipped).
func tableRows(lines []string) [][]string {
	var rows [][]string
	for i, l := range lines {
		l = strings.TrimSpace(l)
		if !strings.HasPrefix(l, "|") || i < 2 {
			continue
		}
		cells := strings.Split(strings.Trim(l, "|"), "|")
		for j := range cells {
			cells[j] = strings.TrimSpace(cells[j])
		}
		rows = append(rows, cells)
	}
	return rows
}

var backticked = regexp.MustCompile("`([^`]+)`")

// codes returns the `…` spans of a cell.
func codes(cell string) []string {
	var out []string
	for _, m := range backticked.FindAllStringSubmatch(cell, -1) {
		out = append(out, m[1])
	}
	return out
}
