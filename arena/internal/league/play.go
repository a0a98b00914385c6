package league

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/match"
	"github.com/tapparena/tapp/arena/internal/referee"
	"github.com/tapparena/tapp/engine"
)

// matchInfo reads a match and its tables (plans.go keeps them while its jobs play it).
func (ru *run) matchInfo(ctx context.Context, id string) (*matchInfo, error) {
	m, err := ru.r.Store.GetMatch(ctx, id)
	if err != nil {
		return nil, storeErr(err)
	}
	tables, err := match.NewSchedule(m.Spec)
	if err != nil {
		return nil, fmt.Errorf("match %s: %w", id, err)
	}
	return &matchInfo{m: m, tables: tables}, nil
}

// play plays the missing deals of a job, each stored as it finishes. The bank and strikes are
// each game's (the referee's), or with a per-match clock the job's: a job is the unit a
// worker holds, and a bot that dies loses no more than the jobs it was playing.
func (ru *run) play(ctx context.Context, j domain.Job) error {
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
	todo, err := ru.missingTables(ctx, j, mi.tables)
	if err != nil {
		return canceledOr(ctx, err)
	}
	if len(todo) == 0 { // every deal is stored: only the job's completion was missing
		if _, err := ru.r.Store.CompleteJob(ctx, j.ID); err != nil {
			return canceledOr(ctx, storeErr(err))
		}
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	firstErr := ru.playTables(ctx, cancel, j, mi.m, todo)
	return jobError(ctx, firstErr)
}

// missingTables returns the tables of job j that have no stored deal yet (all of them unless
// the job was started before).
func (ru *run) missingTables(ctx context.Context, j domain.Job, tables *match.Schedule) ([]match.Table, error) {
	mine := tables.GroupTables(j.FirstGroup, j.Groups)
	if j.Stored == 0 || len(mine) == 0 {
		return mine, nil
	}
	first, last := mine[0].Number, mine[len(mine)-1].Number
	numbers, err := ru.r.Store.DealNumbersBetween(ctx, j.MatchID, first, last)
	if err != nil {
		return nil, storeErr(err)
	}
	stored := map[int]bool{}
	for _, n := range numbers {
		stored[n] = true
	}
	var todo []match.Table
	for _, t := range mine {
		if !stored[t.Number] {
			todo = append(todo, t)
		}
	}
	return todo, nil
}

// playTables plays the tables of job j, each in its own goroutine as table slots come free,
// stores each deal as it finishes, and returns the first error (cancelling the others).
func (ru *run) playTables(ctx context.Context, cancel context.CancelFunc, j domain.Job, m *domain.Match, todo []match.Table) error {
	clocks := map[string]*referee.Clock{}
	for _, b := range m.Spec.Bots {
		clocks[b] = referee.NewClock(m.Spec.TimeControl)
	}
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
		toPlay   = len(todo)
	)
	for _, t := range todo {
		tableFree, ok := ru.takeTableSlot(ctx)
		if !ok {
			break
		}
		wg.Add(1)
		go func(t match.Table) {
			defer wg.Done()
			rec, err := ru.playTable(ctx, m, t, clocks)
			// The table's slot is free as soon as the deal is over: the next deal starts while
			// this one is being stored (at most max(8×Concurrency, 3 × maxCommit) deals wait for the store).
			tableFree()
			mu.Lock()
			toPlay--
			last := toPlay == 0
			mu.Unlock()
			if last {
				ru.tellPlayed(ctx, j.ID)
			}
			if err == nil {
				err = ru.saveWaiting(ctx, rec, j.ID)
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
	return firstErr
}

// takeTableSlot waits for a free table (as the admission control allows) and returns what
// frees it; it reports false (holding none) when ctx ends first.
func (ru *run) takeTableSlot(ctx context.Context) (func(), bool) {
	release, err := ru.admit.Acquire(ctx)
	if err != nil {
		return nil, false
	}
	if ctx.Err() != nil { // ended meanwhile: give the slot back for the other jobs
		release()
		return nil, false
	}
	return release, true
}

// tellPlayed tells the main loop that job id has played all its deals.
func (ru *run) tellPlayed(ctx context.Context, id int64) {
	select {
	case ru.playedJobs <- id:
	case <-ctx.Done():
	}
}

// saveWaiting stores a deal, holding one of the slots of the deals that wait for the store.
func (ru *run) saveWaiting(ctx context.Context, rec *domain.DealRecord, jobID int64) error {
	ru.saving <- struct{}{}
	defer func() { <-ru.saving }()
	return ru.save(ctx, rec, jobID)
}

// jobError is what a job that played until ctx ended or firstErr reports: a store failure as
// such, context.Canceled when it was stopped, else its first error.
func jobError(ctx context.Context, firstErr error) error {
	if isStoreErr(firstErr) {
		return firstErr
	}
	if ctx.Err() != nil && (firstErr == nil || errors.Is(firstErr, referee.ErrAborted) || errors.Is(firstErr, context.Canceled)) {
		return context.Canceled
	}
	return firstErr
}

// playTable seats the bots and plays one deal.
func (ru *run) playTable(ctx context.Context, m *domain.Match, t match.Table, clocks map[string]*referee.Clock) (*domain.DealRecord, error) {
	players, release, err := match.SeatPlayers(ctx, ru.r.Seats, t.Seating, clocks)
	if err != nil {
		return nil, err
	}
	defer release()
	return referee.Play(ctx, &referee.Table{
		MatchID: m.ID, Number: t.Number, Group: t.Group, Rules: m.Spec.Rules, Deal: t.Deal,
		Options: engine.Options{}, Players: players, TimeControl: match.TableClock(m.Spec), Commitment: m.Commitment,
		Decided: ru.admit.ObserveDecision,
	})
}
