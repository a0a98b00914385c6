package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
)

// pkg is one package of the build graph, as `go list -deps` reports it.
type pkg struct {
	ImportPath string
	Name       string
	Dir        string
	GoFiles    []string
	CgoFiles   []string
	Imports    []string
	Standard   bool
	DepOnly    bool
	Module     *struct{ Path string }
	Error      *struct{ Err string }

	files []*ast.File // parsed GoFiles and CgoFiles (module packages only)
}

// graph is the module's packages and everything they depend on, for one GOOS.
type graph struct {
	goos string
	root string // the module's folder
	fset *token.FileSet
	pkgs map[string]*pkg
	mine []string // the module's own packages, sorted

	deps map[string]map[string]bool // memoized transitive dependencies
}

// load runs `go list -deps` in root for goos, with an optional overlay (see `go help build`),
// and parses the module's own Go files (the overlay's content where it replaces or adds one).
func load(root, goos, overlay string) (*graph, error) {
	args := []string{"list", "-e", "-deps",
		"-json=ImportPath,Name,Dir,GoFiles,CgoFiles,Imports,Standard,DepOnly,Module,Error"}
	replaced := map[string]string{}
	if overlay != "" {
		args = append(args, "-overlay="+overlay)
		b, err := os.ReadFile(overlay)
		if err != nil {
			return nil, err
		}
		var o struct{ Replace map[string]string }
		if err := json.Unmarshal(b, &o); err != nil {
			return nil, fmt.Errorf("overlay %s: %w", overlay, err)
		}
		for from, to := range o.Replace {
			replaced[filepath.Clean(from)] = to
		}
	}
	args = append(args, "./...")
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS="+goos)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list (GOOS=%s): %w\n%s", goos, err, stderr.Bytes())
	}
	g := &graph{goos: goos, root: root, fset: token.NewFileSet(), pkgs: map[string]*pkg{}, deps: map[string]map[string]bool{}}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		p := new(pkg)
		if err := dec.Decode(p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, fmt.Errorf("go list output: %w", err)
		}
		g.pkgs[p.ImportPath] = p
		if p.Module != nil && p.Module.Path == module && !p.DepOnly {
			g.mine = append(g.mine, p.ImportPath)
		}
	}
	slices.Sort(g.mine)
	for _, path := range g.mine {
		p := g.pkgs[path]
		for _, name := range append(slices.Clone(p.GoFiles), p.CgoFiles...) {
			file := filepath.Join(p.Dir, name)
			var src any
			if to, ok := replaced[file]; ok {
				b, err := os.ReadFile(to)
				if err != nil {
					return nil, err
				}
				src = b
			}
			f, err := parser.ParseFile(g.fset, file, src, parser.ParseComments)
			if err != nil {
				return nil, err
			}
			p.files = append(p.files, f)
		}
	}
	return g, nil
}

// depsOf is every package path depends on, itself excluded.
func (g *graph) depsOf(path string) map[string]bool {
	if d, ok := g.deps[path]; ok {
		return d
	}
	d := map[string]bool{}
	g.deps[path] = d // cycles do not occur in Go, but stay safe
	if p := g.pkgs[path]; p != nil {
		for _, imp := range p.Imports {
			d[imp] = true
			for x := range g.depsOf(imp) {
				d[x] = true
			}
		}
	}
	return d
}

// chain is a shortest import path from one package to another (both included).
func (g *graph) chain(from, to string) []string {
	prev := map[string]string{from: ""}
	queue := []string{from}
	for len(queue) > 0 {
		at := queue[0]
		queue = queue[1:]
		if at == to {
			var c []string
			for x := to; x != ""; x = prev[x] {
				c = append(c, x)
			}
			slices.Reverse(c)
			return c
		}
		if p := g.pkgs[at]; p != nil {
			for _, imp := range p.Imports {
				if _, seen := prev[imp]; !seen {
					prev[imp] = at
					queue = append(queue, imp)
				}
			}
		}
	}
	return []string{from, to}
}

// importPos is where a package's file imports path, for a message that points at the line.
func (g *graph) importPos(p *pkg, path string) token.Position {
	for _, f := range p.files {
		for _, spec := range f.Imports {
			if v, err := strconv.Unquote(spec.Path.Value); err == nil && v == path {
				return g.fset.Position(spec.Pos())
			}
		}
	}
	return token.Position{Filename: p.Dir}
}

// importName is the path of an import and the name a file knows it by: its package's name,
// or the name the import gives it.
func (g *graph) importName(spec *ast.ImportSpec) (path, name string, ok bool) {
	path, err := strconv.Unquote(spec.Path.Value)
	if err != nil {
		return "", "", false
	}
	if spec.Name != nil {
		return path, spec.Name.Name, true
	}
	if ip := g.pkgs[path]; ip != nil {
		name = ip.Name
	}
	return path, name, true
}

func (g *graph) isThirdParty(path string) bool {
	p := g.pkgs[path]
	return p != nil && !p.Standard && (p.Module == nil || p.Module.Path != module)
}

func (g *graph) isMine(path string) bool {
	p := g.pkgs[path]
	return p != nil && p.Module != nil && p.Module.Path == module
}
