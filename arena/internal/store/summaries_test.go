package store

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/tapparena/tapp/arena/internal/domain"
)

func TestDealSummariesAreDealsWithoutRequests(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		m := newMatch(t, s, "", "a", "b", "c")
		for _, n := range []int{1, 0, 2} {
			if err := s.SaveDeal(ctx, sampleDeal(t, m, n, 20, 512)); err != nil {
				t.Fatalf("SaveDeal(%d): %v", n, err)
			}
		}
		got, err := s.DealSummaries(ctx, m.ID)
		if err != nil {
			t.Fatalf("DealSummaries: %v", err)
		}
		want, err := s.Deals(ctx, m.ID)
		if err != nil {
			t.Fatalf("Deals: %v", err)
		}
		for i := range want {
			for j := range want[i].Decisions {
				want[i].Decisions[j].Sent = nil
			}
		}
		if len(got) != len(want) {
			t.Fatalf("DealSummaries returned %d deals, want %d", len(got), len(want))
		}
		for i := range want {
			if !reflect.DeepEqual(got[i], want[i]) {
				diffDeal(t, &got[i], &want[i])
			}
		}

		empty := newMatch(t, s, "", "a", "b", "c")
		if ds, err := s.DealSummaries(ctx, empty.ID); err != nil || len(ds) != 0 {
			t.Errorf("DealSummaries(match without deals) = %v, %v; want none", ds, err)
		}
		if _, err := s.DealSummaries(ctx, "nope"); !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("DealSummaries(unknown match) = %v, want ErrNotFound", err)
		}
	})
}
