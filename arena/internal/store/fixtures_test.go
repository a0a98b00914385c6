package store

import (
	"context"
	"database/sql"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/store/storetest"
	"github.com/tapparena/tapp/engine"
)

// backend is one database the shared test suite runs against; newDSN returns the DSN of a
// fresh, empty database of its own (a file in a temp dir, or a PostgreSQL schema), so tests
// can run in parallel.
type backend struct {
	name   string
	newDSN func(t testing.TB) string
}

const pgEnv = "TAPP_TEST_POSTGRES"

var sqliteBackend = backend{name: "sqlite", newDSN: func(t testing.TB) string {
	return "sqlite:" + filepath.Join(t.TempDir(), "tapp.db")
}}

var postgresBackend = backend{name: "postgres", newDSN: newPostgresDSN}

// eachBackend runs f as a parallel subtest on SQLite and, when TAPP_TEST_POSTGRES is set, on
// PostgreSQL.
func eachBackend(t *testing.T, f func(t *testing.T, b backend)) {
	t.Helper()
	for _, b := range []backend{sqliteBackend, postgresBackend} {
		t.Run(b.name, func(t *testing.T) {
			if b.name == "postgres" {
				skipWithoutPostgres(t)
			}
			t.Parallel()
			f(t, b)
		})
	}
}

// eachStore runs f on a fresh, migrated store of each backend.
func eachStore(t *testing.T, f func(t *testing.T, s *Store)) {
	t.Helper()
	eachBackend(t, func(t *testing.T, b backend) { f(t, openTest(t, b.newDSN(t))) })
}

func skipWithoutPostgres(t testing.TB) {
	t.Helper()
	if os.Getenv(pgEnv) == "" {
		t.Skipf("PostgreSQL tests skipped: set %s to a connection string to run them, e.g. "+
			"eval \"$(bash scripts/ci-postgres.sh)\" (which installs and starts a local server) or "+
			"%s='postgres://tapp:tapp@127.0.0.1:5432/tapp?sslmode=disable'", pgEnv, pgEnv)
	}
}

var pgAdmin = sync.OnceValues(func() (*sql.DB, error) {
	db, err := sql.Open("pgx", os.Getenv(pgEnv))
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(4)
	return db, db.Ping()
})

// newPostgresDSN creates a schema of its own for the test and returns the DSN that selects it
// through search_path; the schema is dropped when the test ends.
func newPostgresDSN(t testing.TB) string {
	t.Helper()
	skipWithoutPostgres(t)
	admin, err := pgAdmin()
	if err != nil {
		t.Fatalf("connect to %s: %v", pgEnv, err)
	}
	schema := "tapp_test_" + newID()
	if _, err := admin.Exec(`CREATE SCHEMA ` + schema); err != nil {
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() {
		if _, err := admin.Exec(`DROP SCHEMA ` + schema + ` CASCADE`); err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
		}
	})
	dsn := os.Getenv(pgEnv)
	sep := "?"
	if strings.Contains(dsn, "?") {
		sep = "&"
	}
	return dsn + sep + "search_path=" + url.QueryEscape(schema)
}

// openTest opens a store and closes it when the test ends.
func openTest(t testing.TB, dsn string) *Store {
	t.Helper()
	s, err := Open(context.Background(), dsn)
	if err != nil {
		t.Fatalf("Open(%s): %v", redact(dsn), err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s
}

// testRules is the rule set of the test matches: modern Tapp for 3 players.
func testRules(t testing.TB) engine.RuleSet { return mustRules(t, "modern") }

func mustRules(t testing.TB, text string) engine.RuleSet { t.Helper(); return storetest.Rules(t, text) }

// newMatch, sampleDeal, diffDeal and checkedDigest are the shared suite's fixtures
// (arena/internal/store/storetest), for the tests of what only the SQL store does.
func newMatch(t testing.TB, s *Store, league string, bots ...string) *domain.Match {
	t.Helper()
	return storetest.NewMatch(t, s, league, bots...)
}

func sampleDeal(t testing.TB, m *domain.Match, number, decisions, sentSize int) *domain.DealRecord {
	t.Helper()
	return storetest.SampleDeal(t, m, number, decisions, sentSize)
}

func diffDeal(t *testing.T, got, want *domain.DealRecord) {
	t.Helper()
	storetest.DiffDeal(t, got, want)
}

func checkedDigest(t *testing.T, got, saved *domain.DealRecord) *domain.DealRecord {
	t.Helper()
	return storetest.CheckedDigest(t, got, saved)
}

// checkReadBack reads every deal of the match and checks that each is the one stored (with
// the digest of its requests, when it is a compact record); it returns what it read.
func checkReadBack(t *testing.T, s *Store, matchID string, deals []*domain.DealRecord) []domain.DealRecord {
	t.Helper()
	got, err := s.Deals(context.Background(), matchID)
	if err != nil {
		t.Fatalf("Deals: %v", err)
	}
	if len(got) != len(deals) {
		t.Fatalf("Deals = %d deals, want %d", len(got), len(deals))
	}
	for i := range got {
		if g := checkedDigest(t, &got[i], deals[i]); !reflect.DeepEqual(g, deals[i]) {
			diffDeal(t, g, deals[i])
		}
	}
	return got
}
