package store

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/league/plan"
	"github.com/tapparena/tapp/arena/internal/rating"
)

// totalsLeague schedules league "T": rounds of two duplicate matches of 3 of 5 bots, groups
// deal sources each, one job per deal source (6 deals).
func totalsLeague(t *testing.T, s *Store, rounds, groups int) {
	t.Helper()
	ctx := context.Background()
	if _, err := s.EnsureLeague(ctx, &domain.League{ID: "T", Plan: "{}"}); err != nil {
		t.Fatal(err)
	}
	bots := []string{"a", "b", "c", "d", "e"}
	seq := 0
	for r := range rounds {
		var places []domain.LeagueMatch
		var matches []*domain.Match
		var jobs []domain.Job
		for i := range 2 {
			m := &domain.Match{ID: fmt.Sprintf("T-r%d-m%d", r, i), Spec: domain.MatchSpec{Rules: testRules(t),
				Bots: []string{bots[(r+i)%5], bots[(r+i+1)%5], bots[(r+2*i+3)%5]}, Deals: groups, Seed: uint64(r*10 + i),
				Duplicate: true, TimeControl: domain.DefaultTimeControl, LeagueID: "T"}}
			matches = append(matches, m)
			places = append(places, domain.LeagueMatch{LeagueID: "T", Seq: seq, Round: r, MatchID: m.ID})
			seq++
			for g := range groups {
				jobs = append(jobs, domain.Job{LeagueID: "T", Round: r, MatchID: m.ID, FirstGroup: g, Groups: 1, Deals: 6})
			}
		}
		if err := s.ScheduleRound(ctx, places, matches, jobs); err != nil {
			t.Fatal(err)
		}
	}
}

// totalsDeal is deal number of match m: the bots' payoffs vary with the deal, and often tie.
func totalsDeal(t testing.TB, m *domain.Match, number int) *domain.DealRecord {
	d := sampleDeal(t, m, number, 0, 0)
	d.Decisions, d.Moves = nil, nil
	seats := m.Spec.Rules.Players
	for seat := range seats {
		d.Results[seat].Bot = m.Spec.Bots[(seat+number)%seats]
		d.Results[seat].Payoff = ((number*7+seat*3+len(m.ID))%5 - 2) * 10
	}
	return d
}

// recomputedPairs is what the league's totals must hold: the pairwise results of the complete
// units of rounds [from, to), computed from every stored result.
func recomputedPairs(t *testing.T, s *Store, leagueID string, from, to int) []rating.PairResult {
	t.Helper()
	ctx := context.Background()
	lms, err := s.LeagueMatches(ctx, leagueID)
	if err != nil {
		t.Fatal(err)
	}
	ms, err := s.ListMatches(ctx, domain.MatchFilter{LeagueID: leagueID})
	if err != nil {
		t.Fatal(err)
	}
	in := map[string]*domain.Match{}
	for _, lm := range lms {
		if lm.Round >= from && lm.Round < to {
			for i := range ms {
				if ms[i].ID == lm.MatchID {
					in[lm.MatchID] = &ms[i]
				}
			}
		}
	}
	rows, err := s.Results(ctx, domain.MatchFilter{LeagueID: leagueID})
	if err != nil {
		t.Fatal(err)
	}
	var kept []domain.ResultRow
	for _, r := range rows {
		if in[r.MatchID] != nil {
			kept = append(kept, r)
		}
	}
	pairs, err := rating.MergePairs(plan.PairResults(plan.Units(in, kept)))
	if err != nil {
		t.Fatal(err)
	}
	return pairs
}

// Two workers, each with a store of its own, play a league's jobs at once and store their
// deals in batches of every size: the totals are those recomputed from the raw results.
func TestLeagueTotalsAreExactWithTwoWorkers(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		dsn := b.newDSN(t)
		first := openTest(t, dsn)
		const rounds, groups = 3, 4
		totalsLeague(t, first, rounds, groups)
		workers := []*Store{first, openTest(t, dsn)}
		var wg sync.WaitGroup
		for w, s := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				owner := fmt.Sprintf("w%d", w)
				for batch := 1; ; batch++ {
					jobs, err := s.Claim(ctx, "T", owner, 2, time.Minute)
					if err != nil {
						t.Errorf("Claim: %v", err)
						return
					}
					if len(jobs) == 0 {
						return
					}
					// The deals of the claimed jobs, stored batch (1, 2, 3 ...) at a time, so
					// that a unit completes across transactions, within one, or both.
					var items []domain.JobDeal
					for _, j := range jobs {
						m, err := s.GetMatch(ctx, j.MatchID)
						if err != nil {
							t.Error(err)
							return
						}
						for k := range 6 {
							items = append(items, domain.JobDeal{JobID: j.ID, Deal: totalsDeal(t, m, j.FirstGroup*6+k)})
						}
					}
					for len(items) > 0 {
						n := min(1+batch%5, len(items))
						if err := s.SaveJobDeals(ctx, items[:n]); err != nil {
							t.Errorf("SaveJobDeals: %v", err)
							return
						}
						items = items[n:]
					}
				}
			}()
		}
		wg.Wait()

		if got, want := mustLeagueDeals(t, first, "T"), rounds*2*groups*6; got != want {
			t.Errorf("LeagueDeals = %d, want %d", got, want)
		}
		for r := range rounds {
			got, err := first.LadderPairs(ctx, "T", r, r+1)
			if err != nil {
				t.Fatal(err)
			}
			if want := recomputedPairs(t, first, "T", r, r+1); !reflect.DeepEqual(got, want) || len(want) == 0 {
				t.Errorf("round %d: pairs %v, recomputed %v", r, got, want)
			}
		}
		if got, want := countRows(t, first, "league_units"), rounds*2*groups; got != want {
			t.Errorf("%d rows of league_units, want one per unit (%d)", got, want)
		}
	})
}

func mustLeagueDeals(t *testing.T, s *Store, id string) int {
	t.Helper()
	n, err := s.LeagueDeals(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// A league stored before schema version 10, with units complete and incomplete, gets its
// totals from the migration: the same as those recomputed, and deals stored after the
// migration complete its units.
func TestMigrationFillsInLeagueTotals(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		dsn := b.newDSN(t)
		old, err := open(ctx, dsn, 9) // the schema before the league totals (0010)
		if err != nil {
			t.Fatal(err)
		}
		totalsLeague(t, old, 2, 2)
		ms, err := old.ListMatches(ctx, domain.MatchFilter{LeagueID: "T"})
		if err != nil {
			t.Fatal(err)
		}
		// Every deal of the first match, and the first 8 of the others (group 0 complete,
		// group 1 not).
		var rest []*domain.DealRecord
		for i := range ms {
			m := &ms[i]
			for n := range 12 {
				d := totalsDeal(t, m, n)
				if i > 0 && n >= 8 {
					rest = append(rest, d)
					continue
				}
				insertOldDeal(t, old, d, m.Spec.Rules)
			}
		}
		// insertOldDeal leaves the results' league out, as no league query needs it here.
		if _, err := old.w.Exec(`UPDATE results SET league_id = 'T'`); err != nil {
			t.Fatal(err)
		}
		old.Close()

		s := openTest(t, dsn)
		if got, want := mustLeagueDeals(t, s, "T"), 12+3*8; got != want {
			t.Errorf("LeagueDeals after the migration = %d, want %d", got, want)
		}
		if got, want := countRows(t, s, "league_units"), 8; got != want {
			t.Errorf("%d rows of league_units after the migration, want one per unit (%d)", got, want)
		}
		check := func(when string) {
			t.Helper()
			for r := range 2 {
				got, err := s.LadderPairs(ctx, "T", r, r+1)
				if err != nil {
					t.Fatal(err)
				}
				if want := recomputedPairs(t, s, "T", r, r+1); !reflect.DeepEqual(got, want) {
					t.Errorf("%s, round %d: pairs %v, recomputed %v", when, r, got, want)
				}
			}
		}
		check("after the migration")
		if err := s.SaveDeals(ctx, rest); err != nil {
			t.Fatal(err)
		}
		check("after the rest of the deals")
	})
}

func countRows(t *testing.T, s *Store, table string) int {
	t.Helper()
	var n int
	if err := s.r.QueryRow(`SELECT count(*) FROM ` + table).Scan(&n); err != nil {
		t.Fatalf("count %s: %v", table, err)
	}
	return n
}

// `tapp league status` reads the open rounds and the running jobs from indexes: the first
// round with a job to play moves on as rounds complete.
func TestOpenRoundsAndJobsIn(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		if first, last, err := s.OpenRounds(ctx, "T"); err != nil || first != -1 || last != -1 {
			t.Errorf("OpenRounds of no league = %d, %d, %v; want -1, -1", first, last, err)
		}
		totalsLeague(t, s, 3, 1)
		if first, last, err := s.OpenRounds(ctx, "T"); err != nil || first != 0 || last != 2 {
			t.Errorf("OpenRounds = %d, %d, %v; want 0, 2", first, last, err)
		}
		jobs, err := s.Claim(ctx, "T", "w", 2, time.Minute) // round 0's two jobs
		if err != nil || len(jobs) != 2 {
			t.Fatalf("Claim = %v, %v", jobs, err)
		}
		running, err := s.JobsIn(ctx, "T", domain.JobRunning, domain.JobFailed)
		if err != nil || len(running) != 2 || running[0].ID != jobs[0].ID || running[1].ID != jobs[1].ID {
			t.Errorf("JobsIn(running, failed) = %v, %v; want the claimed jobs", running, err)
		}
		for _, j := range jobs {
			m, err := s.GetMatch(ctx, j.MatchID)
			if err != nil {
				t.Fatal(err)
			}
			var items []domain.JobDeal
			for k := range 6 {
				items = append(items, domain.JobDeal{JobID: j.ID, Deal: totalsDeal(t, m, k)})
			}
			if err := s.SaveJobDeals(ctx, items); err != nil {
				t.Fatal(err)
			}
		}
		if first, last, err := s.OpenRounds(ctx, "T"); err != nil || first != 1 || last != 2 {
			t.Errorf("OpenRounds after round 0 = %d, %d, %v; want 1, 2", first, last, err)
		}
		if running, err := s.JobsIn(ctx, "T", domain.JobRunning); err != nil || len(running) != 0 {
			t.Errorf("JobsIn(running) after round 0 = %v, %v; want none", running, err)
		}
	})
}

// A league stored before schema version 17 gets its bots' totals and its match counts from
// the migration: the totals its deals give, and deals stored after it add to them.
func TestMigration17FillsInLeagueBots(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		dsn := b.newDSN(t)
		old, err := open(ctx, dsn, 16) // the schema before the bots' totals (0017)
		if err != nil {
			t.Fatal(err)
		}
		totalsLeague(t, old, 1, 2)
		ms, err := old.ListMatches(ctx, domain.MatchFilter{LeagueID: "T"})
		if err != nil || len(ms) != 2 {
			t.Fatalf("ListMatches = %v, %v", ms, err)
		}
		var before, after []*domain.DealRecord
		for i := range ms {
			for n := range 6 {
				d := sampleDeal(t, &ms[i], n, 12, 0)
				if i == 1 && n >= 3 {
					after = append(after, d)
					continue
				}
				before = append(before, d)
			}
		}
		if err := old.SaveDeals(ctx, before); err != nil {
			t.Fatal(err)
		}
		ms[0].Status = domain.MatchFinished
		if err := old.UpdateMatch(ctx, &ms[0]); err != nil {
			t.Fatal(err)
		}
		old.Close()

		s := openTest(t, dsn)
		want := func(deals []*domain.DealRecord) []domain.LeagueBot {
			bots := map[botKey]*domain.LeagueBot{}
			for _, d := range deals {
				addLeagueBots(bots, "T", d)
			}
			var out []domain.LeagueBot
			for _, name := range []string{"a", "b", "c", "d", "e"} {
				if b := bots[botKey{"T", name}]; b != nil {
					out = append(out, *b)
				}
			}
			return out
		}
		check := func(when string, deals []*domain.DealRecord) {
			t.Helper()
			got, err := s.LeagueBots(ctx, "T")
			if err != nil {
				t.Fatal(err)
			}
			if w := want(deals); !reflect.DeepEqual(got, w) {
				t.Errorf("%s: LeagueBots = %+v, want %+v", when, got, w)
			}
		}
		check("after the migration", before)
		l, err := s.GetLeague(ctx, "T")
		if err != nil {
			t.Fatal(err)
		}
		if l.Matches != 2 || l.MatchesFinished != 1 {
			t.Errorf("after the migration: %d matches, %d finished; want 2, 1", l.Matches, l.MatchesFinished)
		}
		if err := s.SaveDeals(ctx, after); err != nil {
			t.Fatal(err)
		}
		check("after the rest of the deals", append(before, after...))
	})
}
