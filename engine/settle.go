package engine

// Settlement: R-MOD-SETTLE-1, R-MOD-RAMSCH, R-CL-SCORE-*, R-WT-SCORE-1, R-WT-TOUT, R-POT,
// R-POT-CAP.

// MaxPot is the most the pot holds (R-POT-CAP): a payment into it that would take it past
// MaxPot pays only what fills it. A lost Solo doubles the pot (R-POT), so without a cap a
// session of random play outgrows the wire's 32-bit integers within about a hundred deals
// and the engine's 64-bit ones within a few thousand; with it, every pot and every payoff
// fits 32 bits.
const MaxPot = 1_000_000

// Outcome is the result of a finished deal.
type Outcome struct {
	ThrownIn bool     // everybody passed in an auction (R-CL-PASS)
	Declarer Seat     // NoSeat for Ramsch and a thrown-in deal
	Contract Contract // Ramsch when everybody passed in modern; NoContract when thrown in
	Trump    Suit
	Tout     bool

	// Points are the card points credited per seat: tricks, plus for the declarer the tapp
	// (Solo, Heart Solo) or his lay-away (Frage); in Ramsch the last trick's winner takes the
	// tapp. The tapp in Bettel, Ouvert, Rufer and Durch, and cards left unplayed when a deal
	// ends early (R-PLAY-6), count for nobody.
	Points [MaxPlayers]int
	Tricks [MaxPlayers]int

	DeclarerWon bool
	Draw        bool // 60–60 in classic and wuerttemberg (R-CL-SCORE-1)

	// Payoff per seat: cents in modern, game points in classic and wuerttemberg, including
	// the dealer's ante and the declarer's pot payments (R-POT).
	Payoff [MaxPlayers]int

	// PotBefore is the pot carried in (Options.Pot), PotAfter the pot after this deal;
	// sum(Payoff) + (PotAfter - PotBefore) == 0 always.
	PotBefore, PotAfter int
}

// DeclarerPoints returns the declarer's card points (0 without a declarer).
func (o *Outcome) DeclarerPoints() int {
	if o.Declarer < 0 || o.Declarer >= MaxPlayers {
		return 0
	}
	return o.Points[o.Declarer]
}

// finish ends the deal: settles it and logs the reveal and the settlement.
func (s *State) finish() {
	s.phase, s.toMove = phDone, NoSeat
	s.settle()
	s.emit(EvDealEnd, NoSeat) // Hands, Cards, Discards: from the deal
	ev := s.emit(EvSettled, s.declarer)
	ev.contract = s.contract // Payoff, PotAfter: from the outcome
}

func (s *State) settle() {
	o := &s.outcome
	*o = Outcome{
		ThrownIn: s.thrownIn, Declarer: s.declarer, Contract: s.contract, Trump: s.trump,
		Tout: s.tout, Points: s.points, Tricks: s.taken, PotBefore: s.opts.Pot,
	}
	n := int(s.n)
	pot := s.opts.Pot
	// payIn moves amount from seat's payoff into the pot, no further than MaxPot (R-POT-CAP).
	payIn := func(seat Seat, amount int) {
		amount = min(amount, MaxPot-pot)
		o.Payoff[seat] -= amount
		pot += amount
	}
	if s.rules.Pot {
		// R-POT: the dealer antes 2 at the start of every deal, thrown-in deals included.
		payIn(Seat(n-1), 2)
	}
	defer func() { o.PotAfter = pot }()
	if s.thrownIn {
		return
	}
	d := s.declarer
	switch s.contract {
	case Ramsch:
		s.settleRamsch()
		return
	case Frage:
		o.Points[d] += s.discards.Points()
	case Solo, HeartSolo:
		o.Points[d] += s.deal.Tapp.Points()
	}
	if s.rules.Variant == Modern {
		var won bool
		switch {
		case s.contract.pointGame():
			won = o.Points[d] >= 61 // R-MOD-SOLO: 61 wins, 60 loses
		case s.contract.nullGame():
			won = s.taken[d] == 0
		default:
			won = s.taken[d] == int(s.handSize)
		}
		o.DeclarerWon = won
		s.pay(s.rules.Stakes[s.contract], won)
		return
	}
	// Older variants.
	var value int
	var won bool
	if s.tout {
		won = s.taken[d] == int(s.handSize)
		value = s.baseValue(60) * s.rules.ToutFactor // R-CL-SCORE-3, R-WT-TOUT
	} else {
		dp := o.Points[d]
		if dp == 60 {
			o.Draw = true // R-CL-SCORE-1: nobody pays; the pot stays
			return
		}
		won = dp > 60
		sc := dp - 60
		if !won {
			sc = 60 - dp
		}
		value = s.baseValue(sc)
	}
	o.DeclarerWon = won
	s.pay(value, won)
	if s.rules.Pot {
		switch {
		case s.contract == Frage && !won:
			payIn(d, value) // the declarer pays the pot what he pays each defender
		case s.contract != Frage && won:
			o.Payoff[d] += pot // a won Solo takes the whole pot, ante included
			pot = 0
		case s.contract != Frage:
			payIn(d, pot) // a lost Solo pays in as much as the pot holds
		}
	}
}

// baseValue is the game-point value for the winning side's points above 60 (R-CL-SCORE-2,
// R-WT-SCORE-1).
func (s *State) baseValue(sc int) int {
	if s.rules.Variant == Classic {
		switch s.contract {
		case Frage:
			return (sc + 3) / 4
		case Solo:
			return (sc + 1) / 2
		}
		return sc
	}
	if s.contract == Solo {
		return 2 * sc
	}
	return sc
}

// pay moves value from every defender to the declarer, or back (R-MOD-SETTLE-1).
func (s *State) pay(value int, won bool) {
	if !won {
		value = -value
	}
	d := s.declarer
	for seat := 0; seat < int(s.n); seat++ {
		if Seat(seat) != d {
			s.outcome.Payoff[seat] -= value
			s.outcome.Payoff[d] += value
		}
	}
}

// settleRamsch: the last trick takes the tapp; the most points pays every other player the
// stake, twice to a Jungfer; tied losers each pay every player not tied; all tied, nobody pays
// (R-MOD-RAMSCH).
func (s *State) settleRamsch() {
	o := &s.outcome
	n := int(s.n)
	if s.nTricks > 0 {
		o.Points[s.tricks[s.nTricks-1].Winner] += s.deal.Tapp.Points()
	}
	most := 0
	for i := 0; i < n; i++ {
		most = max(most, o.Points[i])
	}
	stake := s.rules.Stakes[Ramsch]
	for l := 0; l < n; l++ {
		if o.Points[l] != most {
			continue
		}
		for w := 0; w < n; w++ {
			if o.Points[w] == most {
				continue
			}
			amt := stake
			if s.taken[w] == 0 {
				amt *= 2 // Jungfer
			}
			o.Payoff[l] -= amt
			o.Payoff[w] += amt
		}
	}
}
