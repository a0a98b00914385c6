package doubledummy

import (
	"context"
	"testing"

	"github.com/tapparena/tapp/bots/internal/bottest"
	"github.com/tapparena/tapp/bots/random"
	"github.com/tapparena/tapp/engine"
)

// The solver's view of a deal (PlayPosition) agrees with the engine: legal cards at every
// card decision, and at the end the declarer's points (the tapp or lay-away included), the
// Ramsch points (the tapp to the last trick) and the trick counts.
func TestPlayPositionMatchesEngine(t *testing.T) {
	for name, r := range bottest.RuleSets(t) {
		t.Run(name, func(t *testing.T) {
			rnd := random.New(3)
			compared := 0
			defer func() {
				if compared < 10 {
					t.Errorf("only %d deals played to the end", compared)
				}
			}()
			for i := 0; i < 400; i++ {
				st, err := engine.NewState(r, engine.DealFromSeed(r, 31, uint64(i)), engine.Options{})
				if err != nil {
					t.Fatal(err)
				}
				var pos Position
				tracking := false
				for !st.Terminal() {
					obs := st.Observe(st.ToMove())
					a, _ := rnd.Decide(context.Background(), &obs)
					if obs.Decision == engine.DecideCard {
						p, err := PlayPosition(st, &obs)
						if err != nil {
							t.Fatalf("deal %d: %v", i, err)
						}
						if p.Legal() != st.LegalCards() {
							t.Fatalf("deal %d: legal %v, engine %v", i, p.Legal(), st.LegalCards())
						}
						if tracking && p.Hands != pos.Hands {
							t.Fatalf("deal %d: tracked hands drifted", i)
						}
						if !tracking {
							pos, tracking = p, true
						}
						pos.Play(a.Card)
					}
					if err := st.Apply(a); err != nil {
						t.Fatal(err)
					}
				}
				out := st.Outcome()
				if !tracking || !pos.Done() {
					continue // thrown in, or ended early (R-PLAY-6)
				}
				compared++
				switch {
				case out.Contract == engine.Ramsch:
					for s := 0; s < r.Players; s++ {
						pos.Declarer = s
						if pos.Value() != out.Points[s] {
							t.Fatalf("deal %d ramsch seat %d: %d points, engine %d", i, s, pos.Value(), out.Points[s])
						}
					}
				case pos.Goal == GoalPoints:
					if pos.Value() != out.Points[out.Declarer] {
						t.Fatalf("deal %d %s: %d points, engine %d", i, out.Contract, pos.Value(), out.Points[out.Declarer])
					}
				default:
					if pos.Value() != out.Tricks[out.Declarer] {
						t.Fatalf("deal %d %s: %d tricks, engine %d", i, out.Contract, pos.Value(), out.Tricks[out.Declarer])
					}
				}
			}
		})
	}
}
