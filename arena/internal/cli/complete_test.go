package cli

import (
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tapparena/tapp/arena/internal/domain"
)

// verifyComplete runs tapp replay verify on every match of db (or of league) and fails the
// test unless each one's commitment holds and it is complete; it returns the matches checked.
func verifyComplete(t *testing.T, db, league string) int {
	t.Helper()
	st := openDB(t, db)
	ms, err := st.ListMatches(context.Background(), domain.MatchFilter{LeagueID: league})
	if err != nil || len(ms) == 0 {
		t.Fatalf("matches of %q in %s: %d, %v", league, db, len(ms), err)
	}
	for _, m := range ms {
		out, errOut, err := runTapp(t, "replay", "verify", m.ID, "--db", db)
		if err != nil || !strings.Contains(out, "commitment "+m.Commitment+" holds") || !strings.Contains(out, "complete: all") ||
			m.CommitmentVersion != 2 {
			t.Errorf("verify of match %s (league %q, commitment version %d): %v\n%s%s; want its commitment holding and it complete",
				m.ID, league, m.CommitmentVersion, err, out, errOut)
		}
	}
	return len(ms)
}

// Every kind of match commits to its deals and manifest before the first and is proven
// complete once it is over: tapp match (bots over loopback gRPC), --in-process, --arena
// (a match started on a running arena), a league and an SPRT.
func TestEveryKindOfMatchIsCommittedAndProvenComplete(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	t.Run("match", func(t *testing.T) {
		t.Parallel()
		db := filepath.Join(dir, "match.db")
		if out, errOut, err := runTapp(t, "match", "--bots", "random,heuristic,random", "--deals", "2", "--duplicate", "--db", db); err != nil ||
			!strings.Contains(out, "committed to before its first deal") {
			t.Fatalf("tapp match: %v\n%s%s", err, out, errOut)
		}
		verifyComplete(t, db, "")
	})
	t.Run("in-process", func(t *testing.T) {
		t.Parallel()
		db := filepath.Join(dir, "inproc.db")
		if _, errOut, err := runTapp(t, "match", "--in-process", "--bots", "random,random,heuristic", "--deals", "5", "--db", db); err != nil {
			t.Fatalf("tapp match --in-process: %v\n%s", err, errOut)
		}
		verifyComplete(t, db, "")
	})
	t.Run("arena", func(t *testing.T) {
		t.Parallel()
		a := startServe(t)
		for _, n := range []string{"x", "y", "z"} {
			a.goBot(n, "random")
		}
		a.waitConnected("x", "y", "z")
		cmd := exec.Command(tappBin, "match", "--arena", a.addr, "--bots", "x,y,z", "--deals", "3", "--duplicate")
		cmd.Env = append(os.Environ(), "TAPP_ADMIN_TOKEN="+e2eAdmin)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("tapp match --arena: %v\n%s", err, out)
		}
		verifyComplete(t, a.db, "")
	})
	t.Run("league", func(t *testing.T) {
		t.Parallel()
		db := filepath.Join(dir, "league.db")
		file := leagueFile(t, dir, "kl", "", 1)
		if _, errOut, err := runTapp(t, "league", "run", file, "--db", db, "--logs", filepath.Join(dir, "league-logs")); err != nil {
			t.Fatalf("tapp league run: %v\n%s", err, errOut)
		}
		if n := verifyComplete(t, db, "kl"); n != 4 {
			t.Errorf("%d matches of the round robin of 4 bots at tables of 3, want 4", n)
		}
	})
	t.Run("sprt", func(t *testing.T) {
		t.Parallel()
		db := filepath.Join(dir, "sprt.db")
		bots := filepath.Join(dir, "bots.yaml")
		if err := os.WriteFile(bots, []byte("name: bots\nbots:\n  - {name: f1, builtin: random, seed: 11}\n  - {name: f2, builtin: random, seed: 12}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		out, errOut, err := runTapp(t, "sprt", "--candidate", "heuristic", "--baseline", "random", "--field", "f1,f2", "--bots", bots,
			"--db", db, "--logs", filepath.Join(dir, "sprt-logs"), "--deals", "1", "--max-pairs", "2", "--json")
		if err != nil {
			t.Fatalf("tapp sprt: %v\n%s%s", err, out, errOut)
		}
		var v map[string]any
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatal(err)
		}
		leagues, err := openDB(t, db).ListLeagues(context.Background())
		if err != nil || len(leagues) != 1 {
			t.Fatalf("leagues of the SPRT: %v, %v", leagues, err)
		}
		verifyComplete(t, db, leagues[0].ID)
	})
}

// The auditor's tries of the issue: 3 of a finished match's deals deleted from the database,
// then an export of it with lines doubled, out of order and cut short, or with its
// commitment and nonce stripped: tapp replay verify fails every one of them (exit 1), and
// says what is wrong. An export made to look older (the first format: no chain, no
// manifest, no commitment) checks out deal by deal, as old exports do, and --complete
// refuses it, as it does an excerpt; the export as written passes --complete.
func TestReplayVerifyFailsALossOrAnEdit(t *testing.T) {
	t.Parallel()
	pm := playMatch(t, "modern", 10, "heuristic", "random", "random")
	file := filepath.Join(t.TempDir(), "match.jsonl")
	if _, errs, err := run(t, "", "replay", "export", pm.id, "--out", file, "--no-sent", "--db", pm.dsn); err != nil {
		t.Fatalf("export: %v\n%s", err, errs)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	excerpt, errs, err := run(t, "", "replay", "export", pm.id, "--deal", "3", "--no-sent", "--db", pm.dsn)
	if err != nil {
		t.Fatalf("export --deal 3: %v\n%s", err, errs)
	}

	db, err := sql.Open("sqlite", pm.dsn)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`DELETE FROM deals WHERE match_id = ? AND number IN (2, 5, 9)`, pm.id); err != nil {
		t.Fatal(err)
	}
	db.Close()
	out, _, err := run(t, "", "replay", "verify", pm.id, "--db", pm.dsn)
	if err == nil || exitCode(err) != 1 || !strings.Contains(out, "REC-MISSING") || !strings.Contains(out, "deal(s) 2, 5, 9 of the 10 deals") ||
		strings.Contains(out, "complete: all") {
		t.Errorf("verify after 3 deals were deleted: %v\n%s; want a failure naming deals 2, 5 and 9", err, out)
	}

	strip := func(l string) string {
		var v map[string]any
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatal(err)
		}
		delete(v, "commitment")
		delete(v, "nonce")
		b, _ := json.Marshal(v)
		return string(b)
	}
	var stripped, older []string
	for _, l := range lines {
		stripped = append(stripped, strip(l))
		var v map[string]any
		if err := json.Unmarshal([]byte(strip(l)), &v); err != nil {
			t.Fatal(err)
		}
		v["format"] = "tapp-replay/1"
		for _, k := range []string{"chain", "manifest", "commitment_version", "sent_digest"} {
			delete(v, k)
		}
		b, _ := json.Marshal(v)
		older = append(older, string(b))
	}
	for _, c := range []struct {
		name  string
		lines []string
		want  string
	}{
		{"a line twice", append(append([]string{}, lines...), lines[4]), "REC-DUPLICATE"},
		{"lines out of order", append([]string{lines[1], lines[0]}, lines[2:]...), "REC-ORDER"},
		{"2 deals of 10", lines[:2], "REC-MISSING"},
		{"commitment and nonce stripped", stripped, "REC-COMMITMENT"},
	} {
		bad := filepath.Join(t.TempDir(), "bad.jsonl")
		if err := os.WriteFile(bad, []byte(strings.Join(c.lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		out, _, err := run(t, "", "replay", "verify", bad)
		if err == nil || exitCode(err) != 1 || !strings.Contains(out, c.want) {
			t.Errorf("verify of an export with %s: %v\n%s; want a failure naming %s", c.name, err, out, c.want)
		}
	}

	for _, c := range []struct {
		name   string
		lines  []string
		proven bool
	}{{"as written", lines, true}, {"made to look older", older, false}, {"of one deal (--deal)", []string{strings.TrimSpace(excerpt)}, false}} {
		f := filepath.Join(t.TempDir(), "c.jsonl")
		if err := os.WriteFile(f, []byte(strings.Join(c.lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, _, err := run(t, "", "replay", "verify", f); err != nil {
			t.Errorf("verify of the export %s: %v\n%s; want every deal to check out", c.name, err, out)
		}
		out, errs, err := run(t, "", "replay", "verify", "--complete", f)
		if c.proven != (err == nil) || !c.proven && (exitCode(err) != 1 || !strings.Contains(err.Error(), "not proven complete")) {
			t.Errorf("verify --complete of the export %s: %v\n%s%s; want proven %t", c.name, err, out, errs, c.proven)
		}
	}
}
