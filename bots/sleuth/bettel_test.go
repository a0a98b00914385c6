package sleuth

import (
	"context"
	"testing"

	"github.com/tapparena/tapp/bots"
	"github.com/tapparena/tapp/bots/heuristic"
	"github.com/tapparena/tapp/bots/internal/bottest"
	"github.com/tapparena/tapp/engine"
)

// The bot's own Bettel is valued with a chance of surviving at least another seat's: its
// defenders do not see its hand. Where the heuristic bot names Bettel in modern round two
// at a table of four (a hand it won at the table two times in three in session 40's
// matches), the bot names Bettel too in most of them (35 of 60); with its Bettels valued by
// the points contracts' chances it named Bettel in 18.
func TestOwnBettelValuedByItsDefenders(t *testing.T) {
	t.Parallel()
	four, err := engine.ParseRuleSet("modern players=4 pack=36")
	if err != nil {
		t.Fatal(err)
	}
	h := heuristic.New()
	ctx := context.Background()
	var bettels []engine.Observation
	for _, obs := range bottest.Observations(t, four, 120, 31, func(int, *engine.Observation) bots.Bot { return h },
		func(_ int, obs *engine.Observation) bool { return obs.Decision == engine.DecideContract }) {
		a, err := h.Decide(ctx, &obs)
		if err != nil {
			t.Fatal(err)
		}
		if a.Kind == engine.ActBid && a.Contract == engine.Bettel {
			bettels = append(bettels, obs)
		}
	}
	if len(bettels) < 5 {
		t.Fatalf("the heuristic named Bettel only %d times", len(bettels))
	}
	b := New(Config{Samples: 8, Effort: 150_000, MaxTime: -1, Seed: 2})
	named := 0
	for i := range bettels {
		a, err := b.Decide(ctx, &bettels[i])
		if err != nil {
			t.Fatal(err)
		}
		if a.Kind == engine.ActBid && a.Contract == engine.Bettel {
			named++
		}
	}
	t.Logf("the bot named Bettel in %d of the %d hands the heuristic named it in", named, len(bettels))
	if 2*named < len(bettels) {
		t.Errorf("the bot named Bettel in %d of the %d hands the heuristic named it in", named, len(bettels))
	}
}
