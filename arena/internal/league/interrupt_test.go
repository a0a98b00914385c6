package league_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/match"
	"github.com/tapparena/tapp/arena/internal/referee"
)

// seatsUntilInterrupt seats at most limit tables of one run of a league; a table asked for
// after that waits until the run stops its jobs (the interrupt it is waiting for has to come
// first). Tests interrupt a run once some deals are stored, and deals are stored well after
// they are played (several hundred may wait for the store): on a busy host a small league
// was played to its end before its first deals were stored, so the interruptions the tests
// are about did not happen. With the limit a run plays no more than limit deals whatever the
// load, and as long as limit is above the stored count the test interrupts at, every run
// stores that many before it is stopped.
type seatsUntilInterrupt struct {
	t       testing.TB
	seats   match.Seats
	limit   int64
	stopped <-chan struct{} // the run's interrupt (its context's Done)
	seated  atomic.Int64
}

func (s *seatsUntilInterrupt) SeatTable(ctx context.Context, bots []string) ([]referee.Conn, func(), error) {
	if s.seated.Add(1) <= s.limit {
		return s.seats.SeatTable(ctx, bots)
	}
	select {
	case <-ctx.Done(): // the run stopped the job: the table is not played in this run
		return nil, nil, ctx.Err()
	case <-s.stopped:
	}
	// Interrupted: the runner stops its jobs (and so this table's context) at once. A
	// generous bound, so that a runner that ignores the interrupt fails the test instead of
	// hanging it.
	select {
	case <-ctx.Done():
		return nil, nil, ctx.Err()
	case <-time.After(time.Minute):
		s.t.Errorf("a minute after the interrupt the league still asks for tables")
		return nil, nil, fmt.Errorf("interrupted a minute ago")
	}
}
