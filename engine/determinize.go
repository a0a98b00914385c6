package engine

import (
	"errors"
	"fmt"
)

// Sample returns a full State consistent with the observation o, at the same point of play:
// a determinization for search bots (e.g. for Monte Carlo or ISMCTS). The cards hidden from
// o.Seat are dealt at random subject to everything the seat knows: its own hand and dealt
// hand, the cards played, the voids shown in play (failing to follow; not trumping when
// void), hand sizes, the Frage tapp and lay-away when o.Seat is the Frage declarer, the
// Rufer called card and its holder, the given card where the seat knows it, and an exposed
// Ouvert hand. The public history is then replayed on the sampled deal, with hidden actions
// (others' lay-away, the give) filled in consistently.
//
// The sample is drawn card by card with each card going to a hand (or the tapp/lay-away)
// with probability proportional to the room left there, among the places its suit is allowed
// and that keep a completion possible (Hall's condition per suit); without void constraints
// this is exactly uniform. Bidding is not used as evidence. Observe(o.Seat) of the result
// equals o.
func (o Observation) Sample(rng *Rand) (*State, error) {
	if rng == nil {
		rng = &Rand{}
	}
	r := o.Rules
	if err := r.Validate(); err != nil {
		return nil, err
	}
	n := r.Players
	me := o.Seat
	if me < 0 || int(me) >= n {
		return nil, fmt.Errorf("sample: seat %s is not at the table", me)
	}
	moves := append([]Move(nil), o.History...)
	var deal Deal
	given := o.Given
	var asideOrder CardSet // the cards to fill hidden discards with
	if o.Reveal != nil {
		deal = *o.Reveal
		asideOrder = o.Discards
	} else {
		var err error
		deal, asideOrder, given, err = o.sampleDeal(rng)
		if err != nil {
			return nil, err
		}
	}
	// Fill in the hidden moves.
	fill := asideOrder &^ o.Discarded
	for i := range moves {
		m := &moves[i]
		switch m.Action.Kind {
		case ActDiscard:
			if m.Action.Card == NoCard {
				if fill == 0 {
					return nil, errors.New("sample: more hidden discards than laid-away cards")
				}
				m.Action.Card = fill.Lowest()
				fill = fill.Without(m.Action.Card)
			}
		case ActGive:
			if m.Action.Card == NoCard {
				m.Action.Card = given
			}
		}
	}
	st, err := NewState(r, deal, o.Options)
	if err != nil {
		return nil, fmt.Errorf("sample: inconsistent observation: %w", err)
	}
	for i, m := range moves {
		if st.toMove != m.Seat {
			return nil, fmt.Errorf("sample: move %d (%s): seat %s is not to move", i, m, m.Seat)
		}
		if err := st.Apply(m.Action); err != nil {
			return nil, fmt.Errorf("sample: move %d (%s) does not replay: %w", i, m, err)
		}
	}
	return st, nil
}

// sampleDeal draws the hidden cards and reconstructs a deal as dealt. It returns the deal, the
// laid-away (or, before take-up, nothing relevant) cards to fill hidden discards with, and the
// given card of a Rufer exchange (NoCard if none).
func (o Observation) sampleDeal(rng *Rand) (Deal, CardSet, Card, error) {
	k, err := o.knownCards()
	if err != nil {
		return Deal{}, 0, NoCard, err
	}
	caps, allow, err := o.hiddenSlots(&k)
	if err != nil {
		return Deal{}, 0, NoCard, err
	}
	n := o.Rules.Players
	assigned, err := assignCards(k.unknown, caps[:n+1], allow[:n+1], rng)
	if err != nil {
		return Deal{}, 0, NoCard, err
	}
	var deal Deal
	for s := 0; s < n; s++ {
		deal.Hands[s] = k.known[s] | assigned[s] | o.Played[s]
	}
	aside := k.knownAside | assigned[n]
	deal.Tapp = aside
	given := o.undoExchange(&deal, &k, rng)
	return deal, aside, given, nil
}

// knownCards is what an observation tells about where the cards it does not see are: the
// cards known to be in each hand, in the aside pile (tapp or lay-away), and the rest.
type knownCards struct {
	known      [MaxPlayers]CardSet // in each seat's hand now (the observer's: all of it)
	knownAside CardSet             // in the aside pile
	asideSize  int                 // the aside pile's size
	unknown    CardSet             // neither played nor known: the cards to draw
	frage      bool                // a Frage: the declarer's hand and the tapp are split after take-up
	rufer      bool                // a Rufer whose called card's holder is known
	giveDone   bool                // the Rufer's exchange has happened
}

// knownCards collects what o tells about the hidden cards' places.
func (o Observation) knownCards() (knownCards, error) {
	r := o.Rules
	me, d := o.Seat, o.Declarer
	var k knownCards
	k.known[me] = o.Hand
	nDiscards := 0
	for _, m := range o.History {
		switch m.Action.Kind {
		case ActDiscard:
			nDiscards++
		case ActGive:
			k.giveDone = true
		}
	}
	k.asideSize = r.TappSize()
	k.frage = o.Contract == Frage
	if k.frage {
		k.asideSize = nDiscards
		if d == me {
			k.knownAside = o.Discarded
		}
	}
	if o.CalledInTapp && o.Called != NoCard {
		k.knownAside = k.knownAside.With(o.Called)
	}
	if o.Exposed != 0 && d >= 0 && d != me {
		k.known[d] |= o.Exposed
	}
	o.knownFromTheCall(&k)
	var played, all CardSet
	for s := 0; s < r.Players; s++ {
		if s != int(me) && k.known[s]&o.Played[s] != 0 {
			return k, errors.New("sample: inconsistent observation (known card already played)")
		}
		played |= o.Played[s]
		all |= k.known[s]
	}
	k.unknown = r.Pack() &^ (played | all | k.knownAside)
	return k, nil
}

// knownFromTheCall adds what a Rufer's call tells: the declarer holds the called card until
// the exchange, and the called card's holder the given card after it.
func (o Observation) knownFromTheCall(k *knownCards) {
	me, d, c, h := o.Seat, o.Declarer, o.Called, o.CalledHolder
	k.rufer = c != NoCard && h != NoSeat
	if !k.rufer {
		return
	}
	if d != me && !o.Played[d].Has(c) {
		k.known[d] = k.known[d].With(c)
	}
	if k.giveDone && o.Given != NoCard && h != me && !o.Played[h].Has(o.Given) {
		k.known[h] = k.known[h].With(o.Given)
	}
}

// hiddenSlots are the places the unknown cards go: each other seat's hand (its room left
// after the known cards, the suits it is not void in) and, last, the aside pile.
func (o Observation) hiddenSlots(k *knownCards) (caps [MaxPlayers + 1]int, allow [MaxPlayers + 1]Suits, err error) {
	n := o.Rules.Players
	total := 0
	for s := 0; s < n; s++ {
		if Seat(s) == o.Seat {
			if o.HandSizes[s] != o.Hand.Len() {
				return caps, allow, errors.New("sample: hand size does not match the hand")
			}
			continue
		}
		caps[s] = o.HandSizes[s] - k.known[s].Len()
		allow[s] = ^o.Voids[s] & 0xF
		total += caps[s]
	}
	caps[n] = k.asideSize - k.knownAside.Len()
	allow[n] = 0xF
	total += caps[n]
	for _, cp := range caps {
		if cp < 0 {
			return caps, allow, errors.New("sample: inconsistent observation (more known cards than room)")
		}
	}
	if total != k.unknown.Len() {
		return caps, allow, fmt.Errorf("sample: %d hidden cards for %d places", k.unknown.Len(), total)
	}
	return caps, allow, nil
}

// undoExchange turns the sampled hands of now into the hands as dealt: a Frage's declarer
// and tapp split again, a Rufer's exchanged cards back where they were dealt. It returns the
// given card of a Rufer exchange (NoCard if none).
func (o Observation) undoExchange(deal *Deal, k *knownCards, rng *Rand) Card {
	d, c, h := o.Declarer, o.Called, o.CalledHolder
	switch {
	case k.frage:
		// D ∪ T = what the declarer held after take-up; the split is only known to him.
		pool := deal.Hands[d] | deal.Tapp
		var tapp CardSet
		if d == o.Seat {
			tapp = o.Tapp
		} else {
			tapp = randomSubset(pool, o.Rules.TappSize(), rng)
		}
		deal.Hands[d] = pool &^ tapp
		deal.Tapp = tapp
	case k.rufer && k.giveDone:
		given := o.Given
		if given == NoCard {
			given = randomSubset(deal.Hands[h], 1, rng).Lowest()
		}
		deal.Hands[d] = deal.Hands[d].Without(c).With(given)
		deal.Hands[h] = deal.Hands[h].Without(given).With(c)
		return given
	case k.rufer:
		deal.Hands[d] = deal.Hands[d].Without(c)
		deal.Hands[h] = deal.Hands[h].With(c)
	}
	return NoCard
}

// randomSubset returns k cards of set chosen uniformly.
func randomSubset(set CardSet, k int, rng *Rand) CardSet {
	var cards [NumCards]Card
	list := set.Cards(cards[:0])
	var out CardSet
	for i := 0; i < k && i < len(list); i++ {
		j := i + rng.IntN(len(list)-i)
		list[i], list[j] = list[j], list[i]
		out = out.With(list[i])
	}
	return out
}

// assignCards deals the cards into slots of the given capacities, each card to a slot that
// allows its suit, keeping a completion possible at every step (Hall's condition over suit
// sets).
func assignCards(cards CardSet, caps []int, allow []Suits, rng *Rand) ([MaxPlayers + 1]CardSet, error) {
	var out [MaxPlayers + 1]CardSet
	var count [NumSuits]int
	var buf [NumCards]Card
	list := cards.Cards(buf[:0])
	for _, c := range list {
		count[c.Suit()]++
	}
	if !hallOK(&count, caps, allow) {
		return out, errors.New("sample: no deal fits the observation (voids and hand sizes conflict)")
	}
	for i := len(list) - 1; i > 0; i-- {
		j := rng.IntN(i + 1)
		list[i], list[j] = list[j], list[i]
	}
	for _, c := range list {
		su := c.Suit()
		count[su]--
		var cand [MaxPlayers + 1]bool
		weight := 0
		for k := range caps {
			if caps[k] > 0 && allow[k].Has(su) {
				cand[k] = true
				weight += caps[k]
			}
		}
		placed := false
		for weight > 0 {
			x := rng.IntN(weight)
			k := 0
			for ; k < len(caps); k++ {
				if cand[k] {
					if x < caps[k] {
						break
					}
					x -= caps[k]
				}
			}
			caps[k]--
			if hallOK(&count, caps, allow) {
				out[k] = out[k].With(c)
				placed = true
				break
			}
			caps[k]++
			cand[k] = false
			weight -= caps[k]
		}
		if !placed {
			return out, errors.New("sample: no deal fits the observation")
		}
	}
	return out, nil
}

// hallOK reports whether the remaining cards (count per suit) fit the remaining capacities:
// for every set of suits, its cards must fit in the slots allowing any of them.
func hallOK(count *[NumSuits]int, caps []int, allow []Suits) bool {
	for mask := Suits(1); mask < 16; mask++ {
		need, room := 0, 0
		for su := Suit(0); su < NumSuits; su++ {
			if mask.Has(su) {
				need += count[su]
			}
		}
		if need == 0 {
			continue
		}
		for k := range caps {
			if allow[k]&mask != 0 {
				room += caps[k]
			}
		}
		if need > room {
			return false
		}
	}
	return true
}
