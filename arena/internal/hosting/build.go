package hosting

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/launch"
	"github.com/tapparena/tapp/arena/internal/sandbox"
)

// BuildLimits bound one build: the Go compiler needs room, a build loop does not get forever.
var BuildLimits = sandbox.Limits{
	Memory: 8 << 30, CPU: 15 * time.Minute, Processes: 512, FileSize: 512 << 20, OpenFiles: 4096,
	Scratch: 1 << 30, Wall: 15 * time.Minute, Output: 1 << 20,
}

// Paths of a build and of a run inside the sandbox.
const (
	srcDir   = "/bot"     // the submission's source, read-only
	outDir   = "/build"   // what its build made: read-write while building, read-only in play
	goRoot   = "/goroot"  // the host's Go toolchain, read-only
	goCache  = "/gocache" // the bot's own Go build cache
	wheelDir = "/wheelhouse"
)

// Builder builds submissions in a sandbox, without the network, into folders under Dir
// (one per version), which Seats then run.
type Builder struct {
	Sandbox sandbox.Sandbox
	Dir     string // the hosting folder: builds/, gocache/
	// GoRoot is the host's Go toolchain (default: found from `go` on PATH).
	GoRoot string
	// Python is the interpreter hosted Python bots run on, with tapp_bot and its
	// dependencies installed (nil: Python submissions fail to build, saying so).
	Python *PythonRuntime
	// Wheelhouse is a folder of wheels Python submissions may install from (their
	// requirements.txt); empty: only the standard library and tapp_bot.
	Wheelhouse string
	Limits     sandbox.Limits // default BuildLimits
	Log        *zap.Logger
	// Tool is the host path of the tapp binary: Go builds run it as their GOCACHEPROG
	// (`tapp __gocacheprog`, arena/internal/hosting/gocache). Empty: a Go build uses a plain
	// build cache of the bot's own and compiles everything itself.
	Tool string
	// GoSDK is the Tapp Arena checkout whose Go SDK (and the modules it pins, from the host's
	// module cache) the arena compiles once into the shared, read-only build cache of every
	// Go build (gowarm.go). Empty: no shared cache; each bot compiles gRPC itself (minutes).
	GoSDK string
	// Progress, when set, is told each line a build prints, as it prints it (the go
	// command's -v names each package it compiles).
	Progress func(version, line string)

	warmMu   sync.Mutex // one warm-up of the shared Go cache at a time
	warmDone bool
	warmDir  string
	warmErr  error
}

// Artifact is a built version, ready to run.
type Artifact struct {
	Sub domain.Submission
	Src string // host folder of the source
	Out string // host folder of the build's output
}

// builtMark is written into Out when a build succeeded: its content is the digest built.
const builtMark = ".tapp-built"

// versionDir is where a version is built.
func (b *Builder) versionDir(sub *domain.Submission) string {
	return filepath.Join(b.Dir, "builds", sub.Bot, fmt.Sprint(sub.Version))
}

// Local returns the artifact of a version built on this host, or false.
func (b *Builder) Local(sub *domain.Submission) (*Artifact, bool) {
	dir := b.versionDir(sub)
	mark, err := os.ReadFile(filepath.Join(dir, "out", builtMark))
	if err != nil || strings.TrimSpace(string(mark)) != sub.Digest {
		return nil, false
	}
	return &Artifact{Sub: *sub, Src: filepath.Join(dir, "src"), Out: filepath.Join(dir, "out")}, true
}

// BuildError is a build that failed for the submission's own reasons (its log says which):
// the version is marked failed.
type BuildError struct {
	Version string
	Log     string
	Err     error
}

func (e *BuildError) Error() string {
	return fmt.Sprintf("the build of %s failed: %v (tapp submissions logs %s shows its log)", e.Version, e.Err, e.Version)
}

// Build builds a version (unless this host has it built already), records its status and
// log in the store, and returns the artifact. A build that fails is a *BuildError and the
// version is marked failed; an error of the arena's own (no sandbox, a full disk) leaves the
// version queued for a later try.
func (b *Builder) Build(ctx context.Context, st Store, sub *domain.Submission) (*Artifact, error) {
	if a, ok := b.Local(sub); ok {
		return a, nil
	}
	if b.Log == nil {
		b.Log = zap.NewNop()
	}
	log := b.Log.With(zap.String("version", sub.Name()))
	source, err := st.SubmissionSource(ctx, sub.Digest)
	if err != nil {
		return nil, err
	}
	if err := st.SetSubmissionBuild(ctx, sub.Bot, sub.Version, domain.SubmissionBuilding, ""); err != nil {
		return nil, err
	}
	requeue := func(err error) error {
		_ = st.SetSubmissionBuild(context.WithoutCancel(ctx), sub.Bot, sub.Version, domain.SubmissionQueued, "")
		return err
	}
	dir := b.versionDir(sub)
	if err := os.RemoveAll(dir); err != nil {
		return nil, requeue(err)
	}
	a := &Artifact{Sub: *sub, Src: filepath.Join(dir, "src"), Out: filepath.Join(dir, "out")}
	if err := Unpack(source, a.Src); err != nil {
		return nil, requeue(fmt.Errorf("unpacking %s: %w", sub.Name(), err))
	}
	if err := b.ownedDir(a.Out); err != nil {
		return nil, requeue(err)
	}
	spec, note, err := b.buildSpec(ctx, sub, a)
	if ctx.Err() != nil {
		return nil, requeue(ctx.Err())
	}
	var out []byte
	if err == nil {
		log.Info("building", zap.String("lang", sub.Lang), zap.String("sandbox", b.Sandbox.Name()))
		if note != "" {
			b.progress(sub.Name(), strings.TrimSpace(note))
		}
		out, err = b.run(ctx, spec, sub.Name())
	}
	text := note + strings.ToValidUTF8(string(out), "?")
	if err != nil {
		if ctx.Err() != nil {
			return nil, requeue(ctx.Err())
		}
		text += "\nbuild failed: " + err.Error() + "\n"
		if serr := st.SetSubmissionBuild(context.WithoutCancel(ctx), sub.Bot, sub.Version, domain.SubmissionFailed, text); serr != nil {
			return nil, serr
		}
		sub.Status, sub.BuildLog = domain.SubmissionFailed, text
		log.Warn("build failed", zap.Error(err))
		return nil, &BuildError{Version: sub.Name(), Log: text, Err: err}
	}
	if err := os.WriteFile(filepath.Join(a.Out, builtMark), []byte(sub.Digest+"\n"), 0o644); err != nil {
		return nil, requeue(err)
	}
	if err := st.SetSubmissionBuild(ctx, sub.Bot, sub.Version, domain.SubmissionReady, text); err != nil {
		return nil, err
	}
	sub.Status, sub.BuildLog = domain.SubmissionReady, text
	a.Sub = *sub
	log.Info("built")
	return a, nil
}

// ownedDir makes a folder the sandbox's user may write.
func (b *Builder) ownedDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		return err
	}
	if u := b.Sandbox.User(); u != nil {
		return os.Chown(dir, int(u.UID), int(u.GID))
	}
	return nil
}

// run runs a build to its end and returns what it printed.
func (b *Builder) run(ctx context.Context, spec sandbox.Spec, name string) ([]byte, error) {
	ls, err := b.Sandbox.Launch(spec)
	if err != nil {
		return nil, err
	}
	out := &lineWriter{line: func(line string) { b.progress(name, line) }}
	ls.Name, ls.Once, ls.Output = "build "+name, true, out
	p, err := launch.Start(ctx, ls, b.Log)
	if err != nil {
		return nil, err
	}
	select {
	case <-p.Done():
	case <-ctx.Done():
		p.Stop()
		return out.Bytes(), ctx.Err()
	}
	return out.Bytes(), p.Err()
}

// progress passes a line of a build to Progress and the debug log.
func (b *Builder) progress(version, line string) {
	if b.Log != nil {
		b.Log.Debug("build output", zap.String("version", version), zap.String("line", line))
	}
	if b.Progress != nil {
		b.Progress(version, line)
	}
}

// lineWriter keeps what a build prints and hands each whole line on as it comes; the
// launcher writes stdout and stderr from two goroutines.
type lineWriter struct {
	mu      sync.Mutex
	all     bytes.Buffer
	partial []byte
	line    func(string)
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.all.Write(p)
	w.partial = append(w.partial, p...)
	for {
		i := bytes.IndexByte(w.partial, '\n')
		if i < 0 {
			break
		}
		w.line(strings.ToValidUTF8(string(w.partial[:i]), "?"))
		w.partial = w.partial[i+1:]
	}
	if len(w.partial) > 4096 { // a line without end is still shown
		w.line(strings.ToValidUTF8(string(w.partial), "?"))
		w.partial = nil
	}
	return len(p), nil
}

func (w *lineWriter) Bytes() []byte {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.partial) > 0 {
		w.line(strings.ToValidUTF8(string(w.partial), "?"))
		w.partial = nil
	}
	return bytes.Clone(w.all.Bytes())
}

func (b *Builder) limits() sandbox.Limits {
	if b.Limits == (sandbox.Limits{}) {
		return BuildLimits
	}
	return b.Limits
}

// baseEnv is every sandboxed program's environment besides its own.
var baseEnv = []string{"HOME=" + sandbox.Scratch, "TMPDIR=" + sandbox.Scratch, "PATH=/usr/bin:/bin", "LANG=C.UTF-8"}

// buildSpec is the sandbox spec of a build, and a note for its log (a Go build without the
// shared cache says why).
func (b *Builder) buildSpec(ctx context.Context, sub *domain.Submission, a *Artifact) (sandbox.Spec, string, error) {
	mounts := []sandbox.Mount{{Source: a.Src, Target: srcDir}, {Source: a.Out, Target: outDir, Writable: true}}
	switch sub.Lang {
	case Go:
		root, err := b.goRoot()
		if err != nil {
			return sandbox.Spec{}, "", err
		}
		cache := filepath.Join(b.Dir, "gocache", sub.Bot) // the bot's own: no other author's build can plant entries in it
		if err := b.ownedDir(cache); err != nil {
			return sandbox.Spec{}, "", err
		}
		if b.Tool == "" {
			spec, err := b.goSpec(a, root, cache, "")
			return spec, "", err
		}
		shared, err := b.sharedGoCache(ctx, root)
		note := ""
		if err != nil {
			b.Log.Warn("no shared Go build cache", zap.Error(err))
			note = goCacheNote(err)
		}
		spec, err := b.goSpec(a, root, cache, shared)
		return spec, note, err
	case Python:
		if b.Python == nil {
			return sandbox.Spec{}, "", errors.New("this arena hosts no Python bots: the organiser has not named a Python environment with tapp_bot (--python)")
		}
		reqs, err := requirements(a.Src)
		if err != nil {
			return sandbox.Spec{}, "", err
		}
		if reqs != "" && b.Wheelhouse == "" {
			return sandbox.Spec{}, "", fmt.Errorf("requirements.txt asks for %s, but this arena has no wheelhouse: only the standard library and tapp_bot are installed (ask the organiser to add the wheels)",
				strings.ReplaceAll(reqs, "\n", ", "))
		}
		if b.Wheelhouse != "" {
			mounts = append(mounts, sandbox.Mount{Source: b.Wheelhouse, Target: wheelDir})
		}
		mounts = append(mounts, b.Python.mounts()...)
		env := append([]string{"TAPP_REQUIREMENTS=" + reqs, "PYTHONDONTWRITEBYTECODE=1", "PYTHONNOUSERSITE=1",
			"PIP_NO_INDEX=1", "PIP_DISABLE_PIP_VERSION_CHECK=1", "PIP_NO_CACHE_DIR=1"}, baseEnv...)
		return sandbox.Spec{Command: []string{b.Python.Executable, "-c", pythonBuild}, Env: env, Dir: srcDir, Mounts: mounts,
			Limits: b.limits()}, "", nil
	}
	return sandbox.Spec{}, "", fmt.Errorf("unknown language %q", sub.Lang)
}

// goSpec is the sandboxed `go build` of a module: offline, vendored only, the bot's cache
// (host folder cache) writable, the shared layer (host folder shared, when not empty)
// read-only. The warm-up of the shared layer runs this very spec, so that the go command
// computes the same action ids for the SDK's packages in both.
func (b *Builder) goSpec(a *Artifact, root, cache, shared string) (sandbox.Spec, error) {
	mounts := []sandbox.Mount{{Source: a.Src, Target: srcDir}, {Source: a.Out, Target: outDir, Writable: true},
		{Source: root, Target: goRoot}, {Source: cache, Target: goCache, Writable: true}}
	pkg := a.Sub.Entry
	if pkg == "" || pkg == "." {
		pkg = "."
	} else {
		pkg = "./" + strings.TrimPrefix(pkg, "./")
	}
	env := append([]string{"GOROOT=" + goRoot, "GOPATH=/tmp/go", "GOMODCACHE=/tmp/go/mod",
		"GOPROXY=off", "GOSUMDB=off", "GOFLAGS=-mod=vendor", "GOWORK=off", "CGO_ENABLED=0", "GOTOOLCHAIN=local",
		"GOTELEMETRY=off", "GOENV=off", "GOMAXPROCS=2"}, baseEnv...)
	env = append(env, "PATH="+goRoot+"/bin:/usr/bin:/bin")
	tool, err := b.tool()
	if err != nil {
		return sandbox.Spec{}, err
	}
	if tool != "" {
		mounts = append(mounts, sandbox.Mount{Source: tool, Target: toolPath})
		if shared != "" {
			mounts = append(mounts, sandbox.Mount{Source: shared, Target: sharedCache})
		}
		env = append(env, "GOCACHE="+diskCache, "GOCACHEPROG="+cacheProg(shared != ""))
	} else {
		env = append(env, "GOCACHE="+goCache)
	}
	return sandbox.Spec{Command: []string{goRoot + "/bin/go", "build", "-v", "-mod=vendor", "-trimpath", "-buildvcs=false", "-o", outDir + "/bot", pkg},
		Env: env, Dir: srcDir, Mounts: mounts, Limits: b.limits()}, nil
}

// tool is the copy of Tool in the hosting folder, where the sandbox's user reaches it.
func (b *Builder) tool() (string, error) {
	if b.Tool == "" {
		return "", nil
	}
	if err := os.MkdirAll(filepath.Join(b.Dir, "tools"), 0o755); err != nil {
		return "", err
	}
	return sandbox.CopyExecutable(b.Tool, filepath.Join(b.Dir, "tools", "tapp"))
}

// pythonBuild checks every file compiles, installs the requirements from the wheelhouse into
// the build's site folder, and imports tapp_bot the way the bot will.
const pythonBuild = `
import os, pathlib, subprocess, sys
bad = 0
for p in sorted(pathlib.Path("` + srcDir + `").rglob("*.py")):
    try:
        compile(p.read_bytes(), str(p), "exec")
    except (SyntaxError, ValueError) as e:
        print(f"{p.relative_to('` + srcDir + `')}:{getattr(e, 'lineno', '?')}: {e.__class__.__name__}: {getattr(e, 'msg', e)}")
        bad += 1
site = "` + outDir + `/site"
os.makedirs(site, exist_ok=True)
reqs = os.environ.get("TAPP_REQUIREMENTS", "").strip()
if reqs and not bad:
    with open("/tmp/requirements.txt", "w") as f:
        f.write(reqs + "\n")
    print("installing from the wheelhouse:", ", ".join(reqs.split()), flush=True)
    r = subprocess.run([sys.executable, "-m", "pip", "install", "--no-index", "--find-links", "` + wheelDir + `",
                        "--target", site, "--no-compile", "-r", "/tmp/requirements.txt"])
    bad += r.returncode != 0
sys.path[:0] = [site, "` + srcDir + `"]
import tapp_bot
print(f"python {sys.version.split()[0]}, tapp_bot from the arena")
sys.exit(1 if bad else 0)
`

// requirements reads requirements.txt of a Python source, without the lines that name the
// SDK (tapp_bot, tapp-bot, or a path to the arena's bots/python): the arena provides it.
func requirements(src string) (string, error) {
	b, err := os.ReadFile(filepath.Join(src, "requirements.txt"))
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	var keep []string
	for _, line := range strings.Split(string(b), "\n") {
		t := strings.TrimSpace(line)
		if i := strings.Index(t, "#"); i >= 0 {
			t = strings.TrimSpace(t[:i])
		}
		name := strings.ToLower(t)
		switch {
		case t == "":
		case strings.HasPrefix(name, "tapp_bot"), strings.HasPrefix(name, "tapp-bot"),
			strings.HasSuffix(strings.TrimRight(name, "/"), "bots/python"),
			// tapp new bot copies the SDK into third_party/tapp-bot; the arena installs its own.
			path.Base(strings.TrimRight(name, "/")) == "tapp-bot", path.Base(strings.TrimRight(name, "/")) == "tapp_bot":
		default:
			keep = append(keep, t)
		}
	}
	return strings.Join(keep, "\n"), nil
}

// goRoot is the host's Go toolchain.
func (b *Builder) goRoot() (string, error) {
	if b.GoRoot != "" {
		return b.GoRoot, nil
	}
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		p := filepath.Join(dir, "go")
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			real, err := filepath.EvalSymlinks(p)
			if err != nil {
				return "", err
			}
			b.GoRoot = filepath.Dir(filepath.Dir(real))
			return b.GoRoot, nil
		}
	}
	return "", errors.New("no Go toolchain on PATH: this arena cannot build Go bots")
}
