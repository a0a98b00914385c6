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
	spec, err := b.buildSpec(sub, a)
	var out []byte
	if err == nil {
		log.Info("building", zap.String("lang", sub.Lang), zap.String("sandbox", b.Sandbox.Name()))
		out, err = b.run(ctx, spec, sub.Name())
	}
	text := strings.ToValidUTF8(string(out), "?")
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
	var out bytes.Buffer
	ls.Name, ls.Once, ls.Output = "build "+name, true, &out
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

func (b *Builder) limits() sandbox.Limits {
	if b.Limits == (sandbox.Limits{}) {
		return BuildLimits
	}
	return b.Limits
}

// baseEnv is every sandboxed program's environment besides its own.
var baseEnv = []string{"HOME=" + sandbox.Scratch, "TMPDIR=" + sandbox.Scratch, "PATH=/usr/bin:/bin", "LANG=C.UTF-8"}

func (b *Builder) buildSpec(sub *domain.Submission, a *Artifact) (sandbox.Spec, error) {
	mounts := []sandbox.Mount{{Source: a.Src, Target: srcDir}, {Source: a.Out, Target: outDir, Writable: true}}
	switch sub.Lang {
	case Go:
		root, err := b.goRoot()
		if err != nil {
			return sandbox.Spec{}, err
		}
		cache := filepath.Join(b.Dir, "gocache", sub.Bot) // the bot's own: no other author's build can plant entries in it
		if err := b.ownedDir(cache); err != nil {
			return sandbox.Spec{}, err
		}
		mounts = append(mounts, sandbox.Mount{Source: root, Target: goRoot}, sandbox.Mount{Source: cache, Target: goCache, Writable: true})
		pkg := sub.Entry
		if pkg == "" || pkg == "." {
			pkg = "."
		} else {
			pkg = "./" + strings.TrimPrefix(pkg, "./")
		}
		env := append([]string{"GOROOT=" + goRoot, "GOCACHE=" + goCache, "GOPATH=/tmp/go", "GOMODCACHE=/tmp/go/mod",
			"GOPROXY=off", "GOSUMDB=off", "GOFLAGS=-mod=vendor", "GOWORK=off", "CGO_ENABLED=0", "GOTOOLCHAIN=local",
			"GOTELEMETRY=off", "GOENV=off", "GOMAXPROCS=2"}, baseEnv...)
		env = append(env, "PATH="+goRoot+"/bin:/usr/bin:/bin")
		return sandbox.Spec{Command: []string{goRoot + "/bin/go", "build", "-mod=vendor", "-trimpath", "-buildvcs=false", "-o", outDir + "/bot", pkg},
			Env: env, Dir: srcDir, Mounts: mounts, Limits: b.limits()}, nil
	case Python:
		if b.Python == nil {
			return sandbox.Spec{}, errors.New("this arena hosts no Python bots: the organiser has not named a Python environment with tapp_bot (--python)")
		}
		reqs, err := requirements(a.Src)
		if err != nil {
			return sandbox.Spec{}, err
		}
		if reqs != "" && b.Wheelhouse == "" {
			return sandbox.Spec{}, fmt.Errorf("requirements.txt asks for %s, but this arena has no wheelhouse: only the standard library and tapp_bot are installed (ask the organiser to add the wheels)",
				strings.ReplaceAll(reqs, "\n", ", "))
		}
		if b.Wheelhouse != "" {
			mounts = append(mounts, sandbox.Mount{Source: b.Wheelhouse, Target: wheelDir})
		}
		mounts = append(mounts, b.Python.mounts()...)
		env := append([]string{"TAPP_REQUIREMENTS=" + reqs, "PYTHONDONTWRITEBYTECODE=1", "PYTHONNOUSERSITE=1",
			"PIP_NO_INDEX=1", "PIP_DISABLE_PIP_VERSION_CHECK=1", "PIP_NO_CACHE_DIR=1"}, baseEnv...)
		return sandbox.Spec{Command: []string{b.Python.Executable, "-c", pythonBuild}, Env: env, Dir: srcDir, Mounts: mounts,
			Limits: b.limits()}, nil
	}
	return sandbox.Spec{}, fmt.Errorf("unknown language %q", sub.Lang)
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
