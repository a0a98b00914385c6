package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"modernc.org/sqlite"

	"github.com/tapparena/tapp/arena/internal/domain"
)

// The store's own checks and its way back from a damaged database: the database engine's
// check of its pages (IntegrityCheck), and for SQLite an online backup (Backup) and the
// restore of one (Restore). What the arena keeps is checked above the store: every match
// against its manifest and chain, and the aggregates against a recomputation (tapp db check,
// arena/internal/app).

// maxIntegrityLines bounds the findings a check lists: a badly damaged file has thousands.
const maxIntegrityLines = 100

// IntegrityCheck runs the database engine's own check: SQLite's PRAGMA integrity_check (every
// page, row and index, reading the whole file), PostgreSQL's amcheck over the store's indexes
// when that extension is installed, and its page checksums' setting.
func (s *Store) IntegrityCheck(ctx context.Context) (*domain.Integrity, error) {
	if s.dialect == postgresDialect {
		return s.postgresIntegrity(ctx)
	}
	out := &domain.Integrity{Method: "PRAGMA integrity_check"}
	rows, err := s.r.QueryContext(ctx, fmt.Sprintf(`PRAGMA integrity_check(%d)`, maxIntegrityLines))
	if err != nil {
		if isCorrupt(err) {
			return &domain.Integrity{Method: out.Method, Problems: []string{err.Error()}}, nil
		}
		return nil, s.wrap("check the database's integrity", err)
	}
	defer rows.Close()
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return nil, s.wrap("check the database's integrity", err)
		}
		if line != "ok" && line != "*** in database main ***" {
			out.Problems = append(out.Problems, line)
		}
	}
	if err := rows.Err(); err != nil {
		if isCorrupt(err) {
			out.Problems = append(out.Problems, err.Error())
			return out, nil
		}
		return nil, s.wrap("check the database's integrity", err)
	}
	return out, nil
}

func (s *Store) postgresIntegrity(ctx context.Context) (*domain.Integrity, error) {
	const op = "check the database's integrity"
	out := &domain.Integrity{Method: "amcheck (bt_index_check) over the store's indexes"}
	var checksums string
	if err := s.r.QueryRowContext(ctx, `SHOW data_checksums`).Scan(&checksums); err != nil {
		return nil, s.wrap(op, err)
	}
	if checksums != "on" {
		out.Notes = append(out.Notes, "PostgreSQL's page checksums are off (initdb --data-checksums turns them on): a damaged page may read without an error")
	}
	var amcheck bool
	if err := s.r.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'amcheck')`).Scan(&amcheck); err != nil {
		return nil, s.wrap(op, err)
	}
	if !amcheck {
		out.Method = "none"
		out.Notes = append(out.Notes, "PostgreSQL's amcheck extension is not installed in this database (CREATE EXTENSION amcheck, as its owner), "+
			"so its pages were not checked; every row the arena reads was")
		return out, nil
	}
	rows, err := s.r.QueryContext(ctx, `SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
JOIN pg_am a ON a.oid = c.relam WHERE c.relnamespace = current_schema()::regnamespace AND a.amname = 'btree' ORDER BY c.relname`)
	if err != nil {
		return nil, s.wrap(op, err)
	}
	var indexes []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			rows.Close()
			return nil, s.wrap(op, err)
		}
		indexes = append(indexes, name)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, s.wrap(op, err)
	}
	for _, ix := range indexes {
		if _, err := s.r.ExecContext(ctx, `SELECT bt_index_check($1::regclass, true)`, ix); err != nil {
			out.Problems = append(out.Problems, fmt.Sprintf("index %s: %v", ix, err))
		}
	}
	return out, nil
}

// Backup writes a consistent copy of a SQLite store to path through SQLite's online backup
// (the store may be in use: a running league keeps writing), then checks the copy's
// integrity. It refuses to overwrite a file; the copy is written beside path first and takes
// its name only once whole. progress, when set, is told the pages copied of all.
func (s *Store) Backup(ctx context.Context, path string, progress func(done, total int)) error {
	if s.dialect != sqliteDialect {
		return errors.New("store: tapp db backup copies SQLite files; back PostgreSQL up with its own tools (pg_dump --schema …, or base backups)")
	}
	if _, err := os.Stat(path); err == nil {
		return fmt.Errorf("store: %s exists: back up to a new file (nothing is overwritten)", path)
	}
	tmp := path + ".partial"
	os.Remove(tmp)
	if err := s.copyTo(ctx, tmp, progress); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := checkCopy(ctx, tmp); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("store: the backup of %s does not check out (%w): nothing was kept", s.where, err)
	}
	return os.Rename(tmp, path)
}

// backupStep is the pages a backup copies at a time (4 MB of 4-KB pages), so that it shows
// its progress and lets writers in between.
const backupStep = 1024

// copyTo copies the database to a new file at path with the online backup.
func (s *Store) copyTo(ctx context.Context, path string, progress func(done, total int)) error {
	conn, err := s.r.Conn(ctx)
	if err != nil {
		return s.wrap("back up", err)
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		b, ok := dc.(interface {
			NewBackup(string) (*sqlite.Backup, error)
		})
		if !ok {
			return fmt.Errorf("store: the SQLite driver offers no online backup")
		}
		bk, err := b.NewBackup(path)
		if err != nil {
			return s.wrap("back up to "+path, err)
		}
		step, last := int32(backupStep), -1
		for {
			if err := ctx.Err(); err != nil {
				bk.Finish()
				return err
			}
			more, err := bk.Step(step)
			if err != nil {
				bk.Finish()
				return s.wrap("back up to "+path, err)
			}
			total, left := bk.PageCount(), bk.Remaining()
			if progress != nil && total > 0 {
				progress(total-left, total)
			}
			if !more {
				break
			}
			// Another process's write restarts the copy: under a busy league, take the rest
			// in one step (one read transaction, which writers in WAL mode do not wait for).
			if last >= 0 && left > last {
				step = -1
			}
			last = left
		}
		return s.wrap("back up to "+path, bk.Finish())
	})
}

// checkCopy runs a SQLite integrity check on the file at path and checks it is a tapp store.
func checkCopy(ctx context.Context, path string) error {
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		return err
	}
	defer db.Close()
	var res string
	if err := db.QueryRowContext(ctx, `PRAGMA integrity_check(1)`).Scan(&res); err != nil {
		return err
	}
	if res != "ok" {
		return errors.New(res)
	}
	var v sql.NullInt64
	if err := db.QueryRowContext(ctx, `SELECT max(version) FROM schema_migrations`).Scan(&v); err != nil {
		return fmt.Errorf("not a tapp database: %w", err)
	}
	return nil
}

// Restore puts the SQLite backup at from in place of the database at dsn, keeping the
// database there (damaged, say) beside it as "FILE.replaced-YYYYMMDD-HHMMSS" (nothing is
// deleted), and returns that name ("" when there was none). The backup must check out, and no
// process may have the database open (a running arena or league: stop it first).
func Restore(ctx context.Context, dsn, from string) (kept string, err error) {
	d, target, busy, err := parseDSN(dsn)
	if err != nil {
		return "", err
	}
	if d != sqliteDialect {
		return "", errors.New("store: tapp db restore restores SQLite files; restore PostgreSQL with its own tools (pg_restore)")
	}
	if err := checkCopy(ctx, from); err != nil {
		return "", fmt.Errorf("store: the backup %s does not check out: %w", from, err)
	}
	if abs, _ := filepath.Abs(from); abs == mustAbs(target) {
		return "", fmt.Errorf("store: %s is the database itself", from)
	}
	// The new file is made beside the old one, from the backup, then the old one steps aside.
	tmp := target + ".restoring"
	os.Remove(tmp)
	src, err := openSQLiteReadOnly(ctx, from, busy)
	if err != nil {
		return "", err
	}
	err = src.copyTo(ctx, tmp, nil)
	src.Close()
	if err != nil {
		os.Remove(tmp)
		return "", err
	}
	if _, err := os.Stat(target); err == nil {
		if err := notInUse(ctx, target); err != nil {
			os.Remove(tmp)
			return "", err
		}
		kept = target + ".replaced-" + time.Now().Format("20060102-150405")
		for _, suffix := range []string{"", "-wal", "-shm"} {
			if _, err := os.Stat(target + suffix); err == nil {
				if err := os.Rename(target+suffix, kept+suffix); err != nil {
					os.Remove(tmp)
					return "", fmt.Errorf("store: keep %s aside: %w", target+suffix, err)
				}
			}
		}
	}
	if err := os.Rename(tmp, target); err != nil {
		return kept, fmt.Errorf("store: put the restored database in place: %w (the backup is at %s)", err, tmp)
	}
	return kept, nil
}

// notInUse fails when another process holds the SQLite database at path open for writing
// (or reading, in WAL mode: its shared memory is mapped): an exclusive lock is refused.
func notInUse(ctx context.Context, path string) error {
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(0)&_txlock=exclusive")
	if err != nil {
		return err
	}
	defer db.Close()
	tx, err := db.BeginTx(ctx, nil)
	if err == nil {
		return tx.Rollback()
	}
	if isBusy(err) {
		return fmt.Errorf("store: %s is in use by another process (an arena, a league, a dashboard): stop it, then restore", path)
	}
	if isCorrupt(err) {
		return nil // damaged past locking: nothing can be using it
	}
	return fmt.Errorf("store: %s: %w", path, err)
}

func mustAbs(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	return strings.TrimSuffix(abs, string(filepath.Separator))
}
