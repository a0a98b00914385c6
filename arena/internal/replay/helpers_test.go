package replay

import (
	"testing"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/replay/replaytest"
)

// testClock is the fast clock the test matches are played under.
var testClock = replaytest.Clock

// ruleSets are the variants and table sizes every replay feature is tested on.
var ruleSets = replaytest.RuleSets

// play plays a seeded match of n deals among in-process answer functions (replaytest.Play)
// and returns its replay context and records.
func play(t testing.TB, rulesText string, n int, answers ...replaytest.Answers) (Match, []domain.DealRecord) {
	t.Helper()
	m, recs := replaytest.Play(t, rulesText, n, answers...)
	return MatchOf(m), recs
}

// clone deep-copies a record's slices, so a test can corrupt it alone.
func clone(rec domain.DealRecord) domain.DealRecord { return replaytest.Clone(rec) }
