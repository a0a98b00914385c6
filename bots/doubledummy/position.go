package doubledummy

import (
	"fmt"
	"strings"

	"github.com/tapparena/tapp/engine"
)

// Goal is what the solver's value measures and what the declarer needs.
type Goal uint8

// The goals.
const (
	// GoalPoints: the value is the declarer's card points at the end (tricks taken, plus the
	// tapp when it counts for him). Frage, Solo, Heart Solo without Tout: he needs 61.
	GoalPoints Goal = iota
	// GoalAllTricks: the value is the declarer's number of tricks; he needs every trick
	// (Rufer, Durch, a Tout announcement). The search stops at the first lost trick (R-PLAY-6).
	GoalAllTricks
	// GoalNoTrick: the value is the declarer's number of tricks; he needs none (Bettel,
	// Ouvert). The search stops at the first trick he takes (R-PLAY-6).
	GoalNoTrick
	// GoalRamsch: everyone for himself. The solver is paranoid: Position.Declarer names the
	// viewpoint seat, the value is that seat's card points at the end (the tapp going to the
	// last trick's winner), the viewpoint minimises it and every other player maximises it.
	// Paranoid search keeps Ramsch a two-sided zero-sum game, so alpha-beta, the
	// transposition table and all pruning apply unchanged; it is pessimistic (the others
	// do not really cooperate), which suits a player who pays when he has the most points.
	GoalRamsch
)

func (g Goal) String() string {
	switch g {
	case GoalPoints:
		return "points"
	case GoalAllTricks:
		return "all-tricks"
	case GoalNoTrick:
		return "no-trick"
	case GoalRamsch:
		return "ramsch"
	}
	return fmt.Sprintf("Goal(%d)", int(g))
}

// TappRule says to whom the tapp's (or Frage lay-away's) points go (R-PLAY-5).
type TappRule uint8

// The tapp rules.
const (
	TappNobody    TappRule = iota // Bettel, Ouvert, Rufer, Durch
	TappDeclarer                  // Solo, Heart Solo, Frage (the laid-away cards)
	TappLastTrick                 // Ramsch: the winner of the last trick takes it
)

// Position is a perfect-information Tapp position during trick play: every hand is known.
// Seats are numbered in playing order (0 = forehand) as in the engine.
type Position struct {
	Players int               // 3 or 4
	Hands   [4]engine.CardSet // cards still held, by seat
	Trump   engine.Suit       // engine.NoSuit for Bettel, Ouvert, Ramsch
	Leader  int               // the seat that led (or is to lead) the current trick
	Trick   [4]engine.Card    // the cards played to the current trick so far, from Leader on
	NTrick  int               // how many cards of Trick are played
	// Declarer is the declarer's seat; in Ramsch the seat whose points are the value.
	Declarer int
	Goal     Goal
	Taken    [4]int // card points already taken in completed tricks, by seat
	Tricks   [4]int // tricks already taken, by seat
	Tapp     int    // card points of the tapp (or Frage lay-away)
	TappRule TappRule
}

// ToMove is the seat to play the next card.
func (p *Position) ToMove() int { return (p.Leader + p.NTrick) % p.Players }

// TrickCards returns the cards of the current trick as a set.
func (p *Position) TrickCards() engine.CardSet {
	var s engine.CardSet
	for i := 0; i < p.NTrick; i++ {
		s = s.With(p.Trick[i])
	}
	return s
}

// Validate checks the position's shape: player count, disjoint hands whose sizes fit the
// trick in progress, a legal leader and declarer, trump a real suit or NoSuit.
func (p *Position) Validate() error {
	if p.Players != 3 && p.Players != 4 {
		return fmt.Errorf("doubledummy: %d players (3 or 4)", p.Players)
	}
	if p.Leader < 0 || p.Leader >= p.Players || p.Declarer < 0 || p.Declarer >= p.Players {
		return fmt.Errorf("doubledummy: leader %d or declarer %d out of range", p.Leader, p.Declarer)
	}
	if p.NTrick < 0 || p.NTrick >= p.Players {
		return fmt.Errorf("doubledummy: %d cards in the current trick", p.NTrick)
	}
	if p.Trump != engine.NoSuit && p.Trump >= engine.NumSuits {
		return fmt.Errorf("doubledummy: trump %d", p.Trump)
	}
	var all engine.CardSet
	for i := 0; i < p.NTrick; i++ {
		c := p.Trick[i]
		if !c.Valid() || all.Has(c) {
			return fmt.Errorf("doubledummy: bad trick card %v", c)
		}
		all = all.With(c)
	}
	base := -1
	for s := 0; s < p.Players; s++ {
		if all&p.Hands[s] != 0 {
			return fmt.Errorf("doubledummy: card %v held twice", (all & p.Hands[s]).Lowest())
		}
		all |= p.Hands[s]
		n := p.Hands[s].Len()
		if (s-p.Leader+p.Players)%p.Players < p.NTrick {
			n++ // this seat has already played to the current trick
		}
		if base < 0 {
			base = n
		} else if n != base {
			return fmt.Errorf("doubledummy: hand sizes do not fit the trick (seat %d)", s)
		}
	}
	if base == 0 && p.NTrick == 0 {
		return nil
	}
	if base == 0 {
		return fmt.Errorf("doubledummy: empty hands")
	}
	return nil
}

// Legal returns the cards the player to move may play (R-PLAY-2).
func (p *Position) Legal() engine.CardSet {
	h := p.Hands[p.ToMove()]
	if p.NTrick == 0 {
		return h
	}
	return legalFollow(h, p.Trick[0].Suit(), p.Trump)
}

func legalFollow(h engine.CardSet, led, trump engine.Suit) engine.CardSet {
	if f := h.OfSuit(led); f != 0 {
		return f
	}
	if trump != engine.NoSuit {
		if t := h.OfSuit(trump); t != 0 {
			return t
		}
	}
	return h
}

// trickWinner returns the index (0-based from the leader) of the card that takes the trick
// (R-PLAY-4).
func trickWinner(cards []engine.Card, trump engine.Suit) int {
	best := 0
	for i := 1; i < len(cards); i++ {
		c, b := cards[i], cards[best]
		if c.Suit() == b.Suit() {
			if c > b {
				best = i
			}
		} else if trump != engine.NoSuit && c.Suit() == trump {
			best = i
		}
	}
	return best
}

// Play plays c for the player to move and, when it completes the trick, settles it. It does
// not check legality (see Legal).
func (p *Position) Play(c engine.Card) {
	m := p.ToMove()
	p.Hands[m] = p.Hands[m].Without(c)
	p.Trick[p.NTrick] = c
	p.NTrick++
	if p.NTrick < p.Players {
		return
	}
	w := (p.Leader + trickWinner(p.Trick[:p.Players], p.Trump)) % p.Players
	pts := 0
	for i := 0; i < p.Players; i++ {
		pts += p.Trick[i].Points()
	}
	p.Taken[w] += pts
	p.Tricks[w]++
	p.Leader = w
	p.NTrick = 0
	if p.Hands[w] == 0 && p.TappRule == TappLastTrick {
		p.Taken[w] += p.Tapp
	}
}

// Done reports whether every card has been played.
func (p *Position) Done() bool {
	return p.NTrick == 0 && p.Hands[p.Leader] == 0
}

// Value is the goal's value of a finished position (or the part of it earned so far): the
// declarer's (in Ramsch the viewpoint seat's) card points for GoalPoints and GoalRamsch,
// including the tapp where it counts for him, or his trick count for the trick goals.
func (p *Position) Value() int {
	switch p.Goal {
	case GoalAllTricks, GoalNoTrick:
		return p.Tricks[p.Declarer]
	case GoalPoints:
		if p.TappRule == TappDeclarer {
			return p.Taken[p.Declarer] + p.Tapp
		}
	}
	return p.Taken[p.Declarer]
}

// RemainingTricks is the number of tricks still to be completed, the current one included.
func (p *Position) RemainingTricks() int {
	n := p.Hands[p.Leader].Len()
	if p.NTrick > 0 {
		n++
	}
	return n
}

func (p *Position) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s trump=%v decl=%d lead=%d", p.Goal, p.Trump, p.Declarer, p.Leader)
	for s := 0; s < p.Players; s++ {
		fmt.Fprintf(&b, " | %d: %v", s, p.Hands[s])
	}
	if p.NTrick > 0 {
		fmt.Fprintf(&b, " | trick:")
		for i := 0; i < p.NTrick; i++ {
			fmt.Fprintf(&b, " %v", p.Trick[i])
		}
	}
	fmt.Fprintf(&b, " | taken %v tricks %v tapp %d/%d", p.Taken[:p.Players], p.Tricks[:p.Players], p.Tapp, p.TappRule)
	return b.String()
}
