package league

import (
	"context"
	"fmt"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/tapparena/tapp/arena/internal/admission"
	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/league/leaguestore"
	"github.com/tapparena/tapp/arena/internal/league/liveness"
	"github.com/tapparena/tapp/arena/internal/league/plan"
	"github.com/tapparena/tapp/arena/internal/match"
	"github.com/tapparena/tapp/arena/internal/rating"
)

// Defaults of a Runner (and of a league file).
const (
	DefaultConcurrency = 8
	DefaultLease       = 30 * time.Second
)

// Runner plays a league's jobs on this host.
type Runner struct {
	Store leaguestore.Store
	Seats match.Seats
	Log   *zap.Logger
	// Owner names this worker in the queue (default liveness.NewOwner()).
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
	// Admitted, when set, is told every change of the tables the admission control lets
	// this host play at once (for the progress line: "host overloaded: 200 → 48 tables").
	Admitted func(admission.Change)

	heldPlans func(held int) // tests: the match plans held after each job (export_test.go)
}

// Progress is how far a league is.
type Progress struct {
	Done    int  // deals stored, by every worker (as far as this one knows)
	Planned int  // deals of all planned rounds; 0 when the league has no round limit
	Rounds  int  // rounds scheduled
	Running int  // jobs this worker is playing
	Played  int  // deals this run has stored
	Paused  bool // the league is paused (tapp league pause): no new work starts
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
	// Admission is how the admission control ran this host's tables (package admission).
	Admission *domain.Admission `json:"admission,omitempty"`
}

// matchInfo is a match of a job in hand, with its schedule, read once.
type matchInfo struct {
	m      *domain.Match
	tables *match.Schedule
}

// activeJob is a job in hand: claimed, playing or waiting for its deals to be stored.
type activeJob struct {
	job    domain.Job
	cancel context.CancelFunc
	lost   bool // its lease is another worker's now
	played bool // every deal played; some may still wait for the store
}

// jobResult is how a job's play ended (nil: every deal is stored).
type jobResult struct {
	job domain.Job
	err error
}

// run is one run of a league by a Runner: its channels to the tables and the committer, and
// what it counts.
type run struct {
	r     *Runner
	p     *plan.Plan
	log   *zap.Logger
	owner string
	// admit hands out the tables in play: up to Concurrency, fewer while the host is
	// overloaded (package admission).
	admit  *admission.Controller
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
	paused    bool
	// resumed is closed when a paused league is resumed (nil while it is not paused): the
	// jobs in hand wait for it before they start a deal.
	resumed chan struct{}

	// Read by schedule only (one goroutine): the rounds before completeTo are complete, and
	// pairs sums the pairwise results of those before pairsTo (pairsBefore), and seats
	// counts each bot's seats in the matches of those before seatsTo (matchesBefore).
	completeTo int
	pairsTo    int
	pairs      []rating.PairResult
	seatsTo    int
	seats      map[string]int
	partial    *roundStoring // the round being stored, a part at a time (nil: none)

	// Of the plan, counted once (a deal file is read to count them): the jobs of a round
	// scheduled whole, and the deals of every round (0 without a round limit).
	jobsPerRound int
	planned      int
}

// Run plays the league p until every planned round is played, until the time limit until
// (zero: none), until ctx ends (Ctrl-C), or until the Goal is reached. It resumes whatever
// earlier runs (or other hosts) left. When it stops early, jobs in flight are given back and
// their finished deals stay stored; a run of the same plan later picks up from there. A
// failing store stops the league with a *StoreError.
func (r *Runner) Run(ctx context.Context, p *plan.Plan, until time.Time) (*Outcome, error) {
	r.setDefaults()
	if err := r.openLeague(ctx, p); err != nil {
		return nil, err
	}
	ru := r.newRun(p)
	if err := ru.rescue(ctx); err != nil {
		return nil, err
	}
	if err := ru.resume(ctx); err != nil {
		return nil, err
	}
	out, err := ru.mainLoop(ctx, until)
	if out != nil {
		if serr := ru.recordStatus(ctx, out); serr != nil && err == nil {
			err = serr
		}
	}
	return out, err
}

// setDefaults fills in the settings left zero.
func (r *Runner) setDefaults() {
	if r.Log == nil {
		r.Log = zap.NewNop()
	}
	if r.Owner == "" {
		r.Owner = liveness.NewOwner()
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
}

// openLeague stores the league unless it exists, refuses to run it with another plan than
// the stored one, and marks it running.
func (r *Runner) openLeague(ctx context.Context, p *plan.Plan) error {
	fp := p.Fingerprint()
	stored, err := r.Store.EnsureLeague(ctx, &domain.League{ID: p.League, Plan: fp})
	if err != nil {
		return storeErr(err)
	}
	if stored.Plan != fp {
		return fmt.Errorf("league %s exists with another plan (%s): run it with its original settings, or give the new league another name",
			p.League, plan.DiffFingerprints(stored.Plan, fp))
	}
	if stored.Status != domain.LeagueRunning {
		if err := r.Store.SetLeagueStatus(ctx, p.League, domain.LeagueRunning); err != nil {
			return storeErr(err)
		}
	}
	return nil
}

// newRun returns the state of one run of league p.
func (r *Runner) newRun(p *plan.Plan) *run {
	ru := &run{r: r, p: p, log: r.Log.With(zap.String("league", p.League)), owner: r.Owner,
		admit: admission.New(admission.Config{Tables: r.Concurrency, PerDecision: p.TimeControl.PerDecision, Log: r.Log.With(zap.String("league", p.League)),
			Changed: r.Admitted}),
		saving: make(chan struct{}, max(8*r.Concurrency, 3*maxCommit)),
		saves:  make(chan saveReq), playedJobs: make(chan int64), jobsPerRound: p.JobsPerRound()}
	if !p.Unbounded() {
		ru.planned = p.Rounds * p.DealsPerRound()
	}
	return ru
}

// resume reads how far the league is: the rounds scheduled and the deals stored.
func (ru *run) resume(ctx context.Context) error {
	scheduled, err := scheduledRounds(ctx, ru.r.Store, ru.p)
	if err != nil {
		return err
	}
	ru.scheduled = scheduled
	if ru.done, err = ru.r.Store.LeagueDeals(ctx, ru.p.League); err != nil {
		return storeErr(err)
	}
	if ru.done > 0 {
		ru.log.Info("resuming league", zap.Int("deals_stored", ru.done), zap.Int("rounds_scheduled", ru.scheduled))
	}
	return nil
}

// recordStatus stores how the run left the league: finished, or stopped (even while
// stopping on Ctrl-C).
func (ru *run) recordStatus(ctx context.Context, out *Outcome) error {
	status := domain.LeagueStopped
	if out.Finished {
		status = domain.LeagueFinished
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	return storeErr(ru.r.Store.SetLeagueStatus(sctx, ru.p.League, status))
}

// rescue frees the jobs of dead workers of this host.
func (ru *run) rescue(ctx context.Context) error {
	owners, err := ru.r.Store.LeaseOwners(ctx, ru.p.League)
	if err != nil {
		return storeErr(err)
	}
	if dead := liveness.DeadOwners(owners, ru.owner); len(dead) > 0 {
		n, err := ru.r.Store.Rescue(ctx, ru.p.League, dead)
		if err != nil {
			return storeErr(err)
		}
		ru.log.Info("took over the jobs of workers that are gone", zap.Strings("workers", dead), zap.Int("jobs", n))
	}
	return nil
}

// progress tells the Runner's Progress how far the league is.
func (ru *run) progress() {
	if ru.r.Progress == nil {
		return
	}
	ru.mu.Lock()
	pr := Progress{Done: ru.done, Rounds: ru.scheduled, Running: ru.running, Played: ru.played, Paused: ru.paused}
	ru.mu.Unlock()
	if !ru.p.Unbounded() {
		pr.Planned = ru.planned
	}
	ru.r.Progress(pr)
}
