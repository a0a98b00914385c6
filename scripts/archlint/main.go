// Command archlint checks the arena's architecture on the whole build graph (`go list -deps`):
// every package in a layer, each layer depending only on the layers below, adapters apart,
// a public API of the packages rules.go lists (the rest under internal/), and the team's
// conventions as named rules (no I/O in the engine, SQL in the store only, processes in the
// launcher only, no printing in libraries, ...). The rules are the tables of
// rules.go; docs/ARCHITECTURE.md explains them. `make lint` runs it with the tests that apply
// forbidden changes to an overlay and expect each to fail.
//
//	go run ./scripts/archlint [-goos linux,darwin,windows] [-overlay overlay.json]
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

func main() {
	goos := flag.String("goos", "linux,darwin,windows", "the platforms whose build graphs are checked, comma-separated")
	overlay := flag.String("overlay", "", "a `go build -overlay` file: check the tree as if it replaced or added these files")
	flag.Parse()
	root, err := moduleRoot()
	if err == nil {
		var n int
		n, err = run(os.Stdout, root, strings.Split(*goos, ","), *overlay)
		if err == nil && n > 0 {
			fmt.Fprintf(os.Stderr, "archlint: %d findings (rules: scripts/archlint/rules.go)\n", n)
			os.Exit(1)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "archlint:", err)
		os.Exit(2)
	}
}

// run checks the module in root for each platform and writes the findings to w, one a line,
// relative to root; it returns how many there are.
func run(w io.Writer, root string, goos []string, overlay string) (int, error) {
	findings, err := analyze(root, goos, overlay)
	if err != nil {
		return 0, err
	}
	for _, f := range findings {
		fmt.Fprintln(w, f)
	}
	return len(findings), nil
}

// analyze returns the findings as "file:line:col: message (RULE)", sorted.
func analyze(root string, goos []string, overlay string) ([]string, error) {
	graphs := make([]*graph, len(goos))
	errs := make([]error, len(goos))
	var wg sync.WaitGroup
	for i, os := range goos {
		wg.Go(func() { graphs[i], errs[i] = load(root, os, overlay) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	c := newChecker()
	for _, g := range graphs {
		c.check(g)
	}
	c.staleExceptions(root)
	var lines []string
	for _, f := range c.findings {
		file := f.pos.Filename
		if rel, err := filepath.Rel(root, file); err == nil {
			file = rel
		}
		if f.pos.Line > 0 {
			file = fmt.Sprintf("%s:%d:%d", file, f.pos.Line, f.pos.Column)
		}
		lines = append(lines, fmt.Sprintf("%s: %s (%s)", file, f.msg, f.rule))
	}
	slices.Sort(lines)
	return lines, nil
}

// moduleRoot is the folder of the module's go.mod, from the current folder up.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && strings.HasPrefix(string(b), "module "+module+"\n") || err == nil && strings.Contains(string(b), "\nmodule "+module+"\n") {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod of %s here or above", module)
		}
		dir = parent
	}
}
