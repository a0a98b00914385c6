package web

import (
	"context"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/store"
	viewv1 "github.com/tapparena/tapp/proto/tapp/view/v1"
)

// readCounter is a store that counts the reads of a match and of a whole deal.
type readCounter struct {
	*store.Store
	matches, deals atomic.Int64
}

func (r *readCounter) GetMatch(ctx context.Context, id string) (*domain.Match, error) {
	r.matches.Add(1)
	return r.Store.GetMatch(ctx, id)
}

func (r *readCounter) Deal(ctx context.Context, matchID string, number int) (*domain.DealRecord, error) {
	r.deals.Add(1)
	return r.Store.Deal(ctx, matchID, number)
}

// GetReplay reads the match once and the deal once, whatever view it steps through: each
// further read of them would be a round trip to the database for every replay shown.
func TestGetReplayReadsTheMatchAndTheDealOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "reads.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	matchID := fillRandomDeals(t, ctx, st, 3)
	for _, view := range []string{"full", "public", "1"} {
		counted := &readCounter{Store: st}
		v := NewView(counted, nil, nil)
		if _, err := v.GetReplay(ctx, &viewv1.GetReplayRequest{MatchId: matchID, DealNumber: 1, View: view}); err != nil {
			t.Fatal(err)
		}
		if m, d := counted.matches.Load(), counted.deals.Load(); m != 1 || d != 1 {
			t.Errorf("GetReplay of view %s read the match %d times and the deal %d times; want once each", view, m, d)
		}
	}
}
