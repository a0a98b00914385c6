package store

import (
	"context"
	"reflect"
	"testing"
	"time"
)

// A decision whose request was retimed (it had not reached the bot's connection when its time
// was up) keeps the count in its compact record, and a strike keeps its attribution: the
// arena's share, the think time and the late answer it came with.
func TestCompactRecordKeepsRetimesAndStrikeAttribution(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		m, deals := quickMatch(t, s, 1)
		d := *asStored(deals[0])
		d.Decisions[1].Retimed = 3
		d.Decisions[1].ArenaShare = 4 * time.Second
		x := &d.Decisions[2]
		x.Strike, x.Fallback, x.Think = true, true, 3100*time.Millisecond
		x.Attempts = append(x.Attempts[:0:0], x.Attempts...)
		if len(x.Attempts) > 0 {
			x.Attempts[0].Rejected = "request " + x.RequestID + " is over"
			x.Attempts[0].After = 3500 * time.Millisecond
		}
		if err := s.SaveDeal(ctx, &d); err != nil {
			t.Fatal(err)
		}
		got, err := s.Deal(ctx, m.ID, d.Number)
		if err != nil {
			t.Fatal(err)
		}
		if g := checkedDigest(t, got, &d); !reflect.DeepEqual(g, &d) {
			diffDeal(t, g, &d)
		}
		if got.Decisions[1].Retimed != 3 {
			t.Errorf("retimed %d, want 3", got.Decisions[1].Retimed)
		}
		if a := got.Decisions[2].Attribution(); a.Think != 3100*time.Millisecond || (len(x.Attempts) > 0 && a.Transport != 400*time.Millisecond) {
			t.Errorf("the strike's attribution read back %+v", a)
		}
	})
}
