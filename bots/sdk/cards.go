package sdk

// Card and trick helpers for bot authors, the Go side of the Python SDK's tapp_bot.cards. A Go
// bot gets engine types: a card is an engine.Card (engine.ParseCard reads "HA"; c.Suit(),
// c.Rank(), c.Points()), a hand an engine.CardSet (Has, OfSuit, Len, Points, Cards). These
// functions add what a bot needs on top, with the engine's own rules (R-CARD-2, R-CARD-3,
// R-PLAY-2, R-PLAY-4): the ten ranks above the king, and a rank order that is the same in
// every suit and contract.

import (
	"slices"
	"strings"

	"github.com/tapparena/tapp/engine"
)

// ParseCards reads cards in R-CARD-5 notation ("HA", "ct"), in the order given; the first
// text that is not a card is an error naming it.
func ParseCards(texts ...string) ([]engine.Card, error) {
	out := make([]engine.Card, 0, len(texts))
	for _, t := range texts {
		c, err := engine.ParseCard(t)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// Strength is a card's rank order within its suit, 0 (six) to 8 (ace): six, seven, eight,
// nine, jack, queen, king, ten, ace (R-CARD-3). Of two cards of one suit the stronger takes
// the trick.
func Strength(c engine.Card) int { return int(c.Rank()) }

// Points totals the card points of cards (R-CARD-2: ace 11, ten 10, king 4, queen 3, jack 2);
// engine.NoCard (a card not seen) counts 0.
func Points(cards ...engine.Card) int {
	total := 0
	for _, c := range cards {
		if c.Valid() {
			total += c.Points()
		}
	}
	return total
}

// Sort sorts cards in place in the engine's canonical order: by suit (clubs, spades, hearts,
// diamonds), then by rank from low to high.
func Sort(cards []engine.Card) { slices.Sort(cards) }

// OfSuit returns the cards of suit s, in the order given.
func OfSuit(cards []engine.Card, s engine.Suit) []engine.Card {
	var out []engine.Card
	for _, c := range cards {
		if c.Valid() && c.Suit() == s {
			out = append(out, c)
		}
	}
	return out
}

// Highest returns the strongest card by rank (among equal ranks the first suit in canonical
// order), or engine.NoCard when there is none.
func Highest(cards []engine.Card) engine.Card {
	return pick(cards, func(c, best engine.Card) bool { return c.Rank() > best.Rank() })
}

// Lowest returns the weakest card by rank (among equal ranks the first suit in canonical
// order), or engine.NoCard when there is none.
func Lowest(cards []engine.Card) engine.Card {
	return pick(cards, func(c, best engine.Card) bool { return c.Rank() < best.Rank() })
}

// pick returns the card better than every other, ties going to the earlier suit.
func pick(cards []engine.Card, better func(c, best engine.Card) bool) engine.Card {
	best := engine.NoCard
	for _, c := range cards {
		if !c.Valid() {
			continue
		}
		if best == engine.NoCard || better(c, best) || c.Rank() == best.Rank() && c.Suit() < best.Suit() {
			best = c
		}
	}
	return best
}

// TrickWinner returns the index in cards (in play order, the leader's card first) of the card
// that wins the trick so far (R-PLAY-4): the highest trump, or with no trump in it the
// highest card of the suit led. trump is engine.NoSuit for no trump. It returns -1 for an
// empty trick.
func TrickWinner(cards []engine.Card, trump engine.Suit) int {
	cards = played(cards)
	if len(cards) == 0 {
		return -1
	}
	best := 0
	for i := 1; i < len(cards); i++ {
		if engine.Beats(cards[i], cards[best], trump) {
			best = i
		}
	}
	return best
}

// TrickCards returns the cards played to a trick so far, in play order: for obs.Current, the
// trick in progress.
func TrickCards(t engine.Trick) []engine.Card { return played(t.Cards[:]) }

// played cuts cards at the first engine.NoCard (a trick array's unplayed places).
func played(cards []engine.Card) []engine.Card {
	for i, c := range cards {
		if !c.Valid() {
			return cards[:i]
		}
	}
	return cards
}

// FollowCards returns the cards of hand that may be played to a trick of which trick holds
// the cards played so far (R-PLAY-2): follow the suit led; else a trump if there is a trump
// suit and the hand holds one; else any card. Leading (an empty trick), any card. The
// request's Legal list is the authority; this is for planning ahead.
func FollowCards(hand engine.CardSet, trick []engine.Card, trump engine.Suit) engine.CardSet {
	trick = played(trick)
	if len(trick) == 0 {
		return hand
	}
	return engine.Playable(hand, trick[0].Suit(), trump)
}

// SplitAction splits an action's text into its name and argument: "solo:C" gives ("solo",
// "C"), "pass" gives ("pass", ""), and a card play such as "HA" gives ("card", "HA").
func SplitAction(action string) (name, arg string) {
	if _, err := engine.ParseCard(action); err == nil {
		return "card", action
	}
	name, arg, _ = strings.Cut(action, ":")
	return name, arg
}
