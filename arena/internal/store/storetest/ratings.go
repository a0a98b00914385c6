package storetest

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/board"
	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/rating"
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
		for _, o := range []board.LoadOptions{{}, {IncludeTainted: true}, {History: true}, {RoleTotals: true}} {
			kept := boardJSON(t, s, f, o)
			o.Recompute = true
			if raw := boardJSON(t, s, f, o); kept != raw {
				t.Errorf("filter %+v, %+v: the kept sums' board differs from the raw results'\nkept: %s\nraw: %s", f, o, kept, raw)
			}
		}
	}
	// The data set exercises what it claims to.
	sums, err := s.RatingSums(context.Background(), domain.MatchFilter{LeagueID: "L"}, board.BoardEloKey(domain.MatchFilter{LeagueID: "L"}, false), board.SumsRead{})
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

// The dashboard's board (board.LoadOptions.RoleTotals) has each bot's totals by role as the
// whole board has them, tainted matches taken out, and no figures by contract or seat.
func testRatingRoleTotals(t *testing.T, s Store) {
	ratedLeague(t, s)
	load := func(f domain.MatchFilter, o board.LoadOptions) *board.Leaderboard {
		t.Helper()
		sums, err := board.Load(context.Background(), s, f, o)
		if err != nil {
			t.Fatal(err)
		}
		lb, err := board.Compute(sums, board.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return lb
	}
	for _, f := range []domain.MatchFilter{{}, {LeagueID: "L"}} {
		whole, totals := load(f, board.LoadOptions{}), load(f, board.LoadOptions{RoleTotals: true})
		if len(whole.Bots) != len(totals.Bots) {
			t.Fatalf("filter %+v: %d bots on the board with role totals, %d on the whole", f, len(totals.Bots), len(whole.Bots))
		}
		contracts := 0
		for i, w := range whole.Bots {
			got := totals.Bots[i]
			if w.Roles == nil || got.Roles == nil {
				t.Fatalf("filter %+v, bot %s: no roles (whole %v, totals %v)", f, w.Bot, w.Roles != nil, got.Roles != nil)
			}
			contracts += len(w.Roles.Contracts)
			if got.Bot != w.Bot || got.Roles.Declarer != w.Roles.Declarer || got.Roles.Defender != w.Roles.Defender ||
				got.Roles.NoDeclarer != w.Roles.NoDeclarer || got.Roles.DeclareShare != w.Roles.DeclareShare {
				t.Errorf("filter %+v, bot %s: role totals %+v, want the whole board's %+v", f, w.Bot, *got.Roles, *w.Roles)
			}
			if len(got.Roles.Contracts) != 0 || len(got.Roles.Seats) != 0 {
				t.Errorf("filter %+v, bot %s: %d contracts and %d seats with role totals only, want none", f, w.Bot,
					len(got.Roles.Contracts), len(got.Roles.Seats))
			}
		}
		if contracts == 0 {
			t.Errorf("filter %+v: the whole board has no figures by contract: the test tells nothing", f)
		}
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

// The store keeps each league's rating over time as deals are stored: points of the board's
// headline, with its interval, on the league's clock (the deal sources stored), oldest first,
// evenly spaced and bounded, up to date by the rule that takes them (board.HistoryDue).
func testRatingHistory(t *testing.T, s Store) {
	hs, ok := s.(board.HistoryStore)
	if !ok {
		t.Fatal("the store keeps no rating history (board.HistoryStore)")
	}
	m := storeRatedMatch(t, s, "H", 200)
	lr := board.LeagueRules{League: "H", Rules: m.Spec.Rules.String()}
	ps, err := hs.RatingHistory(context.Background(), lr)
	if err != nil {
		t.Fatal(err)
	}
	checkHistoryPoints(t, ps)
	checkLastHistoryPoint(t, s, ps)
	// A store that reads the points' clocks alone (what taking the next point reads) reads
	// those of the points it returns.
	if hc, ok := s.(board.HistoryClocks); ok {
		clocks, err := hc.HistoryClocks(context.Background(), lr)
		if err != nil {
			t.Fatal(err)
		}
		want := make([]int64, len(ps))
		for i, p := range ps {
			want[i] = p.Clock
		}
		if !slices.Equal(clocks, want) {
			t.Errorf("HistoryClocks = %v, want the points' clocks %v", clocks, want)
		}
	}
}

// storeRatedMatch stores a match of league of the given deals (one a deal source), rated
// deals among bots a, b and c.
func storeRatedMatch(t *testing.T, s Store, league string, deals int) *domain.Match {
	t.Helper()
	ctx := context.Background()
	m := &domain.Match{Spec: domain.MatchSpec{Rules: Rules(t, "modern"), Bots: []string{"a", "b", "c"}, Deals: deals, Seed: 5,
		LeagueID: league, TimeControl: domain.DefaultTimeControl}}
	if err := s.CreateMatch(ctx, m); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 5))
	for n := range deals {
		if err := s.SaveDeal(ctx, RatedDeal(m, n, rng, 0)); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

// checkHistoryPoints checks the points of the history after 200 deal sources: bounded in
// number, from clock 1 up to date, evenly spaced, each with the three bots in the board's
// order and, some of them, an interval.
func checkHistoryPoints(t *testing.T, ps []board.HistoryPoint) {
	t.Helper()
	if len(ps) < board.MaxHistoryPoints/2 || len(ps) > board.MaxHistoryPoints+1 {
		t.Fatalf("%d points after 200 deal sources, want %d to %d", len(ps), board.MaxHistoryPoints/2, board.MaxHistoryPoints+1)
	}
	if ps[0].Clock != 1 || board.HistoryDue(ps[len(ps)-1].Clock, 200) {
		t.Errorf("points from clock %d to %d: want the first at 1 and none due at 200", ps[0].Clock, ps[len(ps)-1].Clock)
	}
	withIntervals := 0
	for i, p := range ps {
		if i > 0 && (p.Clock <= ps[i-1].Clock || p.Clock-ps[i-1].Clock > 2*board.HistoryStride(200)) {
			t.Errorf("point %d at clock %d after %d: want increasing clocks, evenly spaced", i, p.Clock, ps[i-1].Clock)
		}
		if len(p.Bots) != 3 || p.Sources != int(p.Clock) || p.Deals != int(p.Clock) || p.At.IsZero() {
			t.Errorf("point %d: %+v, want the 3 bots, %d sources and deals rated, a time", i, p, p.Clock)
		}
		withIntervals += checkPointBots(t, i, p)
	}
	if withIntervals == 0 {
		t.Error("no point has an interval")
	}
}

// checkPointBots checks point i's bots: in the board's order, each with its interval around
// its rating (or none), provisional below 30 sources. It returns how many have an interval.
func checkPointBots(t *testing.T, i int, p board.HistoryPoint) (withIntervals int) {
	t.Helper()
	for j, b := range p.Bots {
		if j > 0 && b.Rating > p.Bots[j-1].Rating || b.Interval && !(b.Lo < b.Rating && b.Rating < b.Hi) ||
			!b.Interval && (b.Lo != b.Rating || b.Hi != b.Rating) || b.Provisional != (p.Clock < 30) {
			t.Errorf("point %d, bot %+v: want the board's order, its interval around it (or none), provisional below 30 sources", i, b)
		}
		if b.Interval {
			withIntervals++
		}
	}
	return withIntervals
}

// checkLastHistoryPoint checks that the last point is the board of the kept sums as they were
// then: here, when it was taken.
func checkLastHistoryPoint(t *testing.T, s Store, ps []board.HistoryPoint) {
	t.Helper()
	last := ps[len(ps)-1]
	if last.Clock == 200 {
		lb, err := board.Compute(mustLoad(t, s, domain.MatchFilter{LeagueID: "H"}), board.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := last.Bots, board.PointOf(lb, 200, last.At).Bots; !slices.Equal(got, want) {
			t.Errorf("the last point %+v, the board %+v", got, want)
		}
	}
}

func mustLoad(t *testing.T, s Store, f domain.MatchFilter) *board.Sums {
	t.Helper()
	sums, err := board.Load(context.Background(), s, f, board.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return sums
}

// The board reads the cells of a bounded sample of each league's deal sources (the skewness
// and the degrees of freedom of the headline come from them), never of all of them: with more
// sources stored than rating.SampleSources, the kept sums hold exactly that many, the first by
// key, the same sources as the raw results' board samples.
func testRatingSampleIsBounded(t *testing.T, s Store) {
	ctx := context.Background()
	m := &domain.Match{Spec: domain.MatchSpec{Rules: Rules(t, "modern"), Bots: []string{"a", "b", "c"}, Deals: rating.SampleSources + 44,
		Seed: 8, LeagueID: "S", TimeControl: domain.DefaultTimeControl}}
	if err := s.CreateMatch(ctx, m); err != nil {
		t.Fatal(err)
	}
	batcher, _ := s.(interface {
		SaveDeals(ctx context.Context, ds []*domain.DealRecord) error
	})
	rng := rand.New(rand.NewPCG(8, 8))
	var batch []*domain.DealRecord
	for n := range m.Spec.Deals {
		d := RatedDeal(m, n, rng, 0)
		if batcher == nil {
			if err := s.SaveDeal(ctx, d); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if batch = append(batch, d); len(batch) == 50 || n == m.Spec.Deals-1 {
			if err := batcher.SaveDeals(ctx, batch); err != nil {
				t.Fatal(err)
			}
			batch = nil
		}
	}
	lr := board.LeagueRules{League: "S", Rules: m.Spec.Rules.String()}
	sample := func(o board.LoadOptions) []string {
		sums, err := board.Load(ctx, s, domain.MatchFilter{LeagueID: "S"}, o)
		if err != nil {
			t.Fatal(err)
		}
		return slices.Sorted(maps.Keys(sums.Sample[lr]))
	}
	kept, raw := sample(board.LoadOptions{}), sample(board.LoadOptions{Recompute: true})
	if len(kept) != rating.SampleSources || !slices.Equal(kept, raw) {
		t.Errorf("%d deal sources stored: the kept sums sample %d of them, the raw results %d (the same: %v); want %d, the same",
			m.Spec.Deals, len(kept), len(raw), slices.Equal(kept, raw), rating.SampleSources)
	}
}
