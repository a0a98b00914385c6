package storetest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/match"
)

// A deal is stored whole, its decision records with it (every request byte for byte), and
// read back as it was saved, alone or with the match's others in number order.
func testSaveDealRoundTrip(t *testing.T, s Store) {
	ctx := context.Background()
	m := NewMatch(t, s, "L", "a", "b", "c")
	var want []*domain.DealRecord
	for n := range 3 {
		want = append(want, SampleDeal(t, m, n, 40, 1024))
	}
	for _, n := range []int{2, 0, 1} { // stored out of order, read back in order
		if err := s.SaveDeal(ctx, SampleDeal(t, m, n, 40, 1024)); err != nil {
			t.Fatalf("SaveDeal(%d): %v", n, err)
		}
	}
	got, err := s.Deal(ctx, m.ID, 1)
	if err != nil {
		t.Fatalf("Deal: %v", err)
	}
	CheckDeal(t, got, want[1])
	got.Decisions[0].Sent[0]++ // a reader's change is its own
	got.Decisions[0].Attempts[0].Text = "changed"
	if again, _ := s.Deal(ctx, m.ID, 1); again != nil {
		CheckDeal(t, again, want[1])
	}
	all, err := s.Deals(ctx, m.ID)
	if err != nil {
		t.Fatalf("Deals: %v", err)
	}
	if len(all) != 3 {
		t.Fatalf("Deals returned %d deals, want 3", len(all))
	}
	for i := range all {
		CheckDeal(t, &all[i], want[i])
	}
	ns, err := s.DealNumbers(ctx, m.ID)
	if err != nil || !reflect.DeepEqual(ns, []int{0, 1, 2}) {
		t.Errorf("DealNumbers = %v, %v; want [0 1 2]", ns, err)
	}
	for _, r := range []struct {
		first, last int
		want        []int
	}{{1, 2, []int{1, 2}}, {2, 9, []int{2}}, {3, 9, nil}, {0, 0, []int{0}}} {
		if ns, err := s.DealNumbersBetween(ctx, m.ID, r.first, r.last); err != nil || !reflect.DeepEqual(ns, r.want) {
			t.Errorf("DealNumbersBetween(%d, %d) = %v, %v; want %v", r.first, r.last, ns, err, r.want)
		}
	}

	if _, err := s.Deal(ctx, m.ID, 7); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("Deal(missing) = %v, want ErrNotFound", err)
	}
	if _, err := s.Deals(ctx, "nope"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("Deals(unknown match) = %v, want ErrNotFound", err)
	}
	empty := NewMatch(t, s, "", "a", "b", "c")
	if ds, err := s.Deals(ctx, empty.ID); err != nil || len(ds) != 0 {
		t.Errorf("Deals(match without deals) = %v, %v; want none", ds, err)
	}
	if ns, err := s.DealNumbers(ctx, empty.ID); err != nil || len(ns) != 0 {
		t.Errorf("DealNumbers(match without deals) = %v, %v; want none", ns, err)
	}
	if err := s.SaveDeal(ctx, SampleDeal(t, &domain.Match{ID: "nope", Spec: m.Spec}, 0, 3, 10)); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("SaveDeal(unknown match) = %v, want ErrNotFound", err)
	}

	// A deal without a start is stored as started when it was saved; decisions saved out of
	// index order read back in it.
	d := SampleDeal(t, m, 3, 8, 64)
	d.Started = time.Time{}
	d.Decisions[2], d.Decisions[5] = d.Decisions[5], d.Decisions[2]
	if err := s.SaveDeal(ctx, d); err != nil {
		t.Fatal(err)
	}
	got, err = s.Deal(ctx, m.ID, 3)
	if err != nil {
		t.Fatal(err)
	}
	if got.Started.IsZero() {
		t.Error("a deal saved without a start reads back without one")
	}
	d.Started = got.Started
	d.Decisions[2], d.Decisions[5] = d.Decisions[5], d.Decisions[2]
	CheckDeal(t, got, d)
}

// Saving a deal stored already is a conflict that leaves the first one as it was.
func testSaveDealTwiceIsConflict(t *testing.T, s Store) {
	ctx := context.Background()
	m := NewMatch(t, s, "", "a", "b", "c")
	first := SampleDeal(t, m, 0, 10, 100)
	if err := s.SaveDeal(ctx, first); err != nil {
		t.Fatalf("SaveDeal: %v", err)
	}
	second := SampleDeal(t, m, 0, 4, 50)
	second.Group = 9
	if err := s.SaveDeal(ctx, second); !errors.Is(err, domain.ErrConflict) {
		t.Fatalf("second SaveDeal = %v, want ErrConflict", err)
	}
	got, err := s.Deal(ctx, m.ID, 0)
	if err != nil {
		t.Fatalf("Deal: %v", err)
	}
	CheckDeal(t, got, first)
	if rows, err := s.Results(ctx, domain.MatchFilter{MatchID: m.ID}); err != nil || len(rows) != 3 {
		t.Errorf("Results = %d rows, %v; want the first deal's 3", len(rows), err)
	}
}

// A deal that cannot be stored as it is — cards that do not fit the rules, a move by a seat
// that is not at the table, two decisions with one index, two results for one seat — is
// refused with an error that says why, and nothing of it is stored; the store stays usable.
func testBadDealsAreRefusedWhole(t *testing.T, s Store) {
	ctx := context.Background()
	m := NewMatch(t, s, "L", "a", "b", "c")
	for _, tc := range []struct {
		name, says string
		spoil      func(d *domain.DealRecord)
	}{
		{"a deal without its tapp", "do not fit the rules", func(d *domain.DealRecord) { d.Deal.Tapp = 0 }},
		{"a move by seat 3 at a table of 3", "move 1 is by seat 3", func(d *domain.DealRecord) { d.Moves[1].Seat = 3 }},
		{"two decisions with index 20", "two decisions with index 20", func(d *domain.DealRecord) { d.Decisions[180].Index = 20 }},
		{"two results for seat 1", "", func(d *domain.DealRecord) { d.Results[2].Seat = 1 }},
	} {
		bad := SampleDeal(t, m, 0, 250, 64)
		tc.spoil(bad)
		err := s.SaveDeal(ctx, bad)
		if err == nil || !strings.Contains(err.Error(), tc.says) || errors.Is(err, domain.ErrConflict) {
			t.Errorf("SaveDeal(%s) = %v, want an error that says %q", tc.name, err, tc.says)
		}
		assertNothingStored(t, s, m.ID, tc.name)
	}
	good := SampleDeal(t, m, 0, 250, 64)
	if err := s.SaveDeal(ctx, good); err != nil {
		t.Fatalf("SaveDeal after the refused ones: %v", err)
	}
	got, err := s.Deal(ctx, m.ID, 0)
	if err != nil {
		t.Fatalf("Deal: %v", err)
	}
	CheckDeal(t, got, good)
}

// assertNothingStored checks that no deal of the match, no result and no league total is
// stored.
func assertNothingStored(t *testing.T, s Store, matchID, after string) {
	t.Helper()
	ctx := context.Background()
	if ns, err := s.DealNumbers(ctx, matchID); err != nil || len(ns) != 0 {
		t.Errorf("after %s: DealNumbers = %v, %v; want none", after, ns, err)
	}
	if rows, err := s.Results(ctx, domain.MatchFilter{MatchID: matchID}); err != nil || len(rows) != 0 {
		t.Errorf("after %s: %d results, %v; want none", after, len(rows), err)
	}
	m, err := s.GetMatch(ctx, matchID)
	if err != nil {
		t.Fatal(err)
	}
	if m.Spec.LeagueID != "" {
		if n, err := s.LeagueDeals(ctx, m.Spec.LeagueID); err != nil || n != 0 {
			t.Errorf("after %s: the league counts %d deals, %v; want none", after, n, err)
		}
	}
}

// A store that saves several deals in one transaction (the match runner's group commit)
// stores a batch whole or not at all.
func testSaveDealsBatch(t *testing.T, s Store) {
	batcher, ok := s.(match.BatchSaver)
	if !ok {
		t.Skip("the store saves deals one by one")
	}
	ctx := context.Background()
	m := NewMatch(t, s, "", "a", "b", "c")
	batch := []*domain.DealRecord{SampleDeal(t, m, 0, 5, 80), SampleDeal(t, m, 1, 6, 80), SampleDeal(t, m, 2, 7, 80)}
	if err := batcher.SaveDeals(ctx, batch); err != nil {
		t.Fatalf("SaveDeals: %v", err)
	}
	got, err := s.Deal(ctx, m.ID, 2)
	if err != nil {
		t.Fatalf("deal 2: %v", err)
	}
	CheckDeal(t, got, batch[2])
	// A batch with one deal stored already is refused whole: the new deal is not stored.
	again := []*domain.DealRecord{SampleDeal(t, m, 3, 4, 80), SampleDeal(t, m, 1, 4, 80)}
	if err := batcher.SaveDeals(ctx, again); !errors.Is(err, domain.ErrConflict) {
		t.Fatalf("SaveDeals with a stored deal = %v, want ErrConflict", err)
	}
	// So is a batch that holds the same deal twice, and one with a bad deal in it.
	twice := []*domain.DealRecord{SampleDeal(t, m, 4, 4, 80), SampleDeal(t, m, 5, 4, 80), SampleDeal(t, m, 4, 5, 80)}
	if err := batcher.SaveDeals(ctx, twice); !errors.Is(err, domain.ErrConflict) {
		t.Fatalf("SaveDeals with deal 4 twice = %v, want ErrConflict", err)
	}
	bad := []*domain.DealRecord{SampleDeal(t, m, 6, 20, 64), SampleDeal(t, m, 7, 20, 64)}
	bad[1].Results[2].Seat = 1
	if err := batcher.SaveDeals(ctx, bad); err == nil {
		t.Fatal("SaveDeals with two results for one seat in its last deal succeeded")
	}
	if ns, err := s.DealNumbers(ctx, m.ID); err != nil || !reflect.DeepEqual(ns, []int{0, 1, 2}) {
		t.Fatalf("DealNumbers after the refused batches = %v, %v; want 0, 1, 2", ns, err)
	}
}

// Many goroutines writing and reading at once: no error (no "database is busy"), nothing lost.
func testConcurrentWriters(t *testing.T, s Store) {
	ctx := context.Background()
	const writers, deals = 8, 6
	var wg sync.WaitGroup
	errs := make(chan error, writers*(deals+2)*3)
	for w := range writers {
		wg.Go(func() {
			m := &domain.Match{Spec: domain.MatchSpec{Rules: Rules(t, "modern"), Bots: []string{"a", "b", "c"}, LeagueID: "L"}}
			if err := s.CreateMatch(ctx, m); err != nil {
				errs <- err
				return
			}
			for n := range deals {
				if err := s.SaveDeal(ctx, SampleDeal(t, m, n, 40, 1024)); err != nil {
					errs <- err
				}
			}
			if err := s.CreateBot(ctx, &domain.Bot{Name: fmt.Sprintf("bot%d", w)}); err != nil {
				errs <- err
			}
		})
		wg.Go(func() { // a reader beside each writer
			for range deals {
				if _, err := s.Results(ctx, domain.MatchFilter{LeagueID: "L"}); err != nil {
					errs <- err
				}
				if _, err := s.ListMatches(ctx, domain.MatchFilter{}); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("concurrent use: %v", err)
	}
	rows, err := s.Results(ctx, domain.MatchFilter{LeagueID: "L"})
	if err != nil || len(rows) != writers*deals*3 {
		t.Errorf("Results = %d rows, %v; want %d", len(rows), err, writers*deals*3)
	}
	if bots, err := s.ListBots(ctx); err != nil || len(bots) != writers {
		t.Errorf("ListBots = %d bots, %v; want %d", len(bots), err, writers)
	}
}
