package sleuth

import (
	"testing"

	"github.com/tapparena/tapp/engine"
)

// The bot does not consider a modern suit Solo on three trumps of eleven (it lost most of
// them, docs/STRENGTH.md), but does with four, and keeps the Heart Solo on three hearts.
func TestBidCandidatesSkipShortSuitSolo(t *testing.T) {
	t.Parallel()
	r := engine.DefaultRules(engine.Modern)
	has := func(hand string, want engine.Action) bool {
		t.Helper()
		h, err := engine.ParseCardSet(hand)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range bidCandidates(&r, h) {
			if p.name == want {
				return true
			}
		}
		return false
	}
	three := "CA CK CQ SA SK H6 H7 H8 D6 D7 D8" // three clubs, three hearts
	if has(three, engine.BidAction(engine.Solo, engine.Clubs)) {
		t.Error("a Solo in clubs with three clubs is a candidate")
	}
	if !has(three, engine.BidAction(engine.HeartSolo, engine.NoSuit)) {
		t.Error("a Heart Solo with three hearts is not a candidate")
	}
	four := "CA CK CQ CJ SA SK H6 H7 D6 D7 D8" // four clubs
	if !has(four, engine.BidAction(engine.Solo, engine.Clubs)) {
		t.Error("a Solo in clubs with four clubs is not a candidate")
	}
}
