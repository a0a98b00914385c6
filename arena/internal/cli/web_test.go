package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/replay"
	"github.com/tapparena/tapp/arena/internal/store"
	"github.com/tapparena/tapp/engine"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// The dashboard's tests drive the real page in headless Chromium (Debian's chromium package;
// .ci/run installs it) against the real binary: `tapp web` over a stored match, and
// `tapp serve --http` while a match runs. Screenshots (PNG) land in $TAPP_ARTIFACTS (default: a
// folder under the system's temporary directory), named after the test.

func chromiumPath(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("no chromium on PATH: .ci/run installs Debian's chromium package for the dashboard's tests")
	}
	t.Skip("no chromium on PATH (apt-get install chromium) to test the dashboard in a browser")
	return ""
}

// browser is a headless Chromium tab that the test's cleanup closes.
func browser(t *testing.T) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chromiumPath(t)),
		chromedp.NoSandbox, chromedp.DisableGPU, chromedp.WindowSize(1200, 1000))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	ctx, cancelTime := context.WithTimeout(ctx, patience(t, 3*time.Minute))
	t.Cleanup(func() { cancelTime(); cancel(); cancelAlloc() })
	return ctx
}

// open shows a page of the dashboard and waits until it has drawn it.
func open(t *testing.T, ctx context.Context, base, hash string) {
	t.Helper()
	cur, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.href`))
	if err != nil {
		t.Fatal(err)
	}
	step := chromedp.Navigate(base + hash)
	if strings.HasPrefix(cur, base) { // the same page: change the hash, as a click on a link does
		step = chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := chromedp.Evaluate[any](fmt.Sprintf(`document.body.dataset.ready=""; location.hash=%q; 0`, hash))(ctx, tg)
			return err
		})
	}
	if err := chromedp.Do(ctx, step, chromedp.WaitVisible(`body[data-ready="1"]`)); err != nil {
		t.Fatalf("opening %s%s: %v", base, hash, err)
	}
	errText, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector("main .error")||{}).textContent||""`))
	if errText != "" {
		t.Fatalf("%s%s shows an error: %s", base, hash, errText)
	}
}

func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	dir := os.Getenv("TAPP_ARTIFACTS")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "tapp-test-artifacts")
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Errorf("screenshot %s: %v", name, err)
		return
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Error(err)
		return
	}
	path := filepath.Join(dir, t.Name()+"-"+name+".png")
	path = strings.ReplaceAll(path, "/"+t.Name(), "/"+strings.ReplaceAll(t.Name(), "/", "_"))
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Error(err)
		return
	}
	t.Logf("screenshot: %s", path)
}

// startWeb runs `tapp web` over db and returns the dashboard's URL.
func startWeb(t *testing.T, db string) string {
	t.Helper()
	return startWebEnv(t, db)
}

// startWebEnv is startWeb with more environment (KEY=VALUE) for tapp web.
func startWebEnv(t *testing.T, db string, env ...string) string {
	t.Helper()
	cmd := exec.Command(tappBin, "web", "--db", db, "--http", "127.0.0.1:0")
	cmd.Env = append(os.Environ(), env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if url, ok := strings.CutPrefix(sc.Text(), "dashboard: "); ok {
				urls <- url
			}
		}
	}()
	select {
	case url := <-urls:
		return url
	case <-time.After(patience(t, 30*time.Second)):
		t.Fatal("tapp web printed no dashboard URL in time (30 s on an idle machine)")
		return ""
	}
}

// visibleCards are the card faces a selector's elements show (hidden backs left out).
func visibleCards(t *testing.T, ctx context.Context, selector string) []string {
	t.Helper()
	js := fmt.Sprintf(`[...document.querySelectorAll(%q)].map(e => e.dataset.card).filter(c => c && c !== "hidden")`, selector)
	cards, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](js))
	if err != nil {
		t.Fatal(err)
	}
	return cards
}

func TestWebLeaderboardReplayAndSeatViews(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "web.db")
	if out, err := exec.Command(tappBin, "match", "--bots", "random,heuristic,random", "--deals", "6", "--seed", "11", "--db", db).CombinedOutput(); err != nil {
		t.Fatalf("tapp match: %v\n%s", err, out)
	}
	out, err := exec.Command(tappBin, "ratings", "--json", "--db", db).Output()
	if err != nil {
		t.Fatalf("tapp ratings: %v", err)
	}
	var board struct {
		Bots []struct {
			Bot string `json:"bot"`
		} `json:"bots"`
	}
	if err := json.Unmarshal(out, &board); err != nil {
		t.Fatal(err)
	}
	base := startWeb(t, db)
	ctx := browser(t)

	// The leaderboard lists the bots in the order `tapp ratings` ranks them.
	open(t, ctx, base, "#/")
	rows, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("#board tbody tr")].map(r => r.dataset.bot)`))
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, b := range board.Bots {
		want = append(want, b.Bot)
	}
	if strings.Join(rows, ",") != strings.Join(want, ",") {
		t.Errorf("leaderboard rows = %v, want the order of tapp ratings %v", rows, want)
	}
	screenshot(t, ctx, "leaderboard")

	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ms, err := st.ListMatches(context.Background(), domain.MatchFilter{})
	if err != nil || len(ms) != 1 {
		t.Fatalf("stored matches: %v, %v", ms, err)
	}
	m := ms[0]
	for _, number := range []int{0, 5} {
		rec, err := st.Deal(context.Background(), m.ID, number)
		if err != nil {
			t.Fatal(err)
		}
		// Stepped to the end, the replay shows the stored settlement.
		open(t, ctx, base, fmt.Sprintf("#/replay/%s/%d?view=full", m.ID, number))
		if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.End), chromedp.WaitVisible(`#payoffs`)); err != nil {
			t.Fatal(err)
		}
		payoffs, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("[data-payoff-seat]")].map(e => e.textContent)`))
		if err != nil {
			t.Fatal(err)
		}
		var stored []string
		for seat := 0; seat < m.Spec.Rules.Players; seat++ {
			stored = append(stored, fmt.Sprintf("%+d", rec.Outcome.Payoff[seat]))
		}
		if strings.Join(payoffs, " ") != strings.Join(stored, " ") {
			t.Errorf("deal %d: the replay's final payoffs are %v, the stored settlement %v", number, payoffs, stored)
		}
		if number == 0 {
			screenshot(t, ctx, "replay-end")
		}

		// From one seat's view, no step shows a card that seat did not know then.
		const seat = engine.Seat(1)
		walk, err := replay.NewWalk(replay.MatchOf(&m), rec, replay.SeatView(seat))
		if err != nil {
			t.Fatal(err)
		}
		for k := 0; k < len(walk.Steps); k += 3 {
			open(t, ctx, base, fmt.Sprintf("#/replay/%s/%d?view=%d&step=%d", m.ID, number, seat, k))
			obs := walk.Steps[k].Obs
			known := obs.Hand | obs.Exposed | obs.Tapp | obs.Discarded
			for _, c := range obs.Current.Cards {
				if c.Valid() {
					known = known.With(c)
				}
			}
			for s := range obs.Played {
				known |= obs.Played[s]
			}
			if walk.Steps[k].End && obs.Reveal != nil {
				for s := range obs.Reveal.Hands {
					known |= obs.Reveal.Hands[s]
				}
				known |= obs.Reveal.Tapp
			}
			for _, c := range visibleCards(t, ctx, "#felt .card") {
				card, err := engine.ParseCard(c)
				if err != nil || !known.Has(card) {
					t.Errorf("deal %d step %d, seat %d's view shows %s, which that seat did not know", number, k, seat, c)
				}
			}
			if k == 3 && number == 0 {
				screenshot(t, ctx, "replay-seat-view")
			}
		}
	}
}

func TestWebLiveViewShowsOnlyPublicCards(t *testing.T) {
	t.Parallel()
	a := startServeWith(t, "--http", "127.0.0.1:0")
	for _, name := range []string{"r1", "r2", "r3"} {
		a.goBot(name, "random")
	}
	a.waitConnected("r1", "r2", "r3")
	base := a.dashboardURL()
	start, err := a.admin.StartMatch(a.ctx(), &tappv1.StartMatchRequest{Bots: []string{"r1", "r2", "r3"}, Deals: 20000, Seed: 5,
		TimeControl: &tappv1.TimeControl{PerDecision: durationpb.New(time.Second), Overage: durationpb.New(5 * time.Second), MaxStrikes: 3}})
	if err != nil {
		t.Fatal(err)
	}
	id := start.GetMatchId()
	ctx := browser(t)
	open(t, ctx, base, "#/live/"+id)

	type shown struct {
		Deal      int      `json:"deal"`
		LastIndex int      `json:"lastIndex"`
		Trick     []string `json:"trick"`
		Hands     []string `json:"hands"`
	}
	const snap = `[...document.querySelectorAll("[data-live-deal]")].map(s => ({deal: +s.dataset.liveDeal, lastIndex: +s.dataset.lastIndex,
		trick: [...s.querySelectorAll("[data-trick] .card")].map(c => c.dataset.card),
		hands: [...s.querySelectorAll("[data-hand] .card")].map(c => c.dataset.card)}))`
	var snapshots []shown
	over := false
	for i := 0; i < 60 && !over; i++ {
		got, err := chromedp.Run(ctx, chromedp.Evaluate[[]shown](snap))
		if err != nil {
			t.Fatal(err)
		}
		snapshots = append(snapshots, got...)
		if i == 5 {
			screenshot(t, ctx, "live")
		}
		status, _ := chromedp.Run(ctx, chromedp.Text("#live-status"))
		over = strings.Contains(status, "over")
		time.Sleep(250 * time.Millisecond)
	}
	if len(snapshots) == 0 {
		t.Fatal("the live page showed no deal of the running match")
	}
	// The match's head names its bots with their score so far, and its progress.
	rows, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("#live-score tbody tr")].map(r => r.dataset.bot)`))
	if err != nil || strings.Join(rows, ",") != "r1,r2,r3" {
		t.Errorf("the live page's score lists %v (%v), want the match's bots r1, r2, r3", rows, err)
	}
	progress, err := chromedp.Run(ctx, chromedp.Text("#live-progress"))
	if err != nil || !strings.Contains(progress, "of 20000 deals played") {
		t.Errorf("the live page's progress says %q (%v), want N of 20000 deals played", progress, err)
	}
	bots, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("[data-live-deal] li")].map(li => li.textContent.split(":")[0])`))
	if err != nil || len(bots) == 0 || !strings.HasPrefix(bots[0], "r") {
		t.Errorf("the live deals name %v (%v), want the bots", bots, err)
	}
	// The match plays on until the arena stops at the test's end; its unfinished deals are
	// not stored and so not checked.
	st, err := store.Open(context.Background(), a.db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	m, err := st.GetMatch(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, s := range snapshots {
		rec, err := st.Deal(context.Background(), id, s.Deal)
		if err != nil {
			continue // a deal the shutdown cut short is not stored: nothing to check it against
		}
		public := publicLog(t, m, rec)
		known := engine.CardSet(0)
		ended := false
		for i, ev := range public {
			if i > s.LastIndex {
				break
			}
			if ev.Kind == engine.EvCard {
				known = known.With(ev.Card)
			}
			ended = ended || ev.Kind == engine.EvDealEnd
		}
		for _, c := range append(s.Trick, s.Hands...) {
			card, err := engine.ParseCard(c)
			if err != nil || !(ended || known.Has(card)) {
				t.Errorf("deal %d after public event %d: the live page shows %s, which nobody had played", s.Deal, s.LastIndex, c)
			}
		}
		if len(s.Hands) > 0 && !ended {
			t.Errorf("deal %d after public event %d: the live page shows hands before the deal is over", s.Deal, s.LastIndex)
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no snapshot of the live page could be checked against a stored deal")
	}
}

// publicLog is a stored deal's event log as the public sees it, replayed with the engine.
func publicLog(t *testing.T, m *domain.Match, rec *domain.DealRecord) []engine.Event {
	t.Helper()
	st, err := engine.NewState(m.Spec.Rules, rec.Deal, rec.Options)
	if err != nil {
		t.Fatal(err)
	}
	for _, mv := range rec.Moves {
		if err := st.Apply(mv.Action); err != nil {
			t.Fatal(err)
		}
	}
	return st.EventsFor(engine.NoSeat, 0)
}
