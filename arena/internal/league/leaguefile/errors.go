package leaguefile

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
)

// Error is a mistake in a league file, with the position it points at.
type Error struct {
	File         string
	Line, Column int    // 0 when unknown
	Path         string // the key, e.g. bots[1].builtin
	Msg          string
	Excerpt      string // the lines around the position, with a caret
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	if e.Line > 0 && e.Column > 0 {
		fmt.Fprintf(&b, ":%d", e.Column)
	}
	b.WriteString(": ")
	if e.Path != "" {
		b.WriteString(e.Path + ": ")
	}
	b.WriteString(e.Msg)
	if e.Excerpt != "" {
		b.WriteString("\n" + e.Excerpt)
	}
	return b.String()
}

// wholeNumbers are the settings that take a whole number, by where they are in the file.
var wholeNumbers = map[string]bool{
	"rounds": true, "matches_per_round": true, "deals": true, "seed": true, "concurrency": true,
	"time_control.strikes": true, "bots.capacity": true, "bots.seed": true,
}

// checkWholeNumbers refuses a number with a fraction, or text, where the file wants a whole
// number: the YAML library cuts deals: 1.5 down to 1, and reads deals: "3" as 3, without a
// word. key names where n is with the items of a list under the list's name (wholeNumbers),
// path as errors name it (bots[2].capacity).
func (p *fileChecker) checkWholeNumbers(n ast.Node, key, path string) error {
	switch n := n.(type) {
	case *ast.MappingNode:
		for _, v := range n.Values {
			if err := p.checkWholeNumbers(v, key, path); err != nil {
				return err
			}
		}
	case *ast.MappingValueNode:
		name := n.Key.GetToken().Value
		key, path := key+name, path+name
		if wholeNumbers[key] {
			switch v := n.Value.(type) {
			case *ast.IntegerNode, *ast.NullNode:
			case *ast.FloatNode, *ast.StringNode, *ast.BoolNode, *ast.InfinityNode, *ast.NanNode:
				pos := v.GetToken().Position
				return p.errAt(pos.Line, pos.Column, path, "must be a whole number, not "+v.GetToken().Value)
			}
		}
		return p.checkWholeNumbers(n.Value, key+".", path+".")
	case *ast.SequenceNode:
		for i, item := range n.Values {
			if err := p.checkWholeNumbers(item, key, fmt.Sprintf("%s[%d].", strings.TrimSuffix(path, "."), i)); err != nil {
				return err
			}
		}
	}
	return nil
}

// yamlError turns an error of the YAML library into a Error at its token.
func (p *fileChecker) yamlError(err error) error {
	var pe *posError
	if errors.As(err, &pe) && pe.node.GetToken() != nil {
		pos := pe.node.GetToken().Position
		return p.errAt(pos.Line, pos.Column, "", pe.msg)
	}
	var ye yaml.Error
	if errors.As(err, &ye) && ye.GetToken() != nil {
		pos := ye.GetToken().Position
		return p.errAt(pos.Line, pos.Column, "", plainTypeError(ye.GetMessage()))
	}
	return &Error{File: p.file, Msg: err.Error()}
}

// goTypeError is the YAML library's message for a value of the wrong type, in Go's terms.
var goTypeError = regexp.MustCompile(`^cannot unmarshal (.+) into Go (?:struct field \S+|value) of type (.+)$`)

// plainTypeError says a type error in the league file's terms rather than Go's.
func plainTypeError(msg string) string {
	m := goTypeError.FindStringSubmatch(msg)
	if m == nil {
		return msg
	}
	return fmt.Sprintf("want %s here, not %s", yamlKind(m[2]), yamlKind(m[1]))
}

// yamlKind names a Go type by what it is written as in YAML.
func yamlKind(goType string) string {
	switch {
	case goType == "bool":
		return "true or false"
	case goType == "string":
		return "text"
	case strings.HasPrefix(goType, "[]"):
		return "a list"
	case strings.HasPrefix(goType, "map["):
		return "a mapping (key: value)"
	case strings.HasPrefix(goType, "int"), strings.HasPrefix(goType, "uint"):
		return "a whole number"
	case strings.HasPrefix(goType, "float"):
		return "a number"
	}
	return goType
}

// errf returns an error at the node the path names ($.bots[1].name style, without "$."),
// or at its closest existing parent.
func (p *fileChecker) errf(path, format string, args ...any) error {
	line, col := p.position(path)
	return p.errAt(line, col, path, fmt.Sprintf(format, args...))
}

func (p *fileChecker) position(path string) (int, int) {
	for q := path; ; {
		if yp, err := yaml.PathString("$." + q); err == nil && p.ast != nil {
			if n, err := yp.FilterFile(p.ast); err == nil && n != nil && n.GetToken() != nil {
				pos := n.GetToken().Position
				return pos.Line, pos.Column
			}
		}
		i := strings.LastIndexAny(q, ".[")
		if i <= 0 {
			// Not even the top-level key is there (a setting left out): the top of the league.
			if p.ast != nil && len(p.ast.Docs) > 0 && p.ast.Docs[0].Body != nil && p.ast.Docs[0].Body.GetToken() != nil {
				return p.ast.Docs[0].Body.GetToken().Position.Line, 0
			}
			return 0, 0
		}
		q = q[:i]
	}
}

func (p *fileChecker) errAt(line, col int, path, msg string) error {
	e := &Error{File: p.file, Line: line, Column: col, Path: path, Msg: msg}
	if line > 0 {
		lines := bytes.Split(p.src, []byte("\n"))
		var b strings.Builder
		for i := max(line-2, 1); i <= min(line, len(lines)); i++ {
			mark := "  "
			if i == line {
				mark = "> "
			}
			fmt.Fprintf(&b, "%s%4d | %s\n", mark, i, strings.TrimRight(string(lines[i-1]), "\r"))
		}
		if col > 0 {
			fmt.Fprintf(&b, "%s^", strings.Repeat(" ", 9+col-1))
		}
		e.Excerpt = strings.TrimRight(b.String(), "\n")
	}
	return e
}
