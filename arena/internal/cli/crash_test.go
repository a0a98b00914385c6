package cli

import (
	"net"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// freeAddr returns a loopback address that was free a moment ago, for an arena that must
// come back on the same address after a restart.
func freeAddr(t *testing.T) string {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer lis.Close()
	return lis.Addr().String()
}

// The arena is killed with kill -9 in the middle of a match and started again on the same
// database: no finished deal is lost, the bots reconnect by themselves, and the match is
// resumed and played to its end, every deal checking out with the engine.
func TestE2EArenaKilledMidMatchResumesIt(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "arena.db")
	addr := freeAddr(t)
	a := startServeOn(t, db, addr)
	bots := []string{"k1", "k2", "k3"}
	for _, n := range bots {
		a.goBot(n, "random")
	}
	a.waitConnected(bots...)
	const deals = 300
	start, err := a.admin.StartMatch(a.ctx(), &tappv1.StartMatchRequest{Bots: bots, Deals: deals, Seed: 5, TimeControl: quick})
	if err != nil {
		t.Fatal(err)
	}
	id := start.GetMatchId()
	var before int32
	for deadline := time.Now().Add(patience(t, 60*time.Second)); before < 20; time.Sleep(10 * time.Millisecond) {
		got, err := a.admin.GetMatch(a.ctx(), &tappv1.GetMatchRequest{MatchId: id})
		if err != nil {
			t.Fatal(err)
		}
		if got.GetMatch().GetStatus() != "running" {
			t.Fatalf("the match ended (%s) before the arena could be killed: make it longer", got.GetMatch().GetStatus())
		}
		before = got.GetMatch().GetDealsPlayed()
		if time.Now().After(deadline) {
			t.Fatalf("only %d deals stored after %v", before, patience(t, 60*time.Second).Round(time.Second))
		}
	}
	if err := a.cmd.Process.Kill(); err != nil { // SIGKILL: no shutdown, no last write
		t.Fatal(err)
	}
	_ = a.cmd.Wait()

	b := startServeOn(t, db, addr)
	got, err := b.admin.GetMatch(b.ctx(), &tappv1.GetMatchRequest{MatchId: id})
	if err != nil {
		t.Fatal(err)
	}
	if n := got.GetMatch().GetDealsPlayed(); n < before {
		t.Fatalf("%d deals stored after the restart, %d before the kill: finished deals were lost", n, before)
	}
	b.waitConnected(bots...) // the bots' SDK reconnects by itself
	for deadline := time.Now().Add(patience(t, 3*time.Minute)); got.GetMatch().GetStatus() == "running"; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the resumed match did not finish in time (3 minutes on an idle machine): %d of %d deals", got.GetMatch().GetDealsPlayed(), deals)
		}
		if got, err = b.admin.GetMatch(b.ctx(), &tappv1.GetMatchRequest{MatchId: id}); err != nil {
			t.Fatal(err)
		}
	}
	if got, err = allDeals(b.ctx(), b.admin, id); err != nil { // 300 deals: two pages
		t.Fatal(err)
	}
	checkComplete(t, got, deals)
	out, err := exec.Command(tappBin, "replay", "verify", id, "--db", db).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "checks out") || !strings.Contains(string(out), "holds") {
		t.Fatalf("tapp replay verify after the crash: %v\n%s", err, out)
	}
}

// `tapp match --arena` follows its match across a restart of the arena (kill -9, then the
// arena started again on the same database resumes the match), and ends with the result and
// how to replay it.
func TestMatchArenaFollowsAcrossARestart(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "arena.db")
	addr := freeAddr(t)
	a := startServeOn(t, db, addr)
	bots := []string{"f1", "f2", "f3"}
	for _, n := range bots {
		a.goBot(n, "random")
	}
	a.waitConnected(bots...)
	follow := exec.Command(tappBin, "match", "--arena", addr, "--bots", strings.Join(bots, ","), "--deals", "300", "--seed", "9",
		"--time", "1s", "--overage", "2s")
	follow.Env = append(follow.Environ(), "TAPP_ADMIN_TOKEN="+e2eAdmin)
	out := &lockedBuffer{}
	follow.Stdout, follow.Stderr = out, out
	if err := follow.Start(); err != nil {
		t.Fatal(err)
	}
	ended := make(chan error, 1)
	go func() { ended <- follow.Wait() }()
	t.Cleanup(func() { _ = follow.Process.Kill() })
	var id string
	for deadline := time.Now().Add(patience(t, time.Minute)); ; time.Sleep(20 * time.Millisecond) {
		list, err := a.admin.ListMatches(a.ctx(), &tappv1.ListMatchesRequest{})
		if err != nil {
			t.Fatal(err)
		}
		if ms := list.GetMatches(); len(ms) == 1 && ms[0].GetDealsPlayed() >= 20 {
			if ms[0].GetStatus() != "running" {
				t.Fatalf("the match ended (%s) before the arena could be killed: make it longer", ms[0].GetStatus())
			}
			id = ms[0].GetMatchId()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the match did not get 20 deals in time (a minute on an idle machine):\n%s", out.String())
		}
	}
	if err := a.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = a.cmd.Wait()
	time.Sleep(time.Second) // the follower finds the arena gone
	b := startServeOn(t, db, addr)
	b.waitConnected(bots...)
	select {
	case err := <-ended:
		if err != nil {
			t.Fatalf("tapp match --arena across the restart: %v\n%s", err, out.String())
		}
	case <-time.After(patience(t, 3*time.Minute)):
		t.Fatalf("tapp match --arena did not end in time (3 minutes on an idle machine) after the restart:\n%s", out.String())
	}
	text := out.String()
	for _, want := range []string{"match " + id, "finished, 300 deals", "does not answer", "replay a deal", "tapp replay " + id} {
		if !strings.Contains(text, want) {
			t.Errorf("tapp match --arena's output does not say %q:\n%s", want, text)
		}
	}
}
