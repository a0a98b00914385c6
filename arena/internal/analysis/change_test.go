package analysis

import (
	"testing"
	"time"

	"github.com/tapparena/tapp/engine"
)

// A change at a Ramsch card is worth the card points the new card keeps out of the seat's
// tricks, as the paranoid card values (CardValues) give them: ramschPair, which the first
// tricks of a diff's Ramsch are valued with, agrees with them where both apply.
func TestRamschPairAgreesWithCardValues(t *testing.T) {
	t.Parallel()
	r := engine.DefaultRules(engine.Modern)
	a := NewAnalyzer(Options{})
	checked := 0
	for n := 0; n < 40 && checked < 8; n++ {
		play := func(st *engine.State, obs *engine.Observation) engine.Action {
			if st.Decision() == engine.DecideCard && r.HandSize()-st.TricksPlayed() <= 3 && st.LegalCards().Len() >= 2 {
				vals, ok, err := a.CardValues(st)
				if err != nil || !ok {
					t.Fatalf("CardValues: %v, %v", ok, err)
				}
				then, now := vals[0], vals[len(vals)-1]
				gain, valued, err := a.ramschPair(st, then.Card, now.Card, time.Minute)
				if err != nil || !valued {
					t.Fatalf("ramschPair: %v, %v", valued, err)
				}
				if want := float64(then.Value - now.Value); gain != want {
					t.Errorf("deal %d: %s instead of %s gains %v card points; the card values say %v", n, now.Card, then.Card, gain, want)
				}
				checked++
			}
			return obs.Legal[0]
		}
		table := make([]seated, r.Players)
		for s := range table {
			table[s] = seated{"s", contractScript(engine.NoSeat, engine.Ramsch, engine.NoSuit, false, play)}
		}
		if rec := playDeal(t, r, 77, n, table); rec.Outcome.Contract != engine.Ramsch {
			t.Fatalf("deal %d: %s, not a Ramsch", n, rec.Outcome.Contract)
		}
	}
	if checked < 8 {
		t.Errorf("only %d Ramsch endgames checked", checked)
	}
}
