package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/store"
)

// The league pages count matches as matches (not duplicate groups), show each bot's strikes,
// fallbacks and forfeits from the store's totals, let the admin pause and resume a running
// league, and every page fits a phone's 390 px without sideways scrolling.
func TestWebLeaguePagesPauseAndFitAPhone(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: runs a league, tapp web and Chromium")
	}
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "league.db")
	file := filepath.Join(dir, "phone.yaml")
	if err := os.WriteFile(file, []byte(`name: phone
rules: modern
format: ladder
rounds: 0
matches_per_round: 1
deals: 1
seed: 5
concurrency: 2
bots:
  - name: r1
    builtin: random
  - name: heuristic
    builtin: heuristic
  - name: r2
    builtin: random
    seed: 9
`), 0o644); err != nil {
		t.Fatal(err)
	}
	league := exec.Command(tappBin, "league", "run", file, "--db", db, "--for", "3m", "--logs", filepath.Join(dir, "logs"))
	logs := &lockedBuffer{}
	league.Stdout, league.Stderr = logs, logs
	if err := league.Start(); err != nil {
		t.Fatal(err)
	}
	ended := make(chan error, 1)
	go func() { ended <- league.Wait() }()
	t.Cleanup(func() {
		_ = league.Process.Signal(os.Interrupt)
		select {
		case <-ended:
		case <-time.After(patience(t, 30*time.Second)):
			_ = league.Process.Kill()
		}
		if t.Failed() {
			t.Logf("league log:\n%s", logs.String())
		}
	})
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	waitDeals := func(atLeast int) int {
		t.Helper()
		for deadline := time.Now().Add(patience(t, 2*time.Minute)); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
			if n, _ := st.LeagueDeals(context.Background(), "phone"); n >= atLeast {
				return n
			}
		}
		t.Fatalf("the league stored fewer than %d deals in time (2 minutes on an idle machine)", atLeast)
		return 0
	}
	waitDeals(6) // a match finished at least
	// holds waits until a paused league stores no deal for 3 s (the deals in flight finish)
	// and returns how many it has.
	holds := func() int {
		t.Helper()
		held, still := -1, time.Now()
		for deadline := time.Now().Add(patience(t, time.Minute)); time.Since(still) < 3*time.Second; time.Sleep(100 * time.Millisecond) {
			if n, _ := st.LeagueDeals(context.Background(), "phone"); n != held {
				held, still = n, time.Now()
			}
			if time.Now().After(deadline) {
				t.Fatal("the paused league still stores deals after a minute (on an idle machine's scale)")
			}
		}
		return held
	}

	const admin = "phone-admin-token-0123456789"
	base := startWebEnv(t, db, "TAPP_ADMIN_TOKEN="+admin)
	ctx := browser(t)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile)); err != nil {
		t.Fatal(err)
	}
	fits := func(page string) {
		t.Helper()
		w := evalJS[int](t, ctx, `document.documentElement.scrollWidth`)
		if w > 390 {
			wide := evalJS[string](t, ctx, `[...document.querySelectorAll("main *")].filter(e => e.getBoundingClientRect().right > 391 && !e.closest(".scroll")).slice(0, 3).map(e => e.tagName + "." + e.className + ": " + (e.textContent || "").slice(0, 40)).join(" | ")`)
			t.Errorf("%s is %d px wide at 390 px (sideways scrolling): %s", page, w, wide)
		}
	}

	// The league list and page count matches, not groups.
	open(t, ctx, base, "#/leagues")
	fits("the league list")
	l, err := st.GetLeague(context.Background(), "phone")
	if err != nil {
		t.Fatal(err)
	}
	shown := evalJS[string](t, ctx, `document.querySelector('[data-league="phone"] [data-matches]').textContent`)
	var finished, scheduled int
	if _, err := fmt.Sscanf(shown, "%d of %d", &finished, &scheduled); err != nil || finished > l.MatchesFinished+2 || finished < 1 || scheduled < finished {
		t.Errorf("the league list shows %q matches; the store has %d of %d finished", shown, l.MatchesFinished, l.Matches)
	}
	open(t, ctx, base, "#/league/phone")
	fits("the league page")
	screenshot(t, ctx, "league-phone")
	bots := evalJS[[]string](t, ctx, `[...document.querySelectorAll("#bot-totals tbody tr")].map(r => r.dataset.bot)`)
	if strings.Join(bots, ",") != "heuristic,r1,r2" {
		t.Errorf("the league page's bot totals list %v, want heuristic, r1, r2", bots)
	}

	// Pausing from the page: the admin token is asked for, the league stops starting deals.
	if err := chromedp.Do(ctx, chromedp.WaitVisible("#pause"), chromedp.SendKeys("#admin-token", admin), chromedp.Click("#pause")); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(patience(t, time.Minute)); ; time.Sleep(100 * time.Millisecond) {
		if l, _ := st.GetLeague(context.Background(), "phone"); l != nil && l.Paused {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the league is not paused a minute after the page's Pause")
		}
	}
	held := holds()
	out, err := exec.Command(tappBin, "league", "status", "phone", "--db", db).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "paused") {
		t.Errorf("tapp league status of the paused league: %v\n%s", err, out)
	}
	open(t, ctx, base, "#/leagues") // the same page again would not be drawn afresh
	open(t, ctx, base, "#/league/phone")
	if status := evalJS[string](t, ctx, `document.querySelector('[data-stat="status"] b').textContent`); status != "running, paused" {
		t.Errorf("the paused league's page says %q", status)
	}
	if err := chromedp.Do(ctx, chromedp.Click("#pause")); err != nil { // now "Resume"; the token is kept for the session
		t.Fatal(err)
	}
	waitDeals(held + 1)

	// The same from the command line: paused by its file, resumed by its name.
	if out, errOut, err := runTapp(t, "league", "pause", file, "--db", db); err != nil || !strings.Contains(out, "league phone paused") {
		t.Fatalf("tapp league pause FILE: %v\n%s%s", err, out, errOut)
	}
	if l, err := st.GetLeague(context.Background(), "phone"); err != nil || !l.Paused {
		t.Fatalf("after tapp league pause the store says paused=%v (%v)", l != nil && l.Paused, err)
	}
	held = holds()
	if out, _, err := runTapp(t, "league", "resume", "phone", "--db", db); err != nil || !strings.Contains(out, "league phone resumed") {
		t.Fatalf("tapp league resume NAME: %v\n%s", err, out)
	}
	waitDeals(held + 1)
	// A name the store does not have is a usage error (exit status 2) that says so.
	_, errOut, err := runTapp(t, "league", "pause", "nosuch", "--db", db)
	if ee := (*exec.ExitError)(nil); !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(errOut, `no league "nosuch"`) {
		t.Errorf("tapp league pause nosuch: %v\n%s", err, errOut)
	}

	// Every other page fits too.
	ms, err := st.ListMatches(context.Background(), domain.MatchFilter{LeagueID: "phone"})
	if err != nil || len(ms) == 0 {
		t.Fatalf("matches: %v, %v", ms, err)
	}
	m := ms[len(ms)-1] // the oldest: finished
	for _, page := range []string{"#/", "#/matches", "#/match/" + m.ID,
		"#/replay/" + m.ID + "/0?view=full&step=8", "#/replay/" + m.ID + "/0?view=1&step=40", "#/live"} {
		open(t, ctx, base, page)
		fits(page)
		if strings.Contains(page, "step=8") {
			screenshot(t, ctx, "replay-phone")
		}
	}
}
