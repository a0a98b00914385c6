package doubledummy

import (
	"context"
	"testing"

	"github.com/tapparena/tapp/bots/random"
	"github.com/tapparena/tapp/engine"
)

func ruleSets(t testing.TB) map[string]engine.RuleSet {
	out := map[string]engine.RuleSet{}
	for _, text := range []struct{ name, v string }{
		{"modern", "modern"}, {"classic", "classic"}, {"wuerttemberg", "wuerttemberg"},
	} {
		v, err := engine.ParseVariant(text.v)
		if err != nil {
			t.Fatal(err)
		}
		out[text.name] = engine.DefaultRules(v)
	}
	m := out["modern"]
	m4 := m
	m4.Players = 4
	out["modern-4p"] = m4
	m32 := m
	m32.PackSize = 32
	out["modern-32"] = m32
	m432 := m4
	m432.PackSize = 32
	out["modern-4p-32"] = m432
	mf := engine.DefaultRules(engine.Modern)
	mf.Frage = true
	mf.Stakes[engine.Frage], mf.Stakes[engine.Solo], mf.Stakes[engine.HeartSolo] = 5, 10, 15
	mf.Stakes[engine.Bettel], mf.Stakes[engine.Rufer] = 20, 20
	out["modern-frage"] = mf
	cp := out["classic"]
	cp.Pot = true
	out["classic-pot"] = cp
	for name, r := range out {
		if err := r.Validate(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	return out
}

// The solver's view of a deal (PlayPosition) agrees with the engine: legal cards at every
// card decision, and at the end the declarer's points (the tapp or lay-away included), the
// Ramsch points (the tapp to the last trick) and the trick counts.
func TestPlayPositionMatchesEngine(t *testing.T) {
	for name, r := range ruleSets(t) {
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
