package league

import (
	"context"
	"errors"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/match"
)

// saveReq asks the committer to store a finished deal.
type saveReq struct {
	item domain.JobDeal
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
		items := make([]domain.JobDeal, len(batch))
		for i, r := range batch {
			items[i] = r.item
		}
		ctx, cancel := context.WithTimeout(bg, time.Minute)
		err := ru.r.Store.SaveJobDeals(ctx, items)
		if errors.Is(err, domain.ErrConflict) && len(batch) > 1 {
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
func (ru *run) noTablePlaying() bool { return ru.admit.InFlight() == 0 }

// save stores a finished deal of job jobID (completing the job with its last deal).
func (ru *run) save(ctx context.Context, rec *domain.DealRecord, jobID int64) error {
	// A finished deal is stored even when the league is stopping: it is kept.
	done := make(chan error, 1)
	ru.saves <- saveReq{item: domain.JobDeal{Deal: rec, JobID: jobID}, done: done}
	err := <-done
	if errors.Is(err, domain.ErrConflict) {
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
