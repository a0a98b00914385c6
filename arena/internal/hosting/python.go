package hosting

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/tapparena/tapp/arena/internal/launch"
	"github.com/tapparena/tapp/arena/internal/sandbox"
)

// PythonRuntime is the interpreter hosted Python bots run on, and the folders it needs: its
// installation, its site-packages with tapp_bot, grpcio and protobuf. They are bound into
// every Python sandbox read-only, each at its own path (a virtual environment finds itself
// there).
type PythonRuntime struct {
	Executable string
	Version    string
	Paths      []string
}

// probePython prints what FindPython needs, from the organiser's (trusted) interpreter.
const probePython = `
import json, os, sys
import tapp_bot, grpc, google.protobuf
paths = {sys.prefix, sys.base_prefix, sys.exec_prefix, os.path.dirname(os.path.dirname(os.path.abspath(tapp_bot.__file__)))}
paths.update(p for p in sys.path if p and os.path.isdir(p))
print(json.dumps({"executable": sys.executable, "version": sys.version.split()[0], "paths": sorted(paths)}))
`

// FindPython asks the interpreter python (a path, or a name on PATH) where it lives and
// checks that it has tapp_bot; the folders it names are what a Python sandbox binds.
func FindPython(ctx context.Context, python string) (*PythonRuntime, error) {
	var out bytes.Buffer
	// The probe runs in an empty folder: the current one would join sys.path.
	dir, err := os.MkdirTemp("", "tapp-python-probe-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	p, err := launch.Start(ctx, launch.Spec{Name: "python probe", Command: []string{python, "-c", probePython}, Dir: dir, Once: true, Output: &out}, nil)
	if err != nil {
		return nil, fmt.Errorf("python %s: %w", python, err)
	}
	select {
	case <-p.Done():
	case <-time.After(time.Minute):
		p.Stop()
	}
	if err := p.Err(); err != nil {
		return nil, fmt.Errorf("%s cannot import tapp_bot (install the SDK into it: pip install bots/python): %w\n%s", python, err, out.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	var rt PythonRuntime
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &rt); err != nil {
		return nil, fmt.Errorf("python %s: %w", python, err)
	}
	rt.Paths = slices.DeleteFunc(rt.Paths, func(p string) bool {
		// Under /usr is bound already; the root or the probe's folder would show too much.
		return p == "/" || p == dir || strings.HasPrefix(p, "/usr/") || p == "/usr" || !filepath.IsAbs(p)
	})
	rt.Paths = outermost(rt.Paths)
	return &rt, nil
}

// outermost drops the paths inside another of them.
func outermost(paths []string) []string {
	slices.Sort(paths)
	var out []string
	for _, p := range paths {
		if len(out) > 0 && strings.HasPrefix(p, out[len(out)-1]+"/") {
			continue
		}
		out = append(out, p)
	}
	return out
}

// mounts binds the runtime's folders at their own paths, read-only.
func (r *PythonRuntime) mounts() []sandbox.Mount {
	var out []sandbox.Mount
	for _, p := range r.Paths {
		out = append(out, sandbox.Mount{Source: p, Target: p})
	}
	return out
}

// Reachable checks that the sandbox's unprivileged user can reach every folder of the
// runtime: a Python under /root (pyenv's, say) cannot serve hosted bots.
func (r *PythonRuntime) Reachable() error {
	for _, p := range r.Paths {
		if err := sandbox.Reachable(p); err != nil {
			return fmt.Errorf("the Python runtime %s: %w", r.Executable, err)
		}
	}
	return nil
}
