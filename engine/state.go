package engine

import (
	"errors"
	"fmt"
)

// Options are the per-deal inputs that are not part of the rule set.
type Options struct {
	Pot          int  // the pot carried in from earlier deals (R-POT); must be 0 when the rule set has no pot, at most MaxPot
	ForcedRamsch bool // R-SESSION-3: no bidding, straight to Ramsch (modern only)
}

// phase is the state machine's position; Decision is derived from it.
type phase uint8

const (
	phDone    phase = iota // terminal (first, so that a zero State is inert rather than broken)
	phBid1                 // modern round one (R-MOD-BID-1)
	phBid2                 // modern round two (R-MOD-BID-2)
	phAuction              // older variants (R-AUCTION)
	phDiscard              // Frage lay-away
	phTrump                // classic Solo trump
	phCall                 // Rufer call
	phGive                 // Rufer give
	phTout                 // older variants' Tout question
	phPlay                 // trick play
)

var phaseDecision = [...]Decision{DecideNone, DecideBid, DecideContract, DecideBid, DecideDiscard, DecideTrump, DecideCall, DecideGive, DecideTout, DecideCard}

const (
	sayNone uint8 = iota
	sayPass
	sayPlay
)

// maxTricks is the most tricks a deal has (3 players, 36 cards).
const maxTricks = 11

// Trick is one trick. Cards are in playing order: Cards[i] was played by seat
// (Leader+i) mod Players; unplayed positions (and the fourth with 3 players) hold NoCard.
type Trick struct {
	Leader Seat
	Cards  [MaxPlayers]Card
	Winner Seat // NoSeat while in progress
	Points int
}

// State is one deal in progress: the whole game state machine of TAPP-RULES.md for every
// variant. It is flat (arrays and bitmasks) so Clone and CopyFrom are cheap, and Reset reuses
// its history and event buffers, so a deal played on a reused State does not allocate.
type State struct {
	rules RuleSet
	deal  Deal
	opts  Options

	n        int8 // players
	handSize int8 // dealt hand size = number of tricks
	phase    phase
	toMove   Seat

	hands    [MaxPlayers]CardSet
	tapp     CardSet // the tapp while it lies unseen (empty once a Frage declarer has taken it)
	discards CardSet // Frage lay-away

	// bidding
	bidIdx      int8 // modern: position in the speaking order of the round
	said        [MaxPlayers]uint8
	named       [MaxPlayers]Action
	standing    Seat // auction: the standing bidder
	standingBid Contract
	nBidMoves   int8 // history entries that belong to the bidding

	// declaration
	declarer     Seat
	contract     Contract
	trump        Suit
	tout         bool
	discardsLeft int8
	called       Card
	holder       Seat
	calledInTapp bool
	given        Card
	exposed      bool
	thrownIn     bool

	// play
	leader   Seat
	trickLen int8
	trick    [MaxPlayers]Card
	nTricks  int8
	tricks   [maxTricks]Trick
	points   [MaxPlayers]int
	taken    [MaxPlayers]int
	played   [MaxPlayers]CardSet
	voids    [MaxPlayers]Suits

	outcome Outcome
	history []Move
	log     []evRec
}

// Suits is a set of suits as a bitmask (bit s for suit s).
type Suits uint8

// Has reports whether suit s is in the set.
func (x Suits) Has(s Suit) bool { return s < NumSuits && x&(1<<s) != 0 }

// String returns the suit letters in canonical order, e.g. "CH".
func (x Suits) String() string {
	b := make([]byte, 0, NumSuits)
	for s := Suit(0); s < NumSuits; s++ {
		if x.Has(s) {
			b = append(b, suitLetters[s])
		}
	}
	return string(b)
}

const (
	historyCap = 96
	eventsCap  = 128
)

// NewState starts a deal. The rule set and deal are validated; the pot must not be negative
// (nor non-zero without a pot); a forced Ramsch needs modern rules.
func NewState(r RuleSet, d Deal, o Options) (*State, error) {
	s := &State{
		history: make([]Move, 0, historyCap),
		log:     make([]evRec, 0, eventsCap),
	}
	if err := s.Reset(r, d, o); err != nil {
		return nil, err
	}
	return s, nil
}

// Reset starts a new deal on s, reusing its buffers (no allocation once they are large
// enough). On error s is unchanged.
func (s *State) Reset(r RuleSet, d Deal, o Options) error {
	if err := d.Validate(r); err != nil {
		return err
	}
	if o.Pot < 0 {
		return errors.New("options: negative pot")
	}
	if o.Pot > MaxPot {
		return fmt.Errorf("options: pot %d carried in is more than the pot holds, %d (R-POT-CAP)", o.Pot, MaxPot)
	}
	if o.Pot != 0 && !r.Pot {
		return fmt.Errorf("options: pot %d carried in but the rule set has no pot", o.Pot)
	}
	if o.ForcedRamsch && r.Variant != Modern {
		return fmt.Errorf("options: forced Ramsch (R-SESSION-3) exists only in modern, not %s", r.Variant)
	}
	s.reset(&r, &d, o)
	return nil
}

// reset starts the deal without validation.
func (s *State) reset(r *RuleSet, d *Deal, o Options) {
	h, e := s.history[:0], s.log[:0]
	*s = State{}
	s.history, s.log = h, e
	s.rules, s.deal, s.opts = *r, *d, o
	hand, _ := r.sizes()
	s.n, s.handSize = int8(r.Players), int8(hand)
	s.hands = d.Hands
	s.tapp = d.Tapp
	s.standing = NoSeat
	s.declarer = NoSeat
	s.trump = NoSuit
	s.called = NoCard
	s.holder = NoSeat
	s.given = NoCard
	s.leader = NoSeat
	s.trick = [MaxPlayers]Card{NoCard, NoCard, NoCard, NoCard}
	s.emit(EvDealt, NoSeat)
	switch {
	case o.ForcedRamsch:
		s.startRamsch()
	case r.Variant == Modern:
		s.phase = phBid1
		s.toMove = 1 % Seat(s.n) // R-MOD-BID-1: the player after forehand speaks first
	default:
		s.phase = phAuction
		s.toMove = 0 // R-AUCTION: forehand speaks first
	}
}

// emit appends a log record with the "none" values filled in and returns it for the caller to
// complete.
func (s *State) emit(k EventKind, seat Seat) *evRec {
	s.log = append(s.log, evRec{kind: k, seat: seat, holder: NoSeat, trump: NoSuit, trick: -1,
		card: NoCard, action: Action{Suit: NoSuit, Card: NoCard}})
	return &s.log[len(s.log)-1]
}

// Rules returns the rule set.
func (s *State) Rules() RuleSet { return s.rules }

// Deal returns the deal as dealt.
func (s *State) Deal() Deal { return s.deal }

// Options returns the deal's options.
func (s *State) Options() Options { return s.opts }

// Decision returns the kind of decision due (DecideNone when terminal).
func (s *State) Decision() Decision { return phaseDecision[s.phase] }

// ToMove returns the seat to decide, NoSeat when terminal.
func (s *State) ToMove() Seat { return s.toMove }

// Terminal reports whether the deal is over (settled).
func (s *State) Terminal() bool { return s.phase == phDone }

// History returns every move so far, unredacted. The slice is the state's own: do not modify
// it; it stays valid until the next Apply, Reset or CopyFrom.
func (s *State) History() []Move { return s.history }

// Declarer returns the declarer, NoSeat before the bidding is resolved, in Ramsch and when
// thrown in.
func (s *State) Declarer() Seat { return s.declarer }

// Contract returns the contract (NoContract before the bidding is resolved or when thrown in).
func (s *State) Contract() Contract { return s.contract }

// Trump returns the trump suit, NoSuit if none (yet).
func (s *State) Trump() Suit { return s.trump }

// Tout reports whether Tout was announced.
func (s *State) Tout() bool { return s.tout }

// Hand returns seat's current hand (full information; bots get Observe instead).
func (s *State) Hand(seat Seat) CardSet {
	if seat < 0 || seat >= MaxPlayers {
		return 0
	}
	return s.hands[seat]
}

// TricksPlayed returns the number of completed tricks.
func (s *State) TricksPlayed() int { return int(s.nTricks) }

// Outcome returns the result; valid once Terminal (the zero Outcome before).
func (s *State) Outcome() Outcome {
	if s.phase != phDone {
		return Outcome{Declarer: NoSeat, Trump: NoSuit}
	}
	return s.outcome
}

// Clone returns an independent copy.
func (s *State) Clone() *State {
	c := &State{
		history: make([]Move, 0, max(cap(s.history), historyCap)),
		log:     make([]evRec, 0, max(cap(s.log), eventsCap)),
	}
	c.CopyFrom(s)
	return c
}

// CopyFrom makes s a copy of o, reusing s's buffers.
func (s *State) CopyFrom(o *State) {
	if s == o {
		return
	}
	h, e := s.history, s.log
	*s = *o
	s.history = append(h[:0], o.history...)
	s.log = append(e[:0], o.log...)
}

// LegalActions appends the legal actions, in canonical order (by kind, then contract, then
// suit C S H D, then card), to buf and returns it. It does not allocate when buf has room.
func (s *State) LegalActions(buf []Action) []Action {
	switch s.phase {
	case phBid1:
		return append(buf, PassAction(), PlayAction())
	case phBid2:
		for c := Frage; c <= HeartDurch; c++ {
			if !s.rules.biddable(c) {
				continue
			}
			if c.takesSuit() {
				buf = append(buf, BidAction(c, Clubs), BidAction(c, Spades), BidAction(c, Diamonds))
			} else {
				buf = append(buf, BidAction(c, NoSuit))
			}
		}
		return buf
	case phAuction:
		buf = append(buf, PassAction())
		for c := Frage; c <= HeartSolo; c++ {
			if s.rules.biddable(c) && s.beats(s.toMove, c) {
				buf = append(buf, BidAction(c, NoSuit))
			}
		}
		return buf
	case phDiscard:
		for set := s.hands[s.toMove]; set != 0; set &= set - 1 {
			buf = append(buf, DiscardAction(set.Lowest()))
		}
		return buf
	case phTrump:
		return append(buf, TrumpAction(Clubs), TrumpAction(Spades), TrumpAction(Diamonds))
	case phCall:
		for set := s.rules.Pack() &^ s.hands[s.toMove]; set != 0; set &= set - 1 {
			buf = append(buf, CallAction(set.Lowest()))
		}
		return buf
	case phGive:
		for set := s.hands[s.toMove].Without(s.called); set != 0; set &= set - 1 {
			buf = append(buf, GiveAction(set.Lowest()))
		}
		return buf
	case phTout:
		return append(buf, ToutAction(true), ToutAction(false))
	case phPlay:
		for set := s.legalCards(); set != 0; set &= set - 1 {
			buf = append(buf, CardAction(set.Lowest()))
		}
		return buf
	}
	return buf
}

// LegalCards returns the cards the player to move may play (empty outside trick play).
func (s *State) LegalCards() CardSet {
	if s.phase != phPlay {
		return 0
	}
	return s.legalCards()
}

// Check returns nil if a is legal now, else a *RuleError naming the rule it breaks.
func (s *State) Check(a Action) error {
	return s.check(a.Canonical())
}

func (s *State) check(a Action) error {
	switch s.phase {
	case phDone:
		return ruleErr("R-PLAY-6", "the deal is over; nobody is to move")
	case phBid1:
		if a.Kind != ActPass && a.Kind != ActPlay {
			return ruleErr("R-MOD-BID-1", "round one: say play or pass, not %s", a)
		}
		return nil
	case phBid2:
		return s.checkNamed(a)
	case phAuction:
		return s.checkAuction(a)
	case phDiscard:
		rule := "R-MOD-FRAGE"
		if s.rules.Variant != Modern {
			rule = "R-CL-ORDER"
		}
		if a.Kind != ActDiscard {
			return ruleErr(rule, "lay away a card (discard:XX), not %s", a)
		}
		if !s.hands[s.toMove].Has(a.Card) {
			return ruleErr(rule, "cannot lay away %s: not in your hand", a.Card)
		}
		return nil
	case phTrump:
		if a.Kind != ActTrump {
			return ruleErr("R-CL-ORDER", "name the trump (trump:C, trump:S or trump:D), not %s", a)
		}
		if a.Suit != Clubs && a.Suit != Spades && a.Suit != Diamonds {
			return ruleErr("R-CL-BID-1", "Solo names a trump other than hearts: C, S or D")
		}
		return nil
	case phCall:
		if a.Kind != ActCall {
			return ruleErr("R-MOD-RUFER", "call a card (call:XX), not %s", a)
		}
		if !s.rules.Pack().Has(a.Card) {
			return ruleErr("R-MOD-RUFER", "cannot call %s: not in the %d-card pack", a.Card, s.rules.PackSize)
		}
		if s.hands[s.toMove].Has(a.Card) {
			return ruleErr("R-MOD-RUFER", "cannot call %s: you hold it; call a card you lack", a.Card)
		}
		return nil
	case phGive:
		if a.Kind != ActGive {
			return ruleErr("R-MOD-RUFER", "give a card to %s (give:XX), not %s", s.holder, a)
		}
		if a.Card == s.called {
			return ruleErr("R-MOD-RUFER", "cannot give back the called card %s", a.Card)
		}
		if !s.hands[s.toMove].Has(a.Card) {
			return ruleErr("R-MOD-RUFER", "cannot give %s: not in your hand", a.Card)
		}
		return nil
	case phTout:
		if a.Kind != ActTout && a.Kind != ActNoTout {
			return ruleErr("R-CL-ORDER", "answer the Tout question (tout or notout), not %s", a)
		}
		return nil
	case phPlay:
		return s.checkCard(a)
	}
	return ruleErr("R-SEAT-1", "invalid state")
}

// Apply checks a and, if legal, plays it for the seat to move. On error (always a
// *RuleError) the state is unchanged. It never panics.
func (s *State) Apply(a Action) error {
	a = a.Canonical()
	if err := s.check(a); err != nil {
		return err
	}
	s.apply(a)
	return nil
}

// apply plays a legal canonical action.
func (s *State) apply(a Action) {
	p := s.toMove
	s.history = append(s.history, Move{Seat: p, Action: a})
	switch s.phase {
	case phBid1:
		s.applyBid1(p, a)
	case phBid2:
		s.applyBid2(p, a)
	case phAuction:
		s.applyAuction(p, a)
	case phDiscard:
		s.applyDiscard(p, a.Card)
	case phTrump:
		s.applyTrump(p, a)
	case phCall:
		s.applyCall(p, a)
	case phGive:
		s.applyGive(p, a)
	case phTout:
		s.applyTout(p, a)
	case phPlay:
		s.playCard(p, a.Card)
	}
}
