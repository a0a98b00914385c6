package store

import (
	"context"
	"fmt"
	"testing"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/store/storetest"
)

// A database stored before the running scores were kept (version 28) gets them from its deals
// when it is opened, and keeps them from then on: the score before every deal is the sum of the
// deals below it, and it reads blocks, not every deal.
func TestMigration28FillsInRunningScores(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		dsn := b.newDSN(t)
		old, err := open(ctx, dsn, 27) // the schema before score_blocks (0028)
		if err != nil {
			t.Fatal(err)
		}
		m := storetest.NewMatch(t, old, "", "a", "b", "c")
		payoffs := map[int][3]int{}
		deal := func(n int) *domain.DealRecord {
			d := sampleDeal(t, m, n, 6, 0)
			p := [3]int{n%7 - 3, 5 - n%11, n%5 - 2}
			d.Outcome.Payoff = [4]int{p[0], p[1], p[2]}
			for i := range d.Results {
				d.Results[i].Payoff = d.Outcome.Payoff[i]
			}
			payoffs[n] = p
			return d
		}
		var before []*domain.DealRecord
		for n := 0; n < 200; n += 3 {
			before = append(before, deal(n))
		}
		if err := old.SaveDeals(ctx, before); err != nil {
			t.Fatal(err)
		}
		old.Close()

		s := openTest(t, dsn)
		check := func(when string) {
			t.Helper()
			for number := 0; number <= 260; number += 5 {
				want, count := map[string]int64{"a": 0, "b": 0, "c": 0}, 0
				for n, p := range payoffs {
					if n < number {
						count++
						for i, bot := range m.Spec.Bots {
							want[bot] += int64(p[i])
						}
					}
				}
				got, n, err := s.ScoreBefore(ctx, m.ID, number)
				if err != nil {
					t.Fatal(err)
				}
				if n != count || fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("%s: ScoreBefore(%d) = %v over %d deals; want %v over %d", when, number, got, n, want, count)
				}
			}
		}
		check("after the migration")
		if n := count(t, s, "score_blocks", m.ID); n != 4 {
			t.Errorf("after the migration: %d score blocks for deals 0 to 198, want 4 (of %d deals)", n, scoreBlock)
		}
		var after []*domain.DealRecord
		for n := 1; n < 260; n += 3 {
			after = append(after, deal(n))
		}
		if err := s.SaveDeals(ctx, after); err != nil {
			t.Fatal(err)
		}
		check("after more deals")
	})
}
