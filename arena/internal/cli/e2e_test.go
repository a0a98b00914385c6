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
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"

	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// The end-to-end tests run the real binary: an arena process (`tapp serve`), bot processes
// (`tapp bot ...`, the Python SDK's example bot, and misbehaving bots that this test binary
// plays itself), all over loopback gRPC.

var tappBin string // built once in TestMain

func TestMain(m *testing.M) {
	if mode := os.Getenv("TAPP_E2E_BOT"); mode != "" {
		os.Exit(runMisbehavingBot(mode))
	}
	if addr := os.Getenv("TAPP_BENCH_ECHO"); addr != "" {
		os.Exit(runEchoBot(addr))
	}
	if addr := os.Getenv("TAPP_BENCH_YARDSTICK"); addr != "" {
		os.Exit(runYardstickClient(addr))
	}
	dir, err := os.MkdirTemp("", "tapp-e2e")
	if err != nil {
		panic(err)
	}
	_ = os.Chmod(dir, 0o755) // the sandboxes' unprivileged user reaches the hosted bots' Python in it
	tappBin = filepath.Join(dir, "tapp")
	if out, err := exec.Command("go", "build", "-o", tappBin, "github.com/tapparena/tapp/cmd/tapp").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building tapp: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

const e2eAdmin = "e2e-admin-token"

// arenaProc is a running `tapp serve`.
type arenaProc struct {
	t     testing.TB
	addr  string
	admin tappv1.AdminServiceClient
	cmd   *exec.Cmd
	logs  *lockedBuffer
	db    string

	mu        sync.Mutex
	dashboard string // the web dashboard's URL, when serve was given --http
}

func (a *arenaProc) setDashboard(url string) {
	a.mu.Lock()
	a.dashboard = url
	a.mu.Unlock()
}

// dashboardURL waits for the web dashboard's URL in the arena's log.
func (a *arenaProc) dashboardURL() string {
	a.t.Helper()
	for deadline := time.Now().Add(patience(a.t, 20*time.Second)); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		a.mu.Lock()
		url := a.dashboard
		a.mu.Unlock()
		if url != "" {
			return url
		}
	}
	a.t.Fatalf("tapp serve logged no dashboard URL; log:\n%s", a.logs.String())
	return ""
}

type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func startServe(t *testing.T) *arenaProc {
	t.Helper()
	return startServeWith(t)
}

// startServeWith is startServe with more flags for tapp serve.
func startServeWith(t *testing.T, extra ...string) *arenaProc {
	t.Helper()
	return startServeCreds(t, insecure.NewCredentials(), extra...)
}

// startServeCreds is startServeWith with the admin client dialling with creds (TLS).
func startServeCreds(t *testing.T, creds credentials.TransportCredentials, extra ...string) *arenaProc {
	t.Helper()
	return startServeAt(t, creds, filepath.Join(t.TempDir(), "arena.db"), "127.0.0.1:0", extra...)
}

// startServeOn is startServe on the given database and address.
func startServeOn(t *testing.T, db, listen string) *arenaProc {
	t.Helper()
	return startServeAt(t, insecure.NewCredentials(), db, listen)
}

// startServeAt is startServeCreds on the given database and address.
func startServeAt(t testing.TB, creds credentials.TransportCredentials, db, listen string, extra ...string) *arenaProc {
	t.Helper()
	cmd := exec.Command(tappBin, append([]string{"serve", "--listen", listen, "--db", db, "--grace", "2s"}, extra...)...)
	cmd.Env = append(os.Environ(), "TAPP_ADMIN_TOKEN="+e2eAdmin)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	a := &arenaProc{t: t, cmd: cmd, logs: &lockedBuffer{}, db: db}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		stop := patience(t, 10*time.Second)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(stop):
			_ = cmd.Process.Kill()
			t.Errorf("tapp serve did not stop on interrupt within %v (10 s on an idle machine)", stop.Round(time.Second))
		}
		if t.Failed() {
			t.Logf("arena log:\n%s", a.logs.String())
		}
	})
	addrCh := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			fmt.Fprintln(a.logs, line)
			var entry struct {
				Msg  string `json:"msg"`
				Addr string `json:"addr"`
				URL  string `json:"url"`
			}
			if json.Unmarshal([]byte(line), &entry) == nil && entry.Msg == "arena serving" {
				addrCh <- entry.Addr
			}
			if entry.Msg == "dashboard serving" {
				a.setDashboard(entry.URL)
			}
		}
	}()
	select {
	case a.addr = <-addrCh:
	case <-time.After(patience(t, 20*time.Second)):
		t.Fatalf("tapp serve did not start; log:\n%s", a.logs.String())
	}
	conn, err := grpc.NewClient(a.addr, grpc.WithTransportCredentials(creds))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	a.admin = tappv1.NewAdminServiceClient(conn)
	return a
}

func (a *arenaProc) ctx() context.Context {
	return metadata.AppendToOutgoingContext(context.Background(), "authorization", "Bearer "+e2eAdmin)
}

func (a *arenaProc) register(name string) string {
	a.t.Helper()
	resp, err := a.admin.RegisterBot(a.ctx(), &tappv1.RegisterBotRequest{Name: name})
	if err != nil {
		a.t.Fatal(err)
	}
	return resp.GetToken()
}

// startBot runs a bot process with the token in its environment; it is killed at cleanup.
func (a *arenaProc) startBot(name string, env []string, args ...string) *exec.Cmd {
	a.t.Helper()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = append(append(os.Environ(), "TAPP_ARENA="+a.addr, "TAPP_TOKEN="+a.register(name)), env...)
	logs := &lockedBuffer{}
	cmd.Stderr = logs
	if err := cmd.Start(); err != nil {
		a.t.Fatal(err)
	}
	a.t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if a.t.Failed() {
			a.t.Logf("bot %s log:\n%s", name, logs.String())
		}
	})
	return cmd
}

func (a *arenaProc) goBot(name, kind string) *exec.Cmd {
	return a.startBot(name, nil, tappBin, "bot", kind, "--name", name, "--capacity", "4")
}

func pythonBin(t *testing.T) string {
	t.Helper()
	py, _ := filepath.Abs("../../../.venv/bin/python")
	if _, err := os.Stat(py); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("no Python venv at %s: `make test` creates it (make venv)", py)
		}
		t.Skipf("no Python venv at %s: run `make venv` to include the Python bot", py)
	}
	return py
}

// waitConnected waits until every named bot has a live session.
func (a *arenaProc) waitConnected(names ...string) {
	a.t.Helper()
	deadline := time.Now().Add(patience(a.t, 30*time.Second))
	for time.Now().Before(deadline) {
		resp, err := a.admin.ListSessions(a.ctx(), &tappv1.ListSessionsRequest{})
		if err == nil {
			live := map[string]bool{}
			for _, s := range resp.GetSessions() {
				if s.GetConnected() {
					live[s.GetBotName()] = true
				}
			}
			all := true
			for _, n := range names {
				all = all && live[n]
			}
			if all {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	a.t.Fatalf("bots %v did not all connect; arena log:\n%s", names, a.logs.String())
}

// playMatch starts a match over the admin API and waits for it to finish.
func (a *arenaProc) playMatch(req *tappv1.StartMatchRequest) *tappv1.GetMatchResponse {
	a.t.Helper()
	start, err := a.admin.StartMatch(a.ctx(), req)
	if err != nil {
		a.t.Fatal(err)
	}
	deadline := time.Now().Add(patience(a.t, 2*time.Minute))
	for time.Now().Before(deadline) {
		got, err := a.admin.GetMatch(a.ctx(), &tappv1.GetMatchRequest{MatchId: start.GetMatchId()})
		if err != nil {
			a.t.Fatal(err)
		}
		if s := got.GetMatch().GetStatus(); s != "running" {
			if got, err = allDeals(a.ctx(), a.admin, start.GetMatchId()); err != nil {
				a.t.Fatal(err)
			}
			return got
		}
		time.Sleep(100 * time.Millisecond)
	}
	a.t.Fatalf("match %s did not finish in time (2 minutes on an idle machine)", start.GetMatchId())
	return nil
}

func checkComplete(t *testing.T, got *tappv1.GetMatchResponse, deals int) {
	t.Helper()
	m := got.GetMatch()
	if m.GetStatus() != "finished" || int(m.GetDealsPlayed()) != deals || len(got.GetDeals()) != deals {
		t.Fatalf("match %s: status %s, %d/%d deals played, want finished with %d", m.GetMatchId(), m.GetStatus(), m.GetDealsPlayed(), m.GetDealsPlanned(), deals)
	}
	var sum int64
	for _, n := range m.GetNet() {
		sum += n
	}
	if sum != 0 {
		t.Fatalf("net results %v do not sum to zero", m.GetNet())
	}
}

var quick = &tappv1.TimeControl{PerDecision: durationpb.New(time.Second), Overage: durationpb.New(2 * time.Second), MaxStrikes: 3}

func TestE2EGoAndPythonBotsPlayAModernMatch(t *testing.T) {
	t.Parallel()
	py := pythonBin(t)
	a := startServe(t)
	a.goBot("go-random", "random")
	a.goBot("go-heuristic", "heuristic")
	a.startBot("py-random", nil, py, "-m", "tapp_bot.examples.random", "--name", "py-random", "--capacity", "4", "--seed", "5")
	a.waitConnected("go-random", "go-heuristic", "py-random")
	got := a.playMatch(&tappv1.StartMatchRequest{Bots: []string{"go-random", "go-heuristic", "py-random"},
		Rules: "modern", Deals: 50, Seed: 7, TimeControl: quick})
	checkComplete(t, got, 50)
	if len(got.GetMatch().GetForfeited()) != 0 {
		t.Fatalf("forfeited: %v", got.GetMatch().GetForfeited())
	}
}

func TestE2EEveryVariantAndFourPlayers(t *testing.T) {
	t.Parallel()
	a := startServe(t)
	names := []string{"r1", "r2", "h1", "h2"}
	for _, n := range names {
		kind := "random"
		if n[0] == 'h' {
			kind = "heuristic"
		}
		a.goBot(n, kind)
	}
	a.waitConnected(names...)
	for _, rules := range []string{"wuerttemberg", "classic pot=on", "modern frage=on", "modern pack=32"} {
		got := a.playMatch(&tappv1.StartMatchRequest{Bots: names[:3], Rules: rules, Deals: 20, Seed: 11, TimeControl: quick})
		checkComplete(t, got, 20)
	}
	got := a.playMatch(&tappv1.StartMatchRequest{Bots: names, Rules: "modern players=4", Deals: 20, Seed: 12, TimeControl: quick})
	checkComplete(t, got, 20)
	dup := a.playMatch(&tappv1.StartMatchRequest{Bots: names[:3], Rules: "classic", Deals: 3, Seed: 13, Duplicate: true, TimeControl: quick})
	checkComplete(t, dup, 18)
}

func TestE2EMisbehavingBots(t *testing.T) {
	t.Parallel()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	a := startServe(t)
	a.goBot("steady1", "random")
	a.goBot("steady2", "heuristic")
	for _, mode := range []string{"hang", "crash", "garbage"} {
		a.startBot(mode, []string{"TAPP_E2E_BOT=" + mode}, self, "-test.run=^$")
	}
	a.waitConnected("steady1", "steady2", "hang", "crash", "garbage")

	// A second per decision and a 2 s bank for the whole match (its documented option; a
	// game's clock forfeits only the game): the steady bots never come near them however busy
	// the machine; the bad ones cost 2 s + 3 × 1 s a match, and forfeit it.
	fast := &tappv1.TimeControl{PerDecision: durationpb.New(time.Second), Overage: durationpb.New(2 * time.Second), MaxStrikes: 3,
		Scope: tappv1.ClockScope_CLOCK_SCOPE_MATCH}
	for _, mode := range []string{"hang", "crash", "garbage"} {
		got := a.playMatch(&tappv1.StartMatchRequest{Bots: []string{"steady1", "steady2", mode}, Rules: "modern", Deals: 10, Seed: 21, TimeControl: fast})
		checkComplete(t, got, 10)
		forfeited := strings.Join(got.GetMatch().GetForfeited(), ",")
		switch mode {
		case "hang":
			if forfeited != "hang" {
				t.Errorf("hanging bot: forfeited %q, want hang", forfeited)
			}
		case "crash":
			// It crashed after a few answers and never came back: once its grace period is over
			// its seat plays fallbacks and it forfeits; the match still completes.
			if forfeited != "crash" {
				t.Errorf("crashed bot: forfeited %q, want crash", forfeited)
			}
		case "garbage":
			if forfeited != "garbage" {
				t.Errorf("garbage bot: forfeited %q, want garbage (refused answers run out its clock)", forfeited)
			}
		}
		if strings.Contains(forfeited, "steady") {
			t.Errorf("%s match: a well-behaved bot forfeited: %s", mode, forfeited)
		}
	}

	// A bot with a wrong token is refused and the arena carries on.
	conn, err := grpc.NewClient(a.addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ctx := metadata.AppendToOutgoingContext(context.Background(), "authorization", "Bearer tapp_not-a-token")
	stream, err := tappv1.NewBotServiceClient(conn).Connect(ctx)
	if err == nil {
		_ = stream.Send(&tappv1.ConnectRequest{Message: &tappv1.ConnectRequest_Hello{Hello: &tappv1.Hello{Name: "intruder"}}})
		_, err = stream.Recv()
	}
	if status.Code(err) != codes.Unauthenticated {
		t.Fatalf("wrong token: got %v, want Unauthenticated", err)
	}
	wrong := exec.Command(tappBin, "bot", "random", "--arena", a.addr, "--token", "tapp_not-a-token")
	out, err := wrong.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "Unauthenticated") {
		t.Fatalf("tapp bot with a wrong token: err %v, output %s; want a clear Unauthenticated failure", err, out)
	}
	got := a.playMatch(&tappv1.StartMatchRequest{Bots: []string{"steady1", "steady2", "garbage"}, Rules: "classic", Deals: 3, Seed: 2, TimeControl: fast})
	checkComplete(t, got, 3)
}

// runMisbehavingBot speaks the protocol by hand, badly on purpose:
//   - hang: reads every request and never answers;
//   - crash: answers three requests, then exits with status 3 mid-match;
//   - garbage: answers every request with malformed text and unknown request ids.
func runMisbehavingBot(mode string) int {
	switch mode {
	case "slow":
		return runSlowBot()
	case "flood":
		return runFloodBot()
	}
	conn, err := grpc.NewClient(os.Getenv("TAPP_ARENA"), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return 1
	}
	ctx := metadata.AppendToOutgoingContext(context.Background(), "authorization", "Bearer "+os.Getenv("TAPP_TOKEN"))
	stream, err := tappv1.NewBotServiceClient(conn).Connect(ctx)
	if err != nil {
		return 1
	}
	if err := stream.Send(&tappv1.ConnectRequest{Message: &tappv1.ConnectRequest_Hello{Hello: &tappv1.Hello{Name: mode, Capacity: 8}}}); err != nil {
		return 1
	}
	answered := 0
	for {
		msg, err := stream.Recv()
		if err != nil { // io.EOF too: the arena closed the stream
			return 0
		}
		req := msg.GetDecisionRequest()
		if req == nil {
			continue
		}
		switch mode {
		case "hang":
		case "crash":
			if answered == 3 {
				os.Exit(3)
			}
			answered++
			_ = stream.Send(&tappv1.ConnectRequest{Message: &tappv1.ConnectRequest_Answer{Answer: &tappv1.Answer{GameId: req.GetGameId(), RequestId: req.GetRequestId(), Action: req.GetLegal()[0]}}})
		case "garbage":
			_ = stream.Send(&tappv1.ConnectRequest{Message: &tappv1.ConnectRequest_Answer{Answer: &tappv1.Answer{GameId: req.GetGameId(), RequestId: req.GetRequestId(), Action: "\x00💥 not a card"}}})
			_ = stream.Send(&tappv1.ConnectRequest{Message: &tappv1.ConnectRequest_Answer{Answer: &tappv1.Answer{GameId: req.GetGameId(), RequestId: "bogus", Action: "HA"}}})
			_ = stream.Send(&tappv1.ConnectRequest{})
		}
	}
}

func TestE2EMatchCommandAgainstARunningArena(t *testing.T) {
	t.Parallel()
	a := startServe(t)
	for _, n := range []string{"x", "y", "z"} {
		a.goBot(n, "heuristic")
	}
	a.waitConnected("x", "y", "z")
	cmd := exec.Command(tappBin, "match", "--arena", a.addr, "--bots", "x,y,z", "--deals", "12", "--variant", "classic", "--json")
	cmd.Env = append(os.Environ(), "TAPP_ADMIN_TOKEN="+e2eAdmin)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tapp match --arena: %v\n%s", err, out)
	}
	var res struct {
		Status string `json:"status"`
		Deals  int    `json:"deals"`
		Bots   []struct {
			Bot   string `json:"bot"`
			Deals int    `json:"deals"`
			Net   int    `json:"net"`
		} `json:"bots"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	sum := 0
	for _, b := range res.Bots {
		sum += b.Net
		if b.Deals != 12 {
			t.Errorf("bot %s played %d deals, want 12", b.Bot, b.Deals)
		}
	}
	if res.Status != "finished" || res.Deals != 12 || len(res.Bots) != 3 || sum != 0 {
		t.Fatalf("result %+v: want a finished 12-deal match of 3 bots summing to zero", res)
	}
	// A duplicate match's statistical unit is the group (one deal source under every seating),
	// as in a local match: 3 sources, 18 deals, 3 units per bot.
	cmd = exec.Command(tappBin, "match", "--arena", a.addr, "--bots", "x,y,z", "--deals", "3", "--duplicate", "--json")
	cmd.Env = append(os.Environ(), "TAPP_ADMIN_TOKEN="+e2eAdmin)
	if out, err = cmd.Output(); err != nil {
		t.Fatalf("tapp match --arena --duplicate: %v\n%s", err, out)
	}
	var dup struct {
		Deals int `json:"deals"`
		Bots  []struct {
			Bot   string `json:"bot"`
			Units int    `json:"units"`
		} `json:"bots"`
	}
	if err := json.Unmarshal(out, &dup); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	for _, b := range dup.Bots {
		if dup.Deals != 18 || b.Units != 3 {
			t.Errorf("duplicate match of %d deals: bot %s has %d units, want 18 deals in 3 units", dup.Deals, b.Bot, b.Units)
		}
	}
	// A match naming a bot that is not connected is refused at once.
	cmd = exec.Command(tappBin, "match", "--arena", a.addr, "--bots", "x,y,nobody", "--deals", "1")
	cmd.Env = append(os.Environ(), "TAPP_ADMIN_TOKEN="+e2eAdmin)
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "not connected") {
		t.Fatalf("match with an absent bot: err %v, output %s; want a refusal naming it", err, out)
	}
	// So is one that seats a bot twice with one session of it: a session plays one seat of a
	// deal, and the match would wait for a second session for ever.
	cmd = exec.Command(tappBin, "match", "--arena", a.addr, "--bots", "x,x,y", "--deals", "1")
	cmd.Env = append(os.Environ(), "TAPP_ADMIN_TOKEN="+e2eAdmin)
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), `bot "x" has 2 seats at each table but 1 session(s) connected`) {
		t.Fatalf("match seating one session twice: err %v, output %s; want a refusal that says why", err, out)
	}
}

// An admin watches a running match: its public events stream in as the deals are played,
// no card of a hand ever shows before the deal's end, and the stream ends with the match.
func TestE2EWatchARunningMatch(t *testing.T) {
	t.Parallel()
	a := startServe(t)
	a.goBot("w1", "random")
	a.goBot("w2", "random")
	a.goBot("w3", "random")
	a.waitConnected("w1", "w2", "w3")
	start, err := a.admin.StartMatch(a.ctx(), &tappv1.StartMatchRequest{Bots: []string{"w1", "w2", "w3"},
		Rules: "modern", Deals: 400, Seed: 3, TimeControl: quick})
	if err != nil {
		t.Fatal(err)
	}
	stream, err := a.admin.WatchMatch(a.ctx(), &tappv1.WatchMatchRequest{MatchId: start.GetMatchId()})
	if err != nil {
		t.Fatal(err)
	}
	events, finished := 0, false
	for !finished {
		msg, err := stream.Recv()
		if err != nil {
			t.Fatalf("after %d events: %v", events, err)
		}
		if msg.GetMatchFinished() {
			finished = true
			continue
		}
		events++
		ev := msg.GetEvent()
		if !strings.HasPrefix(msg.GetGameId(), start.GetMatchId()+"/") {
			t.Fatalf("event of game %s in the watch of match %s", msg.GetGameId(), start.GetMatchId())
		}
		if ev.GetKind() == tappv1.EventKind_EVENT_KIND_DEALT {
			for seat, h := range ev.GetHands() {
				if len(h.GetCards()) > 0 {
					t.Fatalf("deal %d: the watch shows seat %d's hand %v while the deal runs", msg.GetDealNumber(), seat, h.GetCards())
				}
			}
		}
	}
	if events == 0 {
		t.Fatal("the match finished without a single event watched")
	}
}
