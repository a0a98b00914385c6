package doubledummy

import (
	"sort"

	"github.com/tapparena/tapp/engine"
)

// The declaration a position needs before the first lead, by rules of thumb shared by the
// search bot and the analysis of bidding (so that both value a contract the same way): the
// Frage lay-away (FrageDiscards), the Rufer call (RuferCall) and the card given back
// (RuferGive).

// HandPosition is the position at the first lead of a deal that me declares: contract c with
// trump trump, hands as given (after any lay-away or exchange), tappPts counting for him in
// point contracts, Tout announced or not.
func HandPosition(r *engine.RuleSet, hands [engine.MaxPlayers]engine.CardSet, me int, c engine.Contract, trump engine.Suit, tappPts int, tout bool) Position {
	p := Position{Players: r.Players, Trump: trump, Declarer: me}
	copy(p.Hands[:], hands[:])
	p.Goal, p.TappRule = GoalOf(c, tout)
	if p.TappRule == TappDeclarer {
		p.Tapp = tappPts
	}
	if c == engine.Bettel || c == engine.Ouvert {
		p.Trump = engine.NoSuit
	}
	if c == engine.Ouvert {
		p.Leader = me // R-MOD-OUVERT
	}
	return p
}

// DeclaredPosition is the position at the first lead if seat me declared contract c (trump
// trump where c takes one) on a deal with these hands and tapp, the declaration made by the
// rules of thumb: a Frage lays away the best cards by FrageDiscards, a Rufer calls and gives
// by RuferCall and RuferGive. No Tout is announced.
func DeclaredPosition(r engine.RuleSet, hands [engine.MaxPlayers]engine.CardSet, tapp engine.CardSet, me int, c engine.Contract, trump engine.Suit) Position {
	tappPts := tapp.Points()
	switch c {
	case engine.Frage:
		full := hands[me] | tapp
		ds := FrageDiscards(full, engine.Hearts, tapp.Len(), 1)
		hands[me] = full &^ ds[0]
		tappPts = ds[0].Points()
	case engine.Rufer, engine.HeartRufer:
		call := RuferCall(r.Pack(), hands[me], trump)
		hands = Exchange(&r, hands, me, call, RuferGive(hands[me].With(call), trump, call))
	}
	return HandPosition(&r, hands, me, c, trump, tappPts, false)
}

// Exchange performs the Rufer exchange on a deal: the holder of call (if any) hands it to the
// declarer me and gets give.
func Exchange(r *engine.RuleSet, hands [engine.MaxPlayers]engine.CardSet, me int, call, give engine.Card) [engine.MaxPlayers]engine.CardSet {
	for h := 0; h < r.Players; h++ {
		if h != me && hands[h].Has(call) {
			hands[h] = hands[h].Without(call).With(give)
			hands[me] = hands[me].With(call).Without(give)
		}
	}
	return hands
}

// RuferCall is the card a Rufer declarer calls: the highest trump he lacks, else the highest
// missing card of the side suit where he stands weakest.
func RuferCall(pack, hand engine.CardSet, trump engine.Suit) engine.Card {
	if m := pack.OfSuit(trump) &^ hand; m != 0 {
		return m.Highest()
	}
	best, bestGap := engine.NoCard, -1
	for su := engine.Suit(0); su < engine.NumSuits; su++ {
		m := pack.OfSuit(su) &^ hand
		if m == 0 {
			continue
		}
		gap := int(m.Highest()) - int(hand.OfSuit(su).Highest())
		if hand.OfSuit(su) == 0 {
			gap = -1 // void: no trick to lose there while trumps last
		}
		if gap > bestGap {
			best, bestGap = m.Highest(), gap
		}
	}
	return best
}

// RuferGive is the card the declarer gives back: the lowest card of his shortest side suit,
// else his lowest trump other than the called card.
func RuferGive(hand engine.CardSet, trump engine.Suit, call engine.Card) engine.Card {
	h := hand.Without(call)
	best := engine.NoCard
	bestLen := 100
	for su := engine.Suit(0); su < engine.NumSuits; su++ {
		if su == trump {
			continue
		}
		if cs := h.OfSuit(su); cs != 0 && cs.Len() < bestLen {
			best, bestLen = cs.Lowest(), cs.Len()
		}
	}
	if best == engine.NoCard {
		best = h.Lowest()
	}
	return best
}

// FrageDiscards returns up to max sets of k cards to lay away from hand in a Frage, best
// first by a rule of thumb: points laid away count for the declarer, voids let him ruff; aces
// and guarded tens win tricks by themselves and are kept, and so are trumps.
func FrageDiscards(hand engine.CardSet, trump engine.Suit, k, max int) []engine.CardSet {
	pool := hand &^ hand.OfSuit(trump)
	if pool.Len() < k {
		pool = hand
	}
	cards := pool.Cards(nil)
	type scored struct {
		set   engine.CardSet
		score int
	}
	var all []scored
	var rec func(start int, set engine.CardSet, left int)
	rec = func(start int, set engine.CardSet, left int) {
		if left == 0 {
			all = append(all, scored{set, discardScore(hand, set, trump)})
			return
		}
		for i := start; i <= len(cards)-left; i++ {
			rec(i+1, set.With(cards[i]), left-1)
		}
	}
	rec(0, 0, k)
	sort.SliceStable(all, func(i, j int) bool { return all[i].score > all[j].score })
	out := make([]engine.CardSet, 0, max)
	for i := 0; i < len(all) && i < max; i++ {
		out = append(out, all[i].set)
	}
	return out
}

func discardScore(hand, set engine.CardSet, trump engine.Suit) int {
	rest := hand &^ set
	score := 2 * set.Points()
	for su := engine.Suit(0); su < engine.NumSuits; su++ {
		if su == trump {
			score -= 30 * set.OfSuit(su).Len()
			continue
		}
		if hand.OfSuit(su) != 0 && rest.OfSuit(su) == 0 {
			score += 12 // a new void
		}
		if rest.OfSuit(su).Len() == 1 && rest.OfSuit(su).Highest().Rank() < engine.Ace {
			score -= 4 // a bare loser left behind
		}
		ace := engine.NewCard(su, engine.Ace)
		ten := engine.NewCard(su, engine.Ten)
		if set.Has(ace) {
			score -= 20
		}
		if set.Has(ten) && rest.Has(ace) {
			score -= 14
		}
	}
	return score
}
