package main

import (
	"fmt"
	"go/ast"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
)

const module = "github.com/tapparena/tapp"

// m makes a pattern of the module's packages from a path inside it: m("engine/...").
func m(rel string) string { return module + "/" + rel }

// layerPackages is a pattern matching every package of a layer.
func layerPackages(name string) string { return "layer:" + name }

type layer struct {
	name       string
	why        string
	packages   []string // patterns; a package is in the layer of its most specific pattern
	apart      bool     // its packages do not depend on one another, unless an exception says so
	thirdParty []string // nil: any third-party import; otherwise only these (direct imports)
}

// depRule denies dependencies to the packages of its scope.
type depRule struct {
	id         string
	why        string
	scope      []string // the packages the rule holds for (nil: all of the module's)
	except     []string // packages of the scope it does not hold for
	exceptMain bool     // nor for commands (package main)
	deny       []string // patterns of packages they must not depend on
	direct     bool     // at their own imports only, not through other packages
}

// useRule denies uses of identifiers: "fmt.Println", "golang.org/x/sys/unix.Exec", "print".
type useRule struct {
	id         string
	why        string
	scope      []string
	except     []string
	exceptMain bool
	deny       []string
}

// publicPackage is a pattern of packages that programs outside the module may import.
type publicPackage struct {
	pattern string
	exports []string // when set, the only exported identifiers its packages declare
	why     string
}

type exception struct {
	rule  string
	from  string   // the package excused (a pattern)
	to    []string // what it may depend on or use (patterns); each must still be needed
	why   string
	until string // a debt: what removes it
	used  []bool // per pattern of to
}

type finding struct {
	pos  token.Position
	rule string
	msg  string
}

// match reports whether path matches pattern: an exact path, "x/..." (x and below),
// "..." (anything) or "layer:NAME".
func match(pattern, path string) bool {
	switch {
	case pattern == "...":
		return true
	case strings.HasPrefix(pattern, "layer:"):
		l, _ := layerOf(path)
		return l != nil && l.name == strings.TrimPrefix(pattern, "layer:")
	case strings.HasSuffix(pattern, "/..."):
		base := strings.TrimSuffix(pattern, "/...")
		return path == base || strings.HasPrefix(path, base+"/")
	}
	return pattern == path
}

func matchAny(patterns []string, path string) bool {
	return slices.ContainsFunc(patterns, func(p string) bool { return match(p, path) })
}

// layerOf is the layer of one of the module's packages, and the pattern that put it there
// (the most specific one: the longest).
func layerOf(path string) (*layer, string) {
	var best *layer
	var bestPattern string
	for i := range layers {
		for _, p := range layers[i].packages {
			if match(p, path) && len(p) > len(bestPattern) {
				best, bestPattern = &layers[i], p
			}
		}
	}
	return best, bestPattern
}

func rank(l *layer) int {
	for i := range layers {
		if &layers[i] == l {
			return i
		}
	}
	return -1
}

func layerNames() string {
	var names []string
	for _, l := range layers {
		names = append(names, l.name)
	}
	return strings.Join(names, " < ")
}

// checker runs every rule over graphs and keeps the findings, once each.
type checker struct {
	findings   map[string]finding
	exceptions []exception // a copy of the table, marked as they are used
}

func newChecker() *checker {
	c := &checker{findings: map[string]finding{}, exceptions: slices.Clone(exceptions)}
	for i := range c.exceptions {
		c.exceptions[i].used = make([]bool, len(c.exceptions[i].to))
	}
	return c
}

func (c *checker) report(f finding) {
	key := fmt.Sprintf("%s:%d: %s (%s)", f.pos.Filename, f.pos.Line, f.msg, f.rule)
	if _, dup := c.findings[key]; !dup {
		c.findings[key] = f
	}
}

// excused reports whether an exception lets from depend on (or use) to under rule, and marks
// the exception used.
func (c *checker) excused(rule, from, to string) bool {
	for i := range c.exceptions {
		e := &c.exceptions[i]
		if e.rule != rule || !match(e.from, from) {
			continue
		}
		for j, pattern := range e.to {
			if match(pattern, to) {
				e.used[j] = true
				return true
			}
		}
	}
	return false
}

func short(path string) string { return strings.TrimPrefix(path, module+"/") }

func shortChain(c []string) string {
	var s []string
	for _, p := range c {
		s = append(s, short(p))
	}
	return strings.Join(s, " → ")
}

func inScope(scope, except []string, exceptMain bool, p *pkg) bool {
	if scope != nil && !matchAny(scope, p.ImportPath) {
		return false
	}
	if matchAny(except, p.ImportPath) {
		return false
	}
	return !exceptMain || p.Name != "main"
}

func (c *checker) check(g *graph) {
	for _, path := range g.mine {
		p := g.pkgs[path]
		if p.Error != nil {
			c.report(finding{token.Position{Filename: p.Dir}, "GO_LIST", "go list: " + p.Error.Err})
			continue
		}
		c.checkPublic(g, p)
		l, component := layerOf(path)
		if l == nil {
			c.report(finding{token.Position{Filename: p.Dir}, "PACKAGE_HAS_LAYER",
				fmt.Sprintf("%s is in no layer: add it to one in scripts/archlint/rules.go (and a line to docs/ARCHITECTURE.md)", short(path))})
			continue
		}
		c.checkLayers(g, p, l, component)
		for _, r := range depRules {
			if inScope(r.scope, r.except, r.exceptMain, p) {
				c.checkDeps(g, p, r)
			}
		}
		for _, r := range useRules {
			if inScope(r.scope, r.except, r.exceptMain, p) {
				c.checkUses(g, p, r)
			}
		}
	}
}

// isInternal reports whether Go keeps path to its module: it has an "internal" element.
func isInternal(path string) bool {
	return slices.Contains(strings.Split(path, "/"), "internal")
}

// publicOf is the most specific entry of publicAPI that path matches, nil for none.
func publicOf(path string) *publicPackage {
	var best *publicPackage
	for i := range publicAPI {
		if match(publicAPI[i].pattern, path) && (best == nil || len(publicAPI[i].pattern) > len(best.pattern)) {
			best = &publicAPI[i]
		}
	}
	return best
}

// checkPublic: PUBLIC_API for a package that an outside program can import (not internal,
// not a command, not tests only) but the public API does not list, for an identifier a
// public package with a fixed list of exports declares beyond it, and for an exported
// declaration of a public package that names an internal package's type.
func (c *checker) checkPublic(g *graph, p *pkg) {
	if isInternal(p.ImportPath) || p.Name == "main" || len(p.files) == 0 {
		return
	}
	pub := publicOf(p.ImportPath)
	if pub == nil {
		c.report(finding{token.Position{Filename: p.Dir}, "PUBLIC_API", fmt.Sprintf(
			"%s can be imported from outside the module, but the public API is only %s: move it under arena/internal/",
			short(p.ImportPath), publicNames())})
		return
	}
	for _, f := range p.files {
		internal := map[string]string{} // the name a file gives an internal import → its path
		for _, spec := range f.Imports {
			if path, name, ok := g.importName(spec); ok && isInternal(path) {
				internal[name] = path
			}
		}
		for _, id := range exportedDecls(f) {
			if pub.exports != nil && !slices.Contains(pub.exports, id.name.Name) && id.topLevel {
				c.report(finding{g.fset.Position(id.name.Pos()), "PUBLIC_API", fmt.Sprintf(
					"%s exports %s: its API is %s only (%s)", short(p.ImportPath), id.name.Name, strings.Join(pub.exports, ", "), pub.why)})
			}
			for _, n := range id.types {
				c.internalTypes(g, p, id.name.Name, internal, n)
			}
		}
	}
}

// internalTypes reports the selectors of internal imports in n, part of the exported
// declaration named decl; of a struct, only the exported and embedded fields are API.
func (c *checker) internalTypes(g *graph, p *pkg, decl string, internal map[string]string, n ast.Node) {
	ast.Inspect(n, func(n ast.Node) bool {
		if st, ok := n.(*ast.StructType); ok {
			for _, fld := range st.Fields.List {
				if len(fld.Names) == 0 || slices.ContainsFunc(fld.Names, func(x *ast.Ident) bool { return x.IsExported() }) {
					c.internalTypes(g, p, decl, internal, fld.Type)
				}
			}
			return false
		}
		return c.internalType(g, p, decl, internal, n)
	})
}

// internalType reports a selector of an internal import met in the exported declaration
// named decl; it returns whether to look further in n.
func (c *checker) internalType(g *graph, p *pkg, decl string, internal map[string]string, n ast.Node) bool {
	sel, ok := n.(*ast.SelectorExpr)
	if !ok {
		return true
	}
	if x, ok := sel.X.(*ast.Ident); ok && x.Obj == nil {
		if path, ok := internal[x.Name]; ok {
			c.report(finding{g.fset.Position(sel.Pos()), "PUBLIC_API", fmt.Sprintf(
				"%s's exported %s names %s.%s: a public package's API names no internal package (%s)",
				short(p.ImportPath), decl, short(path), sel.Sel.Name, publicNames())})
		}
	}
	return false
}

func publicNames() string {
	var names []string
	for _, pub := range publicAPI {
		names = append(names, short(pub.pattern))
	}
	return strings.Join(names, ", ")
}

// exported is one exported declaration of a file: its name, whether it is top-level (not a
// method), and the type expressions an importer sees through it.
type exported struct {
	name     *ast.Ident
	topLevel bool
	types    []ast.Node
}

// exportedDecls lists a file's exported functions, methods of exported types, types,
// variables and constants.
func exportedDecls(f *ast.File) []exported {
	var out []exported
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() {
				continue
			}
			if d.Recv != nil {
				if r := receiverName(d.Recv.List[0].Type); r == nil || !r.IsExported() {
					continue
				}
			}
			out = append(out, exported{name: d.Name, topLevel: d.Recv == nil, types: []ast.Node{d.Type}})
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					if s.Name.IsExported() {
						e := exported{name: s.Name, topLevel: true, types: []ast.Node{s.Type}}
						if s.TypeParams != nil {
							e.types = append(e.types, s.TypeParams)
						}
						out = append(out, e)
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.IsExported() {
							e := exported{name: n, topLevel: true}
							if s.Type != nil {
								e.types = []ast.Node{s.Type}
							}
							out = append(out, e)
						}
					}
				}
			}
		}
	}
	return out
}

// receiverName is the type name of a method's receiver (T, *T, T[P], *T[P]).
func receiverName(e ast.Expr) *ast.Ident {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x
		default:
			return nil
		}
	}
}

// checkLayers: LAYER_ORDER at each import that climbs (a climb anywhere on a path to a higher
// layer is reported where it happens), THIRD_PARTY at imports outside a layer's list, and
// ADAPTERS_APART on everything an adapter depends on, through any path.
func (c *checker) checkLayers(g *graph, p *pkg, l *layer, component string) {
	for _, imp := range p.Imports {
		switch {
		case g.isMine(imp):
			il, _ := layerOf(imp)
			if il != nil && rank(il) > rank(l) && !c.excused("LAYER_ORDER", p.ImportPath, imp) {
				c.report(finding{g.importPos(p, imp), "LAYER_ORDER", fmt.Sprintf(
					"%s (%s) imports %s (%s): a package depends on its own layer and the layers below only (%s)",
					short(p.ImportPath), l.name, short(imp), il.name, layerNames())})
			}
		case l.thirdParty != nil && g.isThirdParty(imp) && !matchAny(l.thirdParty, imp):
			if c.excused("THIRD_PARTY", p.ImportPath, imp) {
				continue
			}
			allowed := "none"
			if len(l.thirdParty) > 0 {
				allowed = strings.Join(l.thirdParty, ", ")
			}
			c.report(finding{g.importPos(p, imp), "THIRD_PARTY", fmt.Sprintf(
				"%s (%s: %s) imports %s: third-party packages allowed in this layer: %s",
				short(p.ImportPath), l.name, l.why, imp, allowed)})
		}
	}
	if !l.apart {
		return
	}
	deps := sortedKeys(g.depsOf(p.ImportPath))
	for _, d := range deps {
		if !g.isMine(d) {
			continue
		}
		dl, dComponent := layerOf(d)
		if dl != l || dComponent == component || c.excused("ADAPTERS_APART", p.ImportPath, d) {
			continue
		}
		ch := g.chain(p.ImportPath, d)
		c.report(finding{g.importPos(p, ch[1]), "ADAPTERS_APART", fmt.Sprintf(
			"%s depends on %s (%s): adapters do not depend on one another; share through the domain or the codec, or add an exception that says why",
			short(p.ImportPath), short(d), shortChain(ch))})
	}
}

// checkDeps applies one dependency rule to one package. A transitive finding is reported
// where the dependency enters the rule's scope: at the import of a package the rule does not
// hold for (a package it holds for reports its own).
func (c *checker) checkDeps(g *graph, p *pkg, r depRule) {
	for _, imp := range p.Imports {
		var denied []string
		if r.direct {
			if matchAny(r.deny, imp) && !c.excused(r.id, p.ImportPath, imp) {
				denied = []string{imp}
			}
		} else {
			if ip := g.pkgs[imp]; ip != nil && g.isMine(imp) && inScope(r.scope, r.except, r.exceptMain, ip) {
				continue
			}
			for _, d := range append([]string{imp}, sortedKeys(g.depsOf(imp))...) {
				if matchAny(r.deny, d) && !c.excused(r.id, p.ImportPath, d) {
					denied = append(denied, d)
				}
			}
		}
		if len(denied) == 0 {
			continue
		}
		var what string
		if denied[0] == imp {
			what = fmt.Sprintf("%s imports %s", short(p.ImportPath), short(imp))
		} else {
			what = fmt.Sprintf("%s imports %s, which depends on %s (%s)", short(p.ImportPath), short(imp),
				short(denied[0]), shortChain(g.chain(imp, denied[0])))
		}
		if len(denied) > 1 {
			what += fmt.Sprintf(" and %d more denied packages", len(denied)-1)
		}
		c.report(finding{g.importPos(p, imp), r.id, what + ": " + r.why})
	}
}

// checkUses finds the denied identifiers in a package's files: selectors of imported
// packages (however the import is named) and calls of builtins.
func (c *checker) checkUses(g *graph, p *pkg, r useRule) {
	for _, f := range p.files {
		names := map[string]string{} // the name a file gives an import → its path
		for _, spec := range f.Imports {
			path, name, ok := g.importName(spec)
			if !ok {
				continue
			}
			if name == "." && slices.ContainsFunc(r.deny, func(d string) bool { return strings.HasPrefix(d, path+".") }) {
				c.report(finding{g.fset.Position(spec.Pos()), r.id, fmt.Sprintf(
					"%s dot-imports %s, which hides the uses this rule looks for: import it by name", short(p.ImportPath), path)})
			}
			if name != "" && name != "_" && name != "." {
				names[name] = path
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			var key string
			var pos token.Pos
			switch n := n.(type) {
			case *ast.SelectorExpr:
				x, ok := n.X.(*ast.Ident)
				if !ok || x.Obj != nil {
					return true
				}
				path, ok := names[x.Name]
				if !ok {
					return true
				}
				key, pos = path+"."+n.Sel.Name, n.Pos()
			case *ast.CallExpr:
				if id, ok := n.Fun.(*ast.Ident); ok && id.Obj == nil && (id.Name == "print" || id.Name == "println") {
					key, pos = id.Name, n.Pos()
				}
			}
			if key != "" && slices.Contains(r.deny, key) && !c.excused(r.id, p.ImportPath, key) {
				c.report(finding{g.fset.Position(pos), r.id, fmt.Sprintf("%s uses %s: %s", short(p.ImportPath), key, r.why)})
			}
			return true
		})
	}
}

// staleExceptions reports the exceptions that excused nothing on any platform.
func (c *checker) staleExceptions(root string) {
	for _, e := range c.exceptions {
		for j, to := range e.to {
			if e.used[j] {
				continue
			}
			msg := fmt.Sprintf("the exception to %s for %s → %s excuses nothing any more: delete it", e.rule, short(e.from), short(to))
			if e.until != "" {
				msg += " (it waited for: " + e.until + ")"
			}
			c.report(finding{token.Position{Filename: filepath.Join(root, "scripts/archlint/rules.go")}, "EXCEPTION_UNUSED", msg})
		}
	}
}

func sortedKeys(s map[string]bool) []string {
	keys := make([]string, 0, len(s))
	for k := range s {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
