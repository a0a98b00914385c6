package pimc

import "github.com/tapparena/tapp/engine"

// FindLegal returns the legal action equal to a (in canonical form), if there is one.
func FindLegal(legal []engine.Action, a engine.Action) (engine.Action, bool) {
	ca := a.Canonical()
	for _, l := range legal {
		if l.Canonical() == ca {
			return l, true
		}
	}
	return engine.Action{}, false
}

// Best returns the index of the highest value; among the values within eps of it the one
// whose action is tie (the heuristic bot's choice, when hasTie), else the first highest.
// Breaking ties by the rule of thumb keeps the search from choosing among cards the solver
// cannot tell apart by their order in the hand.
func Best(values []float64, actions []engine.Action, eps float64, tie engine.Action, hasTie bool) int {
	bi := 0
	for i := range values {
		if values[i] > values[bi] {
			bi = i
		}
	}
	if !hasTie {
		return bi
	}
	h := tie.Canonical()
	for i := range values {
		if values[i] >= values[bi]-eps && actions[i].Canonical() == h {
			return i
		}
	}
	return bi
}

// OfKind returns the legal actions of one kind (the trumps a Solo may name, the cards a
// Rufer may give).
func OfKind(legal []engine.Action, kind engine.ActionKind) []engine.Action {
	var out []engine.Action
	for _, a := range legal {
		if a.Kind == kind {
			out = append(out, a)
		}
	}
	return out
}

// CardActions returns the legal card plays and, by card, their index among them.
func CardActions(legal []engine.Action) ([]engine.Action, *[engine.NumCards]int) {
	var actions []engine.Action
	var index [engine.NumCards]int
	for _, a := range legal {
		if a.Kind == engine.ActCard && a.Card.Valid() {
			index[a.Card] = len(actions)
			actions = append(actions, a)
		}
	}
	return actions, &index
}
