package analysis

import (
	"context"
	"fmt"
	"testing"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/rating"
	"github.com/tapparena/tapp/bots/heuristic"
	"github.com/tapparena/tapp/bots/random"
	"github.com/tapparena/tapp/bots/search"
	"github.com/tapparena/tapp/engine"
)

// TestOracleHasNoCardError: a bot that sees every card and always plays a card that keeps par
// (test harness only) loses nothing over 200 deals (20 with -short), by the whole analysis
// (replaying the records, the par positions, the attribution of each card to its seat and bot).
func TestOracleHasNoCardError(t *testing.T) {
	t.Parallel()
	n := shortOr(20, 200)
	r, err := engine.ParseRuleSet("modern players=4")
	if err != nil {
		t.Fatal(err)
	}
	play := NewAnalyzer(Options{})
	rng := engine.NewRand(1, 2)
	table := make([]seated, r.Players)
	for s := range table {
		table[s] = seated{fmt.Sprint("oracle", s), oracle(play, func(n int) int { return rng.IntN(n) })}
	}
	run := Run{Options: Options{}}
	var recs = make([]*domain.DealRecord, 0, n)
	for k := 0; k < n; k++ {
		recs = append(recs, playDeal(t, r, 77, k, table))
	}
	deals, err := run.Deals(context.Background(), r, recs)
	if err != nil {
		t.Fatal(err)
	}
	cards := 0
	for _, d := range deals {
		for _, x := range d.Decisions {
			if x.Kind != "card" {
				continue
			}
			cards++
			if x.Loss != 0 || (x.LossPoints != nil && *x.LossPoints != 0) {
				t.Errorf("deal %d decision %d: %s plays %s and loses %v (best %v)", d.Number, x.Index, x.Bot, x.Action, x.Loss, x.Best)
			}
		}
	}
	for _, b := range Summarize(deals) {
		if b.CardErrorPerDeal.Mean != 0 || b.RamschPointErrorPerDeal.Mean != 0 {
			t.Errorf("%s: card error %+v, Ramsch %+v; want 0", b.Bot, b.CardErrorPerDeal, b.RamschPointErrorPerDeal)
		}
	}
	if cards < n*8 {
		t.Errorf("only %d cards analysed in %d deals", cards, n)
	}
}

// TestRandomCardsErrFarMoreThanKibitz: the random bot's card error per deal is far above the
// search bot's, on the same deals.
func TestRandomCardsErrFarMoreThanKibitz(t *testing.T) {
	if testing.Short() {
		t.Skip("a comparison of two bots over 30 deals each (-short)")
	}
	t.Parallel()
	r, err := engine.ParseRuleSet("modern players=3")
	if err != nil {
		t.Fatal(err)
	}
	h := botDecider(heuristic.New())
	kib := botDecider(search.New(search.Config{Samples: 8, Budget: -1, Seed: 5}))
	rnd := botDecider(random.New(5))
	// the heuristic bot bids for both, so that both play the same contracts
	cardsBy := func(cards decider) decider {
		return func(st *engine.State, obs *engine.Observation) engine.Action {
			if obs.Decision == engine.DecideCard {
				return cards(st, obs)
			}
			return h(st, obs)
		}
	}
	var recs []*domain.DealRecord
	const deals = 30
	for n := 0; n < deals; n++ {
		seat := n % r.Players
		for _, who := range []struct {
			name string
			d    decider
		}{{"kibitz", kib}, {"random", rnd}} {
			table := make([]seated, r.Players)
			for s := range table {
				table[s] = seated{"heuristic", h}
			}
			table[seat] = seated{who.name, cardsBy(who.d)}
			recs = append(recs, playDeal(t, r, 11, n, table))
		}
	}
	out, err := Run{}.Deals(context.Background(), r, recs)
	if err != nil {
		t.Fatal(err)
	}
	by := map[string]BotSummary{}
	for _, b := range Summarize(out) {
		by[b.Bot] = b
	}
	k, x := by["kibitz"], by["random"]
	for _, iv := range []struct {
		what           string
		kibitz, random rating.Interval
	}{{"cents per deal", k.CardErrorPerDeal, x.CardErrorPerDeal}, {"Ramsch card points per deal", k.RamschPointErrorPerDeal, x.RamschPointErrorPerDeal}} {
		kk, xx := iv.kibitz, iv.random
		t.Logf("%s: kibitz %.1f [%.1f, %.1f] (%d deals), random %.1f [%.1f, %.1f] (%d deals)", iv.what, kk.Mean, kk.Lo, kk.Hi, kk.N, xx.Mean, xx.Lo, xx.Hi, xx.N)
		if kk.N < 5 || xx.N < 5 {
			t.Fatalf("%s: too few deals", iv.what)
		}
		if !(xx.Mean > kk.Hi && xx.Mean > 2*kk.Mean) { // t intervals on 8 deals are wide: compare the means
			t.Errorf("%s: random's card error %.1f [%.1f, %.1f] is not far above kibitz's %.1f", iv.what, xx.Mean, xx.Lo, xx.Hi, kk.Mean)
		}
	}
	if k.CardsLosing*2 > x.CardsLosing {
		t.Errorf("cards that lost: kibitz %d of %d, random %d of %d", k.CardsLosing, k.CardsAnalysed, x.CardsLosing, x.CardsAnalysed)
	}
}
