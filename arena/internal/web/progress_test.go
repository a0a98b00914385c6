package web

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/store"
	"github.com/tapparena/tapp/arena/internal/store/memstore"
	"github.com/tapparena/tapp/arena/internal/store/storetest"
	viewv1 "github.com/tapparena/tapp/proto/tapp/view/v1"
)

// A league's progress shows the deals of its scheduled rounds and the jobs its workers hold
// (from the store's totals, not from its jobs), on the SQL store and on the memory store.
func TestLeagueProgressShowsThePlannedDealsAndTheJobsInHand(t *testing.T) {
	t.Parallel()
	sql, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "progress.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sql.Close() })
	for _, st := range []interface {
		storetest.Store
		Store
	}{sql, memstore.New()} {
		ctx := context.Background()
		storetest.Schedule(t, st) // league L: 2 matches, 4 jobs of 6 deals
		if _, err := st.Claim(ctx, "L", "host/1/a", 3, time.Minute); err != nil {
			t.Fatal(err)
		}
		resp, err := NewView(st, nil, nil).GetLeagueProgress(ctx, &viewv1.GetLeagueProgressRequest{LeagueId: "L"})
		if err != nil {
			t.Fatal(err)
		}
		if resp.DealsPlanned != 24 || resp.JobsRunning != 3 || resp.MatchesScheduled != 2 || resp.DealsStored != 0 {
			t.Errorf("%T: progress %d of %d deals, %d jobs running, %d matches; want 0 of 24, 3 jobs, 2 matches",
				st, resp.DealsStored, resp.DealsPlanned, resp.JobsRunning, resp.MatchesScheduled)
		}
	}
}
