// Package storetest is the contract every store of the arena keeps, as one test suite: bots,
// matches, deals with their decision records, results, the readers' views (deal summaries,
// analyses, leagues), the league's job queue with its running totals, the leaderboard's sums
// kept as deals are stored, and hosted bots' submissions. The memory store and the SQL store
// on SQLite and PostgreSQL run it from their own tests, and a new store must pass it:
//
//	storetest.Run(t, func(t *testing.T) storetest.Store { return openMyStore(t) })
//
// What a store may do differently is written down here, once: it keeps times to the
// microsecond at least (the suite compares them at that), a record read back never says
// that its requests were built from the state (DecisionRecord.SentFromState), and a store
// that rebuilds the requests on reading says so with the digest of the requests as sent
// (DealRecord.SentDigest). Everything else reads back as it was saved.
package storetest

import (
	"context"
	"testing"

	"github.com/tapparena/tapp/arena/internal/board"
	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/league/leaguestore"
)

// Store is everything the suite checks: the arena's store, the league's, what the readers
// read (replays and verification: Deal; analyses: DealSummaries and Analyses; the dashboard:
// DealSummaries and ListLeagues), and the leaderboard's kept sums with the rating history
// (board.HistoryStore). A store that
// also stores several deals in one transaction (match.BatchSaver) is checked for that too.
type Store interface {
	leaguestore.Store
	board.HistoryStore
	domain.SubmissionStore
	// Jobs lists a league's jobs by id, each with Stored set.
	Jobs(ctx context.Context, league string) ([]domain.Job, error)
	// Chain returns a match's chain as the store keeps it (dealchain).
	Chain(ctx context.Context, matchID string) (*domain.Chain, error)
	// RoundJobs lists the jobs of the league round a match belongs to, by id (none for a
	// stand-alone match), without Stored.
	RoundJobs(ctx context.Context, matchID string) ([]domain.Job, error)
	// ListLeagues lists every league, the newest first.
	ListLeagues(ctx context.Context) ([]domain.League, error)
	// DealSummaries is Deals without each decision's Sent.
	DealSummaries(ctx context.Context, matchID string) ([]domain.DealRecord, error)
	// SaveAnalysis stores (or replaces) one stored deal's analysis under a method;
	// Analyses returns a match's analyses under a method, by deal number.
	SaveAnalysis(ctx context.Context, matchID string, number int, method string, body []byte) error
	Analyses(ctx context.Context, matchID, method string) (map[int][]byte, error)
	// DealAnalysis is one deal's analysis under a method (domain.ErrNotFound: none).
	DealAnalysis(ctx context.Context, matchID string, number int, method string) ([]byte, error)
	// LeagueBots returns a league's running totals per bot, by name; SetLeaguePaused pauses
	// or resumes a league (domain.League.Paused).
	LeagueBots(ctx context.Context, league string) ([]domain.LeagueBot, error)
	SetLeaguePaused(ctx context.Context, id string, paused bool) error
	// What the dashboard reads a page at a time: a match's span (count, first and last deal
	// number), a page of its deal summaries and whether more follow, its net over all its
	// deals, and a bounded rating history (board.EloHistorySource).
	DealSpan(ctx context.Context, matchID string) (n, first, last int, err error)
	DealSummaryPage(ctx context.Context, matchID string, first, limit int) ([]domain.DealRecord, bool, error)
	MatchNets(ctx context.Context, matchID string) (map[string]int64, error)
	// ScoreBefore: each bot's net over a match's stored deals numbered below a number, and
	// how many they are (the replay's running score).
	ScoreBefore(ctx context.Context, matchID string, number int) (map[string]int64, int, error)
	board.EloHistorySource
}

// test is one test of the suite, run on a fresh store.
type test struct {
	name string
	run  func(t *testing.T, s Store)
}

// tests lists the suite, by concept: one file each.
var tests = []test{
	{"Bots", testBots},
	{"Matches", testMatches},
	{"ListMatches", testListMatches},
	{"SaveDealRoundTrip", testSaveDealRoundTrip},
	{"SaveDealTwiceIsConflict", testSaveDealTwiceIsConflict},
	{"BadDealsAreRefusedWhole", testBadDealsAreRefusedWhole},
	{"SaveDealsStoresABatchWholeOrNotAtAll", testSaveDealsBatch},
	{"PlayedDealsReadBackExactly", testPlayedDeals},
	{"DealsAreChainedInTheOrderStored", testChain},
	{"Results", testResults},
	{"ConcurrentWriters", testConcurrentWriters},
	{"DealSummariesAreDealsWithoutRequests", testDealSummaries},
	{"AnalysesRoundTripPerMethodAndReplace", testAnalyses},
	{"DealPagesSpanAndNet", testDealPages},
	{"ScoreBeforeADeal", testScoreBefore},
	{"EloHistoryIsTheLedgerSampled", testEloHistory},
	{"LeagueScheduleIsIdempotent", testLeagueSchedule},
	{"Queue/LeasesHeartbeatsAndRescue", testLeases},
	{"Queue/SaveJobDealCompletesJobAndMatchOnce", testCompletion},
	{"Queue/ClaimCountsStoredDeals", testClaimCountsStoredDeals},
	{"Queue/ConcurrentClaimsNeverShareAJob", testConcurrentClaims},
	{"Queue/BatchWithABadDealStoresNothing", testBadBatch},
	{"Queue/RoundJobsAreTheRoundsOfEveryMatch", testRoundJobs},
	{"Totals/LeagueUnitsAreRunningTotals", testLeagueUnits},
	{"Totals/LeagueSeatsCountAPositionRange", testLeagueSeats},
	{"Totals/LeagueBotsAndMatchCounts", testLeagueBotsAndMatchCounts},
	{"LeaguePauseAndResume", testLeaguePause},
	{"Ratings/KeptSumsAreTheRawResults", testRatingSumsAreTheRawResults},
	{"Ratings/TheBoardReadsNoDeals", testRatingSumsReadNoDeals},
	{"Ratings/RoleTotalsAsTheWholeBoardHasThem", testRatingRoleTotals},
	{"Ratings/HistoryOverTheLeaguesClock", testRatingHistory},
	{"Ratings/TheSampleOfSourcesIsBounded", testRatingSampleIsBounded},
	{"Submissions", testSubmissions},
	{"Submissions/ConcurrentVersionsAreNumberedOnce", testConcurrentSubmissions},
}

// Run runs the suite; open returns a fresh, empty store for each test (closed by the caller's
// cleanup, if it needs closing).
func Run(t *testing.T, open func(t *testing.T) Store) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.run(t, open(t))
		})
	}
}
