package hosting

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/hosting/gocache"
	"github.com/tapparena/tapp/arena/internal/launch"
	"github.com/tapparena/tapp/bots/starter"
)

// The shared Go build cache (arena/internal/hosting/gocache): the arena compiles the Go
// starter of its own checkout (`tapp new bot --lang go`, its SDK copy, and the modules its
// go.sum pins, vendored from the host's module cache) once per toolchain and SDK, in the
// sandbox exactly as an author's build runs, and binds the result read-only into every
// author's build. An author's source never enters it: the only input is the organiser's
// checkout and the checksummed modules.

// Paths inside a Go build's sandbox.
const (
	toolPath    = "/run/tapp-tool"   // the tapp binary, which runs gocache.Main
	sharedCache = "/gocache-shared"  // the shared layer, read-only
	ownLayer    = goCache + "/prog"  // the bot's own layer (host: CACHE/prog)
	diskCache   = goCache + "/go"    // GOCACHE: the go command wants a folder even with GOCACHEPROG
	warmName    = "tapp-sdk-warm-up" // the warm-up's module (the starter)
)

// sharedGoCache returns the host folder of the shared layer for this toolchain and SDK,
// compiling it first if this host has not (once per Builder: a failed warm-up is not
// retried until the next process). Empty with a reason: builds go on without it.
func (b *Builder) sharedGoCache(ctx context.Context, root string) (string, error) {
	b.warmMu.Lock()
	defer b.warmMu.Unlock()
	if b.warmDone {
		return b.warmDir, b.warmErr
	}
	b.warmDir, b.warmErr = b.warmGoCache(ctx, root)
	if ctx.Err() == nil { // a stopped warm-up is tried again
		b.warmDone = true
	}
	return b.warmDir, b.warmErr
}

func (b *Builder) warmGoCache(ctx context.Context, root string) (string, error) {
	if b.GoSDK == "" {
		return "", errors.New("the arena was given no Tapp Arena checkout to compile the SDK from (--go-sdk)")
	}
	if b.Tool == "" {
		return "", errors.New("no tapp binary to serve the build cache")
	}
	base := filepath.Join(b.Dir, "gocache-shared")
	if err := os.MkdirAll(base, 0o755); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(base, "warm-")
	if err != nil {
		return "", err
	}
	defer func() { _ = removeTree(tmp) }()
	_ = os.Chmod(tmp, 0o755)
	src := filepath.Join(tmp, "src")
	if _, err := starter.Write(starter.Options{Lang: Go, Dir: src, Name: warmName, Repo: b.GoSDK}); err != nil {
		return "", fmt.Errorf("the Go starter of %s: %w", b.GoSDK, err)
	}
	key, err := warmKey(root, src)
	if err != nil {
		return "", err
	}
	dir := filepath.Join(base, key)
	if fi, err := os.Stat(filepath.Join(dir, builtMark)); err == nil && fi.Mode().IsRegular() {
		return dir, nil
	}
	log := b.Log.With(zap.String("cache", dir))
	log.Info("compiling the shared Go build cache: the SDK and its modules (once per toolchain and SDK; minutes on a busy host)")
	b.progress(warmName, "compiling the arena's shared Go build cache (the SDK, gRPC, protobuf and the standard library they use): once per Go toolchain and SDK")
	started := time.Now()
	if err := b.vendor(ctx, root, src); err != nil {
		return "", err
	}
	out, cache := filepath.Join(tmp, "out"), filepath.Join(tmp, "cache")
	for _, d := range []string{out, cache} {
		if err := b.ownedDir(d); err != nil {
			return "", err
		}
	}
	if err := openTree(src); err != nil {
		return "", err
	}
	// The author's build exactly, but for the layers: what it puts goes into the new
	// shared layer (its own, here), and there is no shared one to read yet.
	a := &Artifact{Sub: domain.Submission{Bot: warmName, Lang: Go}, Src: src, Out: out}
	spec, err := b.goSpec(a, root, cache, "")
	if err != nil {
		return "", err
	}
	text, err := b.run(ctx, spec, warmName)
	if err != nil {
		return "", fmt.Errorf("compiling the shared Go build cache: %w\n%s", err, text)
	}
	layer := filepath.Join(cache, "prog")
	if err := os.WriteFile(filepath.Join(layer, builtMark), []byte(key+"\n"), 0o644); err != nil {
		return "", err
	}
	if err := sealTree(layer); err != nil {
		return "", err
	}
	if err := os.Rename(layer, dir); err != nil && !dirExists(dir) { // another process may have won the race: theirs is as good
		return "", err
	}
	b.dropOtherWarmups(base, key)
	log.Info("shared Go build cache ready", zap.Duration("took", time.Since(started)))
	b.progress(warmName, fmt.Sprintf("the shared Go build cache is ready (%s)", time.Since(started).Round(time.Second)))
	return dir, nil
}

// warmKey names a shared layer: the toolchain's version and every file of the starter the
// layer is compiled from (its SDK copy, go.mod and go.sum pin what is vendored).
func warmKey(root, src string) (string, error) {
	h := sha256.New()
	version, err := os.ReadFile(filepath.Join(root, "VERSION"))
	if err != nil {
		version = []byte(runtime.Version())
	}
	fmt.Fprintf(h, "toolchain %s\n%s\n", root, bytes.TrimSpace(version))
	err = filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		fmt.Fprintf(h, "%s %d\n", rel, len(b))
		h.Write(b)
		return nil
	})
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil))[:24], nil
}

// vendor runs `go mod vendor` in the warm-up's starter, on the host: the organiser's module
// cache (or proxy) serves the modules, and go.sum's checksums vouch for them.
func (b *Builder) vendor(ctx context.Context, root, src string) error {
	goBin := filepath.Join(root, "bin", "go")
	var out bytes.Buffer
	env := []string{"GOFLAGS=-mod=mod", "GOWORK=off", "GOTOOLCHAIN=local", "CGO_ENABLED=0"}
	p, err := launch.Start(ctx, launch.Spec{Name: "go mod vendor (shared Go build cache)", Command: []string{goBin, "mod", "vendor"},
		Env: env, Dir: src, Once: true, Output: &out, Group: true}, b.Log)
	if err != nil {
		return err
	}
	select {
	case <-p.Done():
	case <-ctx.Done():
		p.Stop()
		return ctx.Err()
	}
	if err := p.Err(); err != nil {
		return fmt.Errorf("go mod vendor of the SDK's starter (the host's module cache lacks a module the SDK needs?): %w\n%s", err, out.String())
	}
	return nil
}

// goCacheNote says in a build's log why it compiles everything itself.
func goCacheNote(err error) string {
	return "note: no shared Go build cache (" + strings.SplitN(err.Error(), "\n", 2)[0] +
		"): this build compiles the SDK, gRPC and protobuf itself, which takes minutes\n"
}

// dropOtherWarmups removes the layers of other toolchains and SDKs, and abandoned warm-ups.
func (b *Builder) dropOtherWarmups(base, keep string) {
	entries, _ := os.ReadDir(base)
	for _, e := range entries {
		if e.Name() != keep && !strings.HasPrefix(e.Name(), "warm-") {
			_ = removeTree(filepath.Join(base, e.Name()))
		}
	}
}

// openTree makes a folder readable by everyone (the sandbox's user reads the starter).
func openTree(dir string) error {
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.Chmod(path, 0o755)
		}
		return os.Chmod(path, 0o644)
	})
}

// sealTree makes a finished layer read-only (owned by the arena when it is root): besides
// the read-only bind of every build, its own files say no to a write.
func sealTree(dir string) error {
	uid, gid := os.Getuid(), os.Getgid()
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if uid == 0 {
			if err := os.Lchown(path, uid, gid); err != nil {
				return err
			}
		}
		if d.IsDir() {
			return os.Chmod(path, 0o555)
		}
		return os.Chmod(path, 0o444)
	})
}

// removeTree removes a folder, sealed or not.
func removeTree(dir string) error {
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			_ = os.Chmod(path, 0o755)
		}
		return nil
	})
	return os.RemoveAll(dir)
}

func dirExists(dir string) bool {
	fi, err := os.Stat(dir)
	return err == nil && fi.IsDir()
}

// cacheProg is GOCACHEPROG of a build: the bot's own layer, and the shared one when there is.
func cacheProg(shared bool) string {
	s := toolPath + " " + gocache.Command + " --own " + ownLayer
	if shared {
		s += " --shared " + sharedCache
	}
	return s
}
