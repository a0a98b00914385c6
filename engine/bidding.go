package engine

// Bidding: modern's two rounds (R-MOD-BID-1..4) and the older variants' auction (R-AUCTION).

// applyBid1 records a round-one "play" or "pass" (R-MOD-BID-1).
func (s *State) applyBid1(p Seat, a Action) {
	if a.Kind == ActPlay {
		s.said[p] = sayPlay
	} else {
		s.said[p] = sayPass // final for this deal (§9.8)
	}
	s.emitBid(p, a)
	s.bidIdx++
	if s.bidIdx < s.n {
		s.toMove = Seat((s.bidIdx + 1) % s.n)
		return
	}
	s.bidIdx = 0
	if s.nextNamer() {
		s.phase = phBid2
		return
	}
	s.endBidding()
	s.startRamsch() // R-MOD-BID-4
}

// nextNamer moves bidIdx to the next round-two speaker (same order as round one, only those
// who said play, R-MOD-BID-2) and reports whether there is one.
func (s *State) nextNamer() bool {
	for ; s.bidIdx < s.n; s.bidIdx++ {
		seat := Seat((s.bidIdx + 1) % s.n)
		if s.said[seat] == sayPlay {
			s.toMove = seat
			return true
		}
	}
	return false
}

func (s *State) emitBid(p Seat, a Action) {
	ev := s.emit(EvBid, p)
	ev.action = a
}

func (s *State) endBidding() { s.nBidMoves = int8(len(s.history)) }

// checkNamed checks a round-two contract (R-MOD-BID-2).
func (s *State) checkNamed(a Action) error {
	if a.Kind != ActBid {
		return ruleErr("R-MOD-BID-2", "round two: name a contract, not %s (having said play you must name one)", a)
	}
	return s.checkContractName(a, "R-MOD-BID-2")
}

func (s *State) checkContractName(a Action, rule string) error {
	c := a.Contract
	if !c.Biddable() {
		return ruleErr(rule, "unknown contract %d", uint8(c))
	}
	if !s.rules.biddable(c) {
		if c == Frage {
			return ruleErr(rule, "frage is not played (option frage=off)")
		}
		return ruleErr(rule, "%s is not a contract of %s", c, s.rules.Variant)
	}
	if s.rules.Variant == Modern && c.takesSuit() {
		switch a.Suit {
		case Clubs, Spades, Diamonds:
		case Hearts:
			return ruleErr(rule, "%s:H is called heart%s", c, c)
		default:
			return ruleErr(rule, "%s needs a trump suit: %s:C, %s:S or %s:D", c, c, c, c)
		}
	}
	if s.rules.Variant != Modern && a.Suit != NoSuit {
		return ruleErr("R-CL-BID-1", "bid plain %s; a classic Solo names its trump after winning the auction", c)
	}
	return nil
}

// applyBid2 records a named contract and resolves round two when everyone has named.
func (s *State) applyBid2(p Seat, a Action) {
	s.named[p] = a
	s.emitBid(p, a)
	s.bidIdx++
	if s.nextNamer() {
		return
	}
	s.endBidding()
	// R-MOD-BID-3: the highest contract wins; among equals the seat nearer forehand (lowest
	// seat number), whatever the suit.
	best := NoSeat
	for seat := Seat(0); seat < Seat(s.n); seat++ {
		if s.said[seat] == sayPlay && (best == NoSeat || s.named[seat].Contract > s.named[best].Contract) {
			best = seat
		}
	}
	win := s.named[best]
	trump := win.Contract.fixedTrump()
	if win.Contract.takesSuit() {
		trump = win.Suit
	}
	s.setContract(best, win.Contract, trump)
	s.startDeclaration()
}

// setContract fixes the result of the bidding and announces it.
func (s *State) setContract(d Seat, c Contract, trump Suit) {
	s.declarer, s.contract, s.trump = d, c, trump
	ev := s.emit(EvContract, d)
	ev.contract, ev.trump = c, trump
}

// beats reports whether seat p may bid c over the standing bid (R-AUCTION): a higher
// contract, or an equal one from a seat nearer forehand ("holding").
func (s *State) beats(p Seat, c Contract) bool {
	if s.standing == NoSeat {
		return true
	}
	return c > s.standingBid || (c == s.standingBid && p < s.standing)
}

func (s *State) checkAuction(a Action) error {
	if a.Kind == ActPass {
		return nil
	}
	if a.Kind != ActBid {
		return ruleErr("R-AUCTION", "bid a contract or pass, not %s", a)
	}
	if err := s.checkContractName(a, "R-CL-BID-1"); err != nil {
		return err
	}
	if !s.beats(s.toMove, a.Contract) {
		if a.Contract == s.standingBid {
			return ruleErr("R-AUCTION", "%s does not beat the standing %s of seat %s: only a seat nearer forehand may hold an equal bid", a.Contract, s.standingBid, s.standing)
		}
		return ruleErr("R-AUCTION", "%s does not beat the standing %s of seat %s", a.Contract, s.standingBid, s.standing)
	}
	return nil
}

// applyAuction records a bid or pass and moves the auction on (R-AUCTION).
func (s *State) applyAuction(p Seat, a Action) {
	if a.Kind == ActPass {
		s.said[p] = sayPass
	} else {
		s.standing, s.standingBid = p, a.Contract
	}
	s.emitBid(p, a)
	in := 0
	for seat := Seat(0); seat < Seat(s.n); seat++ {
		if s.said[seat] != sayPass {
			in++
		}
	}
	// Ends when only the standing bidder is in, or when everyone has passed.
	if in == 0 {
		s.endBidding()
		s.thrownIn = true
		s.emit(EvThrowIn, NoSeat)
		s.finish() // R-CL-PASS
		return
	}
	if in == 1 && s.standing != NoSeat {
		s.endBidding()
		c := s.standingBid
		trump := c.fixedTrump()
		if c == Solo && s.rules.Variant == Wuerttemberg {
			trump = Hearts // R-WT-1: hearts are always trumps
		}
		s.setContract(s.standing, c, trump)
		s.startDeclaration()
		return
	}
	// Next player in turn who is still in and is not the standing bidder.
	next := p
	for {
		next = (next + 1) % Seat(s.n)
		if s.said[next] != sayPass && next != s.standing {
			break
		}
	}
	s.toMove = next
}
