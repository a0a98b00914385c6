package cli

import (
	"database/sql"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// flipBytes damages a SQLite file as a failing disk would: n bytes past its first pages
// inverted, spread over the file.
func flipBytes(t *testing.T, path string, n int) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		at := 8192 + (len(data)-8192)*(i+1)/(n+1)
		data[at] ^= 0xff
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// tapp db check finds nothing wrong in a store as the arena left it; tapp db backup copies it
// (and refuses to overwrite); after bytes of the file are damaged, every reading command
// fails with an error that says the database is damaged and names the way back, db check
// reports it and exits 1, and tapp db restore puts the backup back, keeping the damaged file.
func TestDBCheckBackupAndRestore(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "tapp.db")
	if _, errOut, err := runTapp(t, "match", "--in-process", "--bots", "random,random,random", "--deals", "400", "--db", db); err != nil {
		t.Fatalf("tapp match: %v\n%s", err, errOut)
	}
	out, errOut, err := runTapp(t, "db", "check", "--db", db)
	if err != nil || !strings.Contains(out, "pages        ok") || !strings.Contains(out, "1 proven complete") || !strings.Contains(out, "no problem found") {
		t.Fatalf("db check of a sound store: %v\n%s%s", err, out, errOut)
	}
	backup := filepath.Join(dir, "backup.db")
	if out, errOut, err := runTapp(t, "db", "backup", backup, "--db", db); err != nil || !strings.Contains(out, "checked") {
		t.Fatalf("db backup: %v\n%s%s", err, out, errOut)
	}
	if _, errOut, err := runTapp(t, "db", "backup", backup, "--db", db); err == nil || !strings.Contains(errOut, "exists") {
		t.Errorf("a backup onto an existing file: %v\n%s; want a refusal", err, errOut)
	}

	// Enough bytes that every table's pages are hit, the one-row matches table's too.
	flipBytes(t, db, 1000)
	for _, args := range [][]string{{"matches"}, {"ratings"}, {"db", "check"}} {
		out, errOut, err := runTapp(t, append(args, "--db", db)...)
		if err == nil || !strings.Contains(out+errOut, "damaged") {
			t.Errorf("tapp %s on a damaged store: %v\n%s%s; want a failure saying it is damaged", strings.Join(args, " "), err, out, errOut)
		}
		if args[0] != "db" && !strings.Contains(errOut, "tapp db restore BACKUP --db "+db) {
			t.Errorf("tapp %s on a damaged store does not name the way back:\n%s", strings.Join(args, " "), errOut)
		}
	}

	out, errOut, err = runTapp(t, "db", "restore", backup, "--db", db)
	if err != nil || !strings.Contains(out, "kept as "+db+".replaced-") {
		t.Fatalf("db restore: %v\n%s%s", err, out, errOut)
	}
	if out, errOut, err := runTapp(t, "db", "check", "--db", db); err != nil || !strings.Contains(out, "no problem found") {
		t.Errorf("db check after the restore: %v\n%s%s", err, out, errOut)
	}
	kept, _ := filepath.Glob(db + ".replaced-*")
	if len(kept) == 0 {
		t.Error("the damaged database was not kept")
	}
}

// tapp db check compares what the arena keeps up to date with what the stored deals give: a
// league's totals, its planned deals, a job marked done without its deals, the leaderboard's sums, a match's
// chain; each is a problem, named.
func TestDBCheckFindsWrongAggregates(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "league.db")
	if _, errOut, err := runTapp(t, "league", "run", leagueFile(t, dir, "agg", "", 1), "--db", db, "--logs", filepath.Join(dir, "logs")); err != nil {
		t.Fatalf("tapp league run: %v\n%s", err, errOut)
	}
	if out, errOut, err := runTapp(t, "db", "check", "--db", db); err != nil || !strings.Contains(out, "4 proven complete") {
		t.Fatalf("db check of the league: %v\n%s%s", err, out, errOut)
	}
	for _, c := range []struct {
		name, stmt, want, notWant string
	}{
		{"a league total", `UPDATE league_units SET net0 = net0 + 5 WHERE rowid = (SELECT min(rowid) FROM league_units)`, "league agg: its totals of match", ""},
		{"a league's planned deals", `UPDATE leagues SET planned_deals = planned_deals + 6`, "league agg: it counts 30 deals planned, its jobs have 24", ""},
		{"a deal deleted under a done job", `DELETE FROM deals WHERE rowid = (SELECT min(rowid) FROM deals)`, "is done with 5 of its 6 deals stored", ""},
		{"the leaderboard's sums", `UPDATE rating_tables SET ` + "units = units + 1" + ` WHERE rowid = (SELECT min(rowid) FROM rating_tables)`,
			"the leaderboard's kept sums give another board", ""},
		// A damaged record (SQLite's pages are sound: it keeps no checksum of a row's bytes) is
		// named, and the match's other deals are still checked; the league's totals are not said
		// to count deals "none" of which is stored.
		{"a deal's record", `UPDATE deals SET record = record || x'00' WHERE rowid = (SELECT min(rowid) FROM deals)`,
			"REC-UNREADABLE", "but none is stored"},
	} {
		data, err := os.ReadFile(db)
		if err != nil {
			t.Fatal(err)
		}
		bad := filepath.Join(t.TempDir(), "bad.db")
		if err := os.WriteFile(bad, data, 0o644); err != nil {
			t.Fatal(err)
		}
		conn, err := sql.Open("sqlite", bad)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := conn.Exec(c.stmt); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		conn.Close()
		out, errOut, err := runTapp(t, "db", "check", "--db", bad)
		if err == nil || !strings.Contains(out, c.want) || c.notWant != "" && strings.Contains(out, c.notWant) {
			t.Errorf("db check after %s was changed: %v\n%s%s; want a problem saying %q (and none %q)", c.name, err, out, errOut, c.want, c.notWant)
		}
	}
}

// A store on read-only media reads: every reading command opens it read-only (SQLite
// immutable there, as it cannot make its shared memory), and one that needs a migration
// says how to get it. (A read-only bind mount of bubblewrap stands for the media.)
func TestReadingCommandsReadAStoreOnReadOnlyMedia(t *testing.T) {
	t.Parallel()
	bwrap, err := exec.LookPath("bwrap")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("no bwrap: .ci/run installs bubblewrap")
		}
		t.Skip("no bwrap (apt-get install bubblewrap) to mount a folder read-only")
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "tapp.db")
	pm := playMatch(t, "modern", 3, "random", "random", "heuristic")
	data, err := os.ReadFile(pm.dsn)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(db, data, 0o644); err != nil {
		t.Fatal(err)
	}
	readOnly := func(args ...string) (string, error) {
		cmd := exec.Command(bwrap, append([]string{"--dev-bind", "/", "/", "--ro-bind", dir, dir, tappBin}, args...)...)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := readOnly("true"); err != nil && strings.Contains(out, "bwrap") {
		t.Skipf("bubblewrap cannot mount here: %s", out)
	}
	for _, args := range [][]string{{"matches"}, {"ratings"}, {"replay", pm.id}, {"replay", "verify", pm.id}, {"db", "check"}} {
		out, err := readOnly(append(args, "--db", db)...)
		if err != nil {
			t.Errorf("tapp %s on read-only media: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	if out, err := readOnly("match", "--in-process", "--bots", "random,random,random", "--deals", "1", "--db", db); err == nil {
		t.Errorf("a match stored on read-only media: no error\n%s", out)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("files beside the database after reading it read-only: %v", entries)
	}
	// A database an older build left (here: one that says so) cannot be migrated there.
	conn, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(`DELETE FROM schema_migrations WHERE version = (SELECT max(version) FROM schema_migrations)`); err != nil {
		t.Fatal(err)
	}
	conn.Close()
	if out, err := readOnly("matches", "--db", db); err == nil || !strings.Contains(out, "cannot be written here: migrate it where it can (tapp db migrate") {
		t.Errorf("an older schema on read-only media: %v\n%s; want an error saying how to migrate it", err, out)
	}
}
