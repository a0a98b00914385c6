// Package engine implements the rules of Tapp (TAPP-RULES.md) for the variants wuerttemberg,
// classic and modern: cards, deals, rule sets, the game state through every phase, legal
// actions, per-seat observations and settlement.
//
// The package is pure: no I/O, no logging, no global state, no generated protobuf types.
// Everything is deterministic given a rule set, a deal and a sequence of actions.
//
// A deal in outline:
//
//	r, _ := engine.ParseRuleSet("modern players=3")   // or engine.DefaultRules(engine.Modern)
//	d := engine.DealFromSeed(r, seed, dealNumber)      // or engine.ParseDeal(r, "CA CT … | … | … | H6 H7 H8")
//	s, _ := engine.NewState(r, d, engine.Options{})
//	for !s.Terminal() {
//		obs := s.Observe(s.ToMove())                   // exactly what that seat may know (§8)
//		a := choose(obs.Legal)                         // obs.Legal == s.LegalActions(nil)
//		if err := s.Apply(a); err != nil { … }         // *RuleError naming the rule broken
//	}
//	out := s.Outcome()                                 // per-seat payoff, zero-sum with the pot
//
// Files: card.go (cards), rules.go (variants, options, canonical text), contract.go, action.go
// (actions, decisions, text notation, RuleError), rand.go (the documented PRNG), deal.go
// (dealing, deal files), state.go (the state machine), bidding.go, declare.go, play.go,
// settle.go, event.go (event log and per-seat redaction), observation.go, determinize.go
// (Observation.Sample), format.go (seating, dealer rotation, sessions). CHOICES.md lists the
// decisions taken where TAPP-RULES.md is silent.
package engine

import (
	"fmt"
	"math/bits"
	"strings"
)

// Suit is one of the four suits. The order (C, S, H, D) is the engine's canonical order for
// listing cards and actions; it carries no rank (R-CARD-1).
type Suit uint8

// The suits, in canonical order.
const (
	Clubs Suit = iota
	Spades
	Hearts
	Diamonds
	NumSuits = 4
)

// NoSuit marks "no trump" (Bettel, Ouvert, Ramsch) and actions without a suit.
const NoSuit Suit = 0xFF

var suitLetters = [NumSuits]byte{'C', 'S', 'H', 'D'}

// String returns the suit letter of R-CARD-5 (C, S, H, D), or "-" for NoSuit.
func (s Suit) String() string {
	if s < NumSuits {
		return string(suitLetters[s])
	}
	return "-"
}

// ParseSuit reads a suit letter, upper or lower case.
func ParseSuit(text string) (Suit, error) {
	if len(text) == 1 {
		if s, ok := suitFromLetter(text[0]); ok {
			return s, nil
		}
	}
	return NoSuit, fmt.Errorf("unknown suit %q (R-CARD-5: one of C, S, H, D)", text)
}

func suitFromLetter(b byte) (Suit, bool) {
	switch b {
	case 'C', 'c':
		return Clubs, true
	case 'S', 's':
		return Spades, true
	case 'H', 'h':
		return Hearts, true
	case 'D', 'd':
		return Diamonds, true
	}
	return NoSuit, false
}

// Rank is a card's rank. Higher values take tricks over lower ones in every suit and every
// contract (R-CARD-3), so ranks compare with < and >.
type Rank uint8

// The ranks, lowest first (R-CARD-1).
const (
	Six Rank = iota
	Seven
	Eight
	Nine
	Jack
	Queen
	King
	Ten
	Ace
	NumRanks = 9
)

var rankLetters = [NumRanks]byte{'6', '7', '8', '9', 'J', 'Q', 'K', 'T', 'A'}

// rankPoints are the card points of R-CARD-2.
var rankPoints = [NumRanks]int{0, 0, 0, 0, 2, 3, 4, 10, 11}

// String returns the rank letter of R-CARD-5.
func (r Rank) String() string {
	if r < NumRanks {
		return string(rankLetters[r])
	}
	return "?"
}

// Points returns the card points of the rank (R-CARD-2).
func (r Rank) Points() int { return rankPoints[r] }

func rankFromLetter(b byte) (Rank, bool) {
	switch b {
	case 'A', 'a':
		return Ace, true
	case 'T', 't':
		return Ten, true
	case 'K', 'k':
		return King, true
	case 'Q', 'q':
		return Queen, true
	case 'J', 'j':
		return Jack, true
	case '9':
		return Nine, true
	case '8':
		return Eight, true
	case '7':
		return Seven, true
	case '6':
		return Six, true
	}
	return 0, false
}

// Card is one of the 36 cards, numbered suit*9+rank: within a suit a higher number is a
// stronger card, which keeps trick comparison and bitmask scans cheap.
type Card uint8

// NumCards is the size of the full pack.
const NumCards = NumSuits * NumRanks

// NoCard marks the absence of a card.
const NoCard Card = 0xFF

// NewCard builds a card from suit and rank.
func NewCard(s Suit, r Rank) Card { return Card(uint8(s)*NumRanks + uint8(r)) }

// Suit returns the card's suit.
func (c Card) Suit() Suit { return Suit(c / NumRanks) }

// Rank returns the card's rank.
func (c Card) Rank() Rank { return Rank(c % NumRanks) }

// Points returns the card points (R-CARD-2).
func (c Card) Points() int { return rankPoints[c%NumRanks] }

// Valid reports whether c names one of the 36 cards.
func (c Card) Valid() bool { return c < NumCards }

// String returns the card in R-CARD-5 notation: suit letter then rank letter, e.g. "HA".
func (c Card) String() string {
	if !c.Valid() {
		return "--"
	}
	return cardNames[c]
}

// cardNames holds every card's notation, so that naming a card (for every message to a bot)
// allocates nothing.
var cardNames = func() (names [NumCards]string) {
	for c := range Card(NumCards) {
		names[c] = string([]byte{suitLetters[c.Suit()], rankLetters[c.Rank()]})
	}
	return names
}()

// ParseCard reads a card in R-CARD-5 notation, upper or lower case ("HA", "ct", "D6").
func ParseCard(text string) (Card, error) {
	if len(text) == 2 {
		s, okS := suitFromLetter(text[0])
		r, okR := rankFromLetter(text[1])
		if okS && okR {
			return NewCard(s, r), nil
		}
	}
	return NoCard, fmt.Errorf("unknown card %q (R-CARD-5: suit letter C/S/H/D then rank A/T/K/Q/J/9/8/7/6, e.g. HA)", text)
}

// CardSet is a set of cards as a bitmask over Card numbers. The zero value is the empty set.
type CardSet uint64

// suitMask is the set of all nine cards of suit 0; shift by 9*suit for the others.
const suitMask CardSet = 1<<NumRanks - 1

// FullPack36 is the 36-card pack; FullPack32 removes the four sixes (R-CARD-4).
const (
	FullPack36 CardSet = 1<<NumCards - 1
	sixes      CardSet = 1<<0 | 1<<9 | 1<<18 | 1<<27
	FullPack32 CardSet = FullPack36 &^ sixes
)

// SuitSet returns every card of suit s.
func SuitSet(s Suit) CardSet { return suitMask << (NumRanks * uint(s)) }

// SetOf builds a set from cards.
func SetOf(cards ...Card) CardSet {
	var set CardSet
	for _, c := range cards {
		set |= 1 << c
	}
	return set
}

// Has reports whether c is in the set.
func (s CardSet) Has(c Card) bool { return c < NumCards && s&(1<<c) != 0 }

// With returns the set with c added.
func (s CardSet) With(c Card) CardSet { return s | 1<<c }

// Without returns the set with c removed.
func (s CardSet) Without(c Card) CardSet { return s &^ (1 << c) }

// Len returns the number of cards in the set.
func (s CardSet) Len() int { return bits.OnesCount64(uint64(s)) }

// Empty reports whether the set has no card.
func (s CardSet) Empty() bool { return s == 0 }

// OfSuit returns the cards of the set in suit su.
func (s CardSet) OfSuit(su Suit) CardSet { return s & SuitSet(su) }

// Lowest returns the lowest-numbered card of a non-empty set (NoCard when empty).
func (s CardSet) Lowest() Card {
	if s == 0 {
		return NoCard
	}
	return Card(bits.TrailingZeros64(uint64(s)))
}

// Highest returns the highest-numbered card of a non-empty set (NoCard when empty).
func (s CardSet) Highest() Card {
	if s == 0 {
		return NoCard
	}
	return Card(63 - bits.LeadingZeros64(uint64(s)))
}

// Points returns the card points of all cards in the set (R-CARD-2).
func (s CardSet) Points() int {
	total := 0
	for su := Suit(0); su < NumSuits; su++ {
		ranks := uint64(s>>(NumRanks*uint(su))) & uint64(suitMask)
		total += 11*int(ranks>>Ace&1) + 10*int(ranks>>Ten&1) + 4*int(ranks>>King&1) +
			3*int(ranks>>Queen&1) + 2*int(ranks>>Jack&1)
	}
	return total
}

// Cards appends the set's cards in canonical order (by suit C, S, H, D, then rank low to
// high) to buf and returns it; pass a reused buffer to avoid allocation.
func (s CardSet) Cards(buf []Card) []Card {
	for s != 0 {
		c := Card(bits.TrailingZeros64(uint64(s)))
		buf = append(buf, c)
		s &= s - 1
	}
	return buf
}

// String returns the cards in R-CARD-5 notation separated by spaces, in canonical order.
func (s CardSet) String() string {
	return string(s.AppendTo(make([]byte, 0, 3*s.Len())))
}

// AppendTo appends String's text to b.
func (s CardSet) AppendTo(b []byte) []byte {
	var buf [NumCards]Card
	for i, c := range s.Cards(buf[:0]) {
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, c.String()...)
	}
	return b
}

// ParseCardSet reads cards in R-CARD-5 notation separated by spaces or commas. A duplicate
// or unknown card is an error naming it.
func ParseCardSet(text string) (CardSet, error) {
	var set CardSet
	fields := strings.FieldsFunc(text, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' })
	for _, f := range fields {
		c, err := ParseCard(f)
		if err != nil {
			return 0, err
		}
		if set.Has(c) {
			return 0, fmt.Errorf("card %s appears twice", c)
		}
		set = set.With(c)
	}
	return set, nil
}
