package memstore_test

import (
	"context"
	"testing"

	"github.com/tapparena/tapp/arena/internal/analysis"
	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/inproc"
	"github.com/tapparena/tapp/arena/internal/match"
	"github.com/tapparena/tapp/arena/internal/replay"
	"github.com/tapparena/tapp/arena/internal/store/memstore"
	"github.com/tapparena/tapp/arena/internal/store/storetest"
	"github.com/tapparena/tapp/arena/internal/web"
	"github.com/tapparena/tapp/bots"
	"github.com/tapparena/tapp/bots/builtin"
	viewv1 "github.com/tapparena/tapp/proto/tapp/view/v1"
)

// The memory store keeps the contract of the SQL one (arena/internal/store runs the same
// suite on SQLite and PostgreSQL), decision records included.
func TestMemoryKeepsTheStoresContract(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(*testing.T) storetest.Store { return memstore.New() })
}

// What the readers read of a store — replay, verify, analyze, the dashboard — works on a
// match played into the memory store within the process.
var (
	_ replay.Store   = (*memstore.Memory)(nil)
	_ analysis.Store = (*memstore.Memory)(nil)
	_ web.Store      = (*memstore.Memory)(nil)
)

// A match played in this process on the memory store verifies (every request as the bots
// got it), replays on the dashboard and is analysed, as it would on a database.
func TestReadersWorkOnAMatchInMemory(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := memstore.New()
	spec := domain.MatchSpec{Rules: storetest.Rules(t, "modern"), Bots: []string{"random", "heuristic", "random#2"},
		Deals: 2, Seed: 11, TimeControl: domain.DefaultTimeControl}
	seats := &inproc.Seats{Bots: map[string]bots.Bot{}}
	for i, name := range spec.Bots {
		kind := map[string]string{"random#2": "random"}[name]
		if kind == "" {
			kind = name
		}
		b, err := builtin.New(kind, spec.Seed+uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		seats.Bots[name] = b
	}
	runner := &match.Runner{Store: st, Seats: seats}
	m, err := runner.Create(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := runner.Run(ctx, m); err != nil {
		t.Fatal(err)
	}

	rep, err := replay.VerifyStored(ctx, st, m.ID)
	if err != nil || !rep.OK() || rep.Deals != 2 || rep.Decisions == 0 {
		t.Fatalf("VerifyStored = %+v, %v; want 2 deals verified without a problem", rep, err)
	}
	d, err := st.Deal(ctx, m.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range d.Decisions {
		if x.RequestID != "" && len(x.Sent) == 0 {
			t.Errorf("decision %d: its request is not kept", x.Index)
		}
	}

	view := &web.View{Store: st}
	got, err := view.GetReplay(ctx, &viewv1.GetReplayRequest{MatchId: m.ID, DealNumber: 1, View: "0"})
	if err != nil || len(got.GetSteps()) != len(d.Decisions)+1 || len(got.GetDealNumbers()) != 2 {
		t.Errorf("the dashboard's replay: %d steps, %d deals, %v; want %d steps of 2 deals",
			len(got.GetSteps()), len(got.GetDealNumbers()), err, len(d.Decisions)+1)
	}

	only := 0
	for _, want := range []struct{ computed, stored int }{{1, 0}, {0, 1}} { // the second run reads the first's
		a, err := analysis.Run{Workers: 1}.Stored(ctx, st, m.ID, &only)
		if err != nil || len(a.Deals) != 1 || a.Computed != want.computed || a.Stored != want.stored {
			t.Fatalf("analysis = %+v, %v; want deal 0, %d computed, %d stored", a, err, want.computed, want.stored)
		}
	}
}
