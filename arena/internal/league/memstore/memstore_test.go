package memstore_test

import (
	"testing"

	"github.com/tapparena/tapp/arena/internal/league/memstore"
	"github.com/tapparena/tapp/arena/internal/league/queuetest"
)

// The in-memory queue keeps the contract of the SQL ones (arena/store runs the same suite).
func TestMemoryQueueConformance(t *testing.T) {
	t.Parallel()
	queuetest.Run(t, func(*testing.T) queuetest.Store { return memstore.New() })
}
