package cli

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/store"
)

// The league tests run the real binary (built in TestMain) as a subprocess, so that it can be
// killed with SIGKILL in the middle of a league like a power cut.

// leagueFile writes a league file into dir and returns its path.
func leagueFile(t *testing.T, dir, name, extra string, deals int) string {
	t.Helper()
	text := fmt.Sprintf(`name: %s
rules: modern
format: round-robin
deals: %d
duplicate: true
seed: 99
concurrency: 8
grace: 1s
time_control: {per_decision: 2s, overage: 10s, strikes: 3}
bots:
  - {name: heuristic, builtin: heuristic}
  - {name: r1, builtin: random, seed: 1}
  - {name: r2, builtin: random, seed: 2}
  - {name: r3, builtin: random, seed: 3}
%s`, name, deals, extra)
	path := filepath.Join(dir, name+".yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// leagueCmd is `tapp ARGS` in its own process group (so that SIGKILL reaches the bots it
// launched too, as a power cut would).
func leagueCmd(args ...string) *exec.Cmd {
	cmd := exec.Command(tappBin, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return cmd
}

func runTapp(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	cmd := leagueCmd(args...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err = cmd.Run()
	return o.String(), e.String(), err
}

func openDB(t *testing.T, path string) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// storedResults lists a league's raw results in a fixed order, for comparing databases.
func storedResults(t *testing.T, path, leagueID string) []string {
	t.Helper()
	rows, err := openDB(t, path).Results(context.Background(), domain.MatchFilter{LeagueID: leagueID})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range rows {
		out = append(out, fmt.Sprintf("%s/%03d/%d %s %+d %d", r.MatchID, r.Deal, r.Seat, r.Bot, r.Payoff, r.Points))
	}
	sort.Strings(out)
	return out
}

func ratingsJSON(t *testing.T, db, leagueID string, flags ...string) map[string]any {
	t.Helper()
	out, errOut, err := runTapp(t, append([]string{"ratings", "--league", leagueID, "--json", "--db", db}, flags...)...)
	if err != nil {
		t.Fatalf("tapp ratings: %v\n%s", err, errOut)
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("ratings JSON: %v\n%s", err, out)
	}
	return v
}

// withoutMultiElo removes the figures of the multiplayer Elo (which depend on the order the
// matches finished in) and the rating over time (taken as the deals came, at times of their
// own) from a board's JSON.
func withoutMultiElo(v map[string]any) map[string]any {
	delete(v, "elo_order")
	delete(v, "rating_history")
	for _, b := range v["bots"].([]any) {
		for _, k := range []string{"multi_elo", "elo_history"} {
			delete(b.(map[string]any), k)
		}
	}
	return v
}

// waitDeals polls the database until the league run has at least n deals stored. It waits on
// the league's progress, not a wall-clock budget: it fails at once when the process exits
// first (with what it said), and otherwise only as the test's own deadline nears.
func waitDeals(t *testing.T, path, leagueID string, n int, run *watchedTapp) {
	t.Helper()
	// One store, opened once the league has made the file, polled every few milliseconds: an
	// open per poll (a migration check, on a busy machine tens of milliseconds) let a fast
	// league run past the count it was to be killed at. It is opened read-only, and only once
	// the league has migrated the file: an ordinary open in the middle of the league's own
	// migration takes the write lock itself, and a league with a short busy timeout (the
	// locked-database test's) then stops on a lock the test held.
	var st *store.Store
	defer func() {
		if st != nil {
			st.Close()
		}
	}()
	got := 0
	count := func() bool {
		if st == nil && readyToRead(path) {
			st, _ = store.OpenReadOnly(context.Background(), path, store.Options{})
		}
		if st != nil {
			if c, err := st.LeagueDeals(context.Background(), leagueID); err == nil {
				got = c
			}
		}
		return got >= n
	}
	stuck := stuckAt(t)
	for ; !count(); time.Sleep(2 * time.Millisecond) {
		select {
		case <-run.exited:
			if count() {
				return
			}
			t.Fatalf("tapp exited (%v) with %d of %d deals stored\n%s", run.err, got, n, run.stderr.String())
		default:
		}
		if pastStuck(stuck) {
			t.Fatalf("%d of %d deals stored when the test's time ran out\n%s", got, n, run.stderr.String())
		}
	}
}

// readyToRead reports whether the SQLite database at path is at this build's schema with its
// rating sums built, read through a read-only connection: then a read-only store opens it
// without writing (it would otherwise migrate it or rebuild the sums, as any open does).
func readyToRead(path string) bool {
	if _, err := os.Stat(path); err != nil {
		return false
	}
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro&_pragma=query_only(1)")
	if err != nil {
		return false
	}
	defer db.Close()
	latest, err := store.LatestSchema()
	if err != nil {
		return false
	}
	var version, stale sql.NullInt64
	if err := db.QueryRow(`SELECT max(version) FROM schema_migrations`).Scan(&version); err != nil || int(version.Int64) != latest {
		return false
	}
	err = db.QueryRow(`SELECT stale FROM rating_state WHERE id = 1`).Scan(&stale)
	return (err == nil && stale.Int64 == 0) || errors.Is(err, sql.ErrNoRows)
}

// A league killed outright (kill -9, or a pipe that closed under it) takes the bots it
// launched with it: none lives on trying to reconnect for ever.
func TestLaunchedBotsDieWithTheLeague(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("the kernel kills orphaned bots on Linux only")
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "orphans.db")
	cmd := leagueCmd("league", "run", leagueFile(t, dir, "orphans", "", 500), "--db", db)
	cmd.Dir = dir
	run := startTapp(t, cmd)
	pid := cmd.Process.Pid
	defer func() { _ = syscall.Kill(-pid, syscall.SIGKILL) }() // the group: league and bots, if the test fails
	waitDeals(t, db, "orphans", 1, run)
	bots := childProcesses(t, pid)
	if len(bots) != 4 {
		t.Fatalf("the league runs %d child processes, want its 4 bots", len(bots))
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil { // the league only, not its group
		t.Fatal(err)
	}
	_ = run.Wait()
	wait := patience(t, 20*time.Second)
	deadline := time.Now().Add(wait)
	for {
		var alive []int
		for _, b := range bots {
			if processAlive(b) {
				alive = append(alive, b)
			}
		}
		if len(alive) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("bot processes %v still run %v after their league was killed (20 s on an idle machine)", alive, wait.Round(time.Second))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// childProcesses lists the processes whose parent is pid, from /proc.
func childProcesses(t *testing.T, pid int) []int {
	t.Helper()
	stats, err := filepath.Glob("/proc/[0-9]*/stat")
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	for _, path := range stats {
		child, ppid, _, ok := procStat(path)
		if ok && ppid == pid {
			out = append(out, child)
		}
	}
	return out
}

// processAlive reports whether pid runs (a zombie, dead but not yet reaped, does not).
func processAlive(pid int) bool {
	_, _, state, ok := procStat(fmt.Sprintf("/proc/%d/stat", pid))
	return ok && state != "Z" && state != "X"
}

// procStat reads a process's pid, parent and state from its /proc stat file.
func procStat(path string) (pid, ppid int, state string, ok bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, 0, "", false
	}
	// "pid (command) state ppid ...": the command may hold spaces and parentheses.
	s := string(b)
	open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || end < open {
		return 0, 0, "", false
	}
	fields := strings.Fields(s[end+1:])
	if len(fields) < 2 {
		return 0, 0, "", false
	}
	pid, err1 := strconv.Atoi(strings.TrimSpace(s[:open]))
	ppid, err2 := strconv.Atoi(fields[1])
	return pid, ppid, fields[0], err1 == nil && err2 == nil
}

// killTwice runs the league of file on db and kills it (kill -9, its bots with it) after 15
// and after 70 of its 144 deals; false if it finished before a kill.
func killTwice(t *testing.T, file, db, logs string) bool {
	t.Helper()
	for i, at := range []int{15, 70} {
		cmd := leagueCmd("league", "run", file, "--db", db, "--logs", logs)
		var errOut bytes.Buffer
		cmd.Stderr = &errOut
		run := startTapp(t, cmd)
		waitDeals(t, db, "night", at, run)
		if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		_ = run.Wait()
		st := openDB(t, db)
		n, _ := st.LeagueDeals(context.Background(), "night")
		jobs, _ := st.Jobs(context.Background(), "night")
		leased := 0
		for _, j := range jobs {
			if j.State == domain.JobRunning {
				leased++
			}
		}
		t.Logf("kill %d: %d deals stored, %d jobs left leased to the dead process", i+1, n, leased)
		if n >= 144 {
			return false
		}
	}
	return true
}

// kill -9 in the middle of a league, run the same command again: it resumes, and with
// deterministic bots the results (and so every rating) equal an uninterrupted run's.
func TestLeagueResumesAfterKill9(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := leagueFile(t, dir, "night", "", 6) // 4 tables × 6 groups × 6 seatings = 144 deals
	ref := filepath.Join(dir, "ref.db")
	if out, errOut, err := runTapp(t, "league", "run", file, "--db", ref, "--logs", filepath.Join(dir, "ref-logs")); err != nil {
		t.Fatalf("uninterrupted league: %v\n%s\n%s", err, out, errOut)
	}

	// Kill it twice mid-way; should a busy machine let it finish before a kill lands, start
	// again on a new database (a league that finished tests no resume).
	var db string
	for attempt := 1; ; attempt++ {
		db = filepath.Join(dir, fmt.Sprintf("killed-%d.db", attempt))
		if killTwice(t, file, db, filepath.Join(dir, "logs")) {
			break
		}
		if attempt == 3 {
			t.Fatalf("the league finished before it was killed, %d times", attempt)
		}
	}
	out, errOut, err := runTapp(t, "league", "run", file, "--db", db, "--logs", filepath.Join(dir, "logs"))
	if err != nil {
		t.Fatalf("resumed league: %v\n%s\n%s", err, out, errOut)
	}
	if !strings.Contains(out, "league night finished") || !strings.Contains(errOut, "resuming league") {
		t.Errorf("resumed run did not say it resumed and finished:\n%s", out)
	}
	if !strings.Contains(errOut, "took over the jobs of workers that are gone") {
		t.Errorf("the dead process's jobs were not taken over at once:\n%s", errOut)
	}
	got, want := storedResults(t, db, "night"), storedResults(t, ref, "night")
	if len(want) != 144*3 || !reflect.DeepEqual(got, want) {
		t.Errorf("results after kill -9 and resume differ from the uninterrupted run (%d and %d seat results)", len(got), len(want))
	}
	// The multiplayer Elo rates matches in the order they finished, which the kills change:
	// every other figure is a function of the results alone.
	if g, w := withoutMultiElo(ratingsJSON(t, db, "night")), withoutMultiElo(ratingsJSON(t, ref, "night")); !reflect.DeepEqual(g, w) {
		t.Errorf("ratings differ:\nresumed       %v\nuninterrupted %v", g, w)
	}
	// The sums kept as deals were stored, through both kills, equal the raw results', and
	// --recompute says so.
	raw := ratingsJSON(t, db, "night", "--recompute")
	if c, _ := raw["kept_sums_check"].(map[string]any); c == nil || c["identical"] != true {
		t.Errorf("tapp ratings --recompute found the kept sums %v, want identical", raw["kept_sums_check"])
	}
	delete(raw, "kept_sums_check")
	if g := ratingsJSON(t, db, "night"); !reflect.DeepEqual(g, raw) {
		t.Errorf("ratings from the kept sums differ from the raw results' after kill -9:\nkept %v\nraw  %v", g, raw)
	}
	// Once more, for machines: the league is finished, and this run plays nothing.
	out, errOut, err = runTapp(t, "league", "run", file, "--db", db, "--logs", filepath.Join(dir, "logs"), "--json")
	var v struct {
		Outcome map[string]any `json:"outcome"`
	}
	if err != nil || json.Unmarshal([]byte(out), &v) != nil {
		t.Fatalf("league run --json: %v\n%s\n%s", err, out, errOut)
	}
	if want := map[string]any{"finished": true, "stopped": "", "played": 0.0, "failed": 0.0, "decisions": 0.0, "fallbacks": 0.0}; !reflect.DeepEqual(v.Outcome, want) {
		t.Errorf("outcome %v, want %v", v.Outcome, want)
	}
}

// A finished league run again prints its leaderboard without starting its bots: one that no
// longer starts does not hold it up.
func TestFinishedLeagueNeedsNoBots(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := leagueFile(t, dir, "done", "", 1)
	db := filepath.Join(dir, "done.db")
	first, errOut, err := runTapp(t, "league", "run", file, "--db", db, "--logs", filepath.Join(dir, "logs"))
	if err != nil {
		t.Fatalf("league: %v\n%s", err, errOut)
	}
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	broken := strings.Replace(string(text), "{name: r3, builtin: random, seed: 3}", `{name: r3, command: [sh, -c, "exit 1"]}`, 1)
	if broken == string(text) {
		t.Fatal("bot r3 not found in the league file")
	}
	if err := os.WriteFile(file, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), patience(t, time.Minute))
	defer cancel()
	cmd := exec.CommandContext(ctx, tappBin, "league", "run", file, "--db", db, "--logs", filepath.Join(dir, "logs"))
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("second run: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(out.String(), "league done finished already: nothing to play") {
		t.Errorf("second run did not say it played nothing:\n%s", out.String())
	}
	// The leaderboard is what follows the summary (and, after a run, the tables it ran).
	board := func(s string) string {
		i := strings.Index(s, " bots, ")
		return s[strings.LastIndex(s[:max(i, 0)], "\n")+1:]
	}
	if board(out.String()) != board(first) {
		t.Errorf("leaderboard changed:\n%s\nwant\n%s", out.String(), first)
	}
}

// A launched bot that dies is restarted and the league completes.
func TestLeagueRestartsALaunchedBotThatDies(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	mark := filepath.Join(dir, "died-once")
	// The first start of "crashy" plays for a moment and dies by SIGKILL; later starts play on.
	script := fmt.Sprintf(`"%s" bot random --arena "$TAPP_ARENA" --name "$TAPP_BOT_NAME" --capacity 8 --seed 5 & p=$!
if [ ! -e %q ]; then touch %q; sleep 0.3; kill -9 $p; echo "crashy: killed on purpose" >&2; exit 1; fi
wait $p`, tappBin, mark, mark)
	extra := fmt.Sprintf("  - name: crashy\n    command: [sh, -c, %q]\n", script)
	// Deals enough that the league plays on well past the 0.3 s (it plays ≈ 1,500 deals/s at
	// most here): with 180 it could end before the bot died.
	file := leagueFile(t, dir, "crash", extra, 20)
	db := filepath.Join(dir, "crash.db")
	logs := filepath.Join(dir, "logs")
	out, errOut, err := runTapp(t, "league", "run", file, "--db", db, "--logs", logs)
	if err != nil {
		t.Fatalf("league: %v\n%s\n%s", err, out, errOut)
	}
	if !strings.Contains(out, "league crash finished") {
		t.Errorf("league did not finish:\n%s", out)
	}
	if !strings.Contains(errOut, "bot process died, restarting") {
		t.Errorf("no restart in the log:\n%s", errOut)
	}
	stderrLog, err := os.ReadFile(filepath.Join(logs, "crashy.stderr.log"))
	if err != nil || !strings.Contains(string(stderrLog), "crashy: killed on purpose") {
		t.Errorf("the bot's stderr was not kept: %v\n%s", err, stderrLog)
	}
	// 5 bots, tables of 3: 10 tables × 20 groups × 6 seatings.
	if n, _ := openDB(t, db).LeagueDeals(context.Background(), "crash"); n != 1200 {
		t.Errorf("%d deals stored, want 1200", n)
	}
}

// holdWriteLock takes SQLite's write lock on the database and holds it until release.
func holdWriteLock(t *testing.T, path string) (release func()) {
	t.Helper()
	db, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(context.Background(), "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	return func() {
		_, _ = conn.ExecContext(context.Background(), "ROLLBACK")
		conn.Close()
		db.Close()
	}
}

// A database locked by another process stops the league with a clear error; nothing is half
// written, and once the lock is gone the same command completes the league.
func TestLeagueStopsCleanlyOnALockedDatabase(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := leagueFile(t, dir, "locked", "", 6)
	path := filepath.Join(dir, "locked.db")
	dsn := "sqlite:" + path + "?busy_timeout=300ms"
	cmd := leagueCmd("league", "run", file, "--db", dsn, "--logs", filepath.Join(dir, "logs"))
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	run := startTapp(t, cmd)
	waitDeals(t, path, "locked", 10, run)
	release := holdWriteLock(t, path)
	err := run.Wait()
	release()
	if code := cmd.ProcessState.ExitCode(); err == nil || code != 1 {
		t.Fatalf("tapp exited with %v (code %d), want failure 1\n%s", err, code, errOut.String())
	}
	last := lastLine(errOut.String())
	for _, want := range []string{"tapp: league locked stopped: database is locked by another process", "run the same command to resume"} {
		if !strings.Contains(last, want) {
			t.Errorf("last line %q does not say %q", last, want)
		}
	}
	st := openDB(t, path)
	deals, _ := st.Deals(context.Background(), "locked-r0000-m000")
	for _, d := range deals {
		if len(d.Results) != 4-1 || len(d.Decisions) == 0 {
			t.Errorf("deal %d half stored: %d results, %d decisions", d.Number, len(d.Results), len(d.Decisions))
		}
	}
	out, errText, err := runTapp(t, "league", "run", file, "--db", dsn, "--logs", filepath.Join(dir, "logs"))
	if err != nil || !strings.Contains(out, "league locked finished") {
		t.Fatalf("after the lock: %v\n%s\n%s", err, out, errText)
	}
	if n, _ := st.LeagueDeals(context.Background(), "locked"); n != 144 {
		t.Errorf("%d deals, want 144", n)
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// A broken league file is refused with the line it is wrong at.
func TestLeagueFileErrorPointsAtTheLine(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := leagueFile(t, dir, "broken", "  - {name: r4, builtin: randon}\n", 2)
	var stdout, stderr bytes.Buffer
	m := &Main{Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" }, Executable: tappBin}
	err := m.Run(context.Background(), []string{"league", "run", file, "--db", filepath.Join(dir, "x.db")})
	if err == nil || exitCode(err) != 2 {
		t.Fatalf("err %v (exit %d), want a usage error", err, exitCode(err))
	}
	want := file + `:15:25: bots[4].builtin: unknown built-in bot "randon"`
	if !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), ">   15 |   - {name: r4, builtin: randon}") {
		t.Errorf("error:\n%v\nwant it to start with %q and show line 15", err, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "x.db")); err == nil {
		t.Errorf("a database was created for a broken league file")
	}
}

// tapp sprt decides "heuristic is stronger than random" and prints the test's figures.
func TestSPRTCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "sprt.db")
	args := []string{"sprt", "--candidate", "heuristic", "--baseline", "random", "--field", "random,heuristic", "--elo1", "60",
		"--db", db, "--logs", filepath.Join(dir, "logs"), "--deals", "4"}
	_, errOut, err := runTapp(t, args...)
	if err == nil || !strings.Contains(errOut, `bot "random" is listed twice`) {
		t.Errorf("a field bot equal to the baseline: %v\n%s", err, errOut)
	}
	if _, errOut, err := runTapp(t, append(args, "--format", "session")...); err == nil || !strings.Contains(errOut, "leave out --format") {
		t.Errorf("a match flag the test ignores: %v\n%s", err, errOut)
	}
	file := filepath.Join(dir, "bots.yaml")
	if err := os.WriteFile(file, []byte("name: bots\nbots:\n  - {name: f1, builtin: random, seed: 11}\n  - {name: f2, builtin: random, seed: 12}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	args = append(args[:5:5], "--field", "f1,f2", "--bots", file)
	args = append(args, "--elo1", "60", "--db", db, "--logs", filepath.Join(dir, "logs"), "--deals", "4")
	out, errOut, err := runTapp(t, args...)
	if err != nil {
		t.Fatalf("tapp sprt: %v\n%s\n%s", err, out, errOut)
	}
	for _, want := range []string{"H1 accepted: heuristic is stronger than random", "LLR ", "bounds [-2.944, 2.944]",
		"α = 0.05, β = 0.05", "N = ", "heuristic − random per deal: +"} {
		if !strings.Contains(out, want) {
			t.Errorf("output does not say %q:\n%s", want, out)
		}
	}
	// Run again: the stored pairs decide at once, the same way (the tables a run played are
	// that run's).
	again, errOut, err := runTapp(t, args...)
	verdict := func(s string) string {
		var keep []string
		for _, l := range strings.Split(s, "\n") {
			if !strings.HasPrefix(l, "tables: ") {
				keep = append(keep, l)
			}
		}
		return strings.Join(keep, "\n")
	}
	if err != nil || verdict(again) != verdict(out) {
		t.Errorf("second run: %v\n%s\nwant the same output as the first:\n%s\n%s", err, again, out, errOut)
	}
}

// --max-pairs stops an undecided test at the round that reaches it, however quick the bots,
// and a larger --max-pairs goes on from there.
func TestSPRTStopsAtMaxPairs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "bots.yaml")
	if err := os.WriteFile(file, []byte("name: bots\nbots:\n  - {name: f1, builtin: random, seed: 11}\n  - {name: f2, builtin: random, seed: 12}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sprt := func(maxPairs string) map[string]any {
		t.Helper()
		// Two random bots against each other: nothing to decide in a few pairs.
		out, errOut, err := runTapp(t, "sprt", "--candidate", "random", "--baseline", "f1", "--field", "f2,heuristic",
			"--bots", file, "--db", filepath.Join(dir, "sprt.db"), "--logs", filepath.Join(dir, "logs"), "--deals", "2",
			"--max-pairs", maxPairs, "--json")
		if err != nil {
			t.Fatalf("tapp sprt --max-pairs %s: %v\n%s", maxPairs, err, errOut)
		}
		var v map[string]any
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		return v
	}
	if v := sprt("3"); v["pairs"] != 4.0 || v["status"] != "continue" {
		t.Errorf("--max-pairs 3 in rounds of 2: %v pairs, status %v; want 4 pairs, undecided", v["pairs"], v["status"])
	}
	if v := sprt("5"); v["pairs"] != 6.0 {
		t.Errorf("--max-pairs 5 after 4: %v pairs, want 6", v["pairs"])
	}
}

// Ctrl-C (SIGINT to the whole process group, as a terminal sends it) stops the league
// cleanly: it says so, gives its jobs back, and the same command finishes the league.
func TestLeagueCtrlCStopsCleanly(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := leagueFile(t, dir, "ctrlc", "", 6)
	db := filepath.Join(dir, "ctrlc.db")
	cmd := leagueCmd("league", "run", file, "--db", db, "--logs", filepath.Join(dir, "logs"))
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	run := startTapp(t, cmd)
	waitDeals(t, db, "ctrlc", 20, run)
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	wait := patience(t, 20*time.Second)
	select {
	case <-run.exited:
		if run.err != nil {
			t.Fatalf("tapp after Ctrl-C: %v\n%s", run.err, errOut.String())
		}
	case <-time.After(wait):
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		t.Fatalf("tapp did not stop within %v of Ctrl-C (20 s on an idle machine)\n%s", wait.Round(time.Second), run.stderr.String())
	}
	if !strings.Contains(out.String(), "league ctrlc stopped (interrupted): run the same command to resume") {
		t.Errorf("output:\n%s", out.String())
	}
	st := openDB(t, db)
	jobs, _ := st.Jobs(context.Background(), "ctrlc")
	for _, j := range jobs {
		if j.State == domain.JobRunning {
			t.Errorf("job %d still leased after Ctrl-C", j.ID)
		}
	}
	if l, _ := st.GetLeague(context.Background(), "ctrlc"); l.Status != domain.LeagueStopped {
		t.Errorf("league status %s, want stopped", l.Status)
	}
	if o, e, err := runTapp(t, "league", "run", file, "--db", db, "--logs", filepath.Join(dir, "logs")); err != nil || !strings.Contains(o, "league ctrlc finished") {
		t.Errorf("resumed: %v\n%s\n%s", err, o, e)
	}
}

// A bot that connects by itself with its token takes part; the league waits for it.
func TestLeagueWithATokenBot(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "token.db")
	token, errOut, err := runTapp(t, "bots", "add", "remote", "--db", db)
	if err != nil {
		t.Fatalf("bots add: %v\n%s", err, errOut)
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := lis.Addr().String()
	lis.Close()
	file := leagueFile(t, dir, "token", "  - {name: remote, token: true}\nlisten: "+addr+"\n", 1)
	// Without registration in the store the league refuses to start.
	if _, e, err := runTapp(t, "league", "run", file, "--db", filepath.Join(dir, "other.db")); err == nil ||
		!strings.Contains(e, "bot remote connects with a token but is not registered") {
		t.Errorf("unregistered token bot: %v\n%s", err, e)
	}
	league := leagueCmd("league", "run", file, "--db", db, "--logs", filepath.Join(dir, "logs"))
	var out, lerr bytes.Buffer
	league.Stdout, league.Stderr = &out, &lerr
	run := startTapp(t, league)
	time.Sleep(300 * time.Millisecond) // the league waits for the bot
	bot := leagueCmd("bot", "random", "--arena", addr, "--token", strings.TrimSpace(token), "--name", "remote", "--capacity", "8")
	if err := bot.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = syscall.Kill(-bot.Process.Pid, syscall.SIGKILL); _ = bot.Wait() }()
	wait := patience(t, 60*time.Second)
	select {
	case <-run.exited:
		if run.err != nil || !strings.Contains(out.String(), "league token finished") {
			t.Fatalf("league: %v\n%s\n%s", run.err, out.String(), lerr.String())
		}
	case <-time.After(wait):
		_ = syscall.Kill(-league.Process.Pid, syscall.SIGKILL)
		t.Fatalf("league did not finish within %v (60 s on an idle machine)\n%s", wait.Round(time.Second), run.stderr.String())
	}
	// 5 bots, tables of 3: 10 tables × 1 group × 6 seatings.
	if n, _ := openDB(t, db).LeagueDeals(context.Background(), "token"); n != 60 {
		t.Errorf("%d deals, want 60", n)
	}
}

// A standing ladder plays its epochs as leagues NAME.HASH: pausing it by its name says which
// league to pause instead of "no league".
func TestLeaguePauseOfALadderNamesItsEpoch(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "ladder.db")
	st := openDB(t, db)
	if _, err := st.EnsureLeague(context.Background(), &domain.League{ID: "ladder.0a1b2c3d", Plan: "{}"}); err != nil {
		t.Fatal(err)
	}
	_, errOut, err := runTapp(t, "league", "pause", "ladder", "--db", db)
	if ee := (*exec.ExitError)(nil); !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(errOut, "tapp league pause ladder.0a1b2c3d") {
		t.Errorf("tapp league pause ladder: %v\n%s", err, errOut)
	}
}
