package web

import (
	"context"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/match"
	"github.com/tapparena/tapp/arena/internal/store"
	"github.com/tapparena/tapp/engine"
)

// perMatch is the number of deals of each match fillRandomDeals stores.
const perMatch = 10000

// fillRandomDeals makes sure the store holds at least n deals of random legal modern play in
// matches of perMatch deals each, and returns one match's id.
func fillRandomDeals(b testing.TB, ctx context.Context, st *store.Store, n int) string {
	b.Helper()
	rules := engine.DefaultRules(engine.Modern)
	bots := []string{"a", "b", "c"}
	for _, name := range bots {
		_ = st.CreateBot(ctx, &domain.Bot{Name: name, TokenHash: []byte("bench-" + name)})
	}
	var first string
	have := 0
	ms, err := st.ListMatches(ctx, domain.MatchFilter{})
	if err != nil {
		b.Fatal(err)
	}
	for _, m := range ms {
		nums, _ := st.DealNumbers(ctx, m.ID)
		have += len(nums)
		first = m.ID
	}
	rng := engine.NewRand(42, uint64(have))
	for have < n {
		spec := domain.MatchSpec{Rules: rules, Bots: bots, Deals: perMatch, Seed: uint64(have), TimeControl: domain.DefaultTimeControl}
		m := &domain.Match{Spec: spec, Status: domain.MatchFinished, Started: time.Now()}
		if err := st.CreateMatch(ctx, m); err != nil {
			b.Fatal(err)
		}
		first = m.ID
		batch := make([]*domain.DealRecord, 0, 256)
		for k := 0; k < perMatch && have < n; k++ {
			deal := engine.DealFromSeed(rules, spec.Seed, uint64(k))
			rec := playTable(b, m, match.Table{Number: k, Group: k, Deal: deal, Seating: bots}, rng)
			batch = append(batch, rec)
			have++
			if len(batch) == cap(batch) {
				if err := st.SaveDeals(ctx, batch); err != nil {
					b.Fatal(err)
				}
				batch = batch[:0]
			}
		}
		if len(batch) > 0 {
			if err := st.SaveDeals(ctx, batch); err != nil {
				b.Fatal(err)
			}
		}
		m.Finished = time.Now()
		if err := st.UpdateMatch(ctx, m); err != nil {
			b.Fatal(err)
		}
	}
	return first
}
