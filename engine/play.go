package engine

// Trick play (R-PLAY-1..6).

func (s *State) startPlay(leader Seat) {
	s.phase = phPlay
	s.leader, s.toMove = leader, leader
}

// legalCards returns the cards the player to move may play (R-PLAY-2): follow suit; else a
// trump if there is a trump suit and he holds one; else any card. No duty to beat (R-PLAY-3).
func (s *State) legalCards() CardSet {
	if s.trickLen == 0 {
		return s.hands[s.toMove]
	}
	return Playable(s.hands[s.toMove], s.trick[0].Suit(), s.trump)
}

// Playable returns the cards of hand that may be played to a trick whose first card is of
// suit led (NoSuit: the player leads, any card), trump being the trump suit or NoSuit
// (R-PLAY-2): follow suit; else a trump if there is a trump suit and the hand holds one; else
// any card.
func Playable(hand CardSet, led, trump Suit) CardSet {
	if led >= NumSuits {
		return hand
	}
	if f := hand & SuitSet(led); f != 0 {
		return f
	}
	if trump < NumSuits {
		if t := hand & SuitSet(trump); t != 0 {
			return t
		}
	}
	return hand
}

func (s *State) checkCard(a Action) error {
	if a.Kind != ActCard {
		return ruleErr("R-PLAY-2", "play a card, not %s", a)
	}
	c := a.Card
	hand := s.hands[s.toMove]
	if !hand.Has(c) {
		return ruleErr("R-PLAY-2", "cannot play %s: not in your hand", c)
	}
	if s.legalCards().Has(c) {
		return nil
	}
	led := s.trick[0].Suit()
	if hand&SuitSet(led) != 0 {
		return ruleErr("R-PLAY-2", "must follow suit %s", led)
	}
	return ruleErr("R-PLAY-2", "cannot follow %s: must play a trump (%s)", led, s.trump)
}

// Beats reports whether card c, played to a trick, beats the card best that wins it so far,
// trump being the trump suit or NoSuit (R-PLAY-4): a higher card of best's suit, or a trump
// on a card that is not one.
func Beats(c, best Card, trump Suit) bool {
	if c.Suit() == best.Suit() {
		return c > best
	}
	return c.Suit() == trump
}

// playCard plays a legal card for seat p.
func (s *State) playCard(p Seat, c Card) {
	s.hands[p] &^= 1 << c
	s.played[p] |= 1 << c
	if s.trickLen > 0 {
		// Voids shown in play (public information, used by observations and sampling).
		if led := s.trick[0].Suit(); c.Suit() != led {
			s.voids[p] |= 1 << led
			if s.trump < NumSuits && c.Suit() != s.trump {
				s.voids[p] |= 1 << s.trump
			}
		}
	}
	s.trick[s.trickLen] = c
	s.trickLen++
	ev := s.emit(EvCard, p)
	ev.card, ev.trick = c, s.nTricks
	ev.action = CardAction(c)
	if s.contract == Ouvert && !s.exposed && p == s.declarer {
		// R-MOD-OUVERT: once his first card is played the declarer's hand lies face up.
		s.exposed = true
		ev := s.emit(EvOuvertExposed, p)
		ev.card = c // Cards: the dealt hand without this first card (no exchange in Ouvert)
	}
	if s.trickLen < s.n {
		s.toMove = (p + 1) % Seat(s.n)
		return
	}
	s.closeTrick()
}

// closeTrick scores the full trick, leads the winner to the next, and ends the deal when all
// tricks are played or the result can no longer change (R-PLAY-6).
func (s *State) closeTrick() {
	n := int(s.n)
	best, win, pts := s.trick[0], 0, s.trick[0].Points()
	for i := 1; i < n; i++ {
		c := s.trick[i]
		pts += c.Points()
		if Beats(c, best, s.trump) {
			best, win = c, i
		}
	}
	winner := (s.leader + Seat(win)) % Seat(n)
	s.tricks[s.nTricks] = Trick{Leader: s.leader, Cards: s.trick, Winner: winner, Points: pts}
	ev := s.emit(EvTrickWon, winner)
	ev.trick, ev.points = s.nTricks, int16(pts)
	s.nTricks++
	s.points[winner] += pts
	s.taken[winner]++
	s.trickLen = 0
	s.trick = [MaxPlayers]Card{NoCard, NoCard, NoCard, NoCard}
	s.leader, s.toMove = winner, winner
	d := s.declarer
	switch {
	case s.nTricks == s.handSize:
	case s.contract.nullGame() && winner == d:
	case (s.contract.allTricks() || s.tout) && winner != d:
	default:
		return
	}
	s.finish()
}
