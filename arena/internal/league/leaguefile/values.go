package leaguefile

import (
	"fmt"
	"time"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"

	"github.com/tapparena/tapp/arena/internal/launch"
	"github.com/tapparena/tapp/arena/internal/notify"
)

// Duration is a time.Duration written as Go writes it: 500ms, 2s, 1m30s.
type Duration time.Duration

// UnmarshalYAML reads a duration string.
func (d *Duration) UnmarshalYAML(node ast.Node) error {
	s, ok := node.(*ast.StringNode)
	if !ok {
		return &posError{node: node, msg: fmt.Sprintf("want a duration such as 500ms or 2s, not %s", node)}
	}
	v, err := time.ParseDuration(s.Value)
	if err != nil {
		return &posError{node: node, msg: fmt.Sprintf("%q is not a duration (such as 500ms, 2s or 1m30s)", s.Value)}
	}
	*d = Duration(v)
	return nil
}

// posError is an error at a node of the league file.
type posError struct {
	node ast.Node
	msg  string
}

func (e *posError) Error() string { return e.msg }

// Command is a command line: a YAML list of arguments, or one string split as a shell would
// (launch.Split: quotes honoured; no shell runs it).
type Command []string

// UnmarshalYAML reads a list or a string.
func (c *Command) UnmarshalYAML(node ast.Node) error {
	switch n := node.(type) {
	case *ast.SequenceNode:
		var list []string
		if err := yaml.NodeToValue(n, &list); err != nil {
			return err
		}
		*c = list
	case *ast.StringNode:
		argv, env, err := launch.Split(n.Value)
		if err != nil {
			return &posError{node: node, msg: err.Error()}
		}
		if len(env) > 0 {
			return &posError{node: node, msg: fmt.Sprintf("command %q sets environment variables: give them under env", n.Value)}
		}
		*c = argv
	case *ast.NullNode:
		*c = nil
	default:
		return &posError{node: node, msg: fmt.Sprintf("command must be a list of arguments or a string, not %s", node.Type())}
	}
	return nil
}

// Notify is where a league's end is announced (package notify): one target or a list, each
// an http(s):// URL or a command line.
type Notify []string

// UnmarshalYAML reads a string or a list of strings, and checks each target.
func (n *Notify) UnmarshalYAML(node ast.Node) error {
	var list []string
	switch v := node.(type) {
	case *ast.StringNode:
		list = []string{v.Value}
	case *ast.SequenceNode:
		if err := yaml.NodeToValue(v, &list); err != nil {
			return err
		}
	case *ast.NullNode:
	default:
		return &posError{node: node, msg: fmt.Sprintf("notify must be a URL, a command or a list of them, not %s", node.Type())}
	}
	for _, t := range list {
		if err := notify.Check(t); err != nil {
			return &posError{node: node, msg: err.Error()}
		}
	}
	*n = list
	return nil
}
