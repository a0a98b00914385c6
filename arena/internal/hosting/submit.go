// Package hosting is Tapp Arena's hosted bots: an author submits a Go or Python bot's source
// (Submit, with the bot's token), the arena builds it without the network in a sandbox
// (Builder), runs each version in a sandbox of its own that reaches the arena only through a
// Unix socket handed to it (Seats), and keeps a standing ladder in which every new version
// first plays an SPRT gauntlet against the version before it (Ladder). The sandboxes are
// arena/internal/sandbox's; the processes are started by arena/internal/launch only.
package hosting

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/server"
)

// The languages a submission may be written in.
const (
	Go     = "go"
	Python = "python"
)

// Langs lists them.
var Langs = []string{Go, Python}

// Store is what hosted bots need from storage: the arena's store with the submissions.
type Store interface {
	domain.Store
	domain.SubmissionStore
}

// DefaultPythonEntry is the file a Python submission runs unless it names another (the
// starter's).
const DefaultPythonEntry = "bot.py"

// Request is one version an author submits.
type Request struct {
	Bot    string // the registered bot's name
	Token  string // the bot's token: only its holder submits versions of it
	Lang   string // Go or Python
	Entry  string // python: the file to run (default bot.py); go: the package to build (default .)
	Source []byte // the canonical archive (Pack)
}

// Submit checks the request and stores the new version, queued for its build. The token
// must be the bot's own (domain.ErrForbidden otherwise); the source must be a project of its
// language, a Go module with its dependencies vendored or a Python entry file
// (domain.ErrInvalid otherwise).
func Submit(ctx context.Context, st Store, r Request) (*domain.Submission, error) {
	if r.Token == "" {
		return nil, fmt.Errorf("%w: give the bot's token (--token or TAPP_TOKEN, as `tapp bots add %s` printed it)", domain.ErrForbidden, r.Bot)
	}
	holder, err := st.BotByTokenHash(ctx, server.HashToken(r.Token))
	if errors.Is(err, domain.ErrNotFound) || (err == nil && holder.Name != r.Bot) {
		return nil, fmt.Errorf("%w: that token is not bot %s's: only its token holder submits versions of it", domain.ErrForbidden, r.Bot)
	}
	if err != nil {
		return nil, err
	}
	entry, err := checkSource(r.Lang, r.Entry, r.Source)
	if err != nil {
		return nil, fmt.Errorf("%w submission: %w", domain.ErrInvalid, err)
	}
	sub := &domain.Submission{Bot: r.Bot, Lang: r.Lang, Entry: entry, Digest: Digest(r.Source)}
	if err := st.AddSubmission(ctx, sub, r.Source); err != nil {
		return nil, err
	}
	return sub, nil
}

// checkSource checks that the archive is a project of lang and returns its entry.
func checkSource(lang, entry string, archive []byte) (string, error) {
	files, err := filesOf(archive)
	if err != nil {
		return "", fmt.Errorf("the source is not an archive of the arena's format: %w", err)
	}
	has := map[string][]byte{}
	for _, f := range files {
		has[f.name] = f.data
	}
	switch lang {
	case Go:
		if entry == "" {
			entry = "."
		}
		entry = path.Clean(entry)
		if strings.HasPrefix(entry, "..") || path.IsAbs(entry) {
			return "", fmt.Errorf("the package to build, %s, is outside the module", entry)
		}
		mod, ok := has["go.mod"]
		if !ok {
			return "", errors.New("a Go submission is a module: go.mod is missing at the top of the folder")
		}
		if !bytes.Contains(mod, []byte("\nmodule ")) && !bytes.HasPrefix(mod, []byte("module ")) {
			return "", errors.New("go.mod names no module")
		}
		if _, ok := has["vendor/modules.txt"]; !ok {
			return "", errors.New("the arena builds without the network: vendor the module's dependencies first (`go mod vendor` in the bot's folder, which copies the SDK and its dependencies into vendor/)")
		}
		return entry, nil
	case Python:
		if entry == "" {
			entry = DefaultPythonEntry
		}
		entry = path.Clean(entry)
		if _, ok := has[entry]; !ok {
			return "", fmt.Errorf("the entry file %s is not in the source (name another with --entry)", entry)
		}
		return entry, nil
	}
	return "", fmt.Errorf("unknown language %q (one of %s)", lang, strings.Join(Langs, ", "))
}

// SubmitArchive is Submit of a source uploaded as an archive in memory (a .tar.gz, .tgz,
// .tar or .zip: format names which, as a file's extension would), packed anew as Pack packs
// a file; an archive that is not one is the caller's mistake (domain.ErrInvalid).
func SubmitArchive(ctx context.Context, st Store, r Request, archive []byte, format string) (*domain.Submission, error) {
	source, err := PackArchive(archive, format)
	if err != nil {
		return nil, fmt.Errorf("%w upload: %w", domain.ErrInvalid, err)
	}
	r.Source = source
	return Submit(ctx, st, r)
}
