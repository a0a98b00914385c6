// Package store implements domain.Store over database/sql, for SQLite (the default: one file,
// the pure-Go driver modernc.org/sqlite, no cgo) and for PostgreSQL (pgx through its
// database/sql adapter), with the same tables and the same behaviour: both pass the stores'
// suite (arena/internal/store/storetest), as the memory store does.
//
// Open picks the backend from the DSN:
//
//	tapp.db, ./data/tapp.db, sqlite:tapp.db   SQLite file (created if missing)
//	sqlite:tapp.db?busy_timeout=2s            ... waiting at most 2 s for another process's lock
//	postgres://user:pass@host/db              PostgreSQL (also postgresql://)
//
// The dialect differences are kept to a few places: placeholders (? against $n, see rebind),
// column types (migrations/sqlite and migrations/postgres hold the same tables and columns),
// how times are stored (SQLite: INTEGER microseconds since the epoch, PostgreSQL: TIMESTAMPTZ)
// and the migration lock. Inserts that must not overwrite use INSERT ... ON CONFLICT DO
// NOTHING, which both understand alike.
//
// SQLite runs in WAL mode with a busy timeout and foreign keys on. Writes go through a pool
// of exactly one connection, so goroutines of this process queue for it in Go instead of
// racing for the file lock (no SQLITE_BUSY between them), and write transactions begin
// IMMEDIATE, so a transaction never has to upgrade a read lock. Reads use a separate pool
// of read-only connections, which WAL lets run beside the writer. Commits are synchronous
// (synchronous=FULL): a finished deal survives a power cut.
//
// Matches, bots and results are stored in their text notations, so they can be read with
// the sqlite3 or psql shell: the rule set in its canonical text, names as JSON. A deal is
// stored as a compact record (record.go, schema version 11): only what cannot be derived
// from the match and the rules — the cards, each move as its index among the legal actions,
// the decisions' timings, answers, strikes and fallbacks, and the clock fields of the
// requests — about 150 bytes for a deal of random play, from which the store rebuilds the
// moves, the outcome and the requests sent to the bots byte for byte, checked against a
// digest. A deal that cannot be stored so (its moves do not replay to its outcome) keeps the
// earlier form: the deal in deal notation, moves as "seat:action" lines, options and outcome
// as JSON, and its decisions in one compressed column (decisionlog.go).
package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" database/sql driver
	_ "modernc.org/sqlite"             // registers the "sqlite" database/sql driver

	"github.com/tapparena/tapp/arena/internal/domain"
)

// DefaultBusyTimeout is how long SQLite waits for a lock held by another process before a
// write fails with ErrLocked. Set another with the DSN parameter busy_timeout.
const DefaultBusyTimeout = 5 * time.Second

type dialect int

const (
	sqliteDialect dialect = iota
	postgresDialect
)

func (d dialect) String() string {
	if d == postgresDialect {
		return "postgres"
	}
	return "sqlite"
}

// Store is an domain.Store on SQLite or PostgreSQL. It is safe for concurrent use.
type Store struct {
	dialect dialect
	where   string   // the file path, or host/database: for error messages (no password)
	w       *sql.DB  // writes; for SQLite a pool of exactly one connection
	r       *sql.DB  // reads; the same pool as w for PostgreSQL
	stmts   sync.Map // write query → *sql.Stmt prepared on w (see stmt)
	rstmts  sync.Map // read query → *sql.Stmt prepared on r (see readStmt)
	// sourceBatch spells sourceBatchQueries' texts once (sourceBatchQs).
	sourceBatch   sync.Once
	sourceBatchQs []string
	// scopes holds the committed numbers of leagues' rule sets in rating_scopes (sourcerows.go).
	scopes sync.Map // board.LeagueRules → int64

	matchInfos    sync.Map     // match id → *matchInfo (see Store.matchInfo)
	cachedMatches atomic.Int64 // entries added to matchInfos since it was last cleared
	// ratingInfos and ratingInfoCount are matchInfos' like for the rating sums (ratingstats.go).
	ratingInfos     sync.Map
	ratingInfoCount atomic.Int64

	progress func(what string, done, total int) // Options.Progress
	// history holds the state of each league's rating history in this process (history.go).
	history sync.Map // board.LeagueRules → *historyState

	// readOnly: opened by OpenReadOnly; every write fails.
	readOnly bool

	// chained says the schema keeps deal chains (version 15 on): false only for a store that
	// tests open at an older version, to write rows as that version did.
	chained bool
	// schema is the version the store's schema is at (migrateTo, readyToRead). A store opened
	// short of the newest (tests build databases as older versions left them so) writes only
	// what its schema holds: no deal-source sums before version 16 (its migration builds them).
	schema int
}

// keepsSourceSums reports whether the store's schema has the deal-source sums (migration 16).
func (s *Store) keepsSourceSums() bool { return s.schema >= 16 }

// keepsLeagueTotals reports whether the store's schema has the league totals (migration 17:
// league_bots and the leagues' pause and match counts); its conversion builds them.
func (s *Store) keepsLeagueTotals() bool { return s.schema >= 17 }

var _ domain.Store = (*Store)(nil)

// Open opens (creating if needed) the store the DSN names and migrates its schema to the
// newest version this build knows. A database whose schema is newer than that is refused
// with ErrSchemaTooNew.
func Open(ctx context.Context, dsn string) (*Store, error) { return OpenWith(ctx, dsn, Options{}) }

// Options are what opening a store may be told besides its DSN.
type Options struct {
	// Progress, when set, is told how far a migration that converts every stored deal or
	// match (minutes on a database of millions) has come: what it does, done of total, after
	// each one.
	Progress func(what string, done, total int)
}

// OpenWith is Open with options.
func OpenWith(ctx context.Context, dsn string, o Options) (*Store, error) {
	return openWith(ctx, dsn, 0, o)
}

// open is Open, migrating the schema up to the given version only (0: the newest).
func open(ctx context.Context, dsn string, version int) (*Store, error) {
	return openWith(ctx, dsn, version, Options{})
}

// openWith is open with options.
func openWith(ctx context.Context, dsn string, version int, o Options) (*Store, error) {
	d, target, busy, err := parseDSN(dsn)
	if err != nil {
		return nil, err
	}
	var s *Store
	if d == postgresDialect {
		s, err = openPostgres(ctx, target)
	} else {
		s, err = openSQLite(ctx, target, busy)
	}
	if err != nil {
		return nil, err
	}
	s.progress = o.Progress
	if err := s.migrateTo(ctx, version); err != nil {
		s.Close()
		return nil, err
	}
	s.chained = version == 0 || version >= chainSchema
	if version == 0 {
		if err := s.rebuildRatingSums(ctx); err != nil { // once, for deals stored before the sums were kept
			s.Close()
			return nil, err
		}
	}
	return s, nil
}

// parseDSN tells the backend from a DSN and returns what the driver needs: the file path
// for SQLite (with the busy timeout) or the connection string for PostgreSQL.
func parseDSN(dsn string) (d dialect, target string, busy time.Duration, err error) {
	busy = DefaultBusyTimeout
	switch {
	case dsn == "":
		return 0, "", 0, errors.New("store: empty DSN (give a SQLite file path or a postgres:// URL)")
	case strings.HasPrefix(dsn, "postgres://"), strings.HasPrefix(dsn, "postgresql://"):
		return postgresDialect, dsn, 0, nil
	case strings.HasPrefix(dsn, "sqlite:"):
		target = strings.TrimPrefix(dsn, "sqlite:")
		target = strings.TrimPrefix(target, "//") // sqlite:///abs/path and sqlite://rel/path
	case strings.Contains(dsn, "://"):
		return 0, "", 0, fmt.Errorf("store: unknown DSN scheme in %q (want a SQLite file path, sqlite:PATH or postgres://...)", redact(dsn))
	default:
		target = dsn
	}
	if path, query, ok := strings.Cut(target, "?"); ok {
		target = path
		params, perr := url.ParseQuery(query)
		if perr != nil {
			return 0, "", 0, fmt.Errorf("store: DSN %q: %w", dsn, perr)
		}
		for k, v := range params {
			switch k {
			case "busy_timeout":
				busy, err = parseTimeout(v[len(v)-1])
				if err != nil {
					return 0, "", 0, fmt.Errorf("store: DSN %q: busy_timeout: %w", dsn, err)
				}
			default:
				return 0, "", 0, fmt.Errorf("store: DSN %q: unknown parameter %q (SQLite knows busy_timeout)", dsn, k)
			}
		}
	}
	if target == "" {
		return 0, "", 0, fmt.Errorf("store: DSN %q names no file", dsn)
	}
	return sqliteDialect, target, busy, nil
}

// parseTimeout reads a Go duration ("2s") or a number of milliseconds ("2000").
func parseTimeout(v string) (time.Duration, error) {
	if ms, err := strconv.Atoi(v); err == nil && ms >= 0 {
		return time.Duration(ms) * time.Millisecond, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("%q is neither a duration (2s) nor milliseconds (2000)", v)
	}
	return d, nil
}

// redact hides the password of a URL-style DSN.
func redact(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil || u.User == nil {
		return dsn
	}
	return u.Redacted()
}

func openSQLite(ctx context.Context, path string, busy time.Duration) (*Store, error) {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("store: create the folder for %s: %w", path, err)
		}
	}
	// The driver reads its parameters after the first '?': a path holding one would be cut.
	if strings.ContainsAny(path, "?#") {
		return nil, fmt.Errorf("store: SQLite path %q must not contain '?' or '#'", path)
	}
	// cell_size_check: a damaged page is met as SQLITE_CORRUPT (ErrCorrupt) rather than read
	// as rows that are not there, at a cost too small to measure.
	common := fmt.Sprintf("_pragma=busy_timeout(%d)&_pragma=foreign_keys(1)&_pragma=synchronous(FULL)&_pragma=cell_size_check(1)",
		busy.Milliseconds())
	// Each connection's page cache is fixed (SQLite's 2 MB for the writer, 512 KB for each of
	// the four readers, whose work is lookups by key), so that the arena's memory reaches its
	// level early in a night: as the file grows, every cache fills up to its size, and the
	// readers' four would otherwise add 8 MB slowly, which looks like a leak.
	w, err := sql.Open("sqlite", path+"?"+common+"&_pragma=journal_mode(WAL)&_txlock=immediate&_pragma=cache_size(-2000)")
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	w.SetConnMaxIdleTime(0)
	s := &Store{dialect: sqliteDialect, where: path, w: w}
	// Connect the writer first: it switches the file to WAL before any reader opens it.
	// Switching needs an exclusive lock, and when two processes switch a new file at once
	// SQLite refuses one of them at once (SQLITE_BUSY, without waiting, to avoid a
	// deadlock), so busy is retried here until the busy timeout has passed.
	deadline := time.Now().Add(busy)
	for {
		err := w.PingContext(ctx)
		if err == nil {
			break
		}
		if !isBusy(err) || time.Now().After(deadline) || ctx.Err() != nil {
			w.Close()
			return nil, s.wrap("open", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	r, err := sql.Open("sqlite", path+"?"+common+"&_pragma=query_only(1)&_pragma=cache_size(-512)")
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	r.SetMaxOpenConns(4)
	r.SetMaxIdleConns(4)
	s.r = r
	if err := r.PingContext(ctx); err != nil {
		s.Close()
		return nil, s.wrap("open", err)
	}
	return s, nil
}

func openPostgres(ctx context.Context, dsn string) (*Store, error) {
	where := redact(dsn)
	if u, err := url.Parse(dsn); err == nil {
		where = u.Host + u.Path
	}
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", where, err)
	}
	db.SetMaxOpenConns(16)
	db.SetMaxIdleConns(4)
	db.SetConnMaxIdleTime(5 * time.Minute)
	s := &Store{dialect: postgresDialect, where: where, w: db, r: db}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, s.wrap("connect", err)
	}
	return s, nil
}

// Close closes the database. It does not wait for anything but the driver.
func (s *Store) Close() error {
	s.rstmts.Range(func(_, v any) bool {
		_ = v.(*sql.Stmt).Close()
		return true
	})
	s.stmts.Range(func(_, v any) bool {
		_ = v.(*sql.Stmt).Close()
		return true
	})
	err := s.w.Close()
	if s.r != nil && s.r != s.w {
		if rerr := s.r.Close(); err == nil {
			err = rerr
		}
	}
	return err
}

// Backend returns "sqlite" or "postgres".
func (s *Store) Backend() string { return s.dialect.String() }

// rebind turns ? placeholders into PostgreSQL's $1, $2, ...; queries are written with ? and
// never hold a ? inside a string literal.
func (s *Store) rebind(query string) string {
	if s.dialect != postgresDialect {
		return query
	}
	var b strings.Builder
	b.Grow(len(query) + 16)
	n := 0
	for i := 0; i < len(query); i++ {
		if query[i] == '?' {
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteByte(query[i])
	}
	return b.String()
}

// timeArg converts a time for a query: microseconds since the epoch for SQLite, a UTC time
// for PostgreSQL, NULL for the zero time.
func (s *Store) timeArg(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	t = t.UTC().Truncate(time.Microsecond)
	if s.dialect == sqliteDialect {
		return t.UnixMicro()
	}
	return t
}

// dbTime scans a time column of either backend; NULL is the zero time.
type dbTime struct{ T time.Time }

func (d *dbTime) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		d.T = time.Time{}
	case int64:
		d.T = time.UnixMicro(v).UTC()
	case time.Time:
		d.T = v.UTC()
	default:
		return fmt.Errorf("store: cannot read a time from %T", src)
	}
	return nil
}

// newID returns a fresh random identifier: 16 hex digits.
func newID() string {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand does not fail on supported systems
	}
	return hex.EncodeToString(b[:])
}

// now returns the current time as stored: UTC, microseconds.
func now() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }

// report tells Options.Progress how far a conversion has come.
func (s *Store) report(what string, done, total int) {
	if s.progress != nil {
		s.progress(what, done, total)
	}
}
