package store

import (
	"context"
	"errors"
	"fmt"
	"syscall"

	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"
)

// Errors the store reports beside domain.ErrNotFound and domain.ErrConflict; test with errors.Is.
var (
	// ErrLocked: another process held the SQLite database locked for longer than the busy
	// timeout.
	ErrLocked = errors.New("database is locked by another process")
	// ErrDiskFull: the disk (or the database's size limit) is full; the write was rolled back.
	ErrDiskFull = errors.New("disk full")
	// ErrSchemaTooNew: the database was migrated by a newer build of tapp.
	ErrSchemaTooNew = errors.New("database schema is newer than this build of tapp")
	// ErrCorrupt: the database is damaged: SQLite met a malformed page (or PostgreSQL corrupt
	// data), or a row contradicts what the store wrote. Nothing read from it is trusted: the
	// error names the way back (tapp db check, tapp db restore).
	ErrCorrupt = errors.New("the database is damaged")
)

// SQLite primary result codes (https://sqlite.org/rescode.html) and the extended codes of
// the constraint violations that mean "this row already exists".
const (
	sqliteBusy                 = 5
	sqliteReadOnly             = 8
	sqliteCorrupt              = 11
	sqliteFull                 = 13
	sqliteNotADB               = 26
	sqliteConstraintPrimaryKey = 1555
	sqliteConstraintUnique     = 2067
)

// PostgreSQL SQLSTATE codes.
const (
	pgUniqueViolation     = "23505"
	pgDiskFull            = "53100"
	pgDeadlock            = "40P01"
	pgSerialization       = "40001"
	pgDataCorrupted       = "XX001"
	pgReadOnlyTransaction = "25006"
	pgIndexCorrupted      = "XX002"
)

func sqliteCode(err error) (int, bool) {
	var e *sqlite.Error
	if errors.As(err, &e) {
		return e.Code(), true
	}
	return 0, false
}

func pgCode(err error) string {
	var e *pgconn.PgError
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// isBusy reports a SQLite lock held by someone else beyond the busy timeout.
func isBusy(err error) bool {
	code, ok := sqliteCode(err)
	return ok && code&0xff == sqliteBusy
}

// isDiskFull reports a full disk on either backend (or SQLite's max_page_count reached).
func isDiskFull(err error) bool {
	if errors.Is(err, syscall.ENOSPC) {
		return true
	}
	if code, ok := sqliteCode(err); ok {
		return code&0xff == sqliteFull
	}
	return pgCode(err) == pgDiskFull
}

// isCorrupt reports a damaged database: SQLite's SQLITE_CORRUPT or SQLITE_NOTADB (a page, or
// the file's header, is not what SQLite wrote), PostgreSQL's data or index corruption.
func isCorrupt(err error) bool {
	if code, ok := sqliteCode(err); ok {
		return code&0xff == sqliteCorrupt || code&0xff == sqliteNotADB
	}
	c := pgCode(err)
	return c == pgDataCorrupted || c == pgIndexCorrupted
}

// damaged wraps an error from reading what the store wrote — a stored value that does not
// parse, a record that does not decode — as ErrCorrupt: the database changed under the
// store (a damaged page SQLite read without noticing, a hand edit). A driver's own error
// (a lock, a cancelled read) is wrapped as wrap does.
func (s *Store) damaged(op string, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ErrCorrupt), errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err
	}
	if _, ok := sqliteCode(err); ok || pgCode(err) != "" {
		return s.wrap(op, err)
	}
	return fmt.Errorf("%w: %s: %s: %w; %s", ErrCorrupt, s.where, op, err, s.corruptHelp())
}

// isReadOnly reports a write refused because the connection or the database is read-only.
func isReadOnly(err error) bool {
	if code, ok := sqliteCode(err); ok {
		return code&0xff == sqliteReadOnly
	}
	return pgCode(err) == pgReadOnlyTransaction
}

// corruptHelp is the way back from a damaged database, for its error.
func (s *Store) corruptHelp() string {
	if s.dialect == postgresDialect {
		return "check it with `tapp db check`, and restore PostgreSQL's last backup (pg_restore) or repair it (the PostgreSQL manual, \"Corruption\")"
	}
	return fmt.Sprintf("nothing read from it is trusted: see what is damaged with `tapp db check --db %s`, "+
		"and restore the last backup with `tapp db restore BACKUP --db %s` (backups: `tapp db backup`)", s.where, s.where)
}

// isUniqueViolation reports an insert that hit a primary key or unique constraint.
func isUniqueViolation(err error) bool {
	if code, ok := sqliteCode(err); ok {
		return code == sqliteConstraintPrimaryKey || code == sqliteConstraintUnique
	}
	return pgCode(err) == pgUniqueViolation
}

// wrap turns a driver error into a store error that says plainly what happened; op says
// what the store was doing ("create bot x").
func (s *Store) wrap(op string, err error) error {
	switch {
	case err == nil:
		return nil
	case isBusy(err):
		return fmt.Errorf("%w: %s: %s: %w", ErrLocked, s.where, op, err)
	case isDiskFull(err):
		return fmt.Errorf("%w while %s (%s): %w", ErrDiskFull, op, s.where, err)
	case isCorrupt(err):
		return fmt.Errorf("%w: %s: %s: %w; %s", ErrCorrupt, s.where, op, err, s.corruptHelp())
	case s.readOnly && isReadOnly(err):
		return fmt.Errorf("store: %s (%s): this command opened the store read-only: %w", op, s.where, err)
	}
	return fmt.Errorf("store: %s (%s): %w", op, s.where, err)
}

// wrapSave is wrap for SaveDeal, whose failures all leave nothing stored.
func (s *Store) wrapSave(matchID string, number int, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ErrLocked), errors.Is(err, ErrDiskFull), errors.Is(err, ErrCorrupt):
		return err
	case isCorrupt(err):
		return fmt.Errorf("%w: %s: saving deal %d of match %s: nothing was stored: %w; %s", ErrCorrupt, s.where, number, matchID, err, s.corruptHelp())
	case isBusy(err):
		return fmt.Errorf("%w: %s: saving deal %d of match %s: nothing was stored: %w",
			ErrLocked, s.where, number, matchID, err)
	case isDiskFull(err):
		return fmt.Errorf("%w while saving deal %d of match %s: nothing was stored (%s): %w",
			ErrDiskFull, number, matchID, s.where, err)
	}
	return fmt.Errorf("store: saving deal %d of match %s: nothing was stored (%s): %w", number, matchID, s.where, err)
}
