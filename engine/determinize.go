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
	r := o.Rules
	n := r.Players
	me := o.Seat
	d := o.Declarer
	var played CardSet
	for s := 0; s < n; s++ {
		played |= o.Played[s]
	}
	// What is known about each location now.
	var known [MaxPlayers]CardSet
	known[me] = o.Hand
	nDiscards := 0
	giveDone := false
	for _, m := range o.History {
		switch m.Action.Kind {
		case ActDiscard:
			nDiscards++
		case ActGive:
			giveDone = true
		}
	}
	asideSize := r.TappSize()
	var knownAside CardSet
	frage := o.Contract == Frage
	if frage {
		asideSize = nDiscards
		if d == me {
			knownAside = o.Discarded
		}
	}
	if o.CalledInTapp && o.Called != NoCard {
		knownAside = knownAside.With(o.Called)
	}
	if o.Exposed != 0 && d >= 0 && d != me {
		known[d] |= o.Exposed
	}
	c := o.Called
	h := o.CalledHolder
	rufer := c != NoCard && h != NoSeat
	if rufer {
		if d != me && !o.Played[d].Has(c) {
			known[d] = known[d].With(c)
		}
		if giveDone && o.Given != NoCard && h != me && !o.Played[h].Has(o.Given) {
			known[h] = known[h].With(o.Given)
		}
	}
	var all CardSet
	for s := 0; s < n; s++ {
		if s != int(me) && known[s]&o.Played[s] != 0 {
			return Deal{}, 0, NoCard, errors.New("sample: inconsistent observation (known card already played)")
		}
		all |= known[s]
	}
	unknown := r.Pack() &^ (played | all | knownAside)
	// Slots: the other seats' hands and the aside pile (tapp or lay-away).
	var caps [MaxPlayers + 1]int
	var allow [MaxPlayers + 1]Suits
	total := 0
	for s := 0; s < n; s++ {
		if Seat(s) == me {
			if o.HandSizes[s] != o.Hand.Len() {
				return Deal{}, 0, NoCard, errors.New("sample: hand size does not match the hand")
			}
			continue
		}
		caps[s] = o.HandSizes[s] - known[s].Len()
		allow[s] = ^o.Voids[s] & 0xF
		total += caps[s]
	}
	caps[n] = asideSize - knownAside.Len()
	allow[n] = 0xF
	total += caps[n]
	for _, cp := range caps {
		if cp < 0 {
			return Deal{}, 0, NoCard, errors.New("sample: inconsistent observation (more known cards than room)")
		}
	}
	if total != unknown.Len() {
		return Deal{}, 0, NoCard, fmt.Errorf("sample: %d hidden cards for %d places", unknown.Len(), total)
	}
	assigned, err := assignCards(unknown, caps[:n+1], allow[:n+1], rng)
	if err != nil {
		return Deal{}, 0, NoCard, err
	}
	var deal Deal
	var cur [MaxPlayers]CardSet
	for s := 0; s < n; s++ {
		cur[s] = known[s] | assigned[s]
		deal.Hands[s] = cur[s] | o.Played[s]
	}
	aside := knownAside | assigned[n]
	deal.Tapp = aside
	given := NoCard
	switch {
	case frage:
		// D ∪ T = what the declarer held after take-up; the split is only known to him.
		pool := deal.Hands[d] | aside
		var tapp CardSet
		if d == me {
			tapp = o.Tapp
		} else {
			tapp = randomSubset(pool, r.TappSize(), rng)
		}
		deal.Hands[d] = pool &^ tapp
		deal.Tapp = tapp
	case rufer:
		if giveDone {
			given = o.Given
			if given == NoCard {
				given = randomSubset(deal.Hands[h], 1, rng).Lowest()
			}
			deal.Hands[d] = deal.Hands[d].Without(c).With(given)
			deal.Hands[h] = deal.Hands[h].Without(given).With(c)
		} else {
			deal.Hands[d] = deal.Hands[d].Without(c)
			deal.Hands[h] = deal.Hands[h].With(c)
		}
	}
	return deal, aside, given, nil
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
