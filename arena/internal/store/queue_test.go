package store

import (
	"testing"

	"github.com/tapparena/tapp/arena/internal/league/queuetest"
)

// The SQL queue keeps the league queue's contract on SQLite and PostgreSQL, the same suite
// the in-memory queue passes (arena/internal/store/memstore).
func TestQueueConformance(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		queuetest.Run(t, func(t *testing.T) queuetest.Store { return openTest(t, b.newDSN(t)) })
	})
}
