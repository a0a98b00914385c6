package sprt_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/league/plan"
	"github.com/tapparena/tapp/arena/internal/league/sprt"
	"github.com/tapparena/tapp/arena/internal/match"
	"github.com/tapparena/tapp/arena/internal/rating"
	"github.com/tapparena/tapp/arena/internal/store/memstore"
	"github.com/tapparena/tapp/engine"
)

// countingSource counts the units a test reads per check.
type countingSource struct {
	sprt.UnitSource
	last, most int
}

func (c *countingSource) LeagueUnits(ctx context.Context, league string, from int) ([]domain.LeagueUnit, error) {
	us, err := c.UnitSource.LeagueUnits(ctx, league, from)
	c.last = len(us)
	c.most = max(c.most, len(us))
	return us, err
}

func testPlan(t *testing.T, s sprt.Settings) *plan.Plan {
	t.Helper()
	rules, err := engine.ParseRuleSet("modern")
	if err != nil {
		t.Fatal(err)
	}
	base := plan.Plan{Rules: rules, Deals: 4, Seed: 5, TimeControl: domain.DefaultTimeControl}
	p, err := sprt.NewPlan("t", base, "new", "old", []string{"f1", "f2", "f3"}, s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// dealsOf schedules round r of p in st and returns its deals with made-up payoffs: the
// candidate a little better than the baseline, in a shuffled order of storing.
func dealsOf(t *testing.T, st *memstore.Memory, p *plan.Plan, r int, rng *rand.Rand) []*domain.DealRecord {
	t.Helper()
	ctx := context.Background()
	places, ms, jobs, err := p.Round(r, p.FixedTables(r))
	if err != nil {
		t.Fatal(err)
	}
	if err := st.ScheduleRound(ctx, places, ms, jobs); err != nil {
		t.Fatal(err)
	}
	var out []*domain.DealRecord
	for _, m := range ms {
		tables, err := match.Plan(m.Spec)
		if err != nil {
			t.Fatal(err)
		}
		for _, tb := range tables {
			d := &domain.DealRecord{MatchID: m.ID, Number: tb.Number, Group: tb.Group, Seating: tb.Seating, Deal: tb.Deal}
			for seat, bot := range tb.Seating {
				pay := rng.IntN(41) - 20
				if bot == p.Candidate {
					pay += 3
				}
				d.Results = append(d.Results, domain.SeatResult{Bot: bot, Seat: engine.Seat(seat), Payoff: pay})
			}
			out = append(out, d)
		}
	}
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// same compares summaries in full, a NaN (an Elo margin of one pair) equal to a NaN.
func same(a, b sprt.Summary) bool { return fmt.Sprintf("%+v", a) == fmt.Sprintf("%+v", b) }

// recomputed is the test's state recomputed from every raw result stored.
func recomputed(t *testing.T, st *memstore.Memory, p *plan.Plan, s sprt.Settings) sprt.Summary {
	t.Helper()
	sum, err := sprt.Recompute(context.Background(), st, p, s)
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

// A running test agrees with the recomputation from raw results after every batch of stored
// deals, whatever order they are stored in; a test started afresh in the middle (a resumed
// run, another process after kill -9) agrees too; and a check reads the units of a few
// rounds only, however many are stored.
func TestRunningTestAgreesWithRecomputation(t *testing.T) {
	t.Parallel()
	s := sprt.Settings{NElo0: 0, NElo1: 150, Alpha: 0.05, Beta: 0.05}
	p := testPlan(t, s)
	st := memstore.New()
	src := &countingSource{UnitSource: st}
	test, err := sprt.NewTest(src, p, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 2))
	const rounds = 40
	// Rounds are scheduled two ahead of the last complete one, as the runner does: the deals
	// of rounds r and r+1 are stored interleaved.
	var pending []*domain.DealRecord
	for r := 0; r < rounds; r++ {
		pending = append(pending, dealsOf(t, st, p, r, rng)...)
		for len(pending) > 48 || (r == rounds-1 && len(pending) > 0) {
			n := min(len(pending), 1+rng.IntN(20))
			for _, d := range pending[:n] {
				if err := st.SaveDeal(ctx, d); err != nil {
					t.Fatal(err)
				}
			}
			pending = pending[n:]
			if _, err := test.Check(ctx); err != nil {
				t.Fatal(err)
			}
			want := recomputed(t, st, p, s)
			if got := test.Summary(); !same(got, want) {
				t.Fatalf("round %d: running test %+v\nrecomputed %+v", r, got, want)
			}
			if r == rounds/2 { // a fresh test (a resumed run) counts what is stored
				fresh, err := sprt.NewTest(st, p, s, nil)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := fresh.Check(ctx); err != nil {
					t.Fatal(err)
				}
				if got := fresh.Summary(); !same(got, want) {
					t.Fatalf("fresh test %+v\nrecomputed %+v", got, want)
				}
			}
		}
	}
	sum := test.Summary()
	if sum.Pairs == 0 {
		t.Fatal("no pairs counted")
	}
	t.Logf("%d pairs, %s; at most %d units read by a check", sum.Pairs, sum.Report.Status, src.most)
	// Deals of at most three rounds (two matches of 4 groups each) are stored without the
	// pairs before them complete: a check reads their units, not those of the 40 rounds.
	if perRound := 2 * 4; src.most > 3*perRound {
		t.Errorf("a check read %d units, want at most %d (three rounds)", src.most, 3*perRound)
	}
	if sum.Report.Status != rating.SPRTContinue {
		// Once decided, checks read nothing more.
		src.last = -1
		if _, err := test.Check(ctx); err != nil || src.last != -1 {
			t.Errorf("a check after the decision read %d units (%v)", src.last, err)
		}
	}
}

// TestExtremesStop: a candidate that wins every pair, or one identical to its baseline (every
// pair drawn), is decided — the closed-form LLR used before stayed at 0 for both, forever.
func TestExtremesStop(t *testing.T) {
	t.Parallel()
	s := sprt.Settings{NElo0: 0, NElo1: 10, Alpha: 0.05, Beta: 0.05}
	tests := []struct {
		name       string
		cand, base int64
		want       rating.SPRTStatus
	}{
		{"wins every pair", 30, -10, rating.SPRTAcceptH1},
		{"identical to its baseline", 7, 7, rating.SPRTAcceptH0},
		{"loses every pair", -10, 30, rating.SPRTAcceptH0},
	}
	for _, tc := range tests {
		var pairs []sprt.Pair
		for g := range 20000 {
			pairs = append(pairs, sprt.NewPair(g/4, g%4, tc.cand, tc.base, 6))
		}
		sum, err := sprt.Summarize(pairs, s)
		if err != nil {
			t.Fatal(err)
		}
		if sum.Report.Status != tc.want || sum.DecidedPair == 0 {
			t.Errorf("%s: %v after %d pairs (LLR %.3f), want %v", tc.name, sum.Report.Status, sum.Pairs, sum.Report.LLR, tc.want)
		}
	}
}
