package league

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/tapparena/tapp/arena"
	"github.com/tapparena/tapp/arena/internal/match"
	"github.com/tapparena/tapp/arena/internal/rating"
	"github.com/tapparena/tapp/arena/internal/referee"
	"github.com/tapparena/tapp/engine"
)

// Runner plays a league's jobs on this host.
type Runner struct {
	Store Store
	Seats match.Seats
	Log   *zap.Logger
	// Owner names this worker in the queue (default NewOwner()).
	Owner string
	// Concurrency is the number of tables played at once (default DefaultConcurrency).
	Concurrency int
	// Lease is how long a claimed job stays ours without a heartbeat (default DefaultLease);
	// heartbeats come every Lease/3. The heartbeat runs beside play, so the lease need not
	// cover a job's length: it bounds how long the jobs of a worker that died silently wait
	// before another worker takes them over.
	Lease time.Duration
	// Poll is how often to look for work while other workers hold all of it (default 1 s).
	Poll time.Duration
	// Drain is how long jobs in flight may take to finish once the time limit is reached,
	// before they are stopped too (default 1 minute).
	Drain time.Duration
	// Linger is how long a finished deal may wait for others to be stored with it in one
	// transaction (default 100 ms), while tables are playing. Play goes on meanwhile: it only
	// delays when a job counts as done.
	Linger time.Duration
	// MaxAttempts is how often a failing job is tried before it is given up (default 3).
	MaxAttempts int
	// Progress, when set, is called after every stored deal and every scheduled round.
	Progress func(Progress)
	// Goal, when set, is asked (at most once a second, after finished jobs) whether the
	// league has reached its goal, such as an SPRT decision; the league then stops.
	Goal func(ctx context.Context) (bool, error)

	heldPlans func(held int) // tests: the match plans held after each job (export_test.go)
}

// Progress is how far a league is.
type Progress struct {
	Done    int // deals stored, by every worker (as far as this one knows)
	Planned int // deals of all planned rounds; 0 when the league has no round limit
	Rounds  int // rounds scheduled
	Running int // jobs this worker is playing
	Played  int // deals this run has stored
}

// Outcome is how a run of a league ended.
type Outcome struct {
	Finished bool   `json:"finished"` // every planned round is played
	Stopped  string `json:"stopped"`  // otherwise why: "time limit", "interrupted", "goal reached"
	Played   int    `json:"played"`   // deals this run stored
	Failed   int    `json:"failed"`   // jobs given up after repeated errors
	// Decisions and Fallbacks count the decisions of the deals this run stored and those the
	// arena played for late, forfeited or absent bots.
	Decisions int `json:"decisions"`
	Fallbacks int `json:"fallbacks"`
}

// NewOwner names a worker: host, process id and a random suffix. A worker on the same host
// that finds the process gone takes its jobs over at once instead of waiting for the lease.
func NewOwner() string {
	host, _ := os.Hostname()
	var b [3]byte
	_, _ = rand.Read(b[:])
	return fmt.Sprintf("%s/%d/%s", host, os.Getpid(), hex.EncodeToString(b[:]))
}

// deadOwners returns the owners that were processes of this host that no longer exist.
func deadOwners(owners []string, self string) []string {
	host, _ := os.Hostname()
	var dead []string
	for _, o := range owners {
		parts := strings.Split(o, "/")
		if o == self || len(parts) != 3 || parts[0] != host {
			continue
		}
		pid, err := strconv.Atoi(parts[1])
		if err != nil || pid <= 0 {
			continue
		}
		if pid == os.Getpid() { // an earlier worker of this very process
			continue
		}
		if processGone(pid) {
			dead = append(dead, o)
		}
	}
	return dead
}

// StoreError marks a failure of the store (locked, disk full, gone): the league stops, since
// nothing more can be kept.
type StoreError struct{ Err error }

func (e *StoreError) Error() string { return e.Err.Error() }
func (e *StoreError) Unwrap() error { return e.Err }

func storeErr(err error) error {
	if err == nil {
		return nil
	}
	var se *StoreError
	if errors.As(err, &se) {
		return err
	}
	return &StoreError{Err: err}
}

// canceledOr returns context.Canceled when ctx has ended (the error is then a consequence of
// stopping), and err otherwise.
func canceledOr(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return context.Canceled
	}
	return err
}

// saveReq asks the committer to store a finished deal.
type saveReq struct {
	item arena.JobDeal
	done chan error
}

// maxCommit is the most deals the committer stores in one transaction. Three times as many
// may wait for the store, so that tables go on finishing deals while a full batch commits.
// Each transaction costs about as much CPU as storing ten deals (its commit, fsync and the
// index pages it rewrites), so a league of quick bots plays faster with large batches; the
// linger, not this bound, usually ends a batch (docs/BENCHMARKS.md, "League").
const maxCommit = 256

// commit stores finished deals as they come, several per transaction when they come faster
// than one transaction takes (group commit), until saves is closed.
func (ru *run) commit(bg context.Context) {
	for req := range ru.saves {
		batch := match.Gather(req, ru.saves, maxCommit, ru.r.Linger, ru.noTablePlaying)
		items := make([]arena.JobDeal, len(batch))
		for i, r := range batch {
			items[i] = r.item
		}
		ctx, cancel := context.WithTimeout(bg, time.Minute)
		err := ru.r.Store.SaveJobDeals(ctx, items)
		if errors.Is(err, arena.ErrConflict) && len(batch) > 1 {
			// One of them was stored already (a job taken over from a worker that was not
			// dead after all): store the others one by one.
			for _, r := range batch {
				_, err := ru.r.Store.SaveJobDeal(ctx, r.item.Deal, r.item.JobID)
				r.done <- err
			}
			cancel()
			continue
		}
		cancel()
		for _, r := range batch {
			r.done <- err
		}
	}
}

// noTablePlaying reports whether every table is idle: then no deal is on its way to the
// committer, and it stores what it has without lingering.
func (ru *run) noTablePlaying() bool { return len(ru.sem) == 0 }

type matchInfo struct {
	m      *arena.Match
	tables []match.Table
}

type activeJob struct {
	job    arena.Job
	cancel context.CancelFunc
	lost   bool
	played bool // every deal played; some may still wait for the store
}

type jobResult struct {
	job arena.Job
	err error
}

type run struct {
	r      *Runner
	p      *Plan
	log    *zap.Logger
	owner  string
	sem    chan struct{} // a slot per table in play
	saving chan struct{} // a slot per finished deal waiting for the store
	saves  chan saveReq  // to the committer
	// playedJobs tells the main loop that a job has played all its deals: it needs no table
	// any more, so new jobs are claimed without waiting for its deals to be stored.
	playedJobs chan int64

	plans matchPlans // of the matches in play (plans.go)

	mu        sync.Mutex
	done      int
	played    int
	decisions int // of the deals stored by this run
	fallbacks int
	scheduled int
	running   int

	// Read by schedule only (one goroutine): the rounds before completeTo are complete, and
	// pairs sums the pairwise results of those before pairsTo (pairsBefore).
	completeTo int
	pairsTo    int
	pairs      []rating.PairResult
}

// Run plays the league p until every planned round is played, until the time limit until
// (zero: none), until ctx ends (Ctrl-C), or until the Goal is reached. It resumes whatever
// earlier runs (or other hosts) left. When it stops early, jobs in flight are given back and
// their finished deals stay stored; a run of the same plan later picks up from there. A
// failing store stops the league with a *StoreError.
func (r *Runner) Run(ctx context.Context, p *Plan, until time.Time) (*Outcome, error) {
	if r.Log == nil {
		r.Log = zap.NewNop()
	}
	if r.Owner == "" {
		r.Owner = NewOwner()
	}
	if r.Concurrency <= 0 {
		r.Concurrency = DefaultConcurrency
	}
	if r.Lease <= 0 {
		r.Lease = DefaultLease
	}
	if r.Poll <= 0 {
		r.Poll = time.Second
	}
	if r.Drain <= 0 {
		r.Drain = time.Minute
	}
	if r.MaxAttempts <= 0 {
		r.MaxAttempts = 3
	}
	if r.Linger <= 0 {
		r.Linger = 100 * time.Millisecond
	}
	log := r.Log.With(zap.String("league", p.League))
	st := r.Store
	fp := p.Fingerprint()
	stored, err := st.EnsureLeague(ctx, &arena.League{ID: p.League, Plan: fp})
	if err != nil {
		return nil, storeErr(err)
	}
	if stored.Plan != fp {
		return nil, fmt.Errorf("league %s exists with another plan (%s): run it with its original settings, or give the new league another name",
			p.League, DiffFingerprints(stored.Plan, fp))
	}
	if stored.Status != arena.LeagueRunning {
		if err := st.SetLeagueStatus(ctx, p.League, arena.LeagueRunning); err != nil {
			return nil, storeErr(err)
		}
	}
	ru := &run{r: r, p: p, log: log, owner: r.Owner, sem: make(chan struct{}, r.Concurrency),
		saving: make(chan struct{}, max(8*r.Concurrency, 3*maxCommit)), saves: make(chan saveReq), playedJobs: make(chan int64)}
	if err := ru.rescue(ctx); err != nil {
		return nil, err
	}
	lms, err := st.LeagueMatches(ctx, p.League)
	if err != nil {
		return nil, storeErr(err)
	}
	for _, lm := range lms {
		ru.scheduled = max(ru.scheduled, lm.Round+1)
	}
	if ru.done, err = st.LeagueDeals(ctx, p.League); err != nil {
		return nil, storeErr(err)
	}
	if ru.done > 0 {
		log.Info("resuming league", zap.Int("deals_stored", ru.done), zap.Int("rounds_scheduled", ru.scheduled))
	}
	out, err := ru.loop(ctx, until)
	if out != nil {
		status := arena.LeagueStopped
		if out.Finished {
			status = arena.LeagueFinished
		}
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		if serr := st.SetLeagueStatus(sctx, p.League, status); serr != nil && err == nil {
			err = storeErr(serr)
		}
		cancel()
	}
	return out, err
}

// rescue frees the jobs of dead workers of this host.
func (ru *run) rescue(ctx context.Context) error {
	owners, err := ru.r.Store.LeaseOwners(ctx, ru.p.League)
	if err != nil {
		return storeErr(err)
	}
	if dead := deadOwners(owners, ru.owner); len(dead) > 0 {
		n, err := ru.r.Store.Rescue(ctx, ru.p.League, dead)
		if err != nil {
			return storeErr(err)
		}
		ru.log.Info("took over the jobs of workers that are gone", zap.Strings("workers", dead), zap.Int("jobs", n))
	}
	return nil
}

func (ru *run) progress() {
	if ru.r.Progress == nil {
		return
	}
	ru.mu.Lock()
	pr := Progress{Done: ru.done, Rounds: ru.scheduled, Running: ru.running, Played: ru.played}
	ru.mu.Unlock()
	if !ru.p.Unbounded() {
		pr.Planned = ru.p.Rounds * ru.p.DealsPerRound()
	}
	ru.r.Progress(pr)
}

func (ru *run) loop(ctx context.Context, until time.Time) (*Outcome, error) {
	r, st := ru.r, ru.r.Store
	bg := context.WithoutCancel(ctx) // for bookkeeping that must happen while stopping
	jobCtx, cancelJobs := context.WithCancel(bg)
	defer cancelJobs()
	committed := make(chan struct{})
	go func() { ru.commit(bg); close(committed) }()
	defer func() { close(ru.saves); <-committed }()
	active := map[int64]*activeJob{}
	results := make(chan jobResult)
	out := &Outcome{}
	var fatal error
	tablesPerJob := ru.p.Rules.Players
	if ru.p.Duplicate {
		tablesPerJob = len(match.Seatings(ru.p.Rules.Players))
	}
	// Enough jobs that every table has work while new jobs are being claimed (a claim is a
	// write transaction: it may wait for the committer's). Jobs are claimed a score or so at
	// a time, once half of those in hand have played all their deals: a claim, with its commit
	// and fsync, costs about as much as storing a dozen deals, so fewer and larger claims
	// leave more of the CPU to play.
	perSlots := (r.Concurrency + tablesPerJob - 1) / tablesPerJob
	maxJobs := 16*perSlots + 1
	refillAt := 8 * perSlots
	queueEmpty := false // the last claim got fewer jobs than it asked for

	heartbeat := time.NewTicker(r.Lease / 3)
	defer heartbeat.Stop()
	poll := time.NewTicker(r.Poll)
	defer poll.Stop()
	var deadline, drainEnd <-chan time.Time
	if !until.IsZero() {
		deadline = time.After(time.Until(until))
	}
	interrupted := ctx.Done()
	stopping := "" // why no more jobs are claimed
	lastGoal := time.Time{}
	stop := func(why string) {
		if stopping == "" {
			stopping = why
		}
	}
	checkGoal := func(force bool) {
		if r.Goal == nil || stopping != "" || ctx.Err() != nil || (!force && time.Since(lastGoal) < time.Second) {
			return
		}
		lastGoal = time.Now()
		reached, err := r.Goal(ctx)
		if err != nil {
			fatal = storeErr(err)
			stop("store failed")
			cancelJobs()
			return
		}
		if reached {
			ru.log.Info("goal reached: stopping the league")
			stop("goal reached")
			cancelJobs()
		}
	}
	checkGoal(true)
	ru.progress()

	for {
		if ctx.Err() != nil && interrupted != nil {
			interrupted = nil
			ru.log.Info("interrupted: stopping; finished deals are kept", zap.Int("jobs_in_flight", len(active)))
			stop("interrupted")
			cancelJobs()
		}
		if stopping == "" {
			added, err := ru.schedule(ctx)
			if err != nil && ctx.Err() == nil {
				fatal = err
				stop("store failed")
			}
			if added {
				queueEmpty = false
			}
		}
		// Claim once half of the jobs are done, several at a time; after a claim found the
		// queue empty, again only when a round was scheduled or at the next poll (other
		// workers' jobs may have become available).
		playing := 0 // jobs that still have deals to play
		for _, aj := range active {
			if !aj.played {
				playing++
			}
		}
		if stopping == "" && !queueEmpty && playing <= refillAt {
			want := maxJobs - playing
			jobs, err := st.Claim(ctx, ru.p.League, ru.owner, want, r.Lease)
			queueEmpty = len(jobs) < want
			if err != nil && ctx.Err() == nil {
				fatal = storeErr(err)
				stop("store failed")
			}
			for _, j := range jobs {
				if j.Attempts > 1 {
					ru.log.Info("taking over a job", zap.Int64("job", j.ID), zap.String("match", j.MatchID),
						zap.Int("group", j.FirstGroup), zap.Int("attempt", j.Attempts))
				}
				jctx, cancel := context.WithCancel(jobCtx)
				active[j.ID] = &activeJob{job: j, cancel: cancel}
				ru.mu.Lock()
				ru.running = len(active)
				ru.mu.Unlock()
				go func(j arena.Job) { results <- jobResult{job: j, err: ru.play(jctx, j)} }(j)
			}
		}
		if len(active) == 0 {
			if stopping != "" || fatal != nil {
				break
			}
			finished, err := ru.finished(ctx)
			if err != nil {
				if ctx.Err() == nil {
					fatal = err
				} else {
					stop("interrupted")
				}
				break
			}
			if finished {
				out.Finished = true
				break
			}
		}
		select {
		case id := <-ru.playedJobs:
			if aj := active[id]; aj != nil {
				aj.played = true
			}
		case res := <-results:
			aj := active[res.job.ID]
			delete(active, res.job.ID)
			aj.cancel()
			ru.mu.Lock()
			ru.running = len(active)
			ru.mu.Unlock()
			switch err := res.err; {
			case err == nil:
				checkGoal(false)
			case aj.lost:
				// Another worker holds it now; nothing to give back.
			case errors.Is(err, context.Canceled):
				rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
				if rerr := st.Release(rctx, ru.owner, []int64{res.job.ID}); rerr != nil {
					ru.log.Warn("could not give a job back; it is taken over when its lease expires",
						zap.Int64("job", res.job.ID), zap.Error(rerr))
				}
				cancel()
			default:
				var se *StoreError
				if errors.As(err, &se) {
					if fatal == nil {
						fatal = err
					}
					stop("store failed")
					cancelJobs()
					rctx, cancel := context.WithTimeout(bg, 10*time.Second)
					if rerr := st.Release(rctx, ru.owner, []int64{res.job.ID}); rerr != nil {
						ru.log.Warn("could not give a job back; it is taken over when its lease expires",
							zap.Int64("job", res.job.ID), zap.Error(rerr))
					}
					cancel()
					break
				}
				ru.log.Warn("job failed", zap.Int64("job", res.job.ID), zap.String("match", res.job.MatchID),
					zap.Int("group", res.job.FirstGroup), zap.Int("attempt", res.job.Attempts), zap.Error(err))
				if ferr := st.Fail(bg, ru.owner, res.job.ID, err.Error(), r.MaxAttempts); ferr != nil && fatal == nil {
					fatal = storeErr(ferr)
					stop("store failed")
					cancelJobs()
				}
				if res.job.Attempts >= r.MaxAttempts {
					out.Failed++
				} else {
					queueEmpty = false // it is available again
				}
			}
		case <-heartbeat.C:
			ids := make([]int64, 0, len(active))
			for id := range active {
				ids = append(ids, id)
			}
			lost, err := st.Extend(bg, ru.owner, ids, r.Lease)
			if err != nil {
				ru.log.Warn("could not renew job leases", zap.Error(err))
			}
			for _, id := range lost {
				if aj := active[id]; aj != nil && !aj.lost {
					ru.log.Warn("lost the lease of a job: another worker has it", zap.Int64("job", id))
					aj.lost = true
					aj.cancel()
				}
			}
		case <-poll.C:
			queueEmpty = false
			if stopping == "" && len(active) < maxJobs {
				if err := ru.rescue(ctx); err != nil && ctx.Err() == nil {
					fatal = err
					stop("store failed")
				}
			}
		case <-deadline:
			deadline = nil
			ru.log.Info("time limit reached: finishing the jobs in flight", zap.Int("jobs", len(active)),
				zap.Duration("at_most", r.Drain))
			stop("time limit")
			drainEnd = time.After(r.Drain)
		case <-drainEnd:
			drainEnd = nil
			ru.log.Info("stopping the jobs still in flight; their finished deals are kept")
			cancelJobs()
		case <-interrupted:
			// handled at the top of the loop
		}
	}
	ru.mu.Lock()
	out.Played = ru.played
	out.Decisions, out.Fallbacks = ru.decisions, ru.fallbacks
	ru.mu.Unlock()
	if !out.Finished {
		out.Stopped = stopping
	}
	ru.progress()
	if fatal != nil {
		return out, fmt.Errorf("league %s stopped: %w; every finished deal is stored: fix the cause and run the same command to resume", ru.p.League, fatal)
	}
	return out, nil
}

// schedule stores the rounds that may be planned now and reports whether it stored any.
func (ru *run) schedule(ctx context.Context) (added bool, err error) {
	p := ru.p
	for {
		n := ru.scheduled
		if !p.Unbounded() && n >= p.Rounds {
			return added, nil
		}
		if need := n - p.ahead() + 1; need > 0 {
			// Only the rounds not yet seen complete are counted: a complete round stays so.
			counts, err := ru.r.Store.RoundCountsFrom(ctx, p.League, ru.completeTo)
			if err != nil {
				return added, storeErr(err)
			}
			for _, c := range counts {
				if c.Round < need && !c.Complete() {
					return added, nil
				}
			}
			ru.completeTo = max(ru.completeTo, need)
		}
		tables := p.FixedTables(n)
		if p.Format == Ladder {
			pairs, err := ru.pairsBefore(ctx, n-p.ahead()+1)
			if err != nil {
				return added, err
			}
			scheduled, err := ru.matchesBefore(ctx, n)
			if err != nil {
				return added, err
			}
			tables = p.LadderTablesFromPairs(n, pairs, scheduled)
		}
		places, matches, jobs, err := p.Round(n, tables)
		if err != nil {
			return added, err
		}
		if err := ru.r.Store.ScheduleRound(ctx, places, matches, jobs); err != nil {
			return added, storeErr(err)
		}
		added = true
		ru.mu.Lock()
		ru.scheduled = n + 1
		ru.mu.Unlock()
		var names []string
		for _, t := range tables {
			names = append(names, strings.Join(t, "+"))
		}
		ru.log.Info("round scheduled", zap.Int("round", n), zap.Strings("tables", names), zap.Int("jobs", len(jobs)))
		ru.progress()
	}
}

// pairsBefore returns the pairwise results of the league's rounds before round, summed per
// pair of bots. The rounds before round are complete when it is asked (schedule waits for
// them), so their totals are final: each call reads only the rounds the last one did not.
func (ru *run) pairsBefore(ctx context.Context, round int) ([]rating.PairResult, error) {
	if round <= ru.pairsTo {
		return ru.pairs, nil
	}
	more, err := ru.r.Store.LadderPairs(ctx, ru.p.League, ru.pairsTo, round)
	if err != nil {
		return nil, storeErr(err)
	}
	if ru.pairs, err = rating.MergePairs(append(ru.pairs, more...)); err != nil {
		return nil, err
	}
	ru.pairsTo = round
	return ru.pairs, nil
}

// finished reports whether every planned round is scheduled and played.
func (ru *run) finished(ctx context.Context) (bool, error) {
	return roundsComplete(ctx, ru.r.Store, ru.p, ru.scheduled)
}

// roundsComplete reports whether a league that has scheduled rounds has played all of p's.
func roundsComplete(ctx context.Context, st Store, p *Plan, scheduled int) (bool, error) {
	if p.Unbounded() || scheduled < p.Rounds {
		return false, nil
	}
	counts, err := st.RoundCounts(ctx, p.League)
	if err != nil {
		return false, storeErr(err)
	}
	for _, c := range counts {
		if !c.Complete() {
			return false, nil
		}
	}
	return true, nil
}

// Finished reports whether the league p names is stored with this plan and has played every
// round p plans: running it would play nothing (so its bots need not be started).
func Finished(ctx context.Context, st Store, p *Plan) (bool, error) {
	l, err := st.GetLeague(ctx, p.League)
	if errors.Is(err, arena.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, storeErr(err)
	}
	if l.Plan != p.Fingerprint() { // Run says how the plans differ
		return false, nil
	}
	lms, err := st.LeagueMatches(ctx, p.League)
	if err != nil {
		return false, storeErr(err)
	}
	scheduled := 0
	for _, lm := range lms {
		scheduled = max(scheduled, lm.Round+1)
	}
	return roundsComplete(ctx, st, p, scheduled)
}

// matchInfo reads the plan of match id (plans.go keeps it while jobs play the match).
func (ru *run) matchInfo(ctx context.Context, id string) (*matchInfo, error) {
	m, err := ru.r.Store.GetMatch(ctx, id)
	if err != nil {
		return nil, storeErr(err)
	}
	tables, err := match.Plan(m.Spec)
	if err != nil {
		return nil, fmt.Errorf("match %s: %w", id, err)
	}
	return &matchInfo{m: m, tables: tables}, nil
}

// play plays the missing deals of a job, each stored as it finishes. The clocks (overage
// bank and strikes) run per job: a job is the unit a worker holds, and a bot that dies loses
// no more than the jobs it was playing.
func (ru *run) play(ctx context.Context, j arena.Job) error {
	st := ru.r.Store
	mi, err := ru.plans.acquire(j.MatchID, func() (*matchInfo, error) { return ru.matchInfo(ctx, j.MatchID) })
	if err != nil {
		return canceledOr(ctx, err)
	}
	defer func() {
		ru.plans.release(j.MatchID)
		if ru.r.heldPlans != nil {
			ru.r.heldPlans(ru.plans.len())
		}
	}()
	var mine []match.Table
	first, last := -1, -1
	for _, t := range mi.tables {
		if t.Group >= j.FirstGroup && t.Group < j.FirstGroup+j.Groups {
			mine = append(mine, t)
			if first < 0 || t.Number < first {
				first = t.Number
			}
			last = max(last, t.Number)
		}
	}
	stored := map[int]bool{}
	if j.Stored > 0 { // a job resumed: skip what was stored
		numbers, err := st.DealNumbersBetween(ctx, j.MatchID, first, last)
		if err != nil {
			return canceledOr(ctx, storeErr(err))
		}
		for _, n := range numbers {
			stored[n] = true
		}
	}
	var todo []match.Table
	for _, t := range mine {
		if !stored[t.Number] {
			todo = append(todo, t)
		}
	}
	if len(todo) == 0 {
		if _, err := st.CompleteJob(ctx, j.ID); err != nil {
			return canceledOr(ctx, storeErr(err))
		}
		return nil
	}
	clocks := map[string]*referee.Clock{}
	for _, b := range mi.m.Spec.Bots {
		clocks[b] = referee.NewClock(mi.m.Spec.TimeControl)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
		toPlay   = len(todo)
	)
	for _, t := range todo {
		select {
		case ru.sem <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func(t match.Table) {
			defer wg.Done()
			rec, err := ru.playTable(ctx, mi.m, t, clocks)
			// The table's slot is free as soon as the deal is over: the next deal starts while
			// this one is being stored (at most max(8×Concurrency, 3 × maxCommit) deals wait for the store).
			<-ru.sem
			mu.Lock()
			toPlay--
			last := toPlay == 0
			mu.Unlock()
			if last {
				select {
				case ru.playedJobs <- j.ID:
				case <-ctx.Done():
				}
			}
			if err == nil {
				ru.saving <- struct{}{}
				err = ru.save(ctx, rec, j.ID)
				<-ru.saving
			}
			if err != nil {
				mu.Lock()
				if firstErr == nil {
					firstErr = err
				}
				mu.Unlock()
				cancel()
			}
		}(t)
	}
	wg.Wait()
	if firstErr != nil {
		var se *StoreError
		if errors.As(firstErr, &se) {
			return firstErr
		}
	}
	if err := ctx.Err(); err != nil && (firstErr == nil || errors.Is(firstErr, referee.ErrAborted) || errors.Is(firstErr, context.Canceled)) {
		return context.Canceled
	}
	return firstErr
}

// playTable seats the bots and plays one deal.
func (ru *run) playTable(ctx context.Context, m *arena.Match, t match.Table, clocks map[string]*referee.Clock) (*arena.DealRecord, error) {
	players, release, err := match.SeatPlayers(ctx, ru.r.Seats, t.Seating, clocks)
	if err != nil {
		return nil, err
	}
	defer release()
	return referee.Play(ctx, &referee.Table{
		MatchID: m.ID, Number: t.Number, Group: t.Group, Rules: m.Spec.Rules, Deal: t.Deal,
		Options: engine.Options{}, Players: players, TimeControl: m.Spec.TimeControl,
	})
}

// save stores a finished deal of job jobID (completing the job with its last deal).
func (ru *run) save(ctx context.Context, rec *arena.DealRecord, jobID int64) error {
	// A finished deal is stored even when the league is stopping: it is kept.
	done := make(chan error, 1)
	ru.saves <- saveReq{item: arena.JobDeal{Deal: rec, JobID: jobID}, done: done}
	err := <-done
	if errors.Is(err, arena.ErrConflict) {
		return nil // another worker stored this deal first (a job taken over): it is kept once
	}
	if err != nil {
		return storeErr(err)
	}
	fallbacks := 0
	for i := range rec.Decisions {
		if rec.Decisions[i].Fallback {
			fallbacks++
		}
	}
	ru.mu.Lock()
	ru.done++
	ru.played++
	ru.decisions += len(rec.Decisions)
	ru.fallbacks += fallbacks
	ru.mu.Unlock()
	ru.progress()
	return nil
}
