package domain

import (
	"context"
	"strconv"
	"strings"
	"time"
)

// SubmissionStatus is where a submitted version of a hosted bot stands.
type SubmissionStatus string

// The submission statuses: a version is queued when stored, building while the arena builds
// it in its sandbox, then ready to play or failed (its build log says why). A failed build
// registers nothing that can play.
const (
	SubmissionQueued   SubmissionStatus = "queued"
	SubmissionBuilding SubmissionStatus = "building"
	SubmissionReady    SubmissionStatus = "ready"
	SubmissionFailed   SubmissionStatus = "failed"
)

// The verdicts of a new version's SPRT gauntlet against the version before it.
const (
	GauntletNone      = ""           // not played yet
	GauntletFirst     = "first"      // the bot's first playable version: nothing to compare with
	GauntletStronger  = "stronger"   // H1 accepted: stronger than the previous version
	GauntletNotBetter = "not-better" // H0 accepted
	GauntletUndecided = "undecided"  // the limit of pairs came first
)

// SourceFormat is the version of the stored source's layout (a gzipped tar of the bot's
// project folder, paths relative to it): stored with every submission.
const SourceFormat = 1

// Submission is one version of a hosted bot: source the arena builds and runs in a sandbox.
// It plays as the bot Name(), NAME@VERSION, so the board shows every version apart.
type Submission struct {
	Bot      string           // the registered bot whose token holder submitted it
	Version  int              // 1, 2, … in the order they were submitted
	Lang     string           // "go" or "python"
	Entry    string           // python: the file to run (default bot.py); go: the package built (default .)
	Digest   string           // sha256 of the source archive, hex
	Size     int64            // bytes of the source archive
	Format   int              // SourceFormat of the archive
	Status   SubmissionStatus // queued, building, ready, failed
	BuildLog string           // what the build printed, capped
	Created  time.Time
	Built    time.Time // when the build ended (zero before)
	Gauntlet string    // the verdict of its gauntlet (Gauntlet*)
}

// Name is the name the version plays under: NAME@VERSION.
func (s *Submission) Name() string { return VersionName(s.Bot, s.Version) }

// VersionName is NAME@VERSION.
func VersionName(bot string, version int) string { return bot + "@" + strconv.Itoa(version) }

// ParseVersionName splits NAME@VERSION (or NAME@latest, version 0) into its parts.
func ParseVersionName(s string) (bot string, version int, ok bool) {
	bot, v, found := strings.Cut(s, "@")
	if !found || bot == "" {
		return "", 0, false
	}
	if v == "latest" {
		return bot, 0, true
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		return "", 0, false
	}
	return bot, n, true
}

// SubmissionStore keeps the submitted versions of hosted bots and their sources.
type SubmissionStore interface {
	// AddSubmission stores a new version of s.Bot with its source (archive), numbering it
	// one above the bot's last version; it fills in s.Version and s.Created, and s.Status is
	// SubmissionQueued. The bot must be registered (ErrNotFound otherwise).
	AddSubmission(ctx context.Context, s *Submission, source []byte) error
	// Submission returns one version of a bot (version 0: its latest), or ErrNotFound.
	Submission(ctx context.Context, bot string, version int) (*Submission, error)
	// Submissions lists the versions of a bot ("": of every bot), by bot and version.
	Submissions(ctx context.Context, bot string) ([]Submission, error)
	// SubmissionSource returns the source archive of that digest.
	SubmissionSource(ctx context.Context, digest string) ([]byte, error)
	// SetSubmissionBuild records a build's status and log (and, when it is over, its end).
	SetSubmissionBuild(ctx context.Context, bot string, version int, status SubmissionStatus, log string) error
	// SetSubmissionGauntlet records the verdict of a version's gauntlet.
	SetSubmissionGauntlet(ctx context.Context, bot string, version int, verdict string) error
}
