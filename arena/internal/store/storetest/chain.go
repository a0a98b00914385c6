package storetest

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/tapparena/tapp/arena/internal/dealchain"
	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/match"
)

// A match's deals are chained in the order they are stored (dealchain): each stored deal
// has the next place, its link is the one a reader computes from the deal as it reads back,
// and the match keeps the head. A deal refused (stored already, or in a batch that fails)
// leaves the chain as it was. Played deals — refusals, strikes, a flood — chain too: the
// canonical text covers every field of them that reads back.
func testChain(t *testing.T, s Store) {
	ctx := context.Background()
	m := NewMatch(t, s, "", "a", "b", "c")
	order := []int{2, 0, 1}
	for _, n := range order {
		if err := s.SaveDeal(ctx, SampleDeal(t, m, n, 12, 40)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.SaveDeal(ctx, SampleDeal(t, m, 0, 12, 40)); !errors.Is(err, domain.ErrConflict) {
		t.Fatalf("SaveDeal of a stored deal = %v, want ErrConflict", err)
	}
	if batcher, ok := s.(match.BatchSaver); ok {
		if err := batcher.SaveDeals(ctx, []*domain.DealRecord{SampleDeal(t, m, 5, 9, 40), SampleDeal(t, m, 1, 9, 40)}); !errors.Is(err, domain.ErrConflict) {
			t.Fatalf("SaveDeals with a stored deal = %v, want ErrConflict", err)
		}
		if err := batcher.SaveDeals(ctx, []*domain.DealRecord{SampleDeal(t, m, 4, 9, 40), SampleDeal(t, m, 3, 7, 40)}); err != nil {
			t.Fatal(err)
		}
		order = append(order, 4, 3)
	}
	CheckChain(t, s, m.ID, order)

	played := &domain.Match{Spec: domain.MatchSpec{Rules: Rules(t, "modern"), Bots: []string{"north", "east", "south"},
		Deals: 2, Seed: 5, TimeControl: playedClock}}
	if err := match.Commit(played); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateMatch(ctx, played); err != nil {
		t.Fatal(err)
	}
	for _, d := range playDeals(t, played) {
		if err := s.SaveDeal(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
	CheckChain(t, s, played.ID, []int{0, 1})
}

// CheckChain checks a match's chain as the store keeps it against the deals as they read
// back: their places are the order given (the order they were stored in), each link is
// the one their records give from the match's anchor, and the head is the last link.
func CheckChain(t testing.TB, s interface {
	domain.Store
	Chain(ctx context.Context, matchID string) (*domain.Chain, error)
}, matchID string, order []int) {
	t.Helper()
	ctx := context.Background()
	m, err := s.GetMatch(ctx, matchID)
	if err != nil {
		t.Fatal(err)
	}
	c, err := s.Chain(ctx, matchID)
	if err != nil {
		t.Fatal(err)
	}
	if c.Version != dealchain.Version || c.Length != len(order) || len(c.Links) != len(order) || len(c.Unchained) != 0 {
		t.Fatalf("chain of match %s: version %d, length %d, %d links, unchained %v; want version %d with the %d deals stored",
			matchID, c.Version, c.Length, len(c.Links), c.Unchained, dealchain.Version, len(order))
	}
	if m.ChainLength != c.Length || !bytes.Equal(m.ChainHead, c.Head) {
		t.Errorf("GetMatch says the chain has %d deals, head %x; Chain says %d, %x", m.ChainLength, m.ChainHead, c.Length, c.Head)
	}
	link := dealchain.Anchor(m.ID, m.Commitment)
	for i, l := range c.Links {
		if l.Seq != i || l.Number != order[i] {
			t.Errorf("place %d of the chain: deal %d at place %d; want deal %d (the order of storing)", i, l.Number, l.Seq, order[i])
			continue
		}
		rec, err := s.Deal(ctx, matchID, l.Number)
		if err != nil {
			t.Fatal(err)
		}
		link = dealchain.Next(link, dealchain.RecordDigest(rec, m.Spec.Rules.Players))
		if !bytes.Equal(l.Link, link[:dealchain.StoredLinkSize]) {
			t.Errorf("deal %d (place %d): stored link %x, but the deal as it reads back links to %x", l.Number, i, l.Link, link[:dealchain.StoredLinkSize])
		}
	}
	if !bytes.Equal(c.Head, link[:]) {
		t.Errorf("chain head %x, want the last link %x", c.Head, link)
	}
}
