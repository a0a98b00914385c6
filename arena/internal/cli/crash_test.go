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
	for deadline := time.Now().Add(60 * time.Second); before < 20; time.Sleep(10 * time.Millisecond) {
		got, err := a.admin.GetMatch(a.ctx(), &tappv1.GetMatchRequest{MatchId: id})
		if err != nil {
			t.Fatal(err)
		}
		if got.GetMatch().GetStatus() != "running" {
			t.Fatalf("the match ended (%s) before the arena could be killed: make it longer", got.GetMatch().GetStatus())
		}
		before = got.GetMatch().GetDealsPlayed()
		if time.Now().After(deadline) {
			t.Fatalf("only %d deals stored after a minute", before)
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
	for deadline := time.Now().Add(3 * time.Minute); got.GetMatch().GetStatus() == "running"; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the resumed match did not finish in 3 minutes: %d of %d deals", got.GetMatch().GetDealsPlayed(), deals)
		}
		if got, err = b.admin.GetMatch(b.ctx(), &tappv1.GetMatchRequest{MatchId: id}); err != nil {
			t.Fatal(err)
		}
	}
	checkComplete(t, got, deals)
	out, err := exec.Command(tappBin, "replay", "verify", id, "--db", db).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "checks out") || !strings.Contains(string(out), "holds") {
		t.Fatalf("tapp replay verify after the crash: %v\n%s", err, out)
	}
}
