package store

import (
	"context"
	"github.com/tapparena/tapp/arena/internal/store/storetest"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
)

// TestPreparedStatementsStayFew: however the size of the batches a league stores varies over a
// night, the store prepares a bounded set of statements. It keeps each one for its life, and a
// multi-row INSERT takes SQLite tens of KB: one statement per batch size would grow the arena
// as rarer sizes came along.
func TestPreparedStatementsStayFew(t *testing.T) {
	t.Parallel()
	s := openTest(t, sqliteBackend.newDSN(t))
	ctx := context.Background()
	m := &domain.Match{Spec: domain.MatchSpec{Rules: mustRules(t, "modern"), Bots: []string{"a", "b", "c"}, Deals: 2000,
		Seed: 1, LeagueID: "", TimeControl: domain.DefaultTimeControl}, Started: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)}
	if err := s.CreateMatch(ctx, m); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	number := 0
	for size := 1; size <= 60; size++ { // batches of 1 to 60 deals: 3 to 180 result rows
		var batch []*domain.DealRecord
		for range size {
			batch = append(batch, storetest.RatedDeal(m, number, rng, 0))
			number++
		}
		if err := s.SaveDeals(ctx, batch); err != nil {
			t.Fatal(err)
		}
	}
	prepared := 0
	s.stmts.Range(func(_, _ any) bool { prepared++; return true })
	// Each multi-row statement in its seven sizes (1, 2, 4 … 64 rows): the deals', the
	// results', and the three of the deal sources' cells (sourceBatchQueries), and the rest.
	if prepared > 60 {
		t.Errorf("%d statements prepared after batches of 60 sizes; want at most 60 (multi-row INSERTs of a few sizes)", prepared)
	}
}
