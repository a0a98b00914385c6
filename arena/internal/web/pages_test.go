package web

import (
	"context"
	"path/filepath"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/tapparena/tapp/arena/internal/store"
	viewv1 "github.com/tapparena/tapp/proto/tapp/view/v1"
)

// A long match's page comes a page of deals at a time, with the net of all of them; a replay
// lists the deals around it, not all of them; a rating history has the points it was asked
// for. What a page sends stays bounded however long the match or the ladder.
func TestPagesAreBoundedAtAnyLength(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "pages.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	const deals = 2*replayNeighbours + 50
	matchID := fillRandomDeals(t, ctx, st, deals)
	v := NewView(st, nil, nil)

	all, err := st.DealSummaries(ctx, matchID)
	if err != nil {
		t.Fatal(err)
	}
	net := map[string]int64{}
	for _, d := range all {
		for _, r := range d.Results {
			net[r.Bot] += int64(r.Payoff)
		}
	}
	seen := 0
	for first, pages := int32(0), 0; ; pages++ {
		resp, err := v.GetMatch(ctx, &viewv1.GetMatchRequest{MatchId: matchID, FirstDeal: first, Limit: 60})
		if err != nil {
			t.Fatal(err)
		}
		if int(resp.Match.DealsPlayed) != deals || len(resp.Deals) > 60 || pages > deals/60 {
			t.Fatalf("page from %d: %d of %d deals played, %d lines", first, resp.Match.DealsPlayed, deals, len(resp.Deals))
		}
		for i, b := range resp.Match.Bots {
			if resp.Match.Net[i] != net[b] {
				t.Errorf("page from %d: %s's net %d, want %d over every deal", first, b, resp.Match.Net[i], net[b])
			}
		}
		for _, line := range resp.Deals {
			if int(line.DealNumber) != seen {
				t.Fatalf("page from %d lists deal %d, want %d", first, line.DealNumber, seen)
			}
			seen++
		}
		if !resp.More {
			break
		}
		first = resp.NextDeal
	}
	if seen != deals {
		t.Errorf("the pages listed %d deals, want %d", seen, deals)
	}
	for _, bad := range []*viewv1.GetMatchRequest{{MatchId: matchID, FirstDeal: -1}, {MatchId: matchID, Limit: -5}} {
		if _, err := v.GetMatch(ctx, bad); status.Code(err) != codes.InvalidArgument {
			t.Errorf("GetMatch(%v) = %v, want InvalidArgument", bad, err)
		}
	}

	mid := deals / 2
	r, err := v.GetReplay(ctx, &viewv1.GetReplayRequest{MatchId: matchID, DealNumber: int32(mid)})
	if err != nil {
		t.Fatal(err)
	}
	nums := r.DealNumbers
	if len(nums) != 2*replayNeighbours+3 || nums[0] != 0 || nums[1] != int32(mid-replayNeighbours) ||
		nums[len(nums)-2] != int32(mid+replayNeighbours) || nums[len(nums)-1] != deals-1 {
		t.Errorf("replay of deal %d lists %v; want the first deal, its %d neighbours on either side, the last", mid, nums, replayNeighbours)
	}
	r, err = v.GetReplay(ctx, &viewv1.GetReplayRequest{MatchId: matchID, DealNumber: deals - 1})
	if err != nil {
		t.Fatal(err)
	}
	if nums := r.DealNumbers; nums[0] != 0 || nums[1] != deals-1-replayNeighbours || nums[len(nums)-1] != deals-1 || r.Match.DealsPlayed != deals {
		t.Errorf("replay of the last deal lists %d..%d (then %d), %d played; want the first deal, then the last %d", nums[0], nums[len(nums)-1], nums[1], r.Match.DealsPlayed, replayNeighbours+1)
	}

	if _, err := v.GetRatingHistory(ctx, &viewv1.GetRatingHistoryRequest{MaxPoints: -1}); status.Code(err) != codes.InvalidArgument {
		t.Errorf("GetRatingHistory(max_points -1) = %v, want InvalidArgument", err)
	}
}
