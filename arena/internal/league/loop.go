package league

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.uber.org/zap"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/match"
)

// loop is the state of a run's main loop. The loop keeps jobs in hand: it schedules rounds
// as they may be planned, claims jobs and plays each in its own goroutine, renews their
// leases, gives back or fails those that end early, and stops at the time limit, on Ctrl-C,
// at the goal, when every planned round is played, or when the store fails. Only the loop's
// goroutine touches this state.
type loop struct {
	ru         *run
	ctx        context.Context // the caller's: it ends on Ctrl-C
	bg         context.Context // for bookkeeping that must happen while stopping
	jobCtx     context.Context // the jobs': cancelled to stop them
	cancelJobs context.CancelFunc

	active  map[int64]*activeJob
	results chan jobResult
	out     *Outcome
	fatal   error  // the store failure that stops the league
	stop    string // why no more jobs are claimed ("" while going on)
	// paused: the league is paused (tapp league pause): no job is claimed and no deal
	// started until it is resumed; the deals being played finish.
	paused bool

	// Jobs are claimed several at a time, up to maxJobs, once no more than refillAt of those
	// in hand still have deals to play; queueEmpty: the last claim got fewer than it asked
	// for, so the next waits for a new round or the next poll.
	maxJobs, refillAt int
	queueEmpty        bool

	interrupted        <-chan struct{}
	deadline, drainEnd <-chan time.Time
	lastGoal           time.Time
}

// mainLoop plays the league until it is finished or stopped (see the type loop).
func (ru *run) mainLoop(ctx context.Context, until time.Time) (*Outcome, error) {
	l := ru.newLoop(ctx, until)
	defer l.cancelJobs()
	defer ru.stopStoring()
	actx, stopAdmission := context.WithCancel(l.bg)
	defer stopAdmission()
	go ru.admit.Run(actx)
	committed := make(chan struct{})
	go func() { ru.commit(l.bg); close(committed) }()
	defer func() { close(ru.saves); <-committed }()
	heartbeat := time.NewTicker(ru.r.Lease / 3)
	defer heartbeat.Stop()
	poll := time.NewTicker(ru.r.Poll)
	defer poll.Stop()

	l.checkGoal(true)
	l.checkPaused()
	ru.progress()
	for {
		l.noticeInterrupt()
		l.scheduleRounds()
		l.claimJobs()
		if l.over() {
			return l.finish()
		}
		l.waitForEvent(heartbeat.C, poll.C)
	}
}

// newLoop returns the state of a main loop that runs until ctx ends or the time limit until.
func (ru *run) newLoop(ctx context.Context, until time.Time) *loop {
	bg := context.WithoutCancel(ctx)
	jobCtx, cancelJobs := context.WithCancel(bg)
	// Enough jobs that every table has work while new jobs are being claimed (a claim is a
	// write transaction: it may wait for the committer's). Jobs are claimed a score or so at
	// a time, once half of those in hand have played all their deals: a claim, with its commit
	// and fsync, costs about as much as storing a dozen deals, so fewer and larger claims
	// leave more of the CPU to play.
	tablesPerJob := ru.p.Rules.Players
	if ru.p.Duplicate {
		tablesPerJob = len(match.Seatings(ru.p.Rules.Players))
	}
	perSlots := (ru.r.Concurrency + tablesPerJob - 1) / tablesPerJob
	l := &loop{ru: ru, ctx: ctx, bg: bg, jobCtx: jobCtx, cancelJobs: cancelJobs,
		active: map[int64]*activeJob{}, results: make(chan jobResult), out: &Outcome{},
		maxJobs: 16*perSlots + 1, refillAt: 8 * perSlots, interrupted: ctx.Done()}
	if !until.IsZero() {
		l.deadline = time.After(time.Until(until))
	}
	return l
}

// stopClaiming stops claiming jobs, for the first reason given.
func (l *loop) stopClaiming(why string) {
	if l.stop == "" {
		l.stop = why
	}
}

// storeFailed stops the league for the (first) failure of the store.
func (l *loop) storeFailed(err error) {
	if l.fatal == nil {
		l.fatal = err
	}
	l.stopClaiming("store failed")
}

// checkGoal asks the Runner's Goal whether the league is done (at most once a second unless
// forced) and stops the jobs in flight when it is.
func (l *loop) checkGoal(force bool) {
	r := l.ru.r
	if r.Goal == nil || l.stop != "" || l.ctx.Err() != nil || (!force && time.Since(l.lastGoal) < time.Second) {
		return
	}
	l.lastGoal = time.Now()
	reached, err := r.Goal(l.ctx)
	switch {
	case err != nil && l.ctx.Err() != nil:
		// Interrupted while the goal was read: the interrupt, not the store, stops the league.
	case err != nil:
		l.storeFailed(storeErr(err))
		l.cancelJobs()
	case reached:
		l.ru.log.Info("goal reached: stopping the league")
		l.stopClaiming("goal reached")
		l.cancelJobs()
	}
}

// noticeInterrupt stops the jobs in flight, once, when ctx has ended (Ctrl-C).
func (l *loop) noticeInterrupt() {
	if l.ctx.Err() == nil || l.interrupted == nil {
		return
	}
	l.interrupted = nil
	l.ru.log.Info("interrupted: stopping; finished deals are kept", zap.Int("jobs_in_flight", len(l.active)))
	l.stopClaiming("interrupted")
	l.cancelJobs()
}

// scheduleRounds stores the rounds that may be planned now; a new round has jobs to claim.
func (l *loop) scheduleRounds() {
	if l.stop != "" {
		return
	}
	added, err := l.ru.schedule(l.ctx)
	if err != nil && l.ctx.Err() == nil {
		l.storeFailed(err)
	}
	if added {
		l.queueEmpty = false
	}
}

// claimJobs claims jobs once half of those in hand have played their deals, several at a
// time; after a claim found the queue empty, again only when a round was scheduled or at
// the next poll (other workers' jobs may have become available).
func (l *loop) claimJobs() {
	playing := l.playing()
	if l.stop != "" || l.paused || l.queueEmpty || playing > l.refillAt {
		return
	}
	want := l.maxJobs - playing
	r := l.ru.r
	jobs, err := r.Store.Claim(l.ctx, l.ru.p.League, l.ru.owner, want, r.Lease)
	l.queueEmpty = len(jobs) < want
	if err != nil && l.ctx.Err() == nil {
		l.storeFailed(storeErr(err))
	}
	for _, j := range jobs {
		l.startJob(j)
	}
}

// playing counts the jobs in hand that still have deals to play.
func (l *loop) playing() int {
	n := 0
	for _, aj := range l.active {
		if !aj.played {
			n++
		}
	}
	return n
}

// startJob plays a claimed job in its own goroutine; its end arrives on l.results.
func (l *loop) startJob(j domain.Job) {
	if j.Attempts > 1 {
		l.ru.log.Info("taking over a job", zap.Int64("job", j.ID), zap.String("match", j.MatchID),
			zap.Int("group", j.FirstGroup), zap.Int("attempt", j.Attempts))
	}
	jctx, cancel := context.WithCancel(l.jobCtx)
	l.active[j.ID] = &activeJob{job: j, cancel: cancel}
	l.countRunning()
	go func() { l.results <- jobResult{job: j, err: l.ru.play(jctx, j)} }()
}

// countRunning publishes the number of jobs in hand (for Progress).
func (l *loop) countRunning() {
	l.ru.mu.Lock()
	l.ru.running = len(l.active)
	l.ru.mu.Unlock()
}

// over reports whether the loop ends: no job is in hand, and the league is stopping or
// every planned round is played.
func (l *loop) over() bool {
	if len(l.active) > 0 {
		return false
	}
	if l.stop != "" || l.fatal != nil {
		return true
	}
	finished, err := l.ru.finished(l.ctx)
	if err != nil {
		if l.ctx.Err() == nil {
			l.fatal = err
		} else {
			l.stopClaiming("interrupted")
		}
		return true
	}
	l.out.Finished = finished
	return finished
}

// waitForEvent waits for the next thing to do and does it. While a round is being stored
// it does not wait: the loop stores its next part (between the events that are ready).
func (l *loop) waitForEvent(heartbeat, poll <-chan time.Time) {
	var storeMore <-chan struct{}
	if l.stop == "" && l.ru.roundPending() {
		storeMore = closedChan
	}
	select {
	case <-storeMore:
	case id := <-l.ru.playedJobs:
		if aj := l.active[id]; aj != nil {
			aj.played = true // it needs no table any more: new jobs may be claimed
		}
	case res := <-l.results:
		l.jobEnded(res)
	case <-heartbeat:
		l.renewLeases()
	case <-poll:
		l.pollForWork()
	case <-l.deadline:
		l.timeLimitReached()
	case <-l.drainEnd:
		l.drainEnd = nil
		l.ru.log.Info("stopping the jobs still in flight; their finished deals are kept")
		l.cancelJobs()
	case <-l.interrupted:
		// handled at the top of the loop (noticeInterrupt)
	}
}

// closedChan is always ready.
var closedChan = func() chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}()

// jobEnded takes a job out of hand: done (then the goal may be reached), lost to another
// worker, given back when stopped, or failed.
func (l *loop) jobEnded(res jobResult) {
	aj := l.active[res.job.ID]
	delete(l.active, res.job.ID)
	aj.cancel()
	l.countRunning()
	switch err := res.err; {
	case err == nil:
		l.checkGoal(false)
	case aj.lost:
		// Another worker holds it now; nothing to give back.
	case errors.Is(err, context.Canceled):
		l.giveBack(res.job)
	case isStoreErr(err):
		l.storeFailed(err)
		l.cancelJobs()
		l.giveBack(res.job)
	default:
		l.jobFailed(res.job, err)
	}
}

// giveBack releases a job unfinished; if that fails, it is taken over when its lease expires.
func (l *loop) giveBack(j domain.Job) {
	rctx, cancel := context.WithTimeout(l.bg, 10*time.Second)
	defer cancel()
	if err := l.ru.r.Store.Release(rctx, l.ru.owner, []int64{j.ID}); err != nil {
		l.ru.log.Warn("could not give a job back; it is taken over when its lease expires",
			zap.Int64("job", j.ID), zap.Error(err))
	}
}

// jobFailed records a job's error: it is tried again, or given up after MaxAttempts.
func (l *loop) jobFailed(j domain.Job, err error) {
	r := l.ru.r
	l.ru.log.Warn("job failed", zap.Int64("job", j.ID), zap.String("match", j.MatchID),
		zap.Int("group", j.FirstGroup), zap.Int("attempt", j.Attempts), zap.Error(err))
	if ferr := r.Store.Fail(l.bg, l.ru.owner, j.ID, err.Error(), r.MaxAttempts); ferr != nil && l.fatal == nil {
		l.storeFailed(storeErr(ferr))
		l.cancelJobs()
	}
	if j.Attempts >= r.MaxAttempts {
		l.out.Failed++
	} else {
		l.queueEmpty = false // it is available again
	}
}

// renewLeases is the heartbeat: it renews the leases of the jobs in hand and stops those
// another worker holds now.
func (l *loop) renewLeases() {
	ids := make([]int64, 0, len(l.active))
	for id := range l.active {
		ids = append(ids, id)
	}
	lost, err := l.ru.r.Store.Extend(l.bg, l.ru.owner, ids, l.ru.r.Lease)
	if err != nil {
		l.ru.log.Warn("could not renew job leases", zap.Error(err))
	}
	for _, id := range lost {
		if aj := l.active[id]; aj != nil && !aj.lost {
			l.ru.log.Warn("lost the lease of a job: another worker has it", zap.Int64("job", id))
			aj.lost = true
			aj.cancel()
		}
	}
}

// pollForWork looks for work again: other workers' jobs may have become available, and the
// jobs of workers of this host that are gone are freed.
func (l *loop) pollForWork() {
	l.queueEmpty = false
	l.checkPaused()
	if l.stop != "" || len(l.active) >= l.maxJobs {
		return
	}
	if err := l.ru.rescue(l.ctx); err != nil && l.ctx.Err() == nil {
		l.storeFailed(err)
	}
}

// checkPaused reads whether the league is paused (tapp league pause, or the dashboard) and
// says so when that changes: a paused league claims no jobs and starts no deal (the jobs in
// hand keep their leases and wait), the deals being played finish, its bots stay connected.
func (l *loop) checkPaused() {
	paused, err := l.pausedNow()
	if err != nil {
		if l.ctx.Err() == nil {
			l.ru.log.Warn("could not read whether the league is paused", zap.Error(err))
		}
		return
	}
	if paused == l.paused {
		return
	}
	l.paused = paused
	l.ru.mu.Lock()
	l.ru.paused = paused
	if l.paused {
		l.ru.resumed = make(chan struct{})
	} else {
		close(l.ru.resumed)
		l.ru.resumed = nil
	}
	l.ru.mu.Unlock()
	if l.paused {
		l.ru.log.Info("league paused: the deals being played finish, no new deal starts; `tapp league resume` continues it",
			zap.Int("jobs_in_hand", len(l.active)))
	} else {
		l.ru.log.Info("league resumed")
	}
	l.ru.progress()
}

// pausedNow reads whether the league is paused: itself, or the standing ladder it is part
// of (an epoch or a gauntlet of it), which a pause of the ladder pauses as a whole.
func (l *loop) pausedNow() (bool, error) {
	lg, err := l.ru.r.Store.GetLeague(l.ctx, l.ru.p.League)
	if err != nil || lg.Paused || l.ru.p.Ladder == "" {
		return err == nil && lg.Paused, err
	}
	ladder, err := l.ru.r.Store.GetLeague(l.ctx, l.ru.p.Ladder)
	if errors.Is(err, domain.ErrNotFound) {
		return false, nil
	}
	return err == nil && ladder.Paused, err
}

// timeLimitReached stops claiming and gives the jobs in flight Drain to finish.
func (l *loop) timeLimitReached() {
	l.deadline = nil
	l.ru.log.Info("time limit reached: finishing the jobs in flight", zap.Int("jobs", len(l.active)),
		zap.Duration("at_most", l.ru.r.Drain))
	l.stopClaiming("time limit")
	l.drainEnd = time.After(l.ru.r.Drain)
}

// finish returns the run's outcome, and the store failure that stopped it.
func (l *loop) finish() (*Outcome, error) {
	ru, out := l.ru, l.out
	ru.mu.Lock()
	out.Played = ru.played
	out.Decisions, out.Fallbacks = ru.decisions, ru.fallbacks
	ru.mu.Unlock()
	adm := ru.admit.Summary()
	out.Admission = &adm
	if adm.Overloaded() {
		ru.log.Warn("the host was overloaded: the arena held deals back so that no bot lost time",
			zap.Int("tables_asked", adm.Asked), zap.Int("fewest", adm.Fewest), zap.Float64("mean_in_flight", adm.Mean),
			zap.Duration("paused", adm.Paused))
	}
	if !out.Finished {
		out.Stopped = l.stop
	}
	ru.progress()
	if l.fatal != nil {
		return out, fmt.Errorf("league %s stopped: %w; every finished deal is stored: fix the cause and run the same command to resume", ru.p.League, l.fatal)
	}
	return out, nil
}
