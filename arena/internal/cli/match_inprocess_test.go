package cli

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/store"
)

// `tapp match --in-process` plays the match that the launched bots play over gRPC (the same
// seed, deterministic bots): the same deals, seatings and moves are stored, and the stored
// match passes `tapp replay verify` like any other.
func TestMatchInProcessStoresTheMatchPlayedOverGRPC(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	play := func(db string, extra ...string) string {
		t.Helper()
		args := append([]string{"match", "--bots", "random,heuristic,random", "--deals", "8", "--seed", "7", "--variant", "classic",
			"--parallel", "3", "--db", db, "--json"}, extra...)
		out, err := exec.Command(tappBin, args...).Output()
		if err != nil {
			t.Fatalf("tapp %v: %v", args, err)
		}
		var res struct {
			Match string `json:"match"`
		}
		if err := json.Unmarshal(out, &res); err != nil || res.Match == "" {
			t.Fatalf("tapp %v printed %s: %v", args, out, err)
		}
		return res.Match
	}
	localDB, remoteDB := filepath.Join(dir, "local.db"), filepath.Join(dir, "remote.db")
	localID, remoteID := play(localDB, "--in-process"), play(remoteDB)

	deals := func(db, id string) map[int]string {
		t.Helper()
		st, err := store.Open(context.Background(), db)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		recs, err := st.Deals(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		out := make(map[int]string)
		for _, r := range recs {
			if slices.ContainsFunc(r.Decisions, func(d domain.DecisionRecord) bool { return d.Fallback || len(d.Sent) == 0 }) {
				t.Fatalf("%s, deal %d: a fallback, or a request not recorded", db, r.Number)
			}
			b, _ := json.Marshal([]any{r.Deal, r.Seating, r.Moves, r.Outcome.Payoff})
			out[r.Number] = string(b)
		}
		return out
	}
	local, remote := deals(localDB, localID), deals(remoteDB, remoteID)
	if len(local) != 8 || len(remote) != 8 {
		t.Fatalf("%d deals stored in process, %d over gRPC; want 8 each", len(local), len(remote))
	}
	for n, want := range remote {
		if local[n] != want {
			t.Fatalf("deal %d: in process\n%s\nover gRPC\n%s", n, local[n], want)
		}
	}
	if out, err := exec.Command(tappBin, "replay", "verify", localID, "--db", localDB).CombinedOutput(); err != nil {
		t.Fatalf("tapp replay verify of the in-process match: %v\n%s", err, out)
	}
}
