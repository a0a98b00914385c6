package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/tapparena/tapp/arena/internal/domain"
)

func TestParseDSN(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		dsn    string
		d      dialect
		target string
		busy   time.Duration
		err    string
	}{
		{dsn: "tapp.db", d: sqliteDialect, target: "tapp.db", busy: DefaultBusyTimeout},
		{dsn: "/var/lib/tapp/tapp.db", d: sqliteDialect, target: "/var/lib/tapp/tapp.db", busy: DefaultBusyTimeout},
		{dsn: "sqlite:data/t.db", d: sqliteDialect, target: "data/t.db", busy: DefaultBusyTimeout},
		{dsn: "sqlite:///abs/t.db", d: sqliteDialect, target: "/abs/t.db", busy: DefaultBusyTimeout},
		{dsn: "sqlite:t.db?busy_timeout=250ms", d: sqliteDialect, target: "t.db", busy: 250 * time.Millisecond},
		{dsn: "t.db?busy_timeout=1500", d: sqliteDialect, target: "t.db", busy: 1500 * time.Millisecond},
		{dsn: "postgres://u:p@h/db?sslmode=disable", d: postgresDialect, target: "postgres://u:p@h/db?sslmode=disable"},
		{dsn: "postgresql://h/db", d: postgresDialect, target: "postgresql://h/db"},
		{dsn: "", err: "empty DSN"},
		{dsn: "mysql://u:secret@h/db", err: "unknown DSN scheme"},
		{dsn: "sqlite:", err: "names no file"},
		{dsn: "t.db?busy_timeout=soon", err: "busy_timeout"},
		{dsn: "t.db?cache=shared", err: `unknown parameter "cache"`},
	} {
		d, target, busy, err := parseDSN(c.dsn)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("parseDSN(%q) error = %v, want one saying %q", c.dsn, err, c.err)
			}
			if err != nil && strings.Contains(err.Error(), "secret") {
				t.Errorf("parseDSN(%q) error shows the password: %v", c.dsn, err)
			}
			continue
		}
		if err != nil || d != c.d || target != c.target || busy != c.busy {
			t.Errorf("parseDSN(%q) = %v, %q, %v, %v; want %v, %q, %v", c.dsn, d, target, busy, err, c.d, c.target, c.busy)
		}
	}
}

func TestRebind(t *testing.T) {
	t.Parallel()
	q := `SELECT a FROM t WHERE b = ? AND c IN (?, ?)`
	if got := (&Store{dialect: sqliteDialect}).rebind(q); got != q {
		t.Errorf("SQLite rebind = %q, want it unchanged", got)
	}
	want := `SELECT a FROM t WHERE b = $1 AND c IN ($2, $3)`
	if got := (&Store{dialect: postgresDialect}).rebind(q); got != want {
		t.Errorf("PostgreSQL rebind = %q, want %q", got, want)
	}
}

func TestErrorClassification(t *testing.T) {
	t.Parallel()
	s := &Store{dialect: postgresDialect, where: "db.example/tapp"}
	full := &pgconn.PgError{Code: "53100", Message: "could not extend file: No space left on device"}
	err := s.wrapSave("m1", 4, fmt.Errorf("decisions: %w", full))
	if !errors.Is(err, ErrDiskFull) || !strings.HasPrefix(err.Error(), "disk full while saving deal 4 of match m1: nothing was stored") {
		t.Errorf("PostgreSQL disk full: %v", err)
	}
	enospc := &fs.PathError{Op: "write", Path: "/x/tapp.db-wal", Err: syscall.ENOSPC}
	if err := s.wrap("create bot x", enospc); !errors.Is(err, ErrDiskFull) || !strings.HasPrefix(err.Error(), "disk full while create bot x") {
		t.Errorf("ENOSPC: %v", err)
	}
	if !isUniqueViolation(&pgconn.PgError{Code: "23505"}) || isUniqueViolation(&pgconn.PgError{Code: "23503"}) {
		t.Error("isUniqueViolation misreads PostgreSQL codes")
	}
	if err := s.wrap("read", errors.New("boom")); errors.Is(err, ErrDiskFull) || errors.Is(err, ErrLocked) {
		t.Errorf("a plain error was classified: %v", err)
	}
}

// holdLock takes the write lock of the SQLite file at path from a connection of its own, as
// another process would, and returns the function that releases it.
func holdLock(t *testing.T, path string) (release func()) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(context.Background(), `BEGIN EXCLUSIVE`); err != nil {
		t.Fatalf("BEGIN EXCLUSIVE: %v", err)
	}
	done := false
	release = func() {
		if done {
			return
		}
		done = true
		if _, err := conn.ExecContext(context.Background(), `ROLLBACK`); err != nil {
			t.Errorf("ROLLBACK: %v", err)
		}
		conn.Close()
		db.Close()
	}
	t.Cleanup(release)
	return release
}

func TestSQLiteLockedByAnotherProcess(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "locked.db")
	s := openTest(t, "sqlite:"+path+"?busy_timeout=200ms")
	m := newMatch(t, s, "", "a", "b", "c")
	release := holdLock(t, path)

	start := time.Now()
	err := s.CreateBot(ctx, &domain.Bot{Name: "x"})
	waited := time.Since(start)
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("CreateBot under another's lock = %v, want ErrLocked", err)
	}
	if want := "database is locked by another process: " + path + ": "; !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %q does not start with %q", err, want)
	}
	if waited < 150*time.Millisecond || waited > 3*time.Second {
		t.Errorf("CreateBot gave up after %v, want about the busy timeout (200ms)", waited)
	}
	err = s.SaveDeal(ctx, sampleDeal(t, m, 0, 5, 100))
	want := fmt.Sprintf("database is locked by another process: %s: saving deal 0 of match %s: nothing was stored", path, m.ID)
	if !errors.Is(err, ErrLocked) || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("SaveDeal under another's lock = %v, want it to start with %q", err, want)
	}
	// WAL lets reads go on.
	if _, err := s.GetMatch(ctx, m.ID); err != nil {
		t.Errorf("GetMatch under another's write lock: %v", err)
	}

	release()
	if err := s.SaveDeal(ctx, sampleDeal(t, m, 0, 5, 100)); err != nil {
		t.Errorf("SaveDeal after the lock was released: %v", err)
	}

	// A new database cannot be migrated while another holds it locked.
	fresh := filepath.Join(t.TempDir(), "fresh.db")
	if err := os.WriteFile(fresh, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	holdLock(t, fresh)
	_, err = Open(ctx, "sqlite:"+fresh+"?busy_timeout=100ms")
	if !errors.Is(err, ErrLocked) || !strings.HasPrefix(err.Error(), "database is locked by another process: "+fresh) {
		t.Errorf("Open of a locked new database = %v, want ErrLocked", err)
	}
}

// SQLite reports SQLITE_FULL when the disk is full, and also when the database reaches its
// max_page_count, which is how this test fills the "disk".
func TestSQLiteDiskFullStoresNothing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t, sqliteBackend.newDSN(t))
	m := newMatch(t, s, "", "a", "b", "c")
	// The pages the migrations' dropped tables left free would be taken before the file grows.
	if _, err := s.w.Exec(`VACUUM`); err != nil {
		t.Fatal(err)
	}
	var pages int
	if err := s.w.QueryRow(`PRAGMA page_count`).Scan(&pages); err != nil {
		t.Fatal(err)
	}
	// The writer pool holds exactly one connection, so the limit applies to every write.
	if _, err := s.w.Exec(fmt.Sprintf(`PRAGMA max_page_count = %d`, pages+2)); err != nil {
		t.Fatal(err)
	}

	err := s.SaveDeal(ctx, sampleDeal(t, m, 3, 40, 1024))
	if !errors.Is(err, ErrDiskFull) {
		t.Fatalf("SaveDeal on a full disk = %v, want ErrDiskFull", err)
	}
	if want := fmt.Sprintf("disk full while saving deal 3 of match %s: nothing was stored", m.ID); !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %q does not start with %q", err, want)
	}
	assertNothingStored(t, s, m.ID)

	if _, err := s.w.Exec(`PRAGMA max_page_count = 1073741823`); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveDeal(ctx, sampleDeal(t, m, 3, 40, 1024)); err != nil {
		t.Errorf("SaveDeal once there is room again: %v", err)
	}
}

func TestSQLiteSettings(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "new", "folder")
	s := openTest(t, filepath.Join(dir, "t.db")) // a plain path; the folder is created
	for _, c := range []struct {
		pragma string
		db     *sql.DB
		want   string
	}{
		{"journal_mode", s.w, "wal"},
		{"foreign_keys", s.w, "1"},
		{"busy_timeout", s.w, "5000"},
		{"synchronous", s.w, "2"},
		{"journal_mode", s.r, "wal"},
		{"query_only", s.r, "1"},
		{"cache_size", s.w, "-2000"}, // the memory of a long league levels off early (store.go)
		{"cache_size", s.r, "-512"},
	} {
		var got string
		if err := c.db.QueryRow(`PRAGMA ` + c.pragma).Scan(&got); err != nil || got != c.want {
			t.Errorf("PRAGMA %s = %q, %v; want %q", c.pragma, got, err, c.want)
		}
	}
	if s.Backend() != "sqlite" {
		t.Errorf("Backend = %q", s.Backend())
	}
}

func TestOpenPostgresUnreachable(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := Open(ctx, "postgres://u:secret@127.0.0.1:1/tappdb?sslmode=disable&connect_timeout=2")
	if err == nil {
		t.Fatal("Open of a PostgreSQL server that is not there succeeded")
	}
	if strings.Contains(err.Error(), "secret") || !strings.Contains(err.Error(), "127.0.0.1:1/tappdb") {
		t.Errorf("error %q should name the server and database, without the password", err)
	}
}
