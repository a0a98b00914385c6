// Package heuristic is the built-in rule-of-thumb bot: it bids by hand strength and plays
// cards by simple, well-known card-play rules. It is deterministic (the same observation
// always gets the same action), stateless, and safe for concurrent use.
//
// # Bidding
//
// For every contract it may name it estimates its value from its own hand alone:
//   - point contracts (Frage, Solo per suit, Heart Solo; the older variants' Frage, Solo and
//     Heart Solo): the card points it expects to take, from trump length, top trumps, trump
//     points, side aces, guarded and bare tens, side points and voids or singletons it can
//     ruff with — a linear model fitted to the bot's own play;
//   - Bettel and Ouvert: how far each suit stands above the safe pattern of low cards (a
//     "sick" suit, whose lowest card is high, weighs most), eased by voids;
//   - Rufer and Durch: a worst-case count of lost tricks (every outstanding card of a suit in
//     one hand); for Rufer after the best call and give.
//
// In modern Tapp a contract's value is its stake times (2·P(win) − 1) per defender; in the
// older variants it is the game-point factor times the expected points above 60. It says
// "play" (or bids) only when its best contract is worth something, names that contract, and in
// the auction bids nothing above it. Tout is announced only when the worst-case count finds no
// losing trick.
//
// # Play
//
//   - Declarer in a point contract: draws trumps early when long in them (the top trump when
//     it stands, else a low one), cashes standing aces, then leads low from short suits.
//   - Defender: smears points (aces, tens) on a trick its fellow defender wins when no later
//     player can beat it; otherwise plays low.
//   - Anyone: wins a trick worth taking with the cheapest card that no later opponent can beat.
//   - Bettel declarer: plays the highest card that stays under the trick and discards its most
//     dangerous high card when void; Bettel defender: leads low in suits the declarer holds.
//   - Ramsch: ducks under the trick with the highest card that does, dumps high-point cards
//     when void, leads low cards others must go over.
//   - Frage: lays away bare tens and other points from short side suits, making voids; Rufer:
//     calls the card (the highest missing trump or a missing ace) that leaves the fewest losing
//     tricks and gives away the card it misses least; Classic Solo: names the trump that
//     promises most points.
//
// Every decision ends in one of obs.Legal; if a rule finds nothing it falls back to
// obs.Legal[0].
package heuristic

import (
	"context"
	"errors"

	"github.com/tapparena/tapp/bots"
	"github.com/tapparena/tapp/engine"
)

// Bot is the heuristic bot. The zero value is ready to use.
type Bot struct{}

// New returns the heuristic bot.
func New() bots.Bot { return Bot{} }

var errNoLegal = errors.New("heuristic: observation has no legal action")

// Decide returns one of obs.Legal.
func (Bot) Decide(_ context.Context, obs *engine.Observation) (engine.Action, error) {
	if obs == nil || len(obs.Legal) == 0 {
		return engine.Action{}, errNoLegal
	}
	a := decide(obs)
	for _, l := range obs.Legal {
		if l == a {
			return a, nil
		}
	}
	for _, l := range obs.Legal {
		if l.Canonical() == a.Canonical() {
			return l, nil
		}
	}
	return obs.Legal[0], nil
}

func decide(obs *engine.Observation) engine.Action {
	switch obs.Decision {
	case engine.DecideCard:
		if c := playCard(obs); c.Valid() {
			return engine.CardAction(c)
		}
	case engine.DecideBid, engine.DecideContract:
		return bid(obs)
	case engine.DecideTrump:
		return chooseTrump(obs)
	case engine.DecideDiscard:
		if c := layAway(obs); c.Valid() {
			return engine.DiscardAction(c)
		}
	case engine.DecideCall:
		if c := call(obs); c.Valid() {
			return engine.CallAction(c)
		}
	case engine.DecideGive:
		if c := give(obs); c.Valid() {
			return engine.GiveAction(c)
		}
	case engine.DecideTout:
		return engine.ToutAction(announceTout(obs))
	}
	return obs.Legal[0]
}

// ---------------------------------------------------------------------------------------------
// Bidding.

// bidMargin is how much a contract must be worth before the bot bids it: in modern cents per
// deal, in the older variants game points per deal.
const (
	bidMarginModern = 1.0
	bidMarginOlder  = 1.0
)

// contractValue estimates what declaring contract c (with suit s where it takes one) is worth
// to the bot per deal.
func contractValue(r engine.RuleSet, hand engine.CardSet, c engine.Contract, s engine.Suit) float64 {
	e := newEvaluator(r, hand)
	defenders := float64(e.n - 1)
	if r.Variant != engine.Modern {
		trump := engine.Hearts
		factor := 1.0
		switch {
		case r.Variant == engine.Classic && c == engine.Frage:
			factor = 0.25
		case r.Variant == engine.Classic && c == engine.Solo:
			factor = 0.5
			trump = bestSoloSuit(e, false)
		case r.Variant == engine.Classic && c == engine.HeartSolo:
			factor = 1
		case c == engine.Frage: // wuerttemberg
			factor = 1
		case c == engine.Solo: // wuerttemberg: hearts, doubled
			factor = 2
		default:
			return -1e9
		}
		return factor * (e.points(trump, c == engine.Frage) - 60) * defenders
	}
	stake := float64(r.Stakes[c])
	if stake <= 0 {
		return -1e9
	}
	p := winChance(e, c, s)
	return stake * (2*p - 1) * defenders
}

// winChance estimates the chance of making modern contract c with suit s.
func winChance(e *evaluator, c engine.Contract, s engine.Suit) float64 {
	if s >= engine.NumSuits {
		s = engine.NoSuit
	}
	switch c {
	case engine.Frage:
		return e.pWinPoints(e.points(engine.Hearts, true), true)
	case engine.Solo:
		if s == engine.NoSuit {
			s = bestSoloSuit(e, false)
		}
		return e.pWinPoints(e.points(s, false), false)
	case engine.HeartSolo:
		return e.pWinPoints(e.points(engine.Hearts, false), false)
	case engine.Bettel:
		return e.bettelChance(false)
	case engine.Ouvert:
		return e.bettelChance(true)
	case engine.Rufer:
		if s == engine.NoSuit {
			s = bestSoloSuit(e, true)
		}
		_, p := e.ruferPlan(s, nil)
		return p
	case engine.HeartRufer:
		_, p := e.ruferPlan(engine.Hearts, nil)
		return p
	case engine.Durch:
		if s == engine.NoSuit {
			s = bestSoloSuit(e, true)
		}
		return e.durchChance(s)
	case engine.HeartDurch:
		return e.durchChance(engine.Hearts)
	}
	return 0
}

// bestSoloSuit returns the non-heart suit that promises most points (or, for the all-tricks
// contracts, fewest losers).
func bestSoloSuit(e *evaluator, allTricks bool) engine.Suit {
	best, bestV := engine.Clubs, -1e9
	for _, s := range []engine.Suit{engine.Clubs, engine.Spades, engine.Diamonds} {
		var v float64
		if allTricks {
			v = -float64(losers(e.pack, e.hand, s))*100 + float64(suitLen(e.hand, s))
		} else {
			v = e.points(s, false)
		}
		if v > bestV {
			best, bestV = s, v
		}
	}
	return best
}

// bid answers DecideBid (modern round one, or an auction bid) and DecideContract (modern
// round two).
func bid(obs *engine.Observation) engine.Action {
	r := obs.Rules
	var pass, play, best engine.Action
	havePass, havePlay, haveBest := false, false, false
	bestV := -1e18
	for _, a := range obs.Legal {
		switch a.Kind {
		case engine.ActPass:
			pass, havePass = a, true
		case engine.ActPlay:
			play, havePlay = a, true
		case engine.ActBid:
			if v := contractValue(r, obs.Hand, a.Contract, a.Suit); v > bestV ||
				(v == bestV && a.Contract > best.Contract) {
				best, bestV, haveBest = a, v, true
			}
		}
	}
	margin := bidMarginOlder
	if r.Variant == engine.Modern {
		margin = bidMarginModern
	}
	if havePlay {
		// Modern round one: play when the best contract of all is worth it (R-MOD-BID-1).
		v := bestModernValue(r, obs.Hand)
		if v > margin || !havePass {
			return play
		}
		return pass
	}
	if haveBest && (bestV > margin || !havePass) {
		return best
	}
	if havePass {
		return pass
	}
	return obs.Legal[0]
}

// bestModernValue is the value of the best contract the bot could name in round two.
func bestModernValue(r engine.RuleSet, hand engine.CardSet) float64 {
	best := -1e18
	for _, c := range r.Contracts() {
		suits := []engine.Suit{engine.NoSuit}
		if c == engine.Solo || c == engine.Rufer || c == engine.Durch {
			suits = []engine.Suit{engine.Clubs, engine.Spades, engine.Diamonds}
		}
		for _, s := range suits {
			if v := contractValue(r, hand, c, s); v > best {
				best = v
			}
		}
	}
	return best
}

// chooseTrump names the classic Solo trump: the suit promising most points (R-CL-ORDER).
func chooseTrump(obs *engine.Observation) engine.Action {
	e := newEvaluator(obs.Rules, obs.Hand)
	best, bestV := obs.Legal[0], -1e18
	for _, a := range obs.Legal {
		if a.Kind != engine.ActTrump || a.Suit >= engine.NumSuits {
			continue
		}
		v := e.points(a.Suit, false)
		if allTricksGame(obs.Contract, obs.Tout) {
			v = -100 * float64(losers(e.pack, e.hand, a.Suit))
		}
		if v > bestV {
			best, bestV = a, v
		}
	}
	return best
}

// announceTout says Tout only when the worst-case count finds no trick to lose (R-CL-TOUT):
// every trump outstanding can be drawn and every side card stands.
func announceTout(obs *engine.Observation) bool {
	trump := obs.Trump
	if trump >= engine.NumSuits {
		return false
	}
	// Cards the bot knows to be out of play (its Frage discards) cannot beat it.
	pack := packOf(obs.Rules) &^ obs.Discarded
	return losers(pack, obs.Hand, trump) == 0
}

// ---------------------------------------------------------------------------------------------
// Frage lay-away, Rufer call and give.

// layAway chooses the next card to lay away in Frage (R-MOD-FRAGE): the laid-away cards count
// for the declarer, so bare tens (which would fall to the ace) and other points from short
// side suits go first, emptying suits to ruff in; trumps are kept.
func layAway(obs *engine.Observation) engine.Card {
	hand := obs.Hand
	trump := obs.Trump
	if trump >= engine.NumSuits {
		trump = engine.Hearts
	}
	left := obs.Rules.TappSize() - obs.Discarded.Len()
	if left < 1 {
		left = 1
	}
	best, bestScore := engine.NoCard, -1<<30
	for _, a := range obs.Legal {
		if a.Kind != engine.ActDiscard || !a.Card.Valid() {
			continue
		}
		c := a.Card
		s := c.Suit()
		var score int
		if s == trump {
			score = -1000 - int(c.Rank())
		} else {
			n := suitLen(hand, s)
			hasA := hand.Has(engine.NewCard(s, engine.Ace))
			score = 2 * c.Points()
			switch c.Rank() {
			case engine.Ten:
				if !hasA {
					score += 30 // a bare ten is caught by the ace: bank it
				} else {
					score += 4
				}
			case engine.Ace:
				if n > 1 {
					score -= 20 // a standing ace wins its own trick
				}
			}
			if n <= left {
				score += 16 - 4*n // the suit can be emptied: a void to ruff in
			}
			score -= n
		}
		if score > bestScore || (score == bestScore && c > best) {
			best, bestScore = c, score
		}
	}
	return best
}

// call chooses the Rufer call: the card that, after the exchange, leaves the fewest losing
// tricks — usually the highest missing trump or a missing ace (R-MOD-RUFER).
func call(obs *engine.Observation) engine.Card {
	var legal engine.CardSet
	for _, a := range obs.Legal {
		if a.Kind == engine.ActCall && a.Card.Valid() {
			legal = legal.With(a.Card)
		}
	}
	trump := obs.Trump
	if trump >= engine.NumSuits {
		trump = engine.Hearts
	}
	e := newEvaluator(obs.Rules, obs.Hand)
	c, _ := e.ruferPlan(trump, legal.Has)
	if c.Valid() {
		return c
	}
	if missing := legal.OfSuit(trump); missing != 0 {
		return missing.Highest()
	}
	return legal.Highest()
}

// give chooses the card to hand to the holder of the called card: the one whose loss leaves
// the fewest losing tricks, then a low side card from a short suit.
func give(obs *engine.Observation) engine.Card {
	trump := obs.Trump
	if trump >= engine.NumSuits {
		trump = engine.Hearts
	}
	pack := packOf(obs.Rules)
	best, bestScore := engine.NoCard, 1<<30
	for _, a := range obs.Legal {
		if a.Kind != engine.ActGive || !a.Card.Valid() {
			continue
		}
		c := a.Card
		score := 1000 * losers(pack, obs.Hand.Without(c), trump)
		if c.Suit() == trump {
			score += 500 + int(c.Rank())
		} else {
			score += 10*suitLen(obs.Hand, c.Suit()) + int(c.Rank())
		}
		if score < bestScore {
			best, bestScore = c, score
		}
	}
	return best
}
