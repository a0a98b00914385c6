package memstore

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
)

var _ domain.SubmissionStore = (*Memory)(nil)

// submissions keeps the versions of hosted bots in memory.
type submissions struct {
	versions map[string][]domain.Submission // bot → its versions, in order
	sources  map[string][]byte              // digest → archive
}

// AddSubmission implements domain.SubmissionStore.
func (s *Memory) AddSubmission(_ context.Context, sub *domain.Submission, source []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.bots[sub.Bot]; !ok {
		return fmt.Errorf("bot %q: %w", sub.Bot, domain.ErrNotFound)
	}
	if s.subs.versions == nil {
		s.subs = submissions{versions: map[string][]domain.Submission{}, sources: map[string][]byte{}}
	}
	if _, ok := s.subs.sources[sub.Digest]; !ok {
		s.subs.sources[sub.Digest] = slices.Clone(source)
	}
	if sub.Created.IsZero() {
		sub.Created = time.Now().UTC()
	}
	if sub.Format == 0 {
		sub.Format = domain.SourceFormat
	}
	sub.Version = len(s.subs.versions[sub.Bot]) + 1
	sub.Status, sub.Size = domain.SubmissionQueued, int64(len(source))
	s.subs.versions[sub.Bot] = append(s.subs.versions[sub.Bot], *sub)
	return nil
}

// version returns the stored version (0: the latest), or nil.
func (s *Memory) version(bot string, version int) *domain.Submission {
	vs := s.subs.versions[bot]
	if version == 0 {
		version = len(vs)
	}
	if version <= 0 || version > len(vs) {
		return nil
	}
	return &vs[version-1]
}

// Submission implements domain.SubmissionStore.
func (s *Memory) Submission(_ context.Context, bot string, version int) (*domain.Submission, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v := s.version(bot, version)
	if v == nil {
		return nil, fmt.Errorf("no version %d of bot %q: %w", version, bot, domain.ErrNotFound)
	}
	out := *v
	return &out, nil
}

// Submissions implements domain.SubmissionStore.
func (s *Memory) Submissions(_ context.Context, bot string) ([]domain.Submission, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var bots []string
	for b := range s.subs.versions {
		if bot == "" || b == bot {
			bots = append(bots, b)
		}
	}
	slices.Sort(bots)
	var out []domain.Submission
	for _, b := range bots {
		out = append(out, s.subs.versions[b]...)
	}
	return out, nil
}

// SubmissionSource implements domain.SubmissionStore.
func (s *Memory) SubmissionSource(_ context.Context, digest string) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.subs.sources[digest]
	if !ok {
		return nil, fmt.Errorf("source %s: %w", digest, domain.ErrNotFound)
	}
	return slices.Clone(b), nil
}

// SetSubmissionBuild implements domain.SubmissionStore.
func (s *Memory) SetSubmissionBuild(_ context.Context, bot string, version int, status domain.SubmissionStatus, log string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	v := s.version(bot, version)
	if v == nil || version == 0 {
		return fmt.Errorf("version %s: %w", domain.VersionName(bot, version), domain.ErrNotFound)
	}
	v.Status, v.BuildLog = status, log
	if status == domain.SubmissionReady || status == domain.SubmissionFailed {
		v.Built = time.Now().UTC()
	}
	return nil
}

// SetSubmissionGauntlet implements domain.SubmissionStore.
func (s *Memory) SetSubmissionGauntlet(_ context.Context, bot string, version int, verdict string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	v := s.version(bot, version)
	if v == nil || version == 0 {
		return fmt.Errorf("version %s: %w", domain.VersionName(bot, version), domain.ErrNotFound)
	}
	v.Gauntlet = verdict
	return nil
}
