package cli

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"go.uber.org/zap"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/hosting"
	"github.com/tapparena/tapp/arena/internal/launch"
	"github.com/tapparena/tapp/arena/internal/sandbox"
	"github.com/tapparena/tapp/bots/starter"
)

// hostingFlags say where and how hosted bots are built and run: shared by tapp submit,
// tapp submissions build, tapp bot check --submission and tapp league run.
type hostingFlags struct {
	sandbox, dir, python, wheelhouse, goSDK string
}

func (f *hostingFlags) register(fs *flag.FlagSet, m *Main) {
	fs.StringVar(&f.sandbox, "sandbox", m.env("TAPP_SANDBOX", ""), "sandbox of hosted bots: runsc, bwrap or none (default: bwrap, then runsc, the strongest present within the latency budget; env TAPP_SANDBOX)")
	fs.StringVar(&f.dir, "hosting-dir", m.env("TAPP_HOSTING_DIR", ""), "folder of hosted bots' builds, caches and sockets (default: tapp-hosting beside the database; env TAPP_HOSTING_DIR)")
	fs.StringVar(&f.python, "python", m.env("TAPP_HOSTED_PYTHON", ""), "the Python interpreter hosted Python bots run on, with tapp_bot installed (env TAPP_HOSTED_PYTHON; docs/hosting.md)")
	fs.StringVar(&f.goSDK, "go-sdk", m.env("TAPP_GO_SDK", ""), "the Tapp Arena checkout whose Go SDK the arena compiles once into hosted Go builds' shared, read-only build cache (default: the one around the current folder, else around this tapp binary; env TAPP_GO_SDK)")
	fs.StringVar(&f.wheelhouse, "wheelhouse", m.env("TAPP_WHEELHOUSE", ""), "folder of wheels hosted Python bots may install from their requirements.txt (env TAPP_WHEELHOUSE)")
}

// hostingFolder is the hosting folder for a store.
func (f *hostingFlags) hostingFolder(dsn string) (string, error) {
	dir := f.dir
	if dir == "" {
		dir = "tapp-hosting"
		if dsn != "" && !strings.Contains(dsn, "://") && dsn != memoryDSN {
			dir = filepath.Join(filepath.Dir(strings.TrimPrefix(dsn, "sqlite:")), "tapp-hosting")
		}
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	return dir, os.Chmod(dir, 0o755)
}

// hostingParts are what builds and runs hosted bots on this host.
type hostingParts struct {
	dir     string
	sandbox sandbox.Sandbox
	python  *hosting.PythonRuntime
	builder *hosting.Builder
}

// hosting sets up the sandbox, the Python runtime and the builder.
func (m *Main) hosting(ctx context.Context, f *hostingFlags, dsn string) (*hostingParts, error) {
	dir, err := f.hostingFolder(dsn)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Join(dir, "sandbox"), 0o755); err != nil {
		return nil, err
	}
	sb, err := sandbox.New(f.sandbox, sandbox.Options{Work: filepath.Join(dir, "sandbox"), Confine: m.Executable})
	if err != nil {
		return nil, usagef("%v", err)
	}
	p := &hostingParts{dir: dir, sandbox: sb}
	if f.python != "" {
		if p.python, err = hosting.FindPython(ctx, f.python); err != nil {
			return nil, err
		}
		if sb.User() != nil {
			if err := p.python.Reachable(); err != nil {
				return nil, err
			}
		}
	}
	wheels := f.wheelhouse
	if wheels != "" {
		if wheels, err = filepath.Abs(wheels); err != nil {
			return nil, err
		}
	}
	goSDK := f.goSDK
	if goSDK == "" {
		goSDK, _ = m.findRepo() // none: Go builds compile the SDK's modules themselves, and their logs say so
	} else if !starter.IsRepo(goSDK) {
		return nil, usagef("--go-sdk %s: not a Tapp Arena checkout (no go.mod of %s)", goSDK, starter.Module)
	}
	p.builder = &hosting.Builder{Sandbox: sb, Dir: dir, Python: p.python, Wheelhouse: wheels, Log: m.Log.Named("build"),
		Tool: m.Executable, GoSDK: goSDK, Progress: func(version, line string) { fmt.Fprintf(m.Stdout, "  %s | %s\n", version, line) }}
	m.Log.Debug("hosting", zap.String("sandbox", sb.Name()), zap.String("dir", dir))
	return p, nil
}

// hostedCheck prepares `tapp bot check --submission`: the version built (here, if this host
// has not yet) and a starter of it in its sandbox; done closes its socket.
func (m *Main) hostedCheck(ctx context.Context, version, dsn string, hf *hostingFlags) (
	start func(ctx context.Context, arena string, env []string, stderr string) (*launch.Process, error), done func(), err error) {
	bot, v, ok := domain.ParseVersionName(version)
	if !ok {
		return nil, nil, usagef("--submission %q: name a version as NAME@V or NAME@latest", version)
	}
	st, err := m.openExistingStore(ctx, dsn)
	if err != nil {
		return nil, nil, err
	}
	defer st.Close()
	sub, err := st.Submission(ctx, bot, v)
	if err != nil {
		return nil, nil, err
	}
	parts, err := m.hosting(ctx, hf, dsn)
	if err != nil {
		return nil, nil, err
	}
	a, err := parts.builder.Build(ctx, st, sub)
	if err != nil {
		return nil, nil, err
	}
	seats := &hosting.Seats{Sandbox: parts.sandbox, Python: parts.python, Dir: parts.dir}
	fmt.Fprintf(m.Stdout, "checking %s in the %s sandbox\n", sub.Name(), parts.sandbox.Name())
	return func(ctx context.Context, arena string, env []string, stderr string) (*launch.Process, error) {
		return seats.StartChecked(ctx, a, arena, env, stderr)
	}, seats.Close, nil
}
