package storetest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/engine"
)

// The league's job queue: leases, heartbeats, rescue, exactly-once completion and order
// (leaguestore.Queue).

// lease is the lease of jobs that must not expire during a test.
const lease = time.Minute

// Schedule stores league L with one round of two duplicate matches of 2 groups (6 deals
// each), one job per group, and returns the matches: the fixture of the suite, also for a
// back end's own queue tests.
func Schedule(t *testing.T, s Store) []*domain.Match {
	t.Helper()
	ctx := context.Background()
	if _, err := s.EnsureLeague(ctx, &domain.League{ID: "L", Plan: `{"x":1}`}); err != nil {
		t.Fatalf("EnsureLeague: %v", err)
	}
	var places []domain.LeagueMatch
	var matches []*domain.Match
	var jobs []domain.Job
	for i := range 2 {
		m := &domain.Match{ID: fmt.Sprintf("L-r0-m%d", i), Spec: domain.MatchSpec{
			Rules: Rules(t, "modern"), Bots: []string{"a", "b", "c"}, Deals: 2, Seed: 7, Duplicate: true,
			TimeControl: domain.DefaultTimeControl, LeagueID: "L",
		}}
		matches = append(matches, m)
		places = append(places, domain.LeagueMatch{LeagueID: "L", Seq: i, Round: 0, MatchID: m.ID})
		for g := range 2 {
			jobs = append(jobs, domain.Job{LeagueID: "L", Round: 0, MatchID: m.ID, FirstGroup: g, Groups: 1, Deals: 6})
		}
	}
	if err := s.ScheduleRound(ctx, places, matches, jobs); err != nil {
		t.Fatalf("ScheduleRound: %v", err)
	}
	return matches
}

// leagueDeal is a finished deal of m: its cards from the match's seed, a settled outcome.
func leagueDeal(m *domain.Match, number int) *domain.DealRecord {
	r := m.Spec.Rules
	d := &domain.DealRecord{
		MatchID: m.ID, Number: number, Group: number / 6,
		Seating: append([]string(nil), m.Spec.Bots...),
		Deal:    engine.DealFromSeed(r, m.Spec.Seed, uint64(number)),
		Outcome: engine.Outcome{Declarer: 0, Contract: engine.Solo, Trump: engine.Clubs,
			Points: [4]int{75, 30, 15}, Tricks: [4]int{7, 3, 1}, DeclarerWon: true, Payoff: [4]int{10, -5, -5}},
		Started:  time.Date(2026, 11, 29, 20, 0, number, 0, time.UTC),
		Duration: time.Second,
	}
	for seat := range r.Players {
		d.Results = append(d.Results, domain.SeatResult{Bot: m.Spec.Bots[seat], Seat: engine.Seat(seat),
			Payoff: d.Outcome.Payoff[seat], Points: d.Outcome.Points[seat], Tricks: d.Outcome.Tricks[seat], Declarer: seat == 0})
	}
	return d
}

func ids(jobs []domain.Job) []int64 {
	out := make([]int64, len(jobs))
	for i, j := range jobs {
		out[i] = j.ID
	}
	return out
}

func ascending(jobs []domain.Job) bool {
	for i := 1; i < len(jobs); i++ {
		if jobs[i].ID <= jobs[i-1].ID {
			return false
		}
	}
	return true
}

// testLeases checks the queue's leases through one scheduled league: claims in id order, an
// expired lease rescued by the next claim, Release and Fail, and Rescue of dead owners.
func testLeases(t *testing.T, s Store) {
	Schedule(t, s)
	a, b := checkClaims(t, s)
	checkExpiredLease(t, s, a, b)
	checkReleaseAndFail(t, s, a)
	checkRescue(t, s, a)
}

// shortLease is b's lease in testLeases: it may run out only after the next claim, so
// seconds of margin on a busy host.
const shortLease = 2 * time.Second

// checkClaims claims the league's four jobs, three to a and one to b (on a short lease), and
// checks that nothing is left to claim.
func checkClaims(t *testing.T, s Store) (a, b []domain.Job) {
	t.Helper()
	ctx := context.Background()
	a, err := s.Claim(ctx, "L", "host/1/a", 3, lease)
	if err != nil || len(a) != 3 || !ascending(a) {
		t.Fatalf("Claim(a) = %v, %v; want 3 jobs in the order of their ids", ids(a), err)
	}
	if a[0].State != domain.JobRunning || a[0].Owner != "host/1/a" || a[0].Attempts != 1 || a[0].LeaseUntil.Before(time.Now()) {
		t.Errorf("claimed job = %+v", a[0])
	}
	b, err = s.Claim(ctx, "L", "host/2/b", 3, shortLease)
	if err != nil || len(b) != 1 || b[0].ID <= a[2].ID {
		t.Fatalf("Claim(b) = %v, %v; want the one job left, after a's", ids(b), err)
	}
	if none, err := s.Claim(ctx, "L", "host/3/c", 3, lease); err != nil || len(none) != 0 {
		t.Errorf("Claim with nothing left = %v, %v", ids(none), err)
	}
	return a, b
}

// checkExpiredLease lets b's lease expire: the next claim rescues its job, and b's heartbeat
// learns it lost it while a's does not.
func checkExpiredLease(t *testing.T, s Store, a, b []domain.Job) {
	t.Helper()
	ctx := context.Background()
	time.Sleep(shortLease + 500*time.Millisecond)
	c, err := s.Claim(ctx, "L", "host/3/c", 3, lease)
	if err != nil || len(c) != 1 || c[0].ID != b[0].ID || c[0].Attempts != 2 {
		t.Fatalf("Claim after expiry = %+v, %v; want b's job, second attempt", c, err)
	}
	lost, err := s.Extend(ctx, "host/2/b", []int64{b[0].ID}, lease)
	if err != nil || !reflect.DeepEqual(lost, []int64{b[0].ID}) {
		t.Errorf("Extend by the old owner = %v, %v; want the job lost", lost, err)
	}
	lost, err = s.Extend(ctx, "host/1/a", []int64{a[0].ID, a[1].ID}, lease)
	if err != nil || len(lost) != 0 {
		t.Errorf("Extend by the owner = %v, %v; want nothing lost", lost, err)
	}
}

// checkReleaseAndFail checks that Release gives a job back without counting the attempt and
// that Fail counts and gives up.
func checkReleaseAndFail(t *testing.T, s Store, a []domain.Job) {
	t.Helper()
	ctx := context.Background()
	if err := s.Release(ctx, "host/1/a", []int64{a[2].ID}); err != nil {
		t.Fatal(err)
	}
	d, err := s.Claim(ctx, "L", "host/4/d", 1, lease)
	if err != nil || len(d) != 1 || d[0].ID != a[2].ID || d[0].Attempts != 1 {
		t.Fatalf("Claim after Release = %+v, %v; want the released job, first attempt", d, err)
	}
	if err := s.Fail(ctx, "host/4/d", d[0].ID, "boom", 2); err != nil {
		t.Fatal(err)
	}
	d, _ = s.Claim(ctx, "L", "host/4/d", 1, lease)
	if len(d) != 1 || d[0].Attempts != 2 || d[0].LastError != "boom" {
		t.Fatalf("Claim after Fail = %+v", d)
	}
	if err := s.Fail(ctx, "host/4/d", d[0].ID, "boom again", 2); err != nil {
		t.Fatal(err)
	}
	counts, _ := s.RoundCounts(ctx, "L")
	if want := (domain.RoundCounts{Round: 0, Running: 3, Failed: 1, DealsPlanned: 24}); len(counts) != 1 || counts[0] != want {
		t.Errorf("RoundCounts = %+v, want %+v", counts, want)
	}
	if jt, err := s.LeagueJobTotals(ctx, "L"); err != nil || jt != (domain.LeagueJobTotals{DealsPlanned: 24, JobsRunning: 3}) || !jt.Open() {
		t.Errorf("LeagueJobTotals = %+v, %v; want 24 deals planned, 3 jobs running, none waiting", jt, err)
	}
	if none, _ := s.Claim(ctx, "L", "host/5/e", 4, lease); len(none) != 0 {
		t.Errorf("a failed job was claimed again: %v", ids(none))
	}
}

// checkRescue checks that Rescue frees the jobs of owners known to be dead, at once.
func checkRescue(t *testing.T, s Store, a []domain.Job) {
	t.Helper()
	ctx := context.Background()
	owners, err := s.LeaseOwners(ctx, "L")
	if err != nil || !reflect.DeepEqual(owners, []string{"host/1/a", "host/3/c"}) {
		t.Errorf("LeaseOwners = %v, %v", owners, err)
	}
	if n, err := s.Rescue(ctx, "L", []string{"host/1/a"}); err != nil || n != 2 {
		t.Errorf("Rescue = %d, %v; want 2", n, err)
	}
	if got, err := s.Claim(ctx, "L", "host/5/e", 4, lease); err != nil || !reflect.DeepEqual(ids(got), []int64{a[0].ID, a[1].ID}) {
		t.Errorf("Claim after Rescue = %v, %v; want a's two jobs", ids(got), err)
	}
}

func testCompletion(t *testing.T, s Store) {
	ctx := context.Background()
	ms := Schedule(t, s)
	jobs, err := s.Claim(ctx, "L", "w", 2, lease) // both jobs of match 0
	if err != nil || len(jobs) != 2 || jobs[1].MatchID != ms[0].ID {
		t.Fatalf("Claim = %+v, %v", jobs, err)
	}
	for n := range 12 {
		done, err := s.SaveJobDeal(ctx, leagueDeal(ms[0], n), jobs[n/6].ID)
		if err != nil {
			t.Fatalf("SaveJobDeal(%d): %v", n, err)
		}
		if want := n%6 == 5; done != want {
			t.Errorf("SaveJobDeal(%d) done = %v, want %v", n, done, want)
		}
		m, _ := s.GetMatch(ctx, ms[0].ID)
		if want := n == 11; (m.Status == domain.MatchFinished) != want || m.Finished.IsZero() == want {
			t.Errorf("after deal %d the match is %s (finished %v)", n, m.Status, m.Finished)
		}
	}
	all, _ := s.Jobs(ctx, "L")
	if all[0].State != domain.JobDone || all[0].Owner != "" || !all[0].LeaseUntil.IsZero() {
		t.Errorf("a completed job = %+v", all[0])
	}
	// Done is not lost: its worker stored its last deal, no other worker has it (a single
	// worker used to warn that it lost the jobs it had just finished).
	if lost, err := s.Extend(ctx, "w", []int64{jobs[0].ID}, lease); err != nil || len(lost) != 0 {
		t.Errorf("Extend of a done job = %v, %v; want nothing lost", lost, err)
	}
	// A deal stored twice is a conflict and changes nothing; a done job stays done.
	if _, err := s.SaveJobDeal(ctx, leagueDeal(ms[0], 3), jobs[0].ID); !errors.Is(err, domain.ErrConflict) {
		t.Errorf("SaveJobDeal of a stored deal = %v, want ErrConflict", err)
	}
	if err := s.SaveJobDeals(ctx, []domain.JobDeal{{Deal: leagueDeal(ms[1], 0), JobID: 0}, {Deal: leagueDeal(ms[0], 4), JobID: jobs[0].ID}}); !errors.Is(err, domain.ErrConflict) {
		t.Errorf("SaveJobDeals with a stored deal = %v, want ErrConflict", err)
	}
	if n, _ := s.DealNumbersBetween(ctx, ms[1].ID, 0, 11); len(n) != 0 {
		t.Errorf("a refused batch stored deals %v of match 1", n)
	}
	if done, err := s.CompleteJob(ctx, jobs[0].ID); err != nil || !done {
		t.Errorf("CompleteJob(done job) = %v, %v", done, err)
	}
	if n, err := s.LeagueDeals(ctx, "L"); err != nil || n != 12 {
		t.Errorf("LeagueDeals = %d, %v; want 12", n, err)
	}
	if got, _ := s.Claim(ctx, "L", "v", 4, lease); len(got) != 2 || got[0].MatchID != ms[1].ID {
		t.Errorf("Claim after completion = %+v; want only match 1's jobs", got)
	}
}

// A claimed job says how many of its deals are stored already: none for a fresh job, the
// ones stored before for a job given back and claimed again.
func testClaimCountsStoredDeals(t *testing.T, s Store) {
	ctx := context.Background()
	ms := Schedule(t, s)
	jobs, err := s.Claim(ctx, "L", "w", 2, lease)
	if err != nil || len(jobs) != 2 || jobs[0].Stored != 0 || jobs[1].Stored != 0 {
		t.Fatalf("Claim = %+v, %v; want two jobs with nothing stored", jobs, err)
	}
	for _, n := range []int{0, 4, 7} { // two deals of the first job, one of the second
		if _, err := s.SaveJobDeal(ctx, leagueDeal(ms[0], n), jobs[n/6].ID); err != nil {
			t.Fatalf("SaveJobDeal(%d): %v", n, err)
		}
	}
	if err := s.Release(ctx, "w", []int64{jobs[0].ID, jobs[1].ID}); err != nil {
		t.Fatalf("Release: %v", err)
	}
	again, err := s.Claim(ctx, "L", "v", 3, lease)
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
}

// Many workers claiming at once never get the same job, and together get every one.
func testConcurrentClaims(t *testing.T, s Store) {
	ctx := context.Background()
	if _, err := s.EnsureLeague(ctx, &domain.League{ID: "C", Plan: "{}"}); err != nil {
		t.Fatal(err)
	}
	m := &domain.Match{ID: "C-m", Spec: domain.MatchSpec{Rules: Rules(t, "modern"), Bots: []string{"a", "b", "c"},
		Deals: 60, Duplicate: true, LeagueID: "C"}}
	var jobs []domain.Job
	for g := range 60 {
		jobs = append(jobs, domain.Job{LeagueID: "C", MatchID: m.ID, FirstGroup: g, Groups: 1, Deals: 6})
	}
	if err := s.ScheduleRound(ctx, []domain.LeagueMatch{{LeagueID: "C", MatchID: m.ID}}, []*domain.Match{m}, jobs); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	seen := map[int64]string{}
	var wg sync.WaitGroup
	for w := range 6 {
		wg.Go(func() {
			owner := fmt.Sprintf("w%d", w)
			for {
				got, err := s.Claim(ctx, "C", owner, 2, lease)
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
		})
	}
	wg.Wait()
	if len(seen) != 60 {
		t.Errorf("%d jobs claimed, want 60", len(seen))
	}
}

// A batch of a league's deals with one that cannot be stored stores none of them and
// completes no job.
func testBadBatch(t *testing.T, s Store) {
	ctx := context.Background()
	ms := Schedule(t, s)
	jobs, err := s.Claim(ctx, "L", "w", 1, lease)
	if err != nil || len(jobs) != 1 {
		t.Fatalf("Claim = %+v, %v", jobs, err)
	}
	var items []domain.JobDeal
	for n := range 6 {
		items = append(items, domain.JobDeal{Deal: leagueDeal(ms[0], n), JobID: jobs[0].ID})
	}
	items[5].Deal.Deal.Tapp = 0 // the cards no longer fit the rules
	if err := s.SaveJobDeals(ctx, items); err == nil {
		t.Fatal("SaveJobDeals with a deal that does not fit its rules succeeded")
	}
	if n, err := s.DealNumbersBetween(ctx, ms[0].ID, 0, 11); err != nil || len(n) != 0 {
		t.Errorf("the refused batch stored deals %v, %v", n, err)
	}
	if n, err := s.LeagueDeals(ctx, "L"); err != nil || n != 0 {
		t.Errorf("LeagueDeals = %d, %v after the refused batch; want 0", n, err)
	}
	if all, _ := s.Jobs(ctx, "L"); all[0].State != domain.JobRunning {
		t.Errorf("the job of the refused batch is %s, want still running", all[0].State)
	}
}

// RoundJobs lists the jobs of the round a match belongs to — every match's, by id, with their
// states — and none for a stand-alone match: what decides whether a deal's cards are still in
// play at another table of the round.
func testRoundJobs(t *testing.T, s Store) {
	ctx := context.Background()
	ms := Schedule(t, s)
	jobs, err := s.RoundJobs(ctx, ms[1].ID)
	if err != nil || len(jobs) != 4 || !ascending(jobs) {
		t.Fatalf("RoundJobs = %+v, %v; want the round's 4 jobs by id", jobs, err)
	}
	claimed, err := s.Claim(ctx, "L", "w", 1, lease)
	if err != nil || len(claimed) != 1 {
		t.Fatalf("Claim = %+v, %v", claimed, err)
	}
	for n := range 6 {
		if _, err := s.SaveJobDeal(ctx, leagueDeal(ms[0], n), claimed[0].ID); err != nil {
			t.Fatal(err)
		}
	}
	jobs, _ = s.RoundJobs(ctx, ms[1].ID)
	for _, j := range jobs {
		want := domain.JobAvailable
		if j.ID == claimed[0].ID {
			want = domain.JobDone
		}
		if j.State != want || j.LeagueID != "L" || j.Round != 0 {
			t.Errorf("job %d of match %s group %d: %s in league %q round %d; want %s in L round 0", j.ID, j.MatchID, j.FirstGroup,
				j.State, j.LeagueID, j.Round, want)
		}
	}
	alone := NewMatch(t, s, "", "a", "b", "c")
	if jobs, err := s.RoundJobs(ctx, alone.ID); err != nil || len(jobs) != 0 {
		t.Errorf("RoundJobs(stand-alone match) = %+v, %v; want none", jobs, err)
	}
}
