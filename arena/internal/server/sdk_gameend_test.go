package server_test

import (
	"sync"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/referee"
	"github.com/tapparena/tapp/bots/random"
	"github.com/tapparena/tapp/bots/sdk"
	"github.com/tapparena/tapp/engine"
)

// A Go bot is told how each of its games ended in engine types: the settlement the arena
// stored and the deal as dealt, for every game it sat in.
func TestSDKGameEndedIsTheStoredOutcomeAndDeal(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	ends := map[string]sdk.GameEnd{}
	matchID, deals := runSDKMatch(t, random.New(3), time.Second, 4, 2, func(cfg *sdk.Config) {
		cfg.GameEnded = func(end sdk.GameEnd) {
			mu.Lock()
			defer mu.Unlock()
			ends[end.GameID] = end
		}
	})
	// The match is over when its last deal is stored; the last GameEnded may still be on its way.
	deadline := time.Now().Add(10 * time.Second)
	for {
		mu.Lock()
		n := len(ends)
		mu.Unlock()
		if n >= len(deals) || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(ends) != len(deals) {
		t.Fatalf("GameEnded called for %d games, want %d: %v", len(ends), len(deals), ends)
	}
	for _, d := range deals {
		id := referee.GameID(matchID, d.Number)
		end, ok := ends[id]
		switch {
		case !ok:
			t.Errorf("deal %d: no GameEnded for %s", d.Number, id)
		case end.Aborted || end.Players != 3:
			t.Errorf("deal %d: aborted %v, %d players, want a finished game of 3", d.Number, end.Aborted, end.Players)
		case end.Outcome != d.Outcome:
			t.Errorf("deal %d: outcome\n%+v\nwant the stored\n%+v", d.Number, end.Outcome, d.Outcome)
		case end.Deal != d.Deal:
			t.Errorf("deal %d: deal %s, want %s", d.Number, end.Deal.Format(engine.DefaultRules(engine.Modern)), d.Deal.Format(engine.DefaultRules(engine.Modern)))
		case end.Outcome.Contract != engine.Frage && end.Discarded != 0:
			t.Errorf("deal %d: %s laid away %s outside Frage", d.Number, end.Outcome.Contract, end.Discarded)
		}
	}
}
