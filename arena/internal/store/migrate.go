package store

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Migrations are embedded SQL files, one folder per dialect, named NNNN_what.sql; both
// folders hold the same versions. Each is applied once, in version order, and recorded in
// schema_migrations. Never edit a released migration: add the next one.
//
//go:embed migrations
var migrationFiles embed.FS

type migration struct {
	version int
	name    string
	sql     string
}

// loadMigrations reads the migrations of one folder, ascending. A version appears once; a
// missing number is one another branch holds (the team fixes each feature's number ahead),
// applied whenever it arrives, as every migration not yet recorded is.
func loadMigrations(fsys fs.FS, dir string) ([]migration, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, err
	}
	var ms []migration
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".sql") {
			continue
		}
		num, _, ok := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("migration %s/%s: name must be NNNN_what.sql", dir, e.Name())
		}
		text, err := fs.ReadFile(fsys, path.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		ms = append(ms, migration{version: v, name: strings.TrimSuffix(e.Name(), ".sql"), sql: string(text)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	for i := 1; i < len(ms); i++ {
		if ms[i].version == ms[i-1].version {
			return nil, fmt.Errorf("migrations in %s: version %d twice (%s, %s)", dir, ms[i].version, ms[i-1].name, ms[i].name)
		}
	}
	return ms, nil
}

// newest is the highest version of ms (0 for none).
func newest(ms []migration) int {
	if len(ms) == 0 {
		return 0
	}
	return ms[len(ms)-1].version
}

func (s *Store) migrations() ([]migration, error) {
	return loadMigrations(migrationFiles, "migrations/"+s.dialect.String())
}

// LatestSchema is the newest schema version this build knows: it migrates an older store to
// it and refuses a newer one (tapp version prints it).
func LatestSchema() (int, error) {
	latest := 0
	for _, d := range []dialect{sqliteDialect, postgresDialect} {
		ms, err := loadMigrations(migrationFiles, "migrations/"+d.String())
		if err != nil {
			return 0, err
		}
		latest = max(latest, newest(ms))
	}
	return latest, nil
}

// SchemaVersion returns the version the database's schema is at (0 for an empty database).
func (s *Store) SchemaVersion(ctx context.Context) (int, error) {
	v, err := s.schemaVersionOn(ctx, s.r)
	return v, s.wrap("read the schema version", err)
}

// schemaVersionOn is SchemaVersion through db, its error as the driver gave it.
func (s *Store) schemaVersionOn(ctx context.Context, db *sql.DB) (int, error) {
	var exists bool
	var err error
	if s.dialect == postgresDialect {
		err = db.QueryRowContext(ctx, `SELECT to_regclass('schema_migrations') IS NOT NULL`).Scan(&exists)
	} else {
		err = db.QueryRowContext(ctx,
			`SELECT count(*) > 0 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'`).Scan(&exists)
	}
	if err != nil || !exists {
		return 0, err
	}
	var v sql.NullInt64
	if err := db.QueryRowContext(ctx, `SELECT max(version) FROM schema_migrations`).Scan(&v); err != nil {
		return 0, err
	}
	return int(v.Int64), nil
}

// migrate brings the schema to the newest known version. An up-to-date database is only
// read; otherwise all pending migrations run in one transaction, under a lock (SQLite:
// BEGIN IMMEDIATE; PostgreSQL: an advisory lock per schema), so that processes opening the
// same database at once apply each migration exactly once.
func (s *Store) migrate(ctx context.Context) error { return s.migrateTo(ctx, 0) }

// migrateTo is migrate up to the given version only (0: the newest); tests use it to build
// databases as older versions left them.
func (s *Store) migrateTo(ctx context.Context, version int) error {
	ms, err := s.migrations()
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	if version > 0 {
		ms = slices.DeleteFunc(ms, func(m migration) bool { return m.version > version })
	}
	latest := newest(ms)
	v, err := s.SchemaVersion(ctx)
	if err != nil {
		return err
	}
	if err := s.checkVersion(v, latest); err != nil {
		return err
	}
	if v == latest {
		applied, err := s.appliedVersions(ctx, s.r)
		if err != nil || len(pending(ms, applied)) == 0 {
			s.schema = v
			return err
		}
	}

	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return s.wrap("migrate the schema", err)
	}
	defer tx.Rollback()
	if err := s.lockMigrations(ctx, tx); err != nil {
		return err
	}
	// Read again under the lock: another process may have migrated meanwhile.
	applied, err := s.appliedVersions(ctx, tx)
	if err != nil {
		return err
	}
	for a := range applied {
		if err := s.checkVersion(a, latest); err != nil {
			return err
		}
	}
	if err := s.applyMigrations(ctx, tx, pending(ms, applied)); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return s.wrap("migrate the schema", err)
	}
	s.schema = latest
	return nil
}

// lockMigrations holds off other processes' migrations until tx ends (PostgreSQL: an
// advisory lock; SQLite: the write transaction itself) and creates schema_migrations.
func (s *Store) lockMigrations(ctx context.Context, tx *sql.Tx) error {
	if s.dialect == postgresDialect {
		if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtext('tapp schema_migrations ' || current_schema()))`); err != nil {
			return s.wrap("lock the schema for migration", err)
		}
	}
	created := `CREATE TABLE IF NOT EXISTS schema_migrations (
	version INTEGER NOT NULL PRIMARY KEY,
	name    TEXT    NOT NULL,
	applied INTEGER NOT NULL -- microseconds since the epoch
)`
	if s.dialect == postgresDialect {
		created = `CREATE TABLE IF NOT EXISTS schema_migrations (
	version INTEGER     NOT NULL PRIMARY KEY,
	name    TEXT        NOT NULL,
	applied TIMESTAMPTZ NOT NULL
)`
	}
	if _, err := tx.ExecContext(ctx, created); err != nil {
		return s.wrap("create schema_migrations", err)
	}
	return nil
}

// applyMigrations applies migrations ms in order, each with its conversion of the stored
// records, and records each as applied.
func (s *Store) applyMigrations(ctx context.Context, tx *sql.Tx, ms []migration) error {
	for _, m := range ms {
		if _, err := tx.ExecContext(ctx, m.sql); err != nil {
			return s.wrap("apply migration "+m.name, err)
		}
		if convert := conversions[m.version]; convert != nil {
			if err := convert(ctx, s, tx); err != nil {
				return s.wrap("convert the records for migration "+m.name, err)
			}
		}
		if _, err := tx.ExecContext(ctx, s.rebind(`INSERT INTO schema_migrations (version, name, applied) VALUES (?, ?, ?)`),
			m.version, m.name, s.timeArg(now())); err != nil {
			return s.wrap("record migration "+m.name, err)
		}
	}
	return nil
}

// appliedVersions are the versions schema_migrations records.
func (s *Store) appliedVersions(ctx context.Context, q interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}) (map[int]bool, error) {
	rows, err := q.QueryContext(ctx, `SELECT version FROM schema_migrations`)
	if err != nil {
		return nil, s.wrap("read the schema versions", err)
	}
	defer rows.Close()
	applied := map[int]bool{}
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			return nil, s.wrap("read the schema versions", err)
		}
		applied[v] = true
	}
	return applied, s.wrap("read the schema versions", rows.Err())
}

// pending are the migrations of ms not applied yet, ascending.
func pending(ms []migration, applied map[int]bool) []migration {
	var todo []migration
	for _, m := range ms {
		if !applied[m.version] {
			todo = append(todo, m)
		}
	}
	return todo
}

// conversions are the Go parts of migrations: what a version's SQL cannot do, run after it
// in the same transaction.
var conversions = map[int]func(ctx context.Context, s *Store, tx *sql.Tx) error{
	10: convertLeagueAggregates,
	11: convertCompactRecords,
	13: convertResultsFromRecords,
	16: convertSourceSums,
	17: convertLeagueBots,
	18: convertEloPoints,
	28: convertScoreBlocks,
	30: convertEpochBoards,
}

func (s *Store) checkVersion(v, latest int) error {
	if v > latest {
		return fmt.Errorf("%w: %s is at schema version %d, this build knows versions up to %d: use a newer tapp",
			ErrSchemaTooNew, s.where, v, latest)
	}
	return nil
}
