package store

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/store/storetest"
)

// The SQL store keeps the stores' contract on SQLite and PostgreSQL: the same suite the memory
// store passes (arena/internal/store/memstore). The tests below are of what only the SQL
// store does: its tables, compact records, migrations, the database's errors.
func TestStoreContract(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		storetest.Run(t, func(t *testing.T) storetest.Store { return openTest(t, b.newDSN(t)) })
	})
}

// count returns the number of rows of a table that belong to a match.
func count(t *testing.T, s *Store, table, matchID string) int {
	t.Helper()
	var n int
	if err := s.r.QueryRow(s.rebind(`SELECT count(*) FROM `+table+` WHERE match_id = ?`), matchID).Scan(&n); err != nil {
		t.Fatalf("count %s: %v", table, err)
	}
	return n
}

func assertNothingStored(t *testing.T, s *Store, matchID string) {
	t.Helper()
	for _, table := range []string{"deals", "decisions", "results"} {
		if n := count(t, s, table, matchID); n != 0 {
			t.Errorf("%d rows in %s after a failed SaveDeal, want 0", n, table)
		}
	}
	if ns, err := s.DealNumbers(context.Background(), matchID); err != nil || len(ns) != 0 {
		t.Errorf("DealNumbers = %v, %v after a failed SaveDeal; want none", ns, err)
	}
}

// A write that fails inside the transaction, after the deal's row (here: two results for the
// same seat), leaves no row of the deal behind and says so; so does a batch whose last deal
// fails.
func TestSaveDealFailureInTheTransactionStoresNothing(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		m := newMatch(t, s, "", "a", "b", "c")
		bad := sampleDeal(t, m, 0, 250, 64)
		bad.Results[2].Seat = 1
		err := s.SaveDeal(ctx, bad)
		if want := fmt.Sprintf("saving deal 0 of match %s: nothing was stored", m.ID); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("SaveDeal with two results for seat 1 = %v, want it to say %q", err, want)
		}
		assertNothingStored(t, s, m.ID)

		batch := []*domain.DealRecord{sampleDeal(t, m, 0, 20, 64), sampleDeal(t, m, 1, 20, 64), bad}
		bad.Number = 2
		if err := s.SaveDeals(ctx, batch); err == nil || !strings.Contains(err.Error(), "nothing was stored") {
			t.Errorf("SaveDeals with a bad last deal = %v, want nothing stored", err)
		}
		assertNothingStored(t, s, m.ID)
	})
}

// Real deals are stored as compact records, which keep no rows of results: their results are
// rebuilt on reading. A deal given results of its own keeps them as rows, and Results lists
// both alike.
func TestCompactRecordsRebuildTheirResults(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		m, real := realDeals(t, s)
		real[1].Results = slices.Clone(real[1].Results)
		real[1].Results[0].Payoff++
		for _, d := range real[:3] {
			if err := s.SaveDeal(ctx, d); err != nil {
				t.Fatalf("SaveDeal: %v", err)
			}
		}
		all, err := s.Results(ctx, domain.MatchFilter{MatchID: m.ID})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range real[:3] {
			var rows []domain.SeatResult
			for _, r := range all {
				if r.Deal == d.Number {
					rows = append(rows, r.SeatResult)
				}
			}
			if !reflect.DeepEqual(rows, d.Results) {
				t.Errorf("results of real deal %d = %+v, want %+v", d.Number, rows, d.Results)
			}
		}
		if kept, want := count(t, s, "results", m.ID), m.Spec.Rules.Players; kept != want {
			t.Errorf("%d rows of results for the real deals, want %d: only deal 1's, whose results are its own", kept, want)
		}
	})
}
