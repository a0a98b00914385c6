package hosting_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/app"
	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/host"
	"github.com/tapparena/tapp/arena/internal/hosting"
	"github.com/tapparena/tapp/arena/internal/league"
	"github.com/tapparena/tapp/arena/internal/league/leaguefile"
	"github.com/tapparena/tapp/arena/internal/rating"
	"github.com/tapparena/tapp/arena/internal/server"
	"github.com/tapparena/tapp/bots/random"
	"github.com/tapparena/tapp/bots/sdk"
	"github.com/tapparena/tapp/bots/starter"
)

// pythonVersion writes a starter Python bot; highest makes it play its highest card instead
// of its lowest (a second version that plays differently).
func pythonVersion(t *testing.T, dir string, highest bool) []byte {
	t.Helper()
	if _, err := starter.Write(starter.Options{Lang: "python", Dir: dir, Name: "pybot", Repo: repoRoot(t)}); err != nil {
		t.Fatal(err)
	}
	if highest {
		p := filepath.Join(dir, "bot.py")
		b, _ := os.ReadFile(p)
		text := strings.Replace(string(b), "return min(", "return max(", 1)
		if text == string(b) {
			t.Fatal("the starter changed: no min( to replace")
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return pack(t, dir)
}

// The standing ladder: the first version of a hosted bot joins at once; a version submitted
// while the ladder plays stops the epoch, is built, plays its SPRT gauntlet against the
// version before it (the ladder's other bots as the field), and then takes its bot's place in
// the next epoch, where the board shows it under its version's name.
func TestTheStandingLadderGauntletsEveryNewVersion(t *testing.T) {
	t.Parallel()
	rt := python(t)
	sb := defaultSandbox(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir := openDir(t)
	st, token := registered(t, dir, "pybot")
	if _, err := hosting.Submit(ctx, st, hosting.Request{Bot: "pybot", Token: token, Lang: hosting.Python,
		Source: pythonVersion(t, filepath.Join(dir, "v1"), false)}); err != nil {
		t.Fatal(err)
	}
	cfg, err := leaguefile.Parse(filepath.Join(dir, "club.yaml"), []byte(`
name: club
format: ladder
rules: modern players=3
deals: 1
seed: 3
concurrency: 4
time_control: {per_decision: 5s, overage: 30s, strikes: 20}
gauntlet: {max_pairs: 2, deals: 2}
bots:
  - submission: pybot@latest
  - {name: r1, token: true}
  - {name: r2, token: true}
`), leaguefile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h, err := host.Start(ctx, host.Config{Store: st, Listen: "127.0.0.1:0", Grace: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	seats := &hosting.Seats{Host: h, Sandbox: sb, Python: rt, Dir: dir, LogDir: filepath.Join(dir, "logs")}
	var wg sync.WaitGroup
	defer func() {
		cancel()
		h.StopWithin(2 * time.Second)
		seats.Close()
		wg.Wait()
	}()
	for i, name := range []string{"r1", "r2"} {
		tok := server.NewToken("bot_")
		if err := st.CreateBot(ctx, &domain.Bot{Name: name, TokenHash: server.HashToken(tok)}); err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = sdk.Run(ctx, sdk.Config{Arena: h.Addr, Token: tok, Name: name, Capacity: 8, MaxReconnect: 5 * time.Second}, random.New(uint64(i+1)))
		}()
	}
	lad := &hosting.Ladder{Store: st, Config: cfg, Host: h, Seats: seats, Builder: &hosting.Builder{Sandbox: sb, Dir: dir, Python: rt},
		Continuous: true, Poll: 100 * time.Millisecond, Runner: league.Runner{Concurrency: 4, Poll: 100 * time.Millisecond}}
	done := make(chan error, 1)
	go func() {
		_, err := lad.Run(ctx, time.Time{})
		done <- err
	}()

	// The first version plays the ladder.
	waitFor(t, done, "pybot@1 on the ladder", func() bool { return leagueDealsWith(t, st, "pybot@1") > 0 })
	v1, _ := st.Submission(ctx, "pybot", 1)
	if v1.Gauntlet != domain.GauntletFirst {
		t.Errorf("the first version's gauntlet is %q, want %q", v1.Gauntlet, domain.GauntletFirst)
	}
	// A second version arrives while it plays.
	if _, err := hosting.Submit(ctx, st, hosting.Request{Bot: "pybot", Token: token, Lang: hosting.Python,
		Source: pythonVersion(t, filepath.Join(dir, "v2"), true)}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, done, "pybot@2 on the ladder", func() bool { return leagueDealsWith(t, st, "pybot@2") > 0 })
	v2, _ := st.Submission(ctx, "pybot", 2)
	switch v2.Gauntlet {
	case domain.GauntletStronger, domain.GauntletNotBetter, domain.GauntletUndecided:
	default:
		t.Errorf("the second version joined with gauntlet %q", v2.Gauntlet)
	}
	gauntlet, err := st.LeagueDeals(ctx, "club.gauntlet.pybot.v2")
	if err != nil || gauntlet == 0 {
		t.Errorf("the gauntlet of pybot@2 stored %d deals (%v)", gauntlet, err)
	}
	// One board across the epochs: both versions come onto the ladder's board (once a
	// duplicate group of pybot@2's epoch is complete), which counts every epoch's deals and
	// not the gauntlet's.
	bg := context.Background()
	onBoard := func() map[string]bool {
		lb, err := app.Leaderboard(bg, st, app.BoardQuery{Filter: domain.MatchFilter{LeagueID: "club"}})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]bool{}
		for _, b := range lb.Bots {
			out[b.Bot] = true
		}
		return out
	}
	waitFor(t, done, "pybot@1 and pybot@2 on the ladder's board", func() bool { on := onBoard(); return on["pybot@1"] && on["pybot@2"] })
	cancel()
	if err := <-done; err != nil && ctx.Err() == nil {
		t.Fatal(err)
	}
	lb, err := app.Leaderboard(bg, st, app.BoardQuery{Filter: domain.MatchFilter{LeagueID: "club"}})
	if err != nil {
		t.Fatal(err)
	}
	leagues, err := st.ListLeagues(bg)
	if err != nil {
		t.Fatal(err)
	}
	epochs, epochDeals := 0, 0
	for _, l := range leagues {
		if strings.HasPrefix(l.ID, "club.") && !strings.Contains(l.ID, "gauntlet") {
			n, _ := st.LeagueDeals(bg, l.ID)
			epochs, epochDeals = epochs+1, epochDeals+n
		}
	}
	if epochs < 2 || lb.StoredDeals != epochDeals {
		t.Errorf("the ladder's board counts %d deals; its %d epochs stored %d (the gauntlet's are not the board's)", lb.StoredDeals, epochs, epochDeals)
	}
}

// The verdict rule of a gauntlet, from the SPRT's status and whether the gauntlet used up
// its pairs: a decision names the verdict even on the last pair; without one, the version is
// undecided once its pairs are used up, and waits (no verdict: it does not join) while its
// gauntlet goes on.
func TestTheGauntletVerdictRule(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ sprt, pairs, want string }{
		{"accept H1", "left", domain.GauntletStronger},
		{"accept H1", "used up", domain.GauntletStronger},
		{"accept H0", "left", domain.GauntletNotBetter},
		{"accept H0", "used up", domain.GauntletNotBetter},
		{"continue", "used up", domain.GauntletUndecided},
		{"continue", "left", domain.GauntletNone},
	} {
		status := map[string]rating.SPRTStatus{"accept H1": rating.SPRTAcceptH1, "accept H0": rating.SPRTAcceptH0, "continue": rating.SPRTContinue}[tc.sprt]
		if status.String() != tc.sprt {
			t.Fatalf("status %q reads %q", tc.sprt, status)
		}
		if got := hosting.Verdict(status, tc.pairs == "used up"); got != tc.want {
			t.Errorf("SPRT %s, pairs %s: verdict %q, want %q", tc.sprt, tc.pairs, got, tc.want)
		}
	}
}

// leagueDealsWith counts the ladder epochs' results of a bot.
func leagueDealsWith(t *testing.T, st interface {
	Results(context.Context, domain.MatchFilter) ([]domain.ResultRow, error)
}, bot string) int {
	t.Helper()
	rows, err := st.Results(context.Background(), domain.MatchFilter{Bot: bot})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range rows {
		if r.Bot == bot && strings.HasPrefix(r.LeagueID, "club.") && !strings.Contains(r.LeagueID, "gauntlet") {
			n++
		}
	}
	return n
}

func waitFor(t *testing.T, done <-chan error, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(4 * time.Minute); !cond(); time.Sleep(200 * time.Millisecond) {
		select {
		case err := <-done:
			t.Fatalf("the ladder ended before %s: %v", what, err)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %s after 4 minutes", what)
		}
	}
}
