// Package leaguestore is the contract between a league's runner and its storage: the job
// queue with leases (Queue) and the league's records and running totals (Store). Back ends:
// arena/internal/store (SQLite and PostgreSQL) and arena/internal/store/memstore; all of
// them pass the stores' conformance suite, arena/internal/store/storetest.
//
// # Units of work and the queue
//
// Every match of a league is split into jobs: one duplicate group (a deal source under every
// seating) in duplicate play, one round of dealers otherwise. A worker claims jobs from the
// Queue with a lease, renews the lease by heartbeats while it plays, and stores each
// finished deal in its own transaction; the transaction that stores a job's last deal also
// marks the job done (and the match finished with its last job). A worker that dies stops
// renewing; its jobs are claimed again when their lease expires (or at once, when a worker
// on the same host finds the owner's process gone), and their missing deals are replayed
// from their seeds: finished deals are never played twice, and a deal can be stored only
// once (the store refuses a second copy).
//
// The queue is a table of the arena's own schema (arena/internal/store: league_jobs) rather
// than River: it runs the same on the SQLite default and on PostgreSQL (claims use FOR UPDATE
// SKIP LOCKED there), and completion shares the transaction of the result without a second
// driver.
package leaguestore

import (
	"context"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/rating"
)

// Queue is a league's job queue with leases. Implementations: arena/internal/store
// (SQLite and PostgreSQL) and memstore.
type Queue interface {
	// Claim leases up to max jobs of the league to owner for lease: available ones, and
	// those whose lease has expired. It returns them by id (none when there is no work),
	// each with Stored set: the runner looks up a job's stored deals only when it has some.
	Claim(ctx context.Context, league, owner string, max int, lease time.Duration) ([]domain.Job, error)
	// Extend renews owner's leases (the heartbeat) and returns the ids it no longer holds: held
	// by another worker, or available again; a job done meanwhile is not lost.
	Extend(ctx context.Context, owner string, ids []int64, lease time.Duration) (lost []int64, err error)
	// Release gives jobs back unfinished, without counting the attempt.
	Release(ctx context.Context, owner string, ids []int64) error
	// Fail records an error: the job is available again, or failed after maxAttempts claims.
	Fail(ctx context.Context, owner string, id int64, msg string, maxAttempts int) error
	// SaveJobDeal stores a finished deal of a job and, in the same transaction, completes the
	// job when all its deals are stored. It reports whether the job is done.
	SaveJobDeal(ctx context.Context, d *domain.DealRecord, jobID int64) (done bool, err error)
	// SaveJobDeals is SaveJobDeal for several deals in one transaction (group commit): all of
	// them are stored, or none (domain.ErrConflict if one was stored already).
	SaveJobDeals(ctx context.Context, items []domain.JobDeal) error
	// CompleteJob marks a job done if all its deals are stored.
	CompleteJob(ctx context.Context, jobID int64) (bool, error)
	// RoundCounts counts the league's jobs by round and state.
	RoundCounts(ctx context.Context, league string) ([]domain.RoundCounts, error)
	// RoundCountsFrom is RoundCounts for the rounds from round from on.
	RoundCountsFrom(ctx context.Context, league string, from int) ([]domain.RoundCounts, error)
	// LeagueJobTotals returns the deals of the league's scheduled jobs (a running total), the
	// jobs leased now and whether a job waits for a worker, at a cost that does not grow with
	// the league's jobs (what a running league asks while it waits for other workers, and
	// what its progress page shows).
	LeagueJobTotals(ctx context.Context, league string) (domain.LeagueJobTotals, error)
	// LeaseOwners lists the owners holding leases in the league; Rescue frees the jobs of
	// owners known to be dead.
	LeaseOwners(ctx context.Context, league string) ([]string, error)
	Rescue(ctx context.Context, league string, owners []string) (int, error)
}

// Store is what a league needs from storage: the arena's store, the league's records and its
// queue.
type Store interface {
	domain.Store
	Queue
	// EnsureLeague stores the league unless it exists and returns the stored one.
	EnsureLeague(ctx context.Context, l *domain.League) (*domain.League, error)
	GetLeague(ctx context.Context, id string) (*domain.League, error)
	SetLeagueStatus(ctx context.Context, id string, status domain.LeagueStatus) error
	// ScheduleRound stores a round's matches, their places and their jobs in one
	// transaction; it is idempotent.
	ScheduleRound(ctx context.Context, places []domain.LeagueMatch, matches []*domain.Match, jobs []domain.Job) error
	LeagueMatches(ctx context.Context, league string) ([]domain.LeagueMatch, error)
	// LeagueSeats counts the seats each bot holds in the league's matches at schedule
	// positions (LeagueMatch.Seq) from from (inclusive) to to (exclusive): what the ladder's
	// fairness reads of the rounds it has not counted yet, costing rows in proportion to
	// those matches, not to the league's.
	LeagueSeats(ctx context.Context, league string, from, to int) (map[string]int, error)
	// LeagueDeals counts the deals stored for the league (a running total, not a count).
	LeagueDeals(ctx context.Context, league string) (int, error)
	// LadderPairs sums the pairwise results (the higher net of a complete unit wins, equal
	// nets draw) of the league's rounds from from (inclusive) to to (exclusive), per pair of
	// bots (A < B, sorted): running totals kept as deals are stored, so reading them costs
	// rows in proportion to rounds × pairs, not deals.
	LadderPairs(ctx context.Context, league string, from, to int) ([]rating.PairResult, error)
	// DealNumbersBetween returns the numbers from first to last (inclusive) of the match's
	// stored deals, ascending: what a job finds done already, without reading the whole match.
	DealNumbersBetween(ctx context.Context, matchID string, first, last int) ([]int, error)
	// LeagueUnits returns the league's units (a match's deal source: one deal, or a duplicate
	// group) with deals stored in the rounds from round from on, by round, match and group:
	// running totals kept as deals are stored, so reading them costs rows in proportion to
	// the units of those rounds, not to the league's deals (what an SPRT reads as it goes).
	LeagueUnits(ctx context.Context, league string, from int) ([]domain.LeagueUnit, error)
}
