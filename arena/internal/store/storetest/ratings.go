package storetest

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/board"
	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/engine"
)

// RatedDeal is deal number of match m with random results in the shape of Tapp's (a declarer
// with a contract, made or not, or a Ramsch), fallbacks in about fallbackShare of its 10
// decisions, and the seating and cards of duplicate play: a duplicate group's deals play one
// deal from the match's seed (its group's), a deal without duplicate its own (its number's),
// so that matches of one seed share deal sources as the tables of a league round do.
func RatedDeal(m *domain.Match, number int, rng *rand.Rand, fallbackShare float64) *domain.DealRecord {
	rules := m.Spec.Rules
	k := rules.Players
	unit := 1
	if m.Spec.Duplicate {
		unit = map[int]int{3: 6, 4: 4}[k]
	}
	seating := append([]string(nil), m.Spec.Bots...)
	rot := number % unit
	for range rot % k { // a different seating for each deal of a group
		seating = append(seating[1:], seating[0])
	}
	if rot >= k {
		seating[0], seating[1] = seating[1], seating[0]
	}
	d := &domain.DealRecord{MatchID: m.ID, Number: number, Group: number / unit, Seating: seating,
		Deal: engine.DealFromSeed(rules, m.Spec.Seed, uint64(number/unit))}
	contracts := []engine.Contract{engine.Frage, engine.Solo, engine.HeartSolo, engine.Bettel}
	declarer := rng.IntN(k + 1) // k: nobody declared
	v := []int{10, 20, 30, 50}[rng.IntN(4)]
	if rng.IntN(2) == 0 {
		v = -v
	}
	d.Outcome = engine.Outcome{Declarer: engine.NoSeat, Contract: engine.Ramsch}
	for seat := range k {
		pay := -v
		switch {
		case declarer == k:
			pay = []int{-10, 5, 5, 0}[(seat+number)%k] // a Ramsch
			if k == 4 && seat == 3 {
				pay = 0
			}
		case seat == declarer:
			pay = v * (k - 1)
		}
		d.Results = append(d.Results, domain.SeatResult{Bot: seating[seat], Seat: engine.Seat(seat), Payoff: pay,
			Declarer: seat == declarer})
	}
	if declarer < k {
		d.Outcome = engine.Outcome{Declarer: engine.Seat(declarer), Contract: contracts[rng.IntN(len(contracts))],
			DeclarerWon: v > 0}
	}
	for i := range 10 {
		d.Decisions = append(d.Decisions, domain.DecisionRecord{Index: i, Seat: engine.Seat(i % k), Bot: seating[i%k],
			Decision: engine.DecideCard, Fallback: rng.Float64() < fallbackShare})
	}
	return d
}

// ratedLeague stores matches of every kind the rating sums distinguish, from several
// goroutines at once (one deal and, where the store takes them, several per transaction):
// in league L, all dealt from one seed, so that their compositions share deal sources,
// duplicate groups complete and one not, a second match of one composition on the same
// sources (its cells grow), deals without duplicate on the same sources, a match tainted by
// fallbacks and one by a forfeit (both sharing sources with clean ones); a 4-seat league;
// stand-alone matches under another rule set.
func ratedLeague(t *testing.T, s Store) {
	t.Helper()
	ctx := context.Background()
	type plan struct {
		league   string
		rules    string
		bots     []string
		dup      bool
		deals    int
		seed     uint64
		fallback float64
		forfeit  bool
	}
	plans := []plan{
		{"L", "modern", []string{"a", "b", "c"}, true, 6 * 8, 1, 0, false},
		{"L", "modern", []string{"b", "c", "a"}, true, 6 * 3, 1, 0, false},
		{"L", "modern", []string{"a", "b", "d"}, true, 6*6 + 2, 1, 0, false}, // a group left open
		{"L", "modern", []string{"c", "b", "d"}, false, 20, 1, 0, false},
		{"L", "modern", []string{"a", "c", "d"}, false, 16, 1, 0.05, false}, // tainted: 5% fallbacks
		{"L", "modern", []string{"d", "a", "b"}, false, 12, 1, 0, true},     // tainted: a forfeit
		{"M", "modern players=4", []string{"a", "b", "c", "d"}, true, 4 * 6, 2, 0, false},
		{"", "classic", []string{"a", "b", "c"}, false, 15, 3, 0, false},
		{"", "classic", []string{"a", "b", "e"}, false, 10, 3, 0, false},
	}
	batcher, _ := s.(interface {
		SaveDeals(ctx context.Context, ds []*domain.DealRecord) error
	})
	var wg sync.WaitGroup
	errs := make(chan error, len(plans))
	for i, p := range plans {
		m := &domain.Match{Spec: domain.MatchSpec{Rules: Rules(t, p.rules), Bots: p.bots, Deals: p.deals, Seed: p.seed,
			Duplicate: p.dup, LeagueID: p.league, TimeControl: domain.DefaultTimeControl},
			Started: time.Date(2026, 12, 1, 0, i, 0, 0, time.UTC)}
		if err := s.CreateMatch(ctx, m); err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(i), 99))
			for n := 0; n < p.deals; {
				batch := []*domain.DealRecord{RatedDeal(m, n, rng, p.fallback)}
				n++
				for n%5 != 0 && n < p.deals && i%2 == 0 && batcher != nil { // every other match stores batches
					batch = append(batch, RatedDeal(m, n, rng, p.fallback))
					n++
				}
				var err error
				if len(batch) > 1 {
					err = batcher.SaveDeals(ctx, batch)
				} else {
					err = s.SaveDeal(ctx, batch[0])
				}
				if err != nil {
					errs <- err
					return
				}
			}
			m.Status, m.Finished = domain.MatchFinished, time.Date(2026, 12, 1, 1, i, 0, 0, time.UTC)
			if p.forfeit {
				m.Forfeited = []string{"d"}
			}
			errs <- s.UpdateMatch(ctx, m)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
}

// boardJSON is the leaderboard of the sums board.Load gives, as JSON.
func boardJSON(t *testing.T, st domain.Store, f domain.MatchFilter, o board.LoadOptions) string {
	t.Helper()
	sums, err := board.Load(context.Background(), st, f, o)
	if err != nil {
		t.Fatalf("Load(%+v, %+v): %v", f, o, err)
	}
	lb, err := board.Compute(sums, board.Options{Bot: f.Bot, TaintedIncluded: o.IncludeTainted})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", " ")
	if err := enc.Encode(lb); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// The rating sums a store keeps as it stores deals (board.Source) give the board of the raw
// results exactly, for every filter, with and without tainted matches: the deal-source sums
// (cells, their pairs, the sources of each bot), the roles, the compositions, the Elo.
func testRatingSumsAreTheRawResults(t *testing.T, s Store) {
	ratedLeague(t, s)
	for _, f := range []domain.MatchFilter{{}, {LeagueID: "L"}, {LeagueID: "M"}, {Bot: "d"},
		{LeagueID: "L", Rules: Rules(t, "modern").String()}, {Rules: Rules(t, "classic").String()}} {
		for _, o := range []board.LoadOptions{{}, {IncludeTainted: true}, {History: true}} {
			kept := boardJSON(t, s, f, o)
			o.Recompute = true
			if raw := boardJSON(t, s, f, o); kept != raw {
				t.Errorf("filter %+v, %+v: the kept sums' board differs from the raw results'\nkept: %s\nraw: %s", f, o, kept, raw)
			}
		}
	}
	// The data set exercises what it claims to.
	sums, err := s.RatingSums(context.Background(), domain.MatchFilter{LeagueID: "L"}, board.BoardEloKey(domain.MatchFilter{LeagueID: "L"}, false), false)
	if err != nil {
		t.Fatal(err)
	}
	lb, err := board.Compute(sums, board.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Cells: abc 8 (the second match's 3 groups fall in them), abd 6, bcd 20, acd 16, abd's
	// 12 deals without duplicate (6 of them in the cells of the duplicate groups of their
	// sources); deal sources 0–19.
	if lb.TaintedMatches != 2 || lb.PartialUnits != 1 || lb.Units != 8+6+20+16+6 || lb.Sources != 20 || len(sums.Pairs) < 6 {
		t.Errorf("league L as kept: %d tainted matches, %d partial units, %d cells, %d deal sources, %d pairs of compositions; want 2, 1, %d, 20, at least 6",
			lb.TaintedMatches, lb.PartialUnits, lb.Units, lb.Sources, len(sums.Pairs), 8+6+20+16+6)
	}
}

// countingStore counts the deals read through it.
type countingStore struct {
	Store
	reads atomic.Int64
}

func (c *countingStore) Deals(ctx context.Context, matchID string) ([]domain.DealRecord, error) {
	c.reads.Add(1)
	return c.Store.Deals(ctx, matchID)
}

func (c *countingStore) DealSummaries(ctx context.Context, matchID string) ([]domain.DealRecord, error) {
	c.reads.Add(1)
	return c.Store.DealSummaries(ctx, matchID)
}

// The board reads the kept sums, not the deals: none at all without tainted matches, and
// only the tainted matches' (to take them out) with them.
func testRatingSumsReadNoDeals(t *testing.T, s Store) {
	ratedLeague(t, s)
	c := &countingStore{Store: s}
	for _, f := range []domain.MatchFilter{{LeagueID: "M"}, {}} {
		c.reads.Store(0)
		boardJSON(t, c, f, board.LoadOptions{History: true})
		want := int64(2) // league L's two tainted matches
		if f.LeagueID == "M" {
			want = 0
		}
		if got := c.reads.Load(); got != want {
			t.Errorf("filter %+v: the board read the deals of %d matches, want %d (the tainted ones)", f, got, want)
		}
	}
	c.reads.Store(0)
	boardJSON(t, c, domain.MatchFilter{}, board.LoadOptions{Recompute: true})
	if got := c.reads.Load(); got < 9 {
		t.Errorf("--recompute read the deals of %d matches, want all 9 (the test can tell)", got)
	}
}
