package heuristic

import (
	"github.com/tapparena/tapp/engine"
)

// playCard chooses a card to play (R-PLAY-1..4) according to the kind of contract.
func playCard(obs *engine.Observation) engine.Card {
	legal := legalCards(obs)
	if legal.Len() == 1 {
		return legal.Lowest()
	}
	v := newView(obs)
	switch {
	case v.contract == engine.Ramsch || v.decl < 0:
		return v.playRamsch(legal)
	case v.contract == engine.Bettel || v.contract == engine.Ouvert:
		if v.declarer() {
			return v.playBettelDeclarer(legal)
		}
		return v.playBettelDefender(legal)
	case allTricksGame(v.contract, v.tout):
		return v.playAllTricks(legal)
	default:
		return v.playPoints(legal)
	}
}

// allTricksGame reports whether the declarer must take every trick: Rufer, Durch, or a point
// contract with Tout announced (R-MOD-RUFER, R-MOD-DURCH, R-CL-TOUT).
func allTricksGame(c engine.Contract, tout bool) bool {
	switch c {
	case engine.Rufer, engine.HeartRufer, engine.Durch, engine.HeartDurch:
		return true
	}
	return tout
}

// ---------------------------------------------------------------------------------------------
// Point contracts: Frage, Solo, Heart Solo (and the older variants' contracts without Tout).

func (v *view) playPoints(legal engine.CardSet) engine.Card {
	if len(v.trick) == 0 {
		if v.declarer() {
			return v.leadPointsDeclarer(legal)
		}
		return v.leadPointsDefender(legal)
	}
	best := winning(v.trick, v.trump)
	bestCard := v.trick[best].card
	points := trickPoints(v.trick)
	opp := func(p engine.Seat) bool { return !v.partner(p) }

	// Cards that would win the trick now, and those no later opponent can beat.
	var winners, safeWinners engine.CardSet
	for _, c := range legal.Cards(nil) {
		if beats(c, bestCard, v.trump) {
			winners = winners.With(c)
			if !v.canBeatLater(c, opp) {
				safeWinners = safeWinners.With(c)
			}
		}
	}

	if v.partner(v.trick[best].seat) {
		if !v.canBeatLater(bestCard, opp) {
			// The fellow defender wins and nobody after can beat him: put points on it.
			return v.smear(legal)
		}
		// Partner's card may be beaten: secure the trick if it is worth it, else play low.
		if safeWinners != 0 {
			w := v.cheapestWinner(safeWinners)
			if points+w.Points() >= 10 {
				return w
			}
		}
		return v.throwLow(legal)
	}

	// An opponent wins the trick so far.
	if safeWinners != 0 {
		w := v.cheapestWinner(safeWinners)
		if v.worthTaking(w, points) {
			return w
		}
	}
	if winners != 0 && points >= 10 {
		// Contest a rich trick with a card that gives little away if it is beaten.
		var cheap engine.CardSet
		for _, c := range winners.Cards(nil) {
			if c.Points() <= 4 {
				cheap = cheap.With(c)
			}
		}
		if cheap != 0 {
			return highestRanked(cheap, v.trump)
		}
	}
	return v.throwLow(legal)
}

// worthTaking decides whether to win a trick worth points with card w (which wins safely).
func (v *view) worthTaking(w engine.Card, points int) bool {
	if w.Suit() != v.trump || v.trump == engine.NoSuit {
		return true // a side-suit winner: the card's own points come home too
	}
	// A trump spent: high trumps are kept for richer tricks or for drawing trumps.
	cost := 0
	switch {
	case w.Rank() >= engine.Ten:
		cost = 8
	case w.Rank() >= engine.Queen:
		cost = 4
	case w.Rank() >= engine.Nine:
		cost = 1
	}
	if v.declarer() {
		cost /= 2
	}
	return points+w.Points() >= cost
}

// cheapestWinner returns the winning card that costs least: a card of the led suit before a
// trump, and the lowest rank within either.
func (v *view) cheapestWinner(set engine.CardSet) engine.Card {
	if v.trump != engine.NoSuit {
		if side := set &^ engine.SuitSet(v.trump); side != 0 {
			set = side
		}
	}
	return lowestRanked(set)
}

// smear chooses the card that puts most points on a trick the side already wins, sparing
// trumps and cards that could win a trick of their own.
func (v *view) smear(legal engine.CardSet) engine.Card {
	best, bestScore := engine.NoCard, -1000
	for _, c := range legal.Cards(nil) {
		score := 2 * c.Points()
		if c.Suit() == v.trump && v.trump != engine.NoSuit {
			score -= 6 + int(c.Rank())
			if v.master(c) {
				score -= 10
			}
		} else if c.Rank() == engine.Ace && v.master(c) && !v.oppVoidIn(c.Suit()) {
			score -= 6 // a standing ace can win its own trick later
		}
		score -= int(c.Rank()) / 4
		if score > bestScore {
			best, bestScore = c, score
		}
	}
	return best
}

// throwLow chooses the card that gives least away: few points, no trump, no master; as
// declarer it shortens short side suits to make voids for ruffing.
func (v *view) throwLow(legal engine.CardSet) engine.Card {
	best, bestCost := engine.NoCard, 1<<30
	for _, c := range legal.Cards(nil) {
		cost := 10 * c.Points()
		cost += int(c.Rank())
		s := c.Suit()
		if s == v.trump && v.trump != engine.NoSuit {
			cost += 60 + 4*int(c.Rank())
		} else {
			if v.master(c) {
				cost += 25
			}
			n := suitLen(v.hand, s)
			if c.Rank() != engine.Ten && v.hand.Has(engine.NewCard(s, engine.Ten)) &&
				!v.hand.Has(engine.NewCard(s, engine.Ace)) && n == 2 {
				cost += 30 // would leave the ten bare
			}
			if v.declarer() && v.hand.OfSuit(v.trump).Len() > 0 && n <= 2 {
				cost -= 3 // a void to come
			}
		}
		if cost < bestCost {
			best, bestCost = c, cost
		}
	}
	return best
}

func (v *view) leadPointsDeclarer(legal engine.CardSet) engine.Card {
	trumps := legal.OfSuit(v.trump)
	if v.trump != engine.NoSuit && trumps != 0 && v.oppsMayHold(v.trump) {
		out := v.outstanding(v.trump).Len()
		if trumps.Len() >= 4 || trumps.Len() > out {
			// Draw trumps: the top one if it stands, else a low one to drive out theirs.
			if top := trumps.Highest(); v.master(top) {
				return top
			}
			return trumps.Lowest()
		}
	}
	if c, ok := v.cashMaster(legal); ok {
		return c
	}
	return v.leadLow(legal, true)
}

func (v *view) leadPointsDefender(legal engine.CardSet) engine.Card {
	if c, ok := v.cashMaster(legal); ok {
		return c
	}
	return v.leadLow(legal, false)
}

// cashMaster returns the side-suit card with most points that stands as the highest of its
// suit and that no opponent is likely to ruff.
func (v *view) cashMaster(legal engine.CardSet) (engine.Card, bool) {
	best, bestPts := engine.NoCard, -1
	for _, c := range legal.Cards(nil) {
		s := c.Suit()
		if s == v.trump && v.trump != engine.NoSuit {
			continue
		}
		if !v.master(c) || !v.oppsMayHold(s) {
			continue
		}
		if v.trump != engine.NoSuit && v.oppsMayHold(v.trump) && v.oppVoidIn(s) {
			continue
		}
		if p := c.Points(); p > bestPts {
			best, bestPts = c, p
		}
	}
	return best, best != engine.NoCard
}

// leadLow leads a cheap side-suit card: from a short suit (toward a void) for the declarer
// with trumps left, keeping aces and guarded tens; trumps only when nothing else is left.
func (v *view) leadLow(legal engine.CardSet, asDeclarer bool) engine.Card {
	side := legal
	if v.trump != engine.NoSuit {
		side = legal &^ engine.SuitSet(v.trump)
	}
	if side == 0 {
		return legal.Lowest()
	}
	haveTrumps := v.trump != engine.NoSuit && v.hand.OfSuit(v.trump) != 0
	best, bestCost := engine.NoCard, 1<<30
	for _, c := range side.Cards(nil) {
		s := c.Suit()
		n := suitLen(v.hand, s)
		cost := 10*c.Points() + int(c.Rank())
		if v.hand.Has(engine.NewCard(s, engine.Ten)) && !v.hand.Has(engine.NewCard(s, engine.Ace)) {
			cost += 8 // leading away from a ten lets it be caught
		}
		if asDeclarer && haveTrumps {
			cost += 2 * n // short suits first: voids for ruffing
		} else if !asDeclarer {
			if v.decl >= 0 && v.mayBeVoid(v.decl, s) && v.oppsMayHold(v.trump) {
				cost += 5 // the declarer would ruff cheaply
			}
			cost -= n // lead from length
		}
		if cost < bestCost {
			best, bestCost = c, cost
		}
	}
	return best
}

// ---------------------------------------------------------------------------------------------
// All-tricks contracts: Rufer, Durch, and Tout.

// playAllTricks plays a card in a contract where the declarer must take every trick.
func (v *view) playAllTricks(legal engine.CardSet) engine.Card {
	switch {
	case v.declarer() && len(v.trick) == 0:
		return v.leadAllTricks(legal)
	case v.declarer():
		return v.followAllTricks(legal)
	case len(v.trick) == 0:
		return v.leadAgainstAllTricks(legal)
	}
	return v.followAgainstAllTricks(legal)
}

// leadAllTricks is the declarer's lead: trumps while the opponents may hold some, then the
// masters, then the highest side card of the suit with fewest outstanding cards.
func (v *view) leadAllTricks(legal engine.CardSet) engine.Card {
	trumps := legal.OfSuit(v.trump)
	if v.trump != engine.NoSuit && trumps != 0 && v.oppsMayHold(v.trump) {
		return trumps.Highest()
	}
	if c, ok := v.cashMaster(legal); ok {
		return c
	}
	best, bestScore := engine.NoCard, -1000
	for _, c := range legal.Cards(nil) {
		score := int(c.Rank()) - 2*v.outstanding(c.Suit()).Len()
		if v.master(c) {
			score += 20
		}
		if score > bestScore {
			best, bestScore = c, score
		}
	}
	return best
}

// followAllTricks is the declarer's card to a trick led: the cheapest winner nobody after
// him can beat, else the highest winner, else a low card (the contract is lost).
func (v *view) followAllTricks(legal engine.CardSet) engine.Card {
	bestCard := v.trick[winning(v.trick, v.trump)].card
	var winners, safe engine.CardSet
	for _, c := range legal.Cards(nil) {
		if beats(c, bestCard, v.trump) {
			winners = winners.With(c)
			if !v.canBeatLater(c, nil) {
				safe = safe.With(c)
			}
		}
	}
	switch {
	case safe != 0:
		return v.cheapestWinner(safe)
	case winners != 0:
		return highestRanked(winners, v.trump)
	}
	return v.throwLow(legal)
}

// leadAgainstAllTricks is a defender's lead (one trick is enough): a high card, a master
// best, not a trump and not a suit the declarer may be void in.
func (v *view) leadAgainstAllTricks(legal engine.CardSet) engine.Card {
	best, bestScore := engine.NoCard, -1000
	for _, c := range legal.Cards(nil) {
		score := int(c.Rank())
		if c.Suit() == v.trump {
			score -= 5
		} else if v.mayBeVoid(v.decl, c.Suit()) {
			score -= 12
		}
		if v.master(c) {
			score += 10
		}
		if score > bestScore {
			best, bestScore = c, score
		}
	}
	return best
}

// followAgainstAllTricks is a defender's card to a trick led: against the declarer (winning
// it, or still to play) a winner — the highest while he plays after, so that he must beat it
// — else a low card.
func (v *view) followAgainstAllTricks(legal engine.CardSet) engine.Card {
	best := winning(v.trick, v.trump)
	bestCard := v.trick[best].card
	declLater := false
	for _, p := range v.later() {
		if p == v.decl {
			declLater = true
		}
	}
	if v.trick[best].seat == v.decl || declLater {
		var winners engine.CardSet
		for _, c := range legal.Cards(nil) {
			if beats(c, bestCard, v.trump) {
				winners = winners.With(c)
			}
		}
		if winners != 0 {
			if declLater {
				return highestRanked(winners, v.trump) // make it as hard as possible
			}
			return lowestRanked(winners)
		}
	}
	return v.throwLow(legal)
}

// ---------------------------------------------------------------------------------------------
// Bettel and Bettel Ouvert (R-MOD-BETTEL, R-MOD-OUVERT).

// bettelDanger rates how likely card c (in the declarer's hand) is to take a trick: the more
// of its suit's outstanding cards lie below it and the fewer low cards the declarer keeps
// beside it, the worse.
func (v *view) bettelDanger(c engine.Card, hand engine.CardSet) int {
	s := c.Suit()
	out := v.outstanding(s)
	lowerOut, higherOut := 0, 0
	for _, o := range out.Cards(nil) {
		if o < c {
			lowerOut++
		} else {
			higherOut++
		}
	}
	lowerMine := 0
	for _, m := range hand.OfSuit(s).Cards(nil) {
		if m < c {
			lowerMine++
		}
	}
	if out == 0 {
		return 100 + int(c.Rank()) // nobody can take it off him: sure loser if that suit is led
	}
	// Cards below that opponents can lead, against cards above that must be played.
	d := 10*lowerOut - 6*lowerMine - 3*higherOut + int(c.Rank())
	if higherOut == 0 {
		d += 40
	}
	return d
}

func (v *view) playBettelDeclarer(legal engine.CardSet) engine.Card {
	if len(v.trick) == 0 {
		// Lead the card most surely beaten: low against many outstanding cards above it.
		best, bestScore := engine.NoCard, -1<<30
		for _, c := range legal.Cards(nil) {
			out := v.outstanding(c.Suit())
			above, below := 0, 0
			for _, o := range out.Cards(nil) {
				if o > c {
					above++
				} else {
					below++
				}
			}
			score := 10*above - 25*below
			if above == 0 {
				score -= 1000
			}
			if score > bestScore {
				best, bestScore = c, score
			}
		}
		return best
	}
	led := v.trick[0].card.Suit()
	bestCard := v.trick[winning(v.trick, engine.NoSuit)].card
	follow := legal.OfSuit(led)
	if follow != 0 {
		// The highest card that still stays under the trick.
		var under engine.CardSet
		for _, c := range follow.Cards(nil) {
			if c < bestCard {
				under = under.With(c)
			}
		}
		if under != 0 {
			return under.Highest()
		}
		if len(v.later()) == 0 {
			return follow.Highest() // lost anyway
		}
		return follow.Lowest() // hope a later player goes over it
	}
	// Void: get rid of the most dangerous card.
	best, bestScore := engine.NoCard, -1<<30
	for _, c := range legal.Cards(nil) {
		if d := v.bettelDanger(c, v.hand); d > bestScore || (d == bestScore && c.Rank() > best.Rank()) {
			best, bestScore = c, d
		}
	}
	return best
}

func (v *view) playBettelDefender(legal engine.CardSet) engine.Card {
	declHand := v.known[v.decl] // exposed in Ouvert, else mostly empty
	if len(v.trick) == 0 {
		best, bestScore := engine.NoCard, -1<<30
		for _, c := range legal.Cards(nil) {
			s := c.Suit()
			score := -4 * int(c.Rank())
			if v.exact[v.decl] {
				ds := declHand.OfSuit(s)
				switch {
				case ds == 0:
					score -= 100
				case ds.Lowest() > c:
					score += 60 // he must go over it unless someone else does
				default:
					score += 10 - 3*ds.Len()
				}
			} else if v.mayBeVoid(v.decl, s) {
				score -= 60 // he would just discard
			} else {
				// Lead low in suits he holds; better still where few low cards are out.
				lower := 0
				for _, o := range v.outstanding(s).Cards(nil) {
					if o < c {
						lower++
					}
				}
				score -= 8 * lower
			}
			if score > bestScore {
				best, bestScore = c, score
			}
		}
		return best
	}
	led := v.trick[0].card.Suit()
	bi := winning(v.trick, engine.NoSuit)
	bestCard := v.trick[bi].card
	declPlayed := false
	for _, p := range v.trick {
		if p.seat == v.decl {
			declPlayed = true
		}
	}
	follow := legal.OfSuit(led)
	if follow == 0 {
		// Discard: keep low cards for leading, throw the highest.
		return highestRanked(legal, engine.NoSuit)
	}
	if declPlayed {
		if v.trick[bi].seat == v.decl {
			// He is winning it: stay under him, shedding the highest card that does.
			var under engine.CardSet
			for _, c := range follow.Cards(nil) {
				if c < bestCard {
					under = under.With(c)
				}
			}
			if under != 0 {
				return under.Highest()
			}
			return follow.Lowest()
		}
		return follow.Highest() // he has ducked: shed a high card
	}
	// He plays after: keep the trick low so he has to go over it.
	if v.exact[v.decl] {
		ds := declHand.OfSuit(led)
		if ds != 0 {
			// Play the highest card that is still below all his cards of the suit; if none,
			// the lowest.
			var under engine.CardSet
			for _, c := range follow.Cards(nil) {
				if c < ds.Lowest() {
					under = under.With(c)
				}
			}
			if under != 0 && bestCard < ds.Lowest() {
				return under.Highest()
			}
		}
	}
	var under engine.CardSet
	for _, c := range follow.Cards(nil) {
		if c < bestCard {
			under = under.With(c)
		}
	}
	if under != 0 {
		return under.Highest()
	}
	return follow.Lowest()
}

// ---------------------------------------------------------------------------------------------
// Ramsch (R-MOD-RAMSCH): take as few points as possible.

func (v *view) playRamsch(legal engine.CardSet) engine.Card {
	if len(v.trick) == 0 {
		best, bestScore := engine.NoCard, -1<<30
		for _, c := range legal.Cards(nil) {
			out := v.outstanding(c.Suit())
			above, below := 0, 0
			for _, o := range out.Cards(nil) {
				if o > c {
					above++
				} else {
					below++
				}
			}
			score := 6*above - 12*below - 2*c.Points()
			if above == 0 {
				score -= 200 + 10*c.Points()
			}
			if score > bestScore {
				best, bestScore = c, score
			}
		}
		return best
	}
	led := v.trick[0].card.Suit()
	bestCard := v.trick[winning(v.trick, engine.NoSuit)].card
	follow := legal.OfSuit(led)
	if follow == 0 {
		// Void: dump the card with most points, then the most dangerous high card.
		best, bestScore := engine.NoCard, -1<<30
		for _, c := range legal.Cards(nil) {
			score := 10*c.Points() + 2*int(c.Rank())
			if score > bestScore {
				best, bestScore = c, score
			}
		}
		return best
	}
	var under engine.CardSet
	for _, c := range follow.Cards(nil) {
		if c < bestCard {
			under = under.With(c)
		}
	}
	if under != 0 {
		return under.Highest() // duck, shedding the highest card that does
	}
	if len(v.later()) == 0 {
		// The trick is ours anyway: unload the highest card of the suit, which would only
		// take a later trick (measured better than keeping it).
		return follow.Highest()
	}
	return follow.Lowest()
}

// ---------------------------------------------------------------------------------------------

// lowestRanked returns the card of lowest rank in set (ties: canonical order).
func lowestRanked(set engine.CardSet) engine.Card {
	best := engine.NoCard
	for _, c := range set.Cards(nil) {
		if best == engine.NoCard || c.Rank() < best.Rank() {
			best = c
		}
	}
	return best
}

// highestRanked returns the strongest card of set: a trump before a side card, then rank.
func highestRanked(set engine.CardSet, trump engine.Suit) engine.Card {
	if trump != engine.NoSuit {
		if t := set.OfSuit(trump); t != 0 {
			return t.Highest()
		}
	}
	best := engine.NoCard
	for _, c := range set.Cards(nil) {
		if best == engine.NoCard || c.Rank() > best.Rank() {
			best = c
		}
	}
	return best
}
