package hosting

import (
	"context"
	"fmt"
	"os"

	"github.com/tapparena/tapp/arena/internal/domain"
)

// Version looks a stored version up by its name, NAME@V or NAME@latest; a name of another
// shape is the caller's mistake (domain.ErrInvalid), an unknown version domain.ErrNotFound.
func Version(ctx context.Context, st domain.SubmissionStore, ref string) (*domain.Submission, error) {
	name, v, ok := domain.ParseVersionName(ref)
	if !ok {
		return nil, fmt.Errorf("%w version %q: name a version as NAME@V or NAME@latest", domain.ErrInvalid, ref)
	}
	return st.Submission(ctx, name, v)
}

// Unbuilt lists the versions waiting for their build (queued, or left building by a run
// that stopped), oldest first as the store lists them.
func Unbuilt(ctx context.Context, st domain.SubmissionStore) ([]domain.Submission, error) {
	list, err := st.Submissions(ctx, "")
	if err != nil {
		return nil, err
	}
	var out []domain.Submission
	for _, s := range list {
		if s.Status == domain.SubmissionQueued || s.Status == domain.SubmissionBuilding {
			out = append(out, s)
		}
	}
	return out, nil
}

// RunLog reads a version's run log (its stderr and the arena's lines on it) from a
// league's log folder; it returns the log's path too.
func RunLog(dir string, sub *domain.Submission) ([]byte, string, error) {
	path := LogPath(dir, sub.Name())
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, path, fmt.Errorf("the run log of %s: %w", sub.Name(), err)
	}
	return b, path, nil
}
