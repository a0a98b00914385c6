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
)

// Reading commands (tapp matches, replay, ratings, league status, web, db check) open the
// store read-only: SQLite through read-only connections — on read-only media (a DVD, a
// read-only mount, a backup kept so) with the database opened immutable, since SQLite cannot
// make its shared-memory file there — and PostgreSQL in read-only transactions. Nothing they
// do can change the database, and a database that cannot be written can be read.

// sqliteCantOpen is SQLite's SQLITE_CANTOPEN: what opening a WAL database on read-only media
// gives without immutable.
const sqliteCantOpen = 14

// OpenReadOnly opens an existing store to read it; it never creates one. A database at an
// older schema than this build's is migrated first, as Open would, when it can be written;
// one that cannot be written must be migrated where it can (any writing tapp command, or
// tapp db migrate), and one at a newer schema is ErrSchemaTooNew. Every write through the
// store fails.
func OpenReadOnly(ctx context.Context, dsn string, o Options) (*Store, error) {
	d, target, busy, err := parseDSN(dsn)
	if err != nil {
		return nil, err
	}
	if d == postgresDialect {
		return openPostgresReadOnly(ctx, target, dsn, o)
	}
	if _, err := os.Stat(target); err != nil {
		return nil, fmt.Errorf("store: no database %s: %w", target, err)
	}
	s, err := openSQLiteReadOnly(ctx, target, busy)
	if err != nil {
		return nil, err
	}
	if err := s.readyToRead(ctx, func() error {
		rw, err := OpenWith(ctx, dsn, o)
		if err == nil {
			err = rw.Close()
		}
		return err
	}, writable(target)); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// readyToRead checks that the store's schema is this build's and its rating sums are built;
// when not, and the database can be written, prepare (an ordinary open) makes it so, and the
// store reads on. s is reopened by the caller's pools, which see the migrated database.
func (s *Store) readyToRead(ctx context.Context, prepare func() error, canWrite bool) error {
	latest, err := LatestSchema()
	if err != nil {
		return err
	}
	v, err := s.SchemaVersion(ctx)
	if err != nil {
		return err
	}
	if err := s.checkVersion(v, latest); err != nil {
		return err
	}
	stale := false
	if v == latest {
		var n int
		err := s.r.QueryRowContext(ctx, `SELECT stale FROM rating_state WHERE id = 1`).Scan(&n)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return s.wrap("read the rating sums' state", err)
		}
		stale = n != 0
	}
	if v == latest && !stale {
		s.chained, s.schema = true, latest
		return nil
	}
	if !canWrite {
		return fmt.Errorf("store: %s is at schema version %d, this build reads version %d, and it cannot be written here: "+
			"migrate it where it can (tapp db migrate --db FILE) and read it again", s.where, v, latest)
	}
	if err := prepare(); err != nil {
		return err
	}
	s.chained, s.schema = true, latest
	return nil
}

// writable reports whether the SQLite file at path and its folder (where SQLite puts its
// journal) can be written by this process.
func writable(path string) bool {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return false
	}
	f.Close()
	probe, err := os.CreateTemp(filepath.Dir(path), ".tapp-write-probe-*")
	if err != nil {
		return false
	}
	probe.Close()
	os.Remove(probe.Name())
	return true
}

// openSQLiteReadOnly opens path with read-only connections only; on read-only media, where
// SQLite cannot create the WAL's shared memory, immutable (nothing else can change the file
// there). Writes through it fail.
func openSQLiteReadOnly(ctx context.Context, path string, busy time.Duration) (*Store, error) {
	if strings.ContainsAny(path, "?#") {
		return nil, fmt.Errorf("store: SQLite path %q must not contain '?' or '#'", path)
	}
	s := &Store{dialect: sqliteDialect, where: path, readOnly: true}
	params := fmt.Sprintf("mode=ro&_pragma=busy_timeout(%d)&_pragma=query_only(1)&_pragma=cell_size_check(1)&_pragma=cache_size(-2000)",
		busy.Milliseconds())
	for _, extra := range []string{"", "&immutable=1"} {
		db, err := sql.Open("sqlite", "file:"+path+"?"+params+extra)
		if err != nil {
			return nil, fmt.Errorf("store: open %s: %w", path, err)
		}
		db.SetMaxOpenConns(4)
		db.SetMaxIdleConns(4)
		err = db.PingContext(ctx)
		if err == nil {
			// A query reads the schema: a WAL database on read-only media fails here, not at
			// the ping.
			_, err = s.schemaVersionOn(ctx, db)
		}
		if err == nil {
			s.w, s.r = db, db
			return s, nil
		}
		db.Close()
		if code, ok := sqliteCode(err); !ok || code&0xff != sqliteCantOpen || extra != "" {
			return nil, s.wrap("open read-only", err)
		}
	}
	return nil, fmt.Errorf("store: %s cannot be opened", path) // not reached
}

// openPostgresReadOnly opens a PostgreSQL store whose sessions default to read-only
// transactions.
func openPostgresReadOnly(ctx context.Context, target, dsn string, o Options) (*Store, error) {
	sep := "?"
	if strings.Contains(target, "?") {
		sep = "&"
	}
	s, err := openPostgres(ctx, target+sep+"default_transaction_read_only=on")
	if err != nil {
		return nil, err
	}
	s.readOnly = true
	if err := s.readyToRead(ctx, func() error {
		rw, err := OpenWith(ctx, dsn, o)
		if err == nil {
			err = rw.Close()
		}
		return err
	}, true); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}
