package botcheck

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/tapparena/tapp/engine"
)

// Kinds returns the decision kinds a bot meets under a rule set, in the order a deal asks them.
func Kinds(r engine.RuleSet) []engine.Decision {
	switch r.Variant {
	case engine.Wuerttemberg:
		return []engine.Decision{engine.DecideBid, engine.DecideDiscard, engine.DecideTout, engine.DecideCard}
	case engine.Classic:
		return []engine.Decision{engine.DecideBid, engine.DecideDiscard, engine.DecideTrump, engine.DecideTout, engine.DecideCard}
	}
	kinds := []engine.Decision{engine.DecideBid, engine.DecideContract}
	if r.Frage {
		kinds = append(kinds, engine.DecideDiscard)
	}
	return append(kinds, engine.DecideCall, engine.DecideGive, engine.DecideCard)
}

// position is a deal played up to a decision of the wanted kind.
type position struct {
	state *engine.State
	seat  engine.Seat
}

// steer says which actions lead towards a decision kind: at each decision, the first legal
// action whose text starts with one of the listed prefixes is taken (others at random).
var steer = map[engine.Decision]map[engine.Decision][]string{
	engine.DecideContract: {engine.DecideBid: {"play"}},
	engine.DecideTrump:    {engine.DecideBid: {"solo", "pass"}},
	engine.DecideDiscard:  {engine.DecideBid: {"frage", "play", "pass"}, engine.DecideContract: {"frage"}},
	engine.DecideCall:     {engine.DecideBid: {"play"}, engine.DecideContract: {"rufer", "heartrufer"}},
	engine.DecideGive:     {engine.DecideBid: {"play"}, engine.DecideContract: {"rufer", "heartrufer"}},
	engine.DecideTout:     {engine.DecideBid: {"solo", "frage", "pass"}},
}

// findPositions plays seeded deals (PCG from seed: the same seed gives the same positions)
// until it has n positions where a seat must make a decision of kind want. Card positions
// are taken at different tricks so that leading and following are both asked.
func findPositions(r engine.RuleSet, want engine.Decision, n int, seed uint64) ([]position, error) {
	rng := rand.New(rand.NewPCG(seed, uint64(want)))
	var out []position
	for deal := uint64(0); deal < 400 && len(out) < n; deal++ {
		st, err := engine.NewState(r, engine.DealFromSeed(r, seed, deal), engine.Options{})
		if err != nil {
			return nil, err
		}
		stopAtCard := len(out) * 4 // trick-ish depth of the k-th card position
		cards := 0
		for !st.Terminal() {
			d := st.Decision()
			if d == want && (want != engine.DecideCard || cards >= stopAtCard) {
				out = append(out, position{state: st, seat: st.ToMove()})
				break
			}
			if d == engine.DecideCard {
				cards++
			}
			legal := st.LegalActions(nil)
			a := choose(st, legal, steer[want][d], want, rng)
			if err := st.Apply(a); err != nil {
				return nil, fmt.Errorf("botcheck: steering %s: %w", want, err)
			}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no deal of %q reaches a %s decision (in 400 deals)", r, want)
	}
	return out, nil
}

func choose(st *engine.State, legal []engine.Action, prefer []string, want engine.Decision, rng *rand.Rand) engine.Action {
	if want == engine.DecideGive && st.Decision() == engine.DecideCall {
		// A give follows only when a defender holds the called card.
		for _, a := range legal {
			for s := engine.Seat(0); int(s) < st.Rules().Players; s++ {
				if s != st.ToMove() && st.Hand(s).Has(a.Card) {
					return a
				}
			}
		}
	}
	for _, p := range prefer {
		for _, a := range legal {
			if strings.HasPrefix(a.String(), p) {
				return a
			}
		}
	}
	return legal[rng.IntN(len(legal))]
}
