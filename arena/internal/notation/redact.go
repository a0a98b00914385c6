package notation

import (
	"fmt"

	"github.com/tapparena/tapp/engine"
)

// Redact returns the record as seat saw it while the deal was played: exactly that seat's
// information set (R-INFO-1..5), computed by the engine's per-seat observation of the
// replayed deal. It keeps the seat's own hand as dealt, the tapp only when the seat was the
// Frage declarer (R-INFO-2), the Ouvert declarer's hand once laid open (R-MOD-OUVERT), every
// public move, a lay-away only for the seat that made it and the Rufer give only for the
// declarer and the holder (R-INFO-3), and who held the called card (public, R-INFO-1). It
// drops what would reveal hidden cards: the seed, the nonce (with the commitment it gives the
// seed away) and the result (the settlement counts the unseen tapp). The commitment stays:
// every bot was sent it. The moves must replay with the engine.
func Redact(r *Record, seat engine.Seat) (*Record, error) {
	if r.Redacted {
		return nil, fmt.Errorf("tpn: the record is already seat %d's view", r.View)
	}
	n := r.Players()
	if seat < 0 || int(seat) >= n {
		return nil, fmt.Errorf("tpn: seat %d is not at a table of %d", seat, n)
	}
	deal, ok := r.FullDeal()
	if !ok {
		return nil, fmt.Errorf("tpn: the record does not show every hand")
	}
	st, err := engine.NewState(r.Rules, deal, r.Options)
	if err != nil {
		return nil, fmt.Errorf("tpn: deal %d: %w", r.Deal, err)
	}
	for i, m := range r.Moves {
		if m.Seat != st.ToMove() {
			return nil, fmt.Errorf("tpn: deal %d, move %d (%s): seat %d is to move", r.Deal, i, MoveText(m), st.ToMove())
		}
		if err := st.Apply(m.Action); err != nil {
			return nil, fmt.Errorf("tpn: deal %d, move %d (%s): %w", r.Deal, i, MoveText(m), err)
		}
	}
	obs := st.Observe(seat)
	out := *r
	out.Redacted, out.View = true, seat
	out.Seeded, out.Seed, out.Nonce, out.Outcome = false, 0, "", nil
	out.Hands, out.Known, out.Tapp, out.TappKnown = [engine.MaxPlayers]engine.CardSet{}, [engine.MaxPlayers]bool{}, 0, false
	out.Hands[seat], out.Known[seat] = obs.Dealt, true
	if !obs.Tapp.Empty() {
		out.Tapp, out.TappKnown = obs.Tapp, true
	}
	if d := obs.Declarer; obs.Contract == engine.Ouvert && d != engine.NoSeat && !obs.Played[d].Empty() {
		// Laid open after his first card: what lies open and what he has played is his hand.
		out.Hands[d], out.Known[d] = obs.Exposed|obs.Played[d], true
	}
	out.Moves = append([]engine.Move(nil), obs.History...)
	out.HasHolder, out.Holder = false, engine.NoSeat
	if obs.Called != engine.NoCard {
		out.HasHolder, out.Holder = true, obs.CalledHolder
	}
	out.Extra = append([]Tag(nil), r.Extra...)
	return &out, nil
}

// SetHolder sets Holder and HasHolder of a full record from its cards and its call.
func (r *Record) SetHolder() { r.Holder, r.HasHolder = r.calledHolder() }

// calledHolder is the seat that was dealt the card a full record's call names (NoSeat: it lay
// in the tapp); ok is false when the deal has no call.
func (r *Record) calledHolder() (holder engine.Seat, ok bool) {
	for _, m := range r.Moves {
		if m.Action.Kind != engine.ActCall {
			continue
		}
		for s := 0; s < r.Players(); s++ {
			if r.Hands[s].Has(m.Action.Card) {
				return engine.Seat(s), true
			}
		}
		return engine.NoSeat, true
	}
	return engine.NoSeat, false
}
