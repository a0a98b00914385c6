package engine

// Observation is exactly what one seat may know at this point (R-INFO-1..5): its own hand,
// the rule set, every public action, and what it learned privately (the Frage tapp and
// lay-away, the Rufer give). It never contains a card hidden from the seat. A seat outside
// the table gets the public view (no hand, no private facts).
type Observation struct {
	Rules   RuleSet
	Options Options // the pot carried in, and whether this is a forced Ramsch (public)
	Seat    Seat

	Hand      CardSet         // current hand
	Dealt     CardSet         // own hand as dealt
	HandSizes [MaxPlayers]int // every seat's current hand size (public)
	Decision  Decision        // what is due now
	ToMove    Seat            // NoSeat when terminal
	Legal     []Action        // legal actions, only when Seat == ToMove
	History   []Move          // every move so far as this seat saw it (hidden cards NoCard)
	Bids      []Move          // the bidding moves (public)

	Declarer Seat
	Contract Contract
	Trump    Suit
	Tout     bool

	Tapp      CardSet // the tapp, only for the Frage declarer after take-up (R-INFO-2)
	Discarded CardSet // what the Frage declarer laid away, only for him

	Called       Card // the Rufer's called card (NoCard if none yet)
	CalledHolder Seat // the defender who held it (NoSeat if in the tapp or not called yet)
	CalledInTapp bool
	Given        Card // the card given back: only the declarer and the holder (R-INFO-3); everyone once terminal (derivable from the reveal)

	Exposed CardSet // the Ouvert declarer's remaining hand once exposed (R-MOD-OUVERT)

	Tricks      []Trick // completed tricks
	Current     Trick   // in progress (Leader NoSeat outside trick play)
	Played      [MaxPlayers]CardSet
	TricksTaken [MaxPlayers]int
	Voids       [MaxPlayers]Suits // suits each seat has shown it lacks (failing to follow; not trumping when void)

	Reveal   *Deal    // terminal only: every hand as dealt and the tapp (R-INFO-4)
	Discards CardSet  // terminal only: the Frage lay-away
	Outcome  *Outcome // terminal only
}

// Observe returns seat's observation (it allocates; on a hot path, ObserveInto reuses one).
func (s *State) Observe(seat Seat) Observation {
	var o Observation
	s.ObserveInto(seat, &o)
	return o
}

// ObserveInto sets *o to seat's observation, reusing the storage of its slices (Legal,
// History, Tricks): what a referee or a simulation that observes every decision calls, so
// that observing allocates nothing once o has grown. *o is overwritten whole; the slices of
// an observation observed into o before are then those of the new one.
func (s *State) ObserveInto(seat Seat, o *Observation) {
	legal, history, tricks := o.Legal[:0], o.History[:0], o.Tricks[:0]
	inTable := seat >= 0 && seat < Seat(s.n)
	// Every field is set here, or below, or reset (field by field: *o = Observation{...}
	// built the whole struct aside and copied it in, a sixth of observing;
	// TestObserveIntoIsObserve checks that nothing of an earlier observation is left).
	o.Rules, o.Options, o.Seat = s.rules, s.opts, seat
	o.Decision, o.ToMove = s.Decision(), s.toMove
	o.Declarer, o.Contract, o.Trump, o.Tout = s.declarer, s.contract, s.trump, s.tout
	o.Called, o.CalledHolder, o.CalledInTapp, o.Given = s.called, s.holder, s.calledInTapp, NoCard
	o.Played, o.TricksTaken, o.Voids = s.played, s.taken, s.voids
	o.Current = Trick{Leader: NoSeat, Cards: s.trick, Winner: NoSeat}
	o.HandSizes = [MaxPlayers]int{}
	o.Hand, o.Dealt, o.Legal = CardSet(0), CardSet(0), nil
	o.Tapp, o.Discarded, o.Exposed = CardSet(0), CardSet(0), CardSet(0)
	o.Reveal, o.Discards, o.Outcome = nil, CardSet(0), nil
	for i := 0; i < int(s.n); i++ {
		o.HandSizes[i] = s.hands[i].Len()
	}
	if inTable {
		o.Hand, o.Dealt = s.hands[seat], s.deal.Hands[seat]
		if seat == s.toMove {
			o.Legal = s.LegalActions(legal)
		}
	}
	if history == nil {
		history = make([]Move, 0, len(s.history)) // never nil, as Observe always gave it
	}
	// The moves in one copy, then the few a seat may not see redacted (a copy of each,
	// redacted, cost a third of observing).
	history = append(history, s.history...)
	for i := range history {
		if k := history[i].Action.Kind; k == ActDiscard || k == ActGive {
			history[i] = s.redactMove(history[i], seat)
		}
	}
	o.History = history
	o.Bids = o.History[:s.nBidMoves:s.nBidMoves]
	if s.phase == phBid1 || s.phase == phBid2 || s.phase == phAuction {
		o.Bids = o.History[:len(o.History):len(o.History)]
	}
	if inTable && s.contract == Frage && seat == s.declarer {
		o.Tapp, o.Discarded = s.deal.Tapp, s.discards
	}
	if s.given != NoCard && (s.phase == phDone || (inTable && (seat == s.declarer || seat == s.holder))) {
		o.Given = s.given
	}
	if s.exposed {
		o.Exposed = s.hands[s.declarer]
	}
	o.Tricks = append(tricks, s.tricks[:s.nTricks]...)
	if s.phase == phPlay {
		o.Current.Leader = s.leader
	}
	if s.phase == phDone {
		d := s.deal
		out := s.outcome
		o.Reveal, o.Discards, o.Outcome = &d, s.discards, &out
	}
}

// redactMove hides a Frage discard from everyone but the declarer, and the Rufer give from
// everyone but the declarer and the holder (R-INFO-2, R-INFO-3).
func (s *State) redactMove(m Move, seat Seat) Move {
	switch m.Action.Kind {
	case ActDiscard:
		if seat != m.Seat {
			m.Action.Card = NoCard
		}
	case ActGive:
		if seat != m.Seat && seat != s.holder {
			m.Action.Card = NoCard
		}
	}
	return m
}
