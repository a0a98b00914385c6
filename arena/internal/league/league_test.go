package league_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/app"
	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/league"
	"github.com/tapparena/tapp/arena/internal/league/leaguestore"
	"github.com/tapparena/tapp/arena/internal/league/plan"
	"github.com/tapparena/tapp/arena/internal/match"
	"github.com/tapparena/tapp/arena/internal/referee"
	"github.com/tapparena/tapp/arena/internal/store"
	"github.com/tapparena/tapp/arena/internal/store/memstore"
	"github.com/tapparena/tapp/engine"
)

func TestRoundRobin(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := openSQLite(t)
	a := newArena(t, st, fourBots)
	p := testPlan(t, "rr", plan.RoundRobin, 1, 2)
	out := runLeague(t, ctx, st, a, p, 8)
	if !out.Finished || out.Played != 48 {
		t.Fatalf("outcome %s, want finished with 48 deals (4 tables × 2 groups × 6 seatings)", describe(out))
	}
	ms, _ := st.ListMatches(ctx, domain.MatchFilter{LeagueID: "rr"})
	if len(ms) != 4 {
		t.Fatalf("%d matches, want 4", len(ms))
	}
	for _, m := range ms {
		if m.Status != domain.MatchFinished {
			t.Errorf("match %s is %s, want finished", m.ID, m.Status)
		}
	}
	l, _ := st.GetLeague(ctx, "rr")
	if l.Status != domain.LeagueFinished {
		t.Errorf("league status %s, want finished", l.Status)
	}
	lb := leaderboard(t, st, "rr")
	if len(lb.Bots) != 4 || lb.Units != 8 || lb.PartialUnits != 0 || lb.Deals != 48 || lb.Matches != 4 {
		t.Fatalf("leaderboard %+v", lb)
	}
	// Every table of the round played the same 2 deal sources: 2 sources per bot, too few for
	// an interval (rating.MinSourcesForInterval), and so no LOS.
	for _, b := range lb.Bots {
		if b.Units != 6 || b.Sources != 2 || b.EloMatches != 3 || len(b.EloHistory) != 3 || b.Interval || b.RatingLo != b.Rating {
			t.Errorf("standing %+v: want 6 cells of 2 deal sources, 3 rated matches, no interval", b)
		}
	}
	if lb.Bots[0].Bot != "heur" {
		t.Errorf("leader %s, want heur (heuristic beats random bots)", lb.Bots[0].Bot)
	}
	if lb.LOS[0][1] != 0.5 || lb.LOS[1][0] != 0.5 || lb.Sources != 2 || lb.Clustering != "deal source" {
		t.Errorf("LOS[0][1] = %v, LOS[1][0] = %v, %d sources clustered by %s; want no LOS, 2 deal sources", lb.LOS[0][1], lb.LOS[1][0], lb.Sources, lb.Clustering)
	}

	// Running the finished league again does nothing and says it is finished.
	again := runLeague(t, ctx, st, a, p, 8)
	if !again.Finished || again.Played != 0 {
		t.Errorf("second run %s, want finished with nothing played", describe(again))
	}
	// Given a second round, it plays only that.
	p.Rounds = 2
	more := runLeague(t, ctx, st, a, p, 8)
	if !more.Finished || more.Played != 48 {
		t.Errorf("run with a second round %s, want 48 more deals", describe(more))
	}
	// Another plan under the same name is refused.
	p.Deals = 3
	r := &league.Runner{Store: st, Seats: a.srv}
	if _, err := r.Run(ctx, p, time.Time{}); err == nil || !strings.Contains(err.Error(), `deals was 2, is now 3`) {
		t.Errorf("run with another plan: %v, want a refusal naming deals", err)
	}
}

// Finished deals wait for others to share their transaction only while tables are playing:
// a league whose deals are fewer than a batch ends when its last deal is played, not a
// linger later.
func TestLastDealsAreStoredWithoutLingering(t *testing.T) {
	t.Parallel()
	st := openSQLite(t)
	a := newArena(t, st, fourBots)
	p := testPlan(t, "linger", plan.RoundRobin, 1, 1)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r := &league.Runner{Store: st, Seats: a.srv, Concurrency: 8, Lease: 5 * time.Second, Poll: 50 * time.Millisecond,
		Linger: time.Hour}
	out, err := r.Run(ctx, p, time.Time{})
	if err != nil || !out.Finished || out.Played != 24 {
		t.Fatalf("Run = %v, %v; want finished with 24 deals (4 tables × 6 seatings), each stored once no table plays", out, err)
	}
}

// An interrupted league resumed later ends with the same results, deal for deal, and the same
// leaderboard (but for the multiplayer Elo, which follows the order matches finished in) as an
// uninterrupted run.
func TestInterruptedLeagueResumesToTheSameResults(t *testing.T) {
	t.Parallel()
	for _, format := range []string{plan.RoundRobin, plan.Ladder} {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			rounds := 1
			if format == plan.Ladder {
				rounds = 4
			}
			ref := memstore.New()
			p := testPlan(t, "L", format, rounds, 2)
			out := runLeague(t, ctx, ref, newArena(t, ref, fourBots), p, 8)
			if !out.Finished {
				t.Fatalf("reference run: %s", describe(out))
			}

			st := openSQLite(t)
			a := newArena(t, st, fourBots)
			for cut := 1; ; cut++ {
				runCtx, cancel := context.WithCancel(ctx)
				// Deals are stored (and counted) a few at a time, so that runs stop early; a run
				// plays at most 12 of the 48 deals, so that it is stopped before it ends the
				// league however far play runs ahead of the store on a busy host.
				seats := &seatsUntilInterrupt{t: t, seats: a.srv, limit: 12, stopped: runCtx.Done()}
				r := &league.Runner{Store: st, Seats: seats, Concurrency: 8, Lease: 5 * time.Second, Poll: 20 * time.Millisecond,
					Linger: time.Millisecond, Progress: func(pr league.Progress) {
						if pr.Played >= 7 { // stop in the middle of a duplicate group
							cancel()
						}
					}}
				out, err := r.Run(runCtx, p, time.Time{})
				cancel()
				if err != nil {
					t.Fatalf("run %d: %v", cut, err)
				}
				if out.Finished {
					if cut < 3 {
						t.Errorf("finished after %d runs; the interruptions did not happen", cut)
					}
					break
				}
				if out.Stopped != "interrupted" {
					t.Fatalf("run %d stopped: %q", cut, out.Stopped)
				}
				if l, _ := st.GetLeague(ctx, "L"); l.Status != domain.LeagueStopped {
					t.Errorf("after run %d the league is %s, want stopped", cut, l.Status)
				}
				jobs, _ := st.Jobs(ctx, "L")
				for _, j := range jobs {
					if j.State == domain.JobRunning {
						t.Errorf("after a clean stop job %d is still leased to %s", j.ID, j.Owner)
					}
				}
			}
			if got, want := results(t, st, "L"), results(t, ref, "L"); !reflect.DeepEqual(got, want) {
				t.Errorf("resumed league: %d results, uninterrupted %d; they differ", len(got), len(want))
			}
			if got, want := resultsBoard(t, st, "L"), resultsBoard(t, ref, "L"); !reflect.DeepEqual(got, want) {
				t.Errorf("leaderboards differ:\nresumed       %+v\nuninterrupted %+v", got, want)
			}
			gotSched, _ := st.LeagueMatches(ctx, "L")
			wantSched, _ := ref.LeagueMatches(ctx, "L")
			if len(gotSched) != len(wantSched) || (format == plan.Ladder && len(gotSched) != 4*1) {
				t.Errorf("schedules: %d and %d matches", len(gotSched), len(wantSched))
			}
		})
	}
}

// Two workers (as on two hosts) share one league: every deal is played and stored once, and
// a worker that joins a league in progress gets a share of the work.
func TestTwoWorkersShareALeague(t *testing.T) {
	t.Parallel()
	for _, backend := range []string{"sqlite", "postgres"} {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			var st *store.Store
			if backend == "sqlite" {
				st = openSQLite(t)
			} else {
				st = openPostgres(t)
			}
			twoWorkers(t, st)
		})
	}
}

// twoWorkers runs a league of 48 jobs (12 deal sources, 288 deals) on two workers, the second
// started once the first has stored a deal. The first worker's tables hold after its first
// deals until the second has stored one (or has ended, so that a failure shows as one and not
// as a hang). Without that hold the second often had nothing left to claim: a worker claims up
// to 17 jobs at this concurrency and claims again once no more than 8 of them have deals left
// to play, but a job whose deals are all played keeps its lease until the group commit stores
// them (a linger of 100 ms, up to 256 deals a transaction). So the first worker went on
// claiming while its first deals waited for the store, and on a busy host it held every job
// before its first deal was visible (seen: 45 of 48 held and 3 done at that moment). That is
// the runner working as meant — a played job is no work another worker could do — and a
// timing race of the test only; holding the first worker's tables keeps it at its first
// claim, so the second is sure to find jobs.
func twoWorkers(t *testing.T, st *store.Store) {
	ctx := context.Background()
	a := newArena(t, st, fourBots)
	const deals = 4 * 12 * 6 // tables × deal sources × seatings
	p := testPlan(t, "shared", plan.RoundRobin, 1, 12)
	var wg sync.WaitGroup
	outs := make([]*league.Outcome, 2)
	stored := [2]chan struct{}{make(chan struct{}), make(chan struct{})}
	var once [2]sync.Once
	for i := range outs {
		if i == 1 {
			<-stored[0]
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			var seats match.Seats = a.srv
			if i == 0 {
				// Fewer tables than one claim's jobs have: the first worker cannot play enough
				// of its first 17 jobs to claim again before the second has started.
				seats = seatsAfter(a.srv, 4, stored[1])
			}
			r := &league.Runner{Store: st, Seats: seats, Concurrency: 4, Owner: fmt.Sprintf("host%d/1/x", i),
				Lease: 5 * time.Second, Poll: 20 * time.Millisecond}
			r.Progress = func(pr league.Progress) {
				if pr.Played > 0 {
					once[i].Do(func() { close(stored[i]) })
				}
			}
			out, err := r.Run(ctx, p, time.Time{})
			once[i].Do(func() { close(stored[i]) }) // it ended before storing a deal: do not wait
			if err != nil {
				t.Errorf("worker %d: %v", i, err)
				return
			}
			outs[i] = out
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	if !outs[0].Finished || !outs[1].Finished || outs[0].Played+outs[1].Played != deals || outs[0].Played == 0 || outs[1].Played == 0 {
		t.Errorf("outcomes %s and %s: want both finished, %d deals between them, each some", describe(outs[0]), describe(outs[1]), deals)
	}
	if n, _ := st.LeagueDeals(ctx, "shared"); n != deals {
		t.Errorf("%d deals stored, want %d", n, deals)
	}
}

// seatsAfter seats the first free tables at once and every later one only once open is
// closed (or its ctx ends).
func seatsAfter(seats match.Seats, free int, open <-chan struct{}) match.Seats {
	h := &heldSeats{Seats: seats, open: open}
	h.free.Store(int64(free))
	return h
}

type heldSeats struct {
	match.Seats
	free atomic.Int64
	open <-chan struct{}
}

func (h *heldSeats) SeatTable(ctx context.Context, bots []string) ([]referee.Conn, func(), error) {
	if h.free.Add(-1) < 0 {
		select {
		case <-h.open:
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		}
	}
	return h.Seats.SeatTable(ctx, bots)
}

// A job held by a worker that stopped renewing its lease is taken over when the lease
// expires; one held by a process of this host that is gone is taken over at once.
func TestJobsOfDeadWorkersAreTakenOver(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	host, _ := os.Hostname()
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Skip("cannot run true:", err)
	}
	for _, c := range []struct {
		name, owner string
		lease       time.Duration
	}{
		{"expired lease", "elsewhere/1/x", 300 * time.Millisecond},
		{"dead local process", fmt.Sprintf("%s/%d/x", host, gone.Process.Pid), time.Hour},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			st := openSQLite(t)
			a := newArena(t, st, fourBots)
			p := testPlan(t, "dead", plan.RoundRobin, 1, 1)
			// Schedule the league and let the "dead" worker claim two jobs.
			scheduleFirstRound(t, st, p)
			held, err := st.Claim(ctx, "dead", c.owner, 2, c.lease)
			if err != nil || len(held) != 2 {
				t.Fatalf("Claim: %v, %v", held, err)
			}
			// Without the takeover the league would wait for the held jobs forever.
			rctx, cancel := context.WithTimeout(ctx, 30*time.Second)
			defer cancel()
			out := runLeague(t, rctx, st, a, p, 8)
			if !out.Finished || out.Played != 24 {
				t.Fatalf("outcome %s, want finished with 24 deals", describe(out))
			}
			all, _ := st.Jobs(ctx, "dead")
			for _, j := range all {
				if j.State != domain.JobDone {
					t.Errorf("job %d is %s", j.ID, j.State)
				}
			}
		})
	}
}

// failingStore fails like a full disk once it has stored okWrites writes of deals (each a
// transaction, of one deal or a batch); stored counts the deals those held. It counts writes
// rather than deals because a batch is stored whole or not at all: however many deals the
// first batch gathers, it is stored, and the next write fails.
type failingStore struct {
	*store.Store
	okWrites int64
	writes   atomic.Int64
	stored   atomic.Int64
}

func (f *failingStore) SaveJobDeal(ctx context.Context, d *domain.DealRecord, jobID int64) (bool, error) {
	if f.writes.Add(1) > f.okWrites {
		return false, fmt.Errorf("%w while saving deal %d of match %s: nothing was stored (test)", store.ErrDiskFull, d.Number, d.MatchID)
	}
	done, err := f.Store.SaveJobDeal(ctx, d, jobID)
	if err == nil {
		f.stored.Add(1)
	}
	return done, err
}

func (f *failingStore) SaveJobDeals(ctx context.Context, items []domain.JobDeal) error {
	if f.writes.Add(1) > f.okWrites {
		d := items[0].Deal
		return fmt.Errorf("%w while saving deal %d of match %s: nothing was stored (test)", store.ErrDiskFull, d.Number, d.MatchID)
	}
	err := f.Store.SaveJobDeals(ctx, items)
	if err == nil {
		f.stored.Add(int64(len(items)))
	}
	return err
}

// A store that fails stops the league with a clear error; what was stored stays, and the
// league resumes once the store works again.
func TestStoreFailureStopsTheLeagueCleanly(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := openSQLite(t)
	a := newArena(t, st, fourBots)
	p := testPlan(t, "full", plan.RoundRobin, 1, 2)
	fs := &failingStore{Store: st, okWrites: 1} // the disk fills after the first write
	r := &league.Runner{Store: fs, Seats: a.srv, Concurrency: 4, Lease: 5 * time.Second, Poll: 20 * time.Millisecond,
		Linger: time.Millisecond} // small batches: the first one does not hold the whole league
	out, err := r.Run(ctx, p, time.Time{})
	if !errors.Is(err, store.ErrDiskFull) {
		t.Fatalf("Run = %v, want ErrDiskFull", err)
	}
	for _, want := range []string{"league full stopped: ", "disk full", "run the same command to resume"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if out == nil || out.Finished || out.Stopped != "store failed" {
		t.Errorf("outcome %+v", out)
	}
	stored, _ := st.LeagueDeals(ctx, "full")
	if want := int(fs.stored.Load()); stored != want || stored == 0 || stored >= 48 {
		t.Errorf("%d deals stored, want the %d of the write before the failure (some, not all 48)", stored, want)
	}
	jobs, _ := st.Jobs(ctx, "full")
	for _, j := range jobs {
		if j.State == domain.JobRunning {
			t.Errorf("job %d still leased after the stop", j.ID)
		}
	}
	if got := runLeague(t, ctx, st, a, p, 8); !got.Finished || got.Played != 48-stored {
		t.Errorf("resumed: %s, want the %d missing deals", describe(got), 48-stored)
	}
}

func TestTimeLimitStopsTheLeague(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := memstore.New()
	a := newArena(t, st, fourBots)
	p := testPlan(t, "timed", plan.Ladder, 0, 4)
	r := &league.Runner{Store: st, Seats: a.srv, Concurrency: 8, Lease: 5 * time.Second, Poll: 20 * time.Millisecond}
	start := time.Now()
	out, err := r.Run(ctx, p, time.Now().Add(500*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	if out.Finished || out.Stopped != "time limit" || out.Played == 0 || time.Since(start) > 20*time.Second {
		t.Errorf("outcome %s after %v", describe(out), time.Since(start))
	}
	// Drained: no job is left half played.
	counts, _ := st.RoundCounts(ctx, "timed")
	for _, c := range counts {
		if c.Running != 0 {
			t.Errorf("round %d: %d jobs still running", c.Round, c.Running)
		}
	}
	if n, _ := st.LeagueDeals(ctx, "timed"); n%6 != 0 {
		t.Errorf("%d deals stored: not whole duplicate groups", n)
	}
}

// The memory store's claim counts a job's stored deals as the SQL stores do (their test:
// TestClaimCountsStoredDeals in arena/internal/store).
func TestMemoryClaimCountsStoredDeals(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := memstore.New()
	p := testPlan(t, "counted", plan.RoundRobin, 1, 2)
	scheduleFirstRound(t, st, p)
	held, err := st.Claim(ctx, p.League, "w", 1, time.Minute)
	if err != nil || len(held) != 1 || held[0].Stored != 0 {
		t.Fatalf("Claim = %+v, %v; want one job with nothing stored", held, err)
	}
	j := held[0]
	m, err := st.GetMatch(ctx, j.MatchID)
	if err != nil {
		t.Fatal(err)
	}
	d := &domain.DealRecord{MatchID: j.MatchID, Number: 0, Group: j.FirstGroup, Deal: engine.DealFromSeed(m.Spec.Rules, m.Spec.Seed, 0)}
	if _, err := st.SaveJobDeal(ctx, d, j.ID); err != nil {
		t.Fatal(err)
	}
	if err := st.Release(ctx, "w", []int64{j.ID}); err != nil {
		t.Fatal(err)
	}
	again, err := st.Claim(ctx, p.League, "v", 1, time.Minute)
	if err != nil || len(again) != 1 || again[0].ID != j.ID || again[0].Stored != 1 {
		t.Errorf("Claim again = %+v, %v; want job %d with 1 deal stored", again, err, j.ID)
	}
}

// scheduleFirstRound stores the plan's league and its first round, as a runner starting it
// would.
func scheduleFirstRound(t *testing.T, st leaguestore.Store, p *plan.Plan) {
	t.Helper()
	ctx := context.Background()
	if _, err := st.EnsureLeague(ctx, &domain.League{ID: p.League, Plan: p.Fingerprint()}); err != nil {
		t.Fatal(err)
	}
	places, matches, jobs, err := p.Round(0, p.FixedTables(0))
	if err != nil {
		t.Fatal(err)
	}
	if err := st.ScheduleRound(ctx, places, matches, jobs); err != nil {
		t.Fatal(err)
	}
}

// A paused league starts no new job: the jobs in flight finish, nothing more is played while
// it stays paused (its bots stay connected), and once resumed it plays to its end.
func TestPauseHoldsTheLeagueUntilResumed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := memstore.New()
	a := newArena(t, st, fourBots)
	// 4 tables × 30 groups: 120 jobs, 720 deals, so that an idle host cannot finish the league
	// between the pause and the poll that notices it.
	const total = 720
	p := testPlan(t, "paused", plan.RoundRobin, 1, 30)
	var sawPaused atomic.Bool
	pausedOnce := atomic.Bool{}
	r := &league.Runner{Store: st, Seats: a.srv, Concurrency: 6, Lease: 5 * time.Second, Poll: 20 * time.Millisecond,
		Progress: func(pr league.Progress) {
			if pr.Done >= 6 && pausedOnce.CompareAndSwap(false, true) {
				if err := st.SetLeaguePaused(ctx, "paused", true); err != nil {
					t.Error(err)
				}
			}
			if pr.Paused {
				sawPaused.Store(true)
			}
		}}
	type result struct {
		out *league.Outcome
		err error
	}
	done := make(chan result, 1)
	go func() {
		out, err := r.Run(ctx, p, time.Time{})
		done <- result{out, err}
	}()
	// Paused: once the deals being played are stored, the count stands still.
	deadline := time.Now().Add(time.Minute)
	held, last := -1, time.Now()
	for !sawPaused.Load() || time.Since(last) < 300*time.Millisecond {
		if time.Now().After(deadline) {
			t.Fatal("the paused league still plays after a minute")
		}
		if n, _ := st.LeagueDeals(ctx, "paused"); n != held {
			held, last = n, time.Now()
		}
		time.Sleep(10 * time.Millisecond)
	}
	// A deal that was being played when the pause came may still be stored late on a busy
	// host, one per table at the most; no deal starts, so the league does not get further.
	time.Sleep(time.Second) // 50 more polls
	if now, _ := st.LeagueDeals(ctx, "paused"); now > held+r.Concurrency || now >= total {
		t.Errorf("paused with %d deals stored, then %d: want fewer than %d, and at most one more per table (%d) while paused", held, now, total, r.Concurrency)
	}
	if running(t, st, "paused") == 0 {
		t.Error("the paused league gave its jobs back; it holds them until resumed")
	}
	if err := st.SetLeaguePaused(ctx, "paused", false); err != nil {
		t.Fatal(err)
	}
	select {
	case res := <-done:
		if res.err != nil || !res.out.Finished || res.out.Played != total {
			t.Errorf("resumed league: %v, %v; want finished with %d deals", describe(res.out), res.err, total)
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("the resumed league did not finish within 2 minutes")
	}
}

// running counts the league's jobs in flight.
func running(t *testing.T, st leaguestore.Store, league string) int {
	t.Helper()
	counts, err := st.RoundCounts(context.Background(), league)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range counts {
		n += c.Running
	}
	return n
}

// A league of a standing ladder (an epoch, a gauntlet) pauses with the ladder: with the
// ladder's row paused it starts no deal although its own row is not paused, and once the
// ladder is resumed it plays to its end. Its matches count on the board it names: a filter
// by the board's name selects them, and their sums are kept under it, not under the league.
func TestALadderPausesItsLeaguesAndCountsThemOnItsBoard(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := memstore.New()
	a := newArena(t, st, fourBots)
	p := testPlan(t, "lad.epoch", plan.RoundRobin, 1, 2)
	p.Ladder, p.Board = "lad", "lad"
	if _, err := st.EnsureLeague(ctx, &domain.League{ID: "lad", Plan: `{"standing_ladder":"lad"}`}); err != nil {
		t.Fatal(err)
	}
	if err := st.SetLeaguePaused(ctx, "lad", true); err != nil {
		t.Fatal(err)
	}
	paused := make(chan struct{})
	var once sync.Once
	r := &league.Runner{Store: st, Seats: a.srv, Concurrency: 2, Lease: 5 * time.Second, Poll: 20 * time.Millisecond,
		Progress: func(pr league.Progress) {
			if pr.Paused {
				once.Do(func() { close(paused) })
			}
		}}
	type result struct {
		out *league.Outcome
		err error
	}
	done := make(chan result, 1)
	go func() {
		out, err := r.Run(ctx, p, time.Time{})
		done <- result{out, err}
	}()
	select {
	case <-paused:
	case res := <-done:
		t.Fatalf("the league of a paused ladder ran: %v, %v", describe(res.out), res.err)
	case <-time.After(time.Minute):
		t.Fatal("the league of a paused ladder did not say it is paused within a minute")
	}
	// Paused before its first claim: not a deal is stored.
	if n, err := st.LeagueDeals(ctx, "lad.epoch"); err != nil || n != 0 {
		t.Errorf("the league of a paused ladder stored %d deals (%v)", n, err)
	}
	if err := st.SetLeaguePaused(ctx, "lad", false); err != nil {
		t.Fatal(err)
	}
	var out *league.Outcome
	select {
	case res := <-done:
		if res.err != nil || !res.out.Finished {
			t.Fatalf("after the ladder's resume: %v, %v; want finished", describe(res.out), res.err)
		}
		out = res.out
	case <-time.After(2 * time.Minute):
		t.Fatal("the league did not finish within 2 minutes of the ladder's resume")
	}
	ms, err := st.ListMatches(ctx, domain.MatchFilter{LeagueID: "lad"})
	if err != nil || len(ms) == 0 {
		t.Fatalf("the board's matches: %d, %v", len(ms), err)
	}
	for _, m := range ms {
		if m.Spec.LeagueID != "lad.epoch" || m.Spec.Board != "lad" {
			t.Errorf("match %s: league %q, board %q; want the epoch's, on the ladder's board", m.ID, m.Spec.LeagueID, m.Spec.Board)
		}
	}
	onBoard, err := app.Leaderboard(ctx, st, app.BoardQuery{Filter: domain.MatchFilter{LeagueID: "lad"}})
	if err != nil {
		t.Fatal(err)
	}
	if onBoard.StoredDeals != out.Played || len(onBoard.Bots) != len(fourBots) {
		t.Errorf("the ladder's board: %d deals, %d bots; want the league's %d deals and its %d bots", onBoard.StoredDeals, len(onBoard.Bots), out.Played, len(fourBots))
	}
	own, err := app.Leaderboard(ctx, st, app.BoardQuery{Filter: domain.MatchFilter{LeagueID: "lad.epoch"}})
	if err != nil {
		t.Fatal(err)
	}
	if own.Deals != 0 {
		t.Errorf("the epoch's own board rates %d deals; its matches count on the ladder's", own.Deals)
	}
}
