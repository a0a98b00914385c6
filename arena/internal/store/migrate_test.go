package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
)

func TestMigrationsMatchAcrossDialects(t *testing.T) {
	t.Parallel()
	lite, err := loadMigrations(migrationFiles, "migrations/sqlite")
	if err != nil {
		t.Fatal(err)
	}
	pg, err := loadMigrations(migrationFiles, "migrations/postgres")
	if err != nil {
		t.Fatal(err)
	}
	if len(lite) == 0 || len(lite) != len(pg) {
		t.Fatalf("%d SQLite migrations, %d PostgreSQL migrations; want the same, at least one", len(lite), len(pg))
	}
	for i := range lite {
		if lite[i].name != pg[i].name {
			t.Errorf("migration %d: SQLite %s, PostgreSQL %s", i+1, lite[i].name, pg[i].name)
		}
	}
}

func TestLoadMigrationsRejectsBadSets(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		files []string
		want  string
	}{
		{"repeat", []string{"0001_a.sql", "0001_b.sql"}, "version 1 twice"},
		{"bad name", []string{"first.sql"}, "NNNN_what.sql"},
		{"zero", []string{"0000_a.sql"}, "NNNN_what.sql"},
	} {
		fsys := fstest.MapFS{}
		for _, f := range c.files {
			fsys["m/"+f] = &fstest.MapFile{Data: []byte("SELECT 1;")}
		}
		_, err := loadMigrations(fsys, "m")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: loadMigrations = %v, want an error saying %q", c.name, err, c.want)
		}
	}
	ms, err := loadMigrations(fstest.MapFS{
		"m/0002_b.sql": {Data: []byte("B")}, "m/0001_a.sql": {Data: []byte("A")}, "m/README": {Data: []byte("x")},
	}, "m")
	if err != nil || len(ms) != 2 || ms[0].sql != "A" || ms[1].name != "0002_b" {
		t.Errorf("loadMigrations = %+v, %v; want 0001_a then 0002_b", ms, err)
	}
}

// A number missing from the migrations is another branch's: a store migrated without it
// applies it when it arrives, although a later version is recorded already.
func TestMigrationsHeldByAnotherBranchApplyWhenTheyArrive(t *testing.T) {
	t.Parallel()
	without, err := loadMigrations(fstest.MapFS{"m/0001_a.sql": {}, "m/0003_c.sql": {}}, "m")
	if err != nil || newest(without) != 3 {
		t.Fatalf("loadMigrations with a gap = %+v, %v; want versions 1 and 3", without, err)
	}
	with, err := loadMigrations(fstest.MapFS{"m/0001_a.sql": {}, "m/0002_b.sql": {}, "m/0003_c.sql": {}}, "m")
	if err != nil {
		t.Fatal(err)
	}
	applied := map[int]bool{}
	for _, m := range pending(without, applied) {
		applied[m.version] = true
	}
	todo := pending(with, applied)
	if len(todo) != 1 || todo[0].name != "0002_b" {
		t.Errorf("pending after versions 1 and 3 = %+v, want 0002_b alone", todo)
	}
}

func latestVersion(t *testing.T, s *Store) int {
	t.Helper()
	ms, err := s.migrations()
	if err != nil {
		t.Fatal(err)
	}
	return newest(ms)
}

func TestMigrateTwiceIsNoOp(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		dsn := b.newDSN(t)
		s := openTest(t, dsn)
		m := newMatch(t, s, "", "a", "b", "c")
		if err := s.migrate(ctx); err != nil {
			t.Fatalf("second migrate: %v", err)
		}
		s2 := openTest(t, dsn) // a second Open of the same database
		v, err := s2.SchemaVersion(ctx)
		if err != nil || v != latestVersion(t, s) {
			t.Errorf("SchemaVersion = %d, %v; want %d", v, err, latestVersion(t, s))
		}
		ms, err := s2.migrations()
		if err != nil {
			t.Fatal(err)
		}
		var rows int
		if err := s2.r.QueryRow(`SELECT count(*) FROM schema_migrations`).Scan(&rows); err != nil || rows != len(ms) {
			t.Errorf("schema_migrations has %d rows (%v), want one per migration, %d", rows, err, len(ms))
		}
		if _, err := s2.GetMatch(ctx, m.ID); err != nil {
			t.Errorf("the match stored before the second Open: %v", err)
		}
	})
}

func TestConcurrentOpenMigratesOnce(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		dsn := b.newDSN(t)
		var wg sync.WaitGroup
		stores := make([]*Store, 4)
		errs := make([]error, len(stores))
		for i := range stores {
			wg.Go(func() { stores[i], errs[i] = Open(context.Background(), dsn) })
		}
		wg.Wait()
		for i, s := range stores {
			if errs[i] != nil {
				t.Errorf("Open %d: %v", i, errs[i])
				continue
			}
			defer s.Close()
			if v, err := s.SchemaVersion(context.Background()); err != nil || v != latestVersion(t, s) {
				t.Errorf("Open %d: SchemaVersion = %d, %v", i, v, err)
			}
		}
	})
}

func TestSchemaNewerThanBuildIsRefused(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		dsn := b.newDSN(t)
		s, err := Open(context.Background(), dsn)
		if err != nil {
			t.Fatal(err)
		}
		future := latestVersion(t, s) + 1
		if _, err := s.w.Exec(s.rebind(`INSERT INTO schema_migrations (version, name, applied) VALUES (?, ?, ?)`),
			future, "from the future", s.timeArg(now())); err != nil {
			t.Fatal(err)
		}
		s.Close()
		_, err = Open(context.Background(), dsn)
		if !errors.Is(err, ErrSchemaTooNew) {
			t.Fatalf("Open of a newer schema = %v, want ErrSchemaTooNew", err)
		}
		for _, want := range []string{fmt.Sprintf("schema version %d", future), fmt.Sprintf("versions up to %d", future-1), "newer tapp"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not say %q", err, want)
			}
		}
	})
}
