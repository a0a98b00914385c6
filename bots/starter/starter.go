// Package starter writes a new bot project that builds, plays at once and passes
// `tapp bot check`: `tapp new bot --lang go|python DIR`. The projects use the SDKs of the
// local Tapp Arena checkout, which are not published: the Go starter's go.mod replaces the
// arena's module by the checkout, the Python starter installs bots/python from it.
package starter

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"text/template"
)

// Module is the arena's Go module path.
const Module = "github.com/tapparena/tapp"

//go:embed templates
var templates embed.FS

// Langs are the languages a starter exists for.
var Langs = []string{"go", "python"}

// Options say what to write.
type Options struct {
	Lang string // "go" or "python"
	Dir  string // the new project's folder: must not exist or be empty
	Name string // the bot's name (default: the folder's name)
	Repo string // the Tapp Arena checkout (absolute; see FindRepo)
}

var validName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]{0,39}$`)

// Write creates the project and returns the files it wrote, relative to Dir.
func Write(o Options) ([]string, error) {
	if o.Lang != "go" && o.Lang != "python" {
		return nil, fmt.Errorf("unknown language %q (one of %s)", o.Lang, strings.Join(Langs, ", "))
	}
	if o.Name == "" {
		o.Name = filepath.Base(filepath.Clean(o.Dir))
	}
	if !validName.MatchString(o.Name) {
		return nil, fmt.Errorf("bot name %q: use a letter, then letters, digits, - or _ (at most 40); name it with --name", o.Name)
	}
	repo, err := filepath.Abs(o.Repo)
	if err != nil {
		return nil, err
	}
	if !IsRepo(repo) {
		return nil, fmt.Errorf("%s is not a Tapp Arena checkout (no go.mod of %s)", repo, Module)
	}
	o.Repo = repo
	if entries, err := os.ReadDir(o.Dir); err == nil && len(entries) > 0 {
		return nil, fmt.Errorf("%s exists and is not empty: choose a new folder", o.Dir)
	}
	if err := os.MkdirAll(o.Dir, 0o755); err != nil {
		return nil, err
	}
	var written []string
	root := "templates/" + o.Lang
	err = fs.WalkDir(templates, root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		text, err := templates.ReadFile(path)
		if err != nil {
			return err
		}
		out, err := render(path, string(text), o)
		if err != nil {
			return err
		}
		rel := strings.TrimSuffix(strings.TrimPrefix(path, root+"/"), ".tmpl")
		if err := os.WriteFile(filepath.Join(o.Dir, rel), out, 0o644); err != nil {
			return err
		}
		written = append(written, rel)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if o.Lang == "go" {
		files, err := writeGoModule(o)
		if err != nil {
			return nil, err
		}
		written = append(written, files...)
	}
	return written, nil
}

func render(name, text string, o Options) ([]byte, error) {
	t, err := template.New(name).Option("missingkey=error").Parse(text)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := t.Execute(&b, o); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// writeGoModule writes go.mod and go.sum: the arena's module replaced by the checkout, and
// the checkout's own requirements and checksums, so that the bot builds at once with the
// versions the arena is tested with (`go mod tidy` later trims what the bot does not use).
func writeGoModule(o Options) ([]string, error) {
	arenaMod, err := os.ReadFile(filepath.Join(o.Repo, "go.mod"))
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "module %s\n\n", o.Name)
	inRequire := false
	var requires []string
	for _, line := range strings.Split(string(arenaMod), "\n") {
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, "go ") || strings.HasPrefix(t, "toolchain "):
			b.WriteString(t + "\n")
		case t == "require (":
			inRequire = true
		case inRequire && t == ")":
			inRequire = false
		case inRequire && t != "":
			requires = append(requires, strings.TrimSuffix(t, " // indirect"))
		case strings.HasPrefix(t, "require "):
			requires = append(requires, strings.TrimPrefix(t, "require "))
		}
	}
	fmt.Fprintf(&b, "\nrequire %s v0.0.0-00010101000000-000000000000\n", Module)
	if len(requires) > 0 {
		b.WriteString("\nrequire (\n")
		for _, r := range requires {
			fmt.Fprintf(&b, "\t%s // indirect\n", r)
		}
		b.WriteString(")\n")
	}
	fmt.Fprintf(&b, "\n// The arena's SDK is not published: use the local checkout (README.md).\nreplace %s => %s\n", Module, o.Repo)
	if err := os.WriteFile(filepath.Join(o.Dir, "go.mod"), []byte(b.String()), 0o644); err != nil {
		return nil, err
	}
	sum, err := os.ReadFile(filepath.Join(o.Repo, "go.sum"))
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(o.Dir, "go.sum"), sum, 0o644); err != nil {
		return nil, err
	}
	return []string{"go.mod", "go.sum"}, nil
}

// IsRepo reports whether dir is a Tapp Arena checkout.
func IsRepo(dir string) bool {
	b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	return err == nil && bytes.HasPrefix(bytes.TrimSpace(b), []byte("module "+Module+"\n"))
}

// FindRepo looks for the checkout in start and its parents.
func FindRepo(start string) (string, error) {
	dir, err := filepath.Abs(start)
	if err != nil {
		return "", err
	}
	for {
		if IsRepo(dir) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no Tapp Arena checkout here or above")
		}
		dir = parent
	}
}
