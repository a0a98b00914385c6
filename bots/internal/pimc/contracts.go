package pimc

import "github.com/tapparena/tapp/engine"

// Candidate is a contract a hand could declare, as the bidding names it, with the trump it
// is played in (a classic Solo's trump is named only after the auction, so several
// candidates may share one name).
type Candidate struct {
	Name     engine.Action
	Contract engine.Contract
	Trump    engine.Suit
}

// MinTrumps is a third of the hand: the trumps an every-trick contract needs to be worth
// solving, and an opponent declarer is assumed to hold.
func MinTrumps(r *engine.RuleSet) int { return (r.HandSize() + 2) / 3 }

var sideSuits = [3]engine.Suit{engine.Clubs, engine.Spades, engine.Diamonds}

// Candidates lists the contracts worth evaluating for hand: every contract with enough
// trumps, Bettel and Ouvert always. Point contracts are worth solving with one trump fewer
// than a third of the hand (the heuristic bot wins Heart Solos with three hearts), a Frage
// with two fewer (the tapp may bring more); every-trick contracts only with a third of the
// hand in trumps.
func Candidates(r *engine.RuleSet, hand engine.CardSet) []Candidate {
	var out []Candidate
	// a third of the hand in trumps, less slack, but at least three (two for a Frage)
	enough := func(t engine.Suit, slack int) bool {
		return hand.OfSuit(t).Len() >= max(MinTrumps(r)-slack, 3-slack/2)
	}
	add := func(name engine.Action, c engine.Contract, t engine.Suit) {
		out = append(out, Candidate{Name: name, Contract: c, Trump: t})
	}
	switch r.Variant {
	case engine.Modern:
		for _, c := range r.Contracts() {
			switch c {
			case engine.Solo, engine.Rufer, engine.Durch:
				slack := 0
				if c == engine.Solo {
					slack = 1
				}
				for _, t := range sideSuits {
					if enough(t, slack) {
						add(engine.BidAction(c, t), c, t)
					}
				}
			case engine.Bettel, engine.Ouvert:
				add(engine.BidAction(c, engine.NoSuit), c, engine.NoSuit)
			case engine.Frage:
				if enough(engine.Hearts, 2) {
					add(engine.BidAction(c, engine.NoSuit), c, engine.Hearts)
				}
			case engine.HeartSolo:
				if enough(engine.Hearts, 1) {
					add(engine.BidAction(c, engine.NoSuit), c, engine.Hearts)
				}
			default: // heart Rufer, heart Durch
				if enough(engine.Hearts, 0) {
					add(engine.BidAction(c, engine.NoSuit), c, engine.Hearts)
				}
			}
		}
	case engine.Classic:
		if enough(engine.Hearts, 2) {
			add(engine.BidAction(engine.Frage, engine.NoSuit), engine.Frage, engine.Hearts)
		}
		for _, t := range sideSuits {
			if enough(t, 1) {
				add(engine.BidAction(engine.Solo, engine.NoSuit), engine.Solo, t)
			}
		}
		if enough(engine.Hearts, 1) {
			add(engine.BidAction(engine.HeartSolo, engine.NoSuit), engine.HeartSolo, engine.Hearts)
		}
	default:
		if enough(engine.Hearts, 2) {
			add(engine.BidAction(engine.Frage, engine.NoSuit), engine.Frage, engine.Hearts)
		}
		if enough(engine.Hearts, 1) {
			add(engine.BidAction(engine.Solo, engine.NoSuit), engine.Solo, engine.Hearts)
		}
	}
	return out
}
