package server_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/engine"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// Bots that play one game at a time, at a match with more tables at once than that: a table
// is seated whole or waits, so two tables never each hold a bot the other waits for. In the
// bubble's fake time (bubble_harness_test.go), "the waiting table is waiting" is a fact
// (synctest.Wait), not a guess after a sleep.
func TestTablesOfBotsWithCapacityOneNeverWaitForEachOther(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		a := newBubbleArena(t, time.Second)
		defer a.stop()
		a.runner.Parallel = 4
		names := []string{"one1", "one2", "one3"}
		for _, name := range names {
			a.connect(name, &tappv1.Hello{Name: name, Capacity: 1}, atOnce)
		}
		a.waitSessions(len(names))
		ctx := context.Background()
		// While one table waits for a seat, it holds none: here one2 is taken, a table of one1
		// and one2 waits, and one1 is still free for another table.
		held, releaseHeld, err := a.srv.SeatTable(ctx, []string{"one2"})
		if err != nil || len(held) != 1 {
			t.Fatalf("seating one2: %v", err)
		}
		waiting := make(chan error, 1)
		go func() {
			_, release, err := a.srv.SeatTable(ctx, []string{"one1", "one2"})
			if err == nil {
				release()
			}
			waiting <- err
		}()
		synctest.Wait() // the table of one1 and one2 waits for one2
		quick, cancelQuick := context.WithTimeout(ctx, 2*time.Second)
		defer cancelQuick()
		_, releaseOne, err := a.srv.SeatTable(quick, []string{"one1"})
		if err != nil {
			t.Fatalf("one1 is held by a table that waits for one2: %v", err)
		}
		releaseOne()
		releaseHeld()
		if err := <-waiting; err != nil {
			t.Fatalf("the waiting table was not seated once one2 was free: %v", err)
		}

		spec := domain.MatchSpec{Rules: engine.DefaultRules(engine.Modern), Bots: names, Deals: 2, Seed: 3, TimeControl: slowClock,
			Duplicate: true} // 2 deals × all 6 seatings, so tables seat the bots in different orders
		res := a.play(spec)
		if res.Deals != 12 || len(res.Forfeited) != 0 {
			t.Fatalf("deals %d forfeited %v, want 12 deals and no forfeit", res.Deals, res.Forfeited)
		}
	})
}
