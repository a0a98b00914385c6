package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
)

var _ domain.SubmissionStore = (*Store)(nil)

// AddSubmission implements domain.SubmissionStore: the source once per digest, the version
// numbered one above the bot's last, in one transaction (retried when another host took the
// same number at the same moment).
func (s *Store) AddSubmission(ctx context.Context, sub *domain.Submission, source []byte) error {
	if _, err := s.BotByName(ctx, sub.Bot); err != nil {
		return err
	}
	if sub.Created.IsZero() {
		sub.Created = now()
	}
	sub.Created = sub.Created.UTC().Truncate(time.Microsecond)
	sub.Status, sub.Size = domain.SubmissionQueued, int64(len(source))
	if sub.Format == 0 {
		sub.Format = domain.SourceFormat
	}
	op := fmt.Sprintf("add a version of bot %q", sub.Bot)
	for attempt := 0; ; attempt++ {
		err := s.addSubmission(ctx, sub, source)
		// A unique violation means another caller stored the number first, so each retry
		// follows someone's success: a caller retries at most once per concurrent submitter.
		if err == nil || !isUniqueViolation(err) || attempt == 100 {
			return s.wrap(op, err)
		}
	}
}

func (s *Store) addSubmission(ctx context.Context, sub *domain.Submission, source []byte) error {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }()
	if _, err := tx.ExecContext(ctx, s.rebind(`INSERT INTO submission_sources (digest, data) VALUES (?, ?) ON CONFLICT DO NOTHING`),
		sub.Digest, source); err != nil {
		return err
	}
	var last int
	if err := tx.QueryRowContext(ctx, s.rebind(`SELECT COALESCE(MAX(version), 0) FROM submissions WHERE bot = ?`), sub.Bot).Scan(&last); err != nil {
		return err
	}
	sub.Version = last + 1
	if _, err := tx.ExecContext(ctx, s.rebind(`INSERT INTO submissions (bot, version, lang, entry, digest, size, format, status, created)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		sub.Bot, sub.Version, sub.Lang, sub.Entry, sub.Digest, sub.Size, sub.Format, string(sub.Status), s.timeArg(sub.Created)); err != nil {
		return err
	}
	return tx.Commit()
}

const submissionColumns = `bot, version, lang, entry, digest, size, format, status, build_log, created, built, gauntlet`

func scanSubmission(row interface{ Scan(...any) error }) (domain.Submission, error) {
	var sub domain.Submission
	var status string
	var created, built dbTime
	err := row.Scan(&sub.Bot, &sub.Version, &sub.Lang, &sub.Entry, &sub.Digest, &sub.Size, &sub.Format, &status, &sub.BuildLog,
		&created, &built, &sub.Gauntlet)
	sub.Status, sub.Created, sub.Built = domain.SubmissionStatus(status), created.T, built.T
	return sub, err
}

// Submission implements domain.SubmissionStore.
func (s *Store) Submission(ctx context.Context, bot string, version int) (*domain.Submission, error) {
	q, args := `SELECT `+submissionColumns+` FROM submissions WHERE bot = ? AND version = ?`, []any{bot, version}
	if version == 0 {
		q, args = `SELECT `+submissionColumns+` FROM submissions WHERE bot = ? ORDER BY version DESC LIMIT 1`, []any{bot}
	}
	sub, err := scanSubmission(s.r.QueryRowContext(ctx, s.rebind(q), args...))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("no version %s: %w", versionText(bot, version), domain.ErrNotFound)
	}
	if err != nil {
		return nil, s.wrap("read version "+versionText(bot, version), err)
	}
	return &sub, nil
}

func versionText(bot string, version int) string {
	if version == 0 {
		return bot + "@latest"
	}
	return domain.VersionName(bot, version)
}

// Submissions implements domain.SubmissionStore.
func (s *Store) Submissions(ctx context.Context, bot string) ([]domain.Submission, error) {
	q, args := `SELECT `+submissionColumns+` FROM submissions ORDER BY bot, version`, []any(nil)
	if bot != "" {
		q, args = `SELECT `+submissionColumns+` FROM submissions WHERE bot = ? ORDER BY version`, []any{bot}
	}
	rows, err := s.r.QueryContext(ctx, s.rebind(q), args...)
	if err != nil {
		return nil, s.wrap("list submissions", err)
	}
	defer rows.Close()
	var out []domain.Submission
	for rows.Next() {
		sub, err := scanSubmission(rows)
		if err != nil {
			return nil, s.wrap("list submissions", err)
		}
		out = append(out, sub)
	}
	return out, s.wrap("list submissions", rows.Err())
}

// SubmissionSource implements domain.SubmissionStore.
func (s *Store) SubmissionSource(ctx context.Context, digest string) ([]byte, error) {
	var data []byte
	err := s.r.QueryRowContext(ctx, s.rebind(`SELECT data FROM submission_sources WHERE digest = ?`), digest).Scan(&data)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("source %s: %w", digest, domain.ErrNotFound)
	}
	return data, s.wrap("read source "+digest, err)
}

// SetSubmissionBuild implements domain.SubmissionStore.
func (s *Store) SetSubmissionBuild(ctx context.Context, bot string, version int, status domain.SubmissionStatus, log string) error {
	var built any
	if status == domain.SubmissionReady || status == domain.SubmissionFailed {
		built = s.timeArg(now())
	}
	return s.updateSubmission(ctx, bot, version, `status = ?, build_log = ?, built = ?`, string(status), log, built)
}

// SetSubmissionGauntlet implements domain.SubmissionStore.
func (s *Store) SetSubmissionGauntlet(ctx context.Context, bot string, version int, verdict string) error {
	return s.updateSubmission(ctx, bot, version, `gauntlet = ?`, verdict)
}

func (s *Store) updateSubmission(ctx context.Context, bot string, version int, set string, args ...any) error {
	op := "update version " + domain.VersionName(bot, version)
	res, err := s.w.ExecContext(ctx, s.rebind(`UPDATE submissions SET `+set+` WHERE bot = ? AND version = ?`), append(args, bot, version)...)
	if err != nil {
		return s.wrap(op, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return s.wrap(op, err)
	} else if n == 0 {
		return fmt.Errorf("%s: %w", op, domain.ErrNotFound)
	}
	return nil
}
