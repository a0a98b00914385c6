package rating

import (
	"maps"
	"math"
	"slices"
	"testing"
)

var ledgerMatches = []Match{
	{ID: "m1", Bots: []string{"ace", "bob", "cat"}, Cents: []int64{150, -20, -130}},
	{ID: "m2", Bots: []string{"bob", "cat", "dan", "ace"}, Cents: []int64{40, 40, -100, 20}},
	{ID: "m3", Bots: []string{"dan", "ace", "cat"}, Cents: []int64{0, 0, 0}},
	{ID: "m4", Bots: []string{"cat", "dan"}, Cents: []int64{75, -75}},
}

func TestLedgerFirstMatchIsMultiElo(t *testing.T) {
	t.Parallel()
	l, err := NewLedger(DefaultK, DefaultD, 1000)
	if err != nil {
		t.Fatal(err)
	}
	// Bots entering at 1200/1000/900 would need prior matches; check against MultiElo with
	// equal starting ratings and the ranking from cents instead.
	e, err := l.Apply(Match{ID: "x", Bots: []string{"p", "q", "r"}, Cents: []int64{-5, 30, -5}})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := MultiElo([]float64{1000, 1000, 1000}, []float64{2.5, 1, 2.5}, 32, 400)
	tests := []struct {
		name      string
		got, want any
	}{
		{"places", slices.Equal(e.Places, []float64{2.5, 1, 2.5}), true},
		{"before", slices.Equal(e.Before, []float64{1000, 1000, 1000}), true},
		{"after", slices.Equal(e.After, want), true},
		{"q gains 2/3·64 − 64/3", round(e.After[1], 6), round(1000+64*(2.0/3-1.0/3), 6)},
		{"seq", e.Seq, 0},
		{"id", e.ID, "x"},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, tc.got, tc.want)
		}
	}
}

func TestLedgerReplay(t *testing.T) {
	t.Parallel()
	l, err := ReplayLedger(DefaultK, DefaultD, DefaultInitialRating, ledgerMatches)
	if err != nil {
		t.Fatal(err)
	}
	// Applying the matches one by one by hand must give the same numbers.
	ratings := map[string]float64{}
	for _, m := range ledgerMatches {
		before := make([]float64, len(m.Bots))
		for i, b := range m.Bots {
			r, ok := ratings[b]
			if !ok {
				r = DefaultInitialRating
			}
			before[i] = r
		}
		after, _ := MultiElo(before, Places(m.Cents), DefaultK, DefaultD)
		for i, b := range m.Bots {
			ratings[b] = after[i]
		}
	}
	total := 0.0
	for bot, want := range ratings {
		got, ok := l.Rating(bot)
		total += got
		if !ok || got != want {
			t.Errorf("%s: got %v (%v), want %v", bot, got, ok, want)
		}
	}
	if !near(total, 4*DefaultInitialRating, 1e-9) {
		t.Errorf("ratings sum %v, want %v (zero-sum updates)", total, 4*DefaultInitialRating)
	}
	if r, ok := l.Rating("nobody"); ok || r != DefaultInitialRating {
		t.Errorf("unknown bot: %v %v", r, ok)
	}

	// Determinism: a second replay is bit-identical, including history.
	again, _ := ReplayLedger(DefaultK, DefaultD, DefaultInitialRating, ledgerMatches)
	if !slices.Equal(l.Standings(), again.Standings()) {
		t.Errorf("standings differ between replays")
	}
	h1, h2 := l.History(), again.History()
	for i := range h1 {
		if !slices.Equal(h1[i].After, h2[i].After) {
			t.Errorf("history %d differs between replays", i)
		}
	}

	st := l.Standings()
	if len(st) != 4 || l.Len() != 4 {
		t.Fatalf("standings %v, len %d", st, l.Len())
	}
	for i := 1; i < len(st); i++ {
		if st[i-1].Rating < st[i].Rating {
			t.Errorf("standings not sorted: %v", st)
		}
	}
	matches := map[string]int{}
	for _, s := range st {
		matches[s.Bot] = s.Matches
	}
	if want := map[string]int{"ace": 3, "bob": 2, "cat": 4, "dan": 3}; !maps.Equal(matches, want) {
		t.Errorf("match counts %v, want %v", matches, want)
	}

	// Bot history: the rating after each of cat's matches.
	hist := l.BotHistory("cat")
	var seqs []int
	for _, p := range hist {
		seqs = append(seqs, p.Seq)
	}
	if !slices.Equal(seqs, []int{0, 1, 2, 3}) || hist[3].Rating != ratings["cat"] || hist[3].ID != "m4" {
		t.Errorf("cat history %v", hist)
	}
	if len(l.BotHistory("nobody")) != 0 {
		t.Error("history for unknown bot")
	}
}

func TestLedgerAllTiedEqualRatings(t *testing.T) {
	t.Parallel()
	l, _ := NewLedger(DefaultK, DefaultD, 1500)
	e, err := l.Apply(Match{Bots: []string{"a", "b", "c", "d"}, Cents: []int64{0, 0, 0, 0}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(e.After, []float64{1500, 1500, 1500, 1500}) {
		t.Errorf("after %v, want unchanged", e.After)
	}
}

func TestLedgerInvalidMatchLeavesLedgerUnchanged(t *testing.T) {
	t.Parallel()
	l, _ := ReplayLedger(DefaultK, DefaultD, DefaultInitialRating, ledgerMatches[:1])
	before := l.Standings()
	if _, err := l.Apply(Match{Bots: []string{"ace", "ace"}, Cents: []int64{1, 2}}); err == nil {
		t.Fatal("duplicate bot accepted")
	}
	if l.Len() != 1 || !slices.Equal(l.Standings(), before) {
		t.Error("ledger changed by an invalid match")
	}
	if _, err := ReplayLedger(DefaultK, DefaultD, DefaultInitialRating, []Match{{Bots: []string{"x"}}}); err == nil {
		t.Error("ReplayLedger accepted an invalid match")
	}
}

func TestLedgerHistoryIsACopy(t *testing.T) {
	t.Parallel()
	l, _ := ReplayLedger(DefaultK, DefaultD, DefaultInitialRating, ledgerMatches)
	h := l.History()
	h[0].After[0] = -1
	h[0].Bots[0] = "mallory"
	if l.History()[0].After[0] == -1 || l.History()[0].Bots[0] == "mallory" {
		t.Error("History exposes internal slices")
	}
}

func TestNewLedgerErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name          string
		k, d, initial float64
	}{
		{"zero K", 0, 400, 1500},
		{"zero D", 32, 0, 1500},
		{"NaN initial", 32, 400, math.NaN()},
	}
	for _, tc := range tests {
		if _, err := NewLedger(tc.k, tc.d, tc.initial); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}
