package engine

// Declaration: everything between the bidding and the first card — Frage take-up and
// lay-away, classic Solo trump, the Rufer call and give, the Tout question.

// startDeclaration moves on from a resolved bidding to the contract's first decision.
func (s *State) startDeclaration() {
	d := s.declarer
	switch s.contract {
	case Frage:
		// R-MOD-FRAGE, R-CL-BID-1: the declarer takes the tapp into his hand; only he sees it.
		s.hands[d] |= s.tapp
		s.emit(EvTappTaken, d) // Cards: the dealt tapp
		s.discardsLeft = int8(s.tapp.Len())
		s.tapp = 0
		s.phase, s.toMove = phDiscard, d
		return
	case Rufer, HeartRufer:
		s.phase, s.toMove = phCall, d
		return
	case Solo:
		if s.rules.Variant == Classic {
			s.phase, s.toMove = phTrump, d // R-CL-ORDER
			return
		}
	}
	s.afterDeclaration()
}

// afterDeclaration asks the Tout question in the older variants, else starts play.
func (s *State) afterDeclaration() {
	if s.rules.Variant != Modern {
		s.phase, s.toMove = phTout, s.declarer // R-CL-ORDER: always asked
		return
	}
	leader := Seat(0) // R-PLAY-1
	if s.contract == Ouvert {
		leader = s.declarer // R-MOD-OUVERT
	}
	s.startPlay(leader)
}

func (s *State) applyDiscard(p Seat, c Card) {
	s.hands[p] &^= 1 << c
	s.discards |= 1 << c
	ev := s.emit(EvDiscard, p)
	ev.card = c
	ev.action = DiscardAction(c)
	s.discardsLeft--
	if s.discardsLeft == 0 {
		s.afterDeclaration()
	}
}

func (s *State) applyTrump(p Seat, a Action) {
	s.trump = a.Suit
	ev := s.emit(EvTrump, p)
	ev.trump = a.Suit
	ev.action = a
	s.afterDeclaration()
}

// applyCall handles the Rufer call: the holder hands the card over at once; if it lies in the
// tapp there is no exchange (R-MOD-RUFER).
func (s *State) applyCall(p Seat, a Action) {
	c := a.Card
	s.called = c
	ev := s.emit(EvCall, p)
	ev.card, ev.action = c, a
	holder := NoSeat
	for seat := Seat(0); seat < Seat(s.n); seat++ {
		if s.hands[seat].Has(c) {
			holder = seat
		}
	}
	ev = s.emit(EvCalledCard, p)
	ev.card, ev.holder = c, holder
	if holder == NoSeat {
		s.calledInTapp = true
		s.afterDeclaration()
		return
	}
	s.holder = holder
	s.hands[holder] &^= 1 << c
	s.hands[p] |= 1 << c
	s.phase = phGive
}

func (s *State) applyGive(p Seat, a Action) {
	c := a.Card
	s.given = c
	s.hands[p] &^= 1 << c
	s.hands[s.holder] |= 1 << c
	ev := s.emit(EvGive, p)
	ev.card, ev.holder, ev.action = c, s.holder, a
	s.afterDeclaration()
}

func (s *State) applyTout(p Seat, a Action) {
	s.tout = a.Kind == ActTout
	ev := s.emit(EvTout, p)
	ev.tout, ev.action = s.tout, a
	s.startPlay(0) // R-CL-ORDER: then forehand leads
}

// startRamsch begins a Ramsch: no declarer, no trump, forehand leads (R-MOD-RAMSCH).
func (s *State) startRamsch() {
	s.setContract(NoSeat, Ramsch, NoSuit)
	s.startPlay(0)
}
