package match

import (
	"testing"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/engine"
)

var acesOfHearts = engine.NewCard(engine.Hearts, engine.Ace)

func TestSessionPlan_R_SESSION(t *testing.T) {
	t.Parallel()
	for _, players := range []int{3, 4} {
		for _, rounds := range []int{0, 1, 2} {
			rules := engine.DefaultRules(engine.Modern)
			rules.Players = players
			bots := []string{"a", "b", "c", "d"}[:players]
			spec := domain.MatchSpec{Rules: rules, Bots: bots, Seed: uint64(7 + rounds), Format: domain.FormatSession, Rounds: rounds}
			tables, err := Plan(spec)
			if err != nil {
				t.Fatal(err)
			}
			dealerOf := func(tb Table) string { return tb.Seating[players-1] }
			// R-SESSION-1: the agreed rounds, the deal passing round the table.
			for i := 0; i < rounds*players; i++ {
				if got, want := dealerOf(tables[i]), bots[i%players]; got != want || tables[i].ForcedRamsch {
					t.Fatalf("%dp %d rounds: deal %d dealt by %s (forced %v), want %s", players, rounds, i, got, tables[i].ForcedRamsch, want)
				}
			}
			// R-SESSION-2: deciding deals until the ace of hearts is dealt to a player, who deals
			// the last round; R-SESSION-3: then every player deals one forced Ramsch.
			i := rounds * players
			for ; tables[i].Deal.Tapp.Has(acesOfHearts); i++ {
			}
			var holder string
			for seat, h := range tables[i].Deal.Hands[:players] {
				if h.Has(acesOfHearts) {
					holder = tables[i].Seating[seat]
				}
			}
			last := tables[i+1 : i+1+players]
			forced := tables[i+1+players:]
			if dealerOf(last[0]) != holder {
				t.Fatalf("%dp: the last round starts with %s, want the ace-of-hearts holder %s", players, dealerOf(last[0]), holder)
			}
			if len(forced) != players {
				t.Fatalf("%dp: %d forced Ramsch deals, want %d", players, len(forced), players)
			}
			seen := map[string]bool{}
			for _, tb := range last {
				if tb.ForcedRamsch {
					t.Fatalf("%dp: the last round has a forced Ramsch", players)
				}
				seen[dealerOf(tb)] = true
			}
			for _, tb := range forced {
				if !tb.ForcedRamsch {
					t.Fatalf("%dp: a deal of the forced round is not a forced Ramsch", players)
				}
				seen[dealerOf(tb)] = true
			}
			if len(seen) != players {
				t.Fatalf("%dp: not every player dealt in the last rounds: %v", players, seen)
			}
		}
	}
}

func TestSessionPlanRefusesOtherVariantsAndDuplicate(t *testing.T) {
	t.Parallel()
	classic := domain.MatchSpec{Rules: engine.DefaultRules(engine.Classic), Bots: []string{"a", "b", "c"}, Format: domain.FormatSession, Rounds: 1}
	if _, err := Plan(classic); err == nil {
		t.Error("a classic session was planned; R-SESSION is modern's")
	}
	dup := domain.MatchSpec{Rules: engine.DefaultRules(engine.Modern), Bots: []string{"a", "b", "c"}, Format: domain.FormatSession, Rounds: 1, Duplicate: true}
	if _, err := Plan(dup); err == nil {
		t.Error("a duplicate session was planned")
	}
	if _, err := Plan(domain.MatchSpec{Rules: engine.DefaultRules(engine.Modern), Bots: []string{"a", "b", "c"}, Deals: 1, Format: "marathon"}); err == nil {
		t.Error("an unknown format was planned")
	}
}

func TestDuplicatePlanSeatsEveryBotEverywhere(t *testing.T) {
	t.Parallel()
	spec := domain.MatchSpec{Rules: engine.DefaultRules(engine.Modern), Bots: []string{"a", "b", "c"}, Deals: 2, Seed: 1, Duplicate: true}
	tables, err := Plan(spec)
	if err != nil {
		t.Fatal(err)
	}
	if len(tables) != 12 {
		t.Fatalf("%d tables, want 2 deals × 6 seatings", len(tables))
	}
	count := map[[2]string]int{}
	for _, tb := range tables {
		if tb.Deal != tables[tb.Group*6].Deal {
			t.Fatalf("table %d of group %d has another deal", tb.Number, tb.Group)
		}
		for seat, b := range tb.Seating {
			count[[2]string{b, string(rune('0' + seat))}]++
		}
	}
	for k, c := range count {
		if c != 4 { // 2 groups × 2 seatings each with that bot in that seat
			t.Fatalf("bot %s sat in seat %s %d times, want 4", k[0], k[1], c)
		}
	}
}
