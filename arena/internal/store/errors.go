package store

import (
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
)

// SQLite primary result codes (https://sqlite.org/rescode.html) and the extended codes of
// the constraint violations that mean "this row already exists".
const (
	sqliteBusy                 = 5
	sqliteFull                 = 13
	sqliteConstraintPrimaryKey = 1555
	sqliteConstraintUnique     = 2067
)

// PostgreSQL SQLSTATE codes.
const (
	pgUniqueViolation = "23505"
	pgDiskFull        = "53100"
	pgDeadlock        = "40P01"
	pgSerialization   = "40001"
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
	}
	return fmt.Errorf("store: %s (%s): %w", op, s.where, err)
}

// wrapSave is wrap for SaveDeal, whose failures all leave nothing stored.
func (s *Store) wrapSave(matchID string, number int, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ErrLocked), errors.Is(err, ErrDiskFull):
		return err
	case isBusy(err):
		return fmt.Errorf("%w: %s: saving deal %d of match %s: nothing was stored: %w",
			ErrLocked, s.where, number, matchID, err)
	case isDiskFull(err):
		return fmt.Errorf("%w while saving deal %d of match %s: nothing was stored (%s): %w",
			ErrDiskFull, number, matchID, s.where, err)
	}
	return fmt.Errorf("store: saving deal %d of match %s: nothing was stored (%s): %w", number, matchID, s.where, err)
}
