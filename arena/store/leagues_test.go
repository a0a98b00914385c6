package store

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena"
)

// scheduleTestLeague stores league L with one round of two duplicate matches of 2 groups
// (6 deals each), one job per group, and returns the matches.
func scheduleTestLeague(t *testing.T, s *Store) []*arena.Match {
	t.Helper()
	ctx := context.Background()
	if _, err := s.EnsureLeague(ctx, &arena.League{ID: "L", Plan: `{"x":1}`}); err != nil {
		t.Fatalf("EnsureLeague: %v", err)
	}
	var places []arena.LeagueMatch
	var matches []*arena.Match
	var jobs []arena.Job
	for i := range 2 {
		m := &arena.Match{ID: fmt.Sprintf("L-r0-m%d", i), Spec: arena.MatchSpec{
			Rules: testRules(t), Bots: []string{"a", "b", "c"}, Deals: 2, Seed: 7, Duplicate: true,
			TimeControl: arena.DefaultTimeControl, LeagueID: "L",
		}}
		matches = append(matches, m)
		places = append(places, arena.LeagueMatch{LeagueID: "L", Seq: i, Round: 0, MatchID: m.ID})
		for g := range 2 {
			jobs = append(jobs, arena.Job{LeagueID: "L", Round: 0, MatchID: m.ID, FirstGroup: g, Groups: 1, Deals: 6})
		}
	}
	if err := s.ScheduleRound(ctx, places, matches, jobs); err != nil {
		t.Fatalf("ScheduleRound: %v", err)
	}
	return matches
}

func TestLeagueScheduleIsIdempotent(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		scheduleTestLeague(t, s)
		scheduleTestLeague(t, s) // a second host schedules the same round
		l, err := s.EnsureLeague(ctx, &arena.League{ID: "L", Plan: `{"other":1}`})
		if err != nil || l.Plan != `{"x":1}` || l.Status != arena.LeagueRunning {
			t.Errorf("EnsureLeague of an existing league = %+v, %v; want the stored plan, running", l, err)
		}
		lms, err := s.LeagueMatches(ctx, "L")
		if err != nil || len(lms) != 2 || lms[1].MatchID != "L-r0-m1" {
			t.Errorf("LeagueMatches = %+v, %v", lms, err)
		}
		counts, err := s.RoundCounts(ctx, "L")
		want := []arena.RoundCounts{{Round: 0, Available: 4, DealsPlanned: 24}}
		if err != nil || !reflect.DeepEqual(counts, want) {
			t.Errorf("RoundCounts = %+v, %v; want %+v", counts, err, want)
		}
		if err := s.SetLeagueStatus(ctx, "L", arena.LeagueStopped); err != nil {
			t.Fatal(err)
		}
		if ls, err := s.ListLeagues(ctx); err != nil || len(ls) != 1 || ls[0].Status != arena.LeagueStopped {
			t.Errorf("ListLeagues = %+v, %v", ls, err)
		}
		if err := s.SetLeagueStatus(ctx, "nope", arena.LeagueStopped); !errors.Is(err, arena.ErrNotFound) {
			t.Errorf("SetLeagueStatus(unknown) = %v, want ErrNotFound", err)
		}
	})
}

func TestQueueLeases(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		scheduleTestLeague(t, s)
		a, err := s.Claim(ctx, "L", "host/1/a", 3, time.Minute)
		if err != nil || len(a) != 3 {
			t.Fatalf("Claim(a) = %+v, %v; want 3 jobs", a, err)
		}
		if a[0].State != arena.JobRunning || a[0].Owner != "host/1/a" || a[0].Attempts != 1 || a[0].LeaseUntil.Before(time.Now()) {
			t.Errorf("claimed job = %+v", a[0])
		}
		b, err := s.Claim(ctx, "L", "host/2/b", 3, 300*time.Millisecond)
		if err != nil || len(b) != 1 || b[0].ID == a[0].ID || b[0].ID == a[1].ID || b[0].ID == a[2].ID {
			t.Fatalf("Claim(b) = %+v, %v; want the one job left", b, err)
		}
		if none, err := s.Claim(ctx, "L", "host/3/c", 3, time.Minute); err != nil || len(none) != 0 {
			t.Errorf("Claim with nothing left = %+v, %v", none, err)
		}
		// b's lease expires: the next claim rescues its job, and b learns it lost it.
		time.Sleep(400 * time.Millisecond)
		c, err := s.Claim(ctx, "L", "host/3/c", 3, time.Minute)
		if err != nil || len(c) != 1 || c[0].ID != b[0].ID || c[0].Attempts != 2 {
			t.Fatalf("Claim after expiry = %+v, %v; want b's job, second attempt", c, err)
		}
		lost, err := s.Extend(ctx, "host/2/b", []int64{b[0].ID}, time.Minute)
		if err != nil || !reflect.DeepEqual(lost, []int64{b[0].ID}) {
			t.Errorf("Extend by the old owner = %v, %v; want the job lost", lost, err)
		}
		lost, err = s.Extend(ctx, "host/1/a", []int64{a[0].ID, a[1].ID}, time.Minute)
		if err != nil || len(lost) != 0 {
			t.Errorf("Extend by the owner = %v, %v; want nothing lost", lost, err)
		}
		// A job its owner has just finished is not lost: the heartbeat may come before the
		// worker has seen the job end (a single worker said it lost the jobs it finished).
		if _, err := s.w.ExecContext(ctx, s.rebind(`UPDATE league_jobs SET state = 'done' WHERE id = ?`), a[1].ID); err != nil {
			t.Fatal(err)
		}
		lost, err = s.Extend(ctx, "host/1/a", []int64{a[0].ID, a[1].ID}, time.Minute)
		if err != nil || len(lost) != 0 {
			t.Errorf("Extend with a job done meanwhile = %v, %v; want nothing lost", lost, err)
		}
		if _, err := s.w.ExecContext(ctx, s.rebind(`UPDATE league_jobs SET state = 'running' WHERE id = ?`), a[1].ID); err != nil {
			t.Fatal(err)
		}

		// Release gives a job back without counting the attempt; Fail counts and gives up.
		if err := s.Release(ctx, "host/1/a", []int64{a[2].ID}); err != nil {
			t.Fatal(err)
		}
		d, err := s.Claim(ctx, "L", "host/4/d", 1, time.Minute)
		if err != nil || len(d) != 1 || d[0].ID != a[2].ID || d[0].Attempts != 1 {
			t.Fatalf("Claim after Release = %+v, %v; want the released job, first attempt", d, err)
		}
		if err := s.Fail(ctx, "host/4/d", d[0].ID, "boom", 2); err != nil {
			t.Fatal(err)
		}
		d, _ = s.Claim(ctx, "L", "host/4/d", 1, time.Minute)
		if len(d) != 1 || d[0].Attempts != 2 || d[0].LastError != "boom" {
			t.Fatalf("Claim after Fail = %+v", d)
		}
		if err := s.Fail(ctx, "host/4/d", d[0].ID, "boom again", 2); err != nil {
			t.Fatal(err)
		}
		counts, _ := s.RoundCounts(ctx, "L")
		if want := (arena.RoundCounts{Round: 0, Running: 3, Failed: 1, DealsPlanned: 24}); len(counts) != 1 || counts[0] != want {
			t.Errorf("RoundCounts = %+v, want %+v", counts, want)
		}

		// Rescue frees the jobs of owners known to be dead.
		owners, err := s.LeaseOwners(ctx, "L")
		if err != nil || !reflect.DeepEqual(owners, []string{"host/1/a", "host/3/c"}) {
			t.Errorf("LeaseOwners = %v, %v", owners, err)
		}
		if n, err := s.Rescue(ctx, "L", []string{"host/1/a"}); err != nil || n != 2 {
			t.Errorf("Rescue = %d, %v; want 2", n, err)
		}
	})
}

func TestSaveJobDealCompletesJobAndMatch(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ms := scheduleTestLeague(t, s)
		jobs, err := s.Claim(ctx, "L", "w", 2, time.Minute) // both jobs of match 0
		if err != nil || len(jobs) != 2 || jobs[1].MatchID != ms[0].ID {
			t.Fatalf("Claim = %+v, %v", jobs, err)
		}
		for n := range 12 {
			j := jobs[n/6]
			done, err := s.SaveJobDeal(ctx, sampleDeal(t, ms[0], n, 8, 100), j.ID)
			if err != nil {
				t.Fatalf("SaveJobDeal(%d): %v", n, err)
			}
			if want := n%6 == 5; done != want {
				t.Errorf("SaveJobDeal(%d) done = %v, want %v", n, done, want)
			}
			m, _ := s.GetMatch(ctx, ms[0].ID)
			if want := n == 11; (m.Status == arena.MatchFinished) != want || m.Finished.IsZero() == want {
				t.Errorf("after deal %d the match is %s (finished %v)", n, m.Status, m.Finished)
			}
		}
		all, _ := s.Jobs(ctx, "L")
		if all[0].State != arena.JobDone || all[0].Owner != "" || !all[0].LeaseUntil.IsZero() {
			t.Errorf("a completed job = %+v", all[0])
		}
		// Done is not lost: its worker stored its last deal, no other worker has it.
		if lost, err := s.Extend(ctx, "w", []int64{jobs[0].ID}, time.Minute); err != nil || len(lost) != 0 {
			t.Errorf("Extend of a done job = %v, %v; want nothing lost", lost, err)
		}
		// A deal stored twice is a conflict and changes nothing.
		if _, err := s.SaveJobDeal(ctx, sampleDeal(t, ms[0], 3, 8, 100), jobs[0].ID); !errors.Is(err, arena.ErrConflict) {
			t.Errorf("SaveJobDeal of a stored deal = %v, want ErrConflict", err)
		}
		if done, err := s.CompleteJob(ctx, jobs[0].ID); err != nil || !done {
			t.Errorf("CompleteJob(done job) = %v, %v", done, err)
		}
		if n, err := s.LeagueDeals(ctx, "L"); err != nil || n != 12 {
			t.Errorf("LeagueDeals = %d, %v; want 12", n, err)
		}
	})
}

// A claimed job says how many of its deals are stored already: none for a fresh job (its
// worker then looks nothing up), the ones stored before for a job given back and claimed again.
func TestClaimCountsStoredDeals(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ms := scheduleTestLeague(t, s)
		jobs, err := s.Claim(ctx, "L", "w", 2, time.Minute) // both jobs of match 0
		if err != nil || len(jobs) != 2 || jobs[0].Stored != 0 || jobs[1].Stored != 0 {
			t.Fatalf("Claim = %+v, %v; want two jobs with nothing stored", jobs, err)
		}
		for _, n := range []int{0, 4, 7} { // two deals of the first job, one of the second
			if _, err := s.SaveJobDeal(ctx, sampleDeal(t, ms[0], n, 8, 100), jobs[n/6].ID); err != nil {
				t.Fatalf("SaveJobDeal(%d): %v", n, err)
			}
		}
		if err := s.Release(ctx, "w", []int64{jobs[0].ID, jobs[1].ID}); err != nil {
			t.Fatalf("Release: %v", err)
		}
		again, err := s.Claim(ctx, "L", "v", 3, time.Minute)
		if err != nil || len(again) != 3 {
			t.Fatalf("Claim again = %+v, %v", again, err)
		}
		for i, want := range []int{2, 1, 0} {
			if again[i].Stored != want {
				t.Errorf("job %d (match %s, group %d) claimed again: Stored = %d, want %d", again[i].ID,
					again[i].MatchID, again[i].FirstGroup, again[i].Stored, want)
			}
		}
		all, err := s.Jobs(ctx, "L")
		if err != nil || len(all) != 4 || all[0].Stored != 2 || all[3].Stored != 0 {
			t.Errorf("Jobs = %+v, %v; want the stored deals counted", all, err)
		}
	})
}

// Many workers claiming at once never get the same job.
func TestConcurrentClaims(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		if _, err := s.EnsureLeague(ctx, &arena.League{ID: "C", Plan: "{}"}); err != nil {
			t.Fatal(err)
		}
		m := &arena.Match{ID: "C-m", Spec: arena.MatchSpec{Rules: testRules(t), Bots: []string{"a", "b", "c"},
			Deals: 60, Duplicate: true, LeagueID: "C"}}
		var jobs []arena.Job
		for g := range 60 {
			jobs = append(jobs, arena.Job{LeagueID: "C", MatchID: m.ID, FirstGroup: g, Groups: 1, Deals: 6})
		}
		if err := s.ScheduleRound(ctx, []arena.LeagueMatch{{LeagueID: "C", MatchID: m.ID}}, []*arena.Match{m}, jobs); err != nil {
			t.Fatal(err)
		}
		var mu sync.Mutex
		seen := map[int64]string{}
		var wg sync.WaitGroup
		for w := range 6 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				owner := fmt.Sprintf("w%d", w)
				for {
					got, err := s.Claim(ctx, "C", owner, 2, time.Minute)
					if err != nil {
						t.Errorf("Claim: %v", err)
						return
					}
					if len(got) == 0 {
						return
					}
					mu.Lock()
					for _, j := range got {
						if prev, ok := seen[j.ID]; ok {
							t.Errorf("job %d claimed by %s and %s", j.ID, prev, owner)
						}
						seen[j.ID] = owner
					}
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		if len(seen) != 60 {
			t.Errorf("%d jobs claimed, want 60", len(seen))
		}
	})
}
