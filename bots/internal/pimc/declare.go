package pimc

import "github.com/tapparena/tapp/engine"

// ToutThreshold is the share of imagined deals in which the declarer must take every trick
// before the bot announces Tout (classic, wuerttemberg).
const ToutThreshold = 0.92

// CallCandidates are the Rufer calls worth evaluating: every missing trump, and the highest
// missing card of each side suit (a lower one only gives the holder more to keep).
func CallCandidates(obs *engine.Observation) []engine.Action {
	var out []engine.Action
	missing := obs.Rules.Pack() &^ obs.Hand
	for _, a := range obs.Legal {
		if a.Kind != engine.ActCall {
			continue
		}
		c := a.Card
		if c.Suit() == obs.Trump || c == missing.OfSuit(c.Suit()).Highest() {
			out = append(out, a)
		}
	}
	return out
}

// Hands returns the current hands of the seats of an imagined deal.
func Hands(st *engine.State) [engine.MaxPlayers]engine.CardSet {
	var h [engine.MaxPlayers]engine.CardSet
	for i := range st.Rules().Players {
		h[i] = st.Hand(engine.Seat(i))
	}
	return h
}
