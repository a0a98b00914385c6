package heuristic

import (
	"github.com/tapparena/tapp/engine"
)

// play is one card of a trick and who played it.
type play struct {
	seat engine.Seat
	card engine.Card
}

// view is what the bot derives from one observation: the cards it cannot see, the voids the
// other players have shown, cards whose holder is known, and the current trick in play order.
// It is built afresh for every decision (the bot is stateless).
type view struct {
	obs      *engine.Observation
	n        int // players
	me       engine.Seat
	hand     engine.CardSet
	contract engine.Contract
	trump    engine.Suit // NoSuit when the contract has no trump
	decl     engine.Seat // NoSeat in Ramsch
	tout     bool
	pack     engine.CardSet
	gone     engine.CardSet    // cards played to tricks, the current one included
	unseen   engine.CardSet    // cards whose place the bot does not know (other hands, hidden tapp)
	known    [4]engine.CardSet // unplayed cards known to be in a seat's hand (not the bot's own)
	exact    [4]bool           // the seat's whole remaining hand is known (exposed Ouvert hand)
	void     [4][engine.NumSuits]bool
	trick    []play // the current trick, in play order
	trickBuf [4]play
}

func newView(obs *engine.Observation) *view {
	v := &view{
		obs:      obs,
		n:        obs.Rules.Players,
		me:       obs.Seat,
		hand:     obs.Hand,
		contract: obs.Contract,
		trump:    obs.Trump,
		decl:     obs.Declarer,
		tout:     obs.Tout,
		pack:     packOf(obs.Rules),
	}
	if v.n < 3 || v.n > 4 {
		v.n = 3
	}
	if v.trump >= engine.NumSuits {
		v.trump = engine.NoSuit
	}
	for _, t := range obs.Tricks {
		v.absorbTrick(trickPlays(t, v.n, nil))
	}
	v.trick = trickPlays(obs.Current, v.n, v.trickBuf[:0])
	v.absorbTrick(v.trick)

	// Cards whose holder is known: the exposed Ouvert hand (R-MOD-OUVERT), the Rufer card
	// handed to the declarer and the card he gave (R-MOD-RUFER, R-INFO-3).
	if obs.Exposed != 0 && v.decl >= 0 && int(v.decl) < v.n && v.decl != v.me {
		v.known[v.decl] |= obs.Exposed &^ v.gone
		v.exact[v.decl] = true
	}
	if obs.Called.Valid() && obs.CalledHolder >= 0 && int(obs.CalledHolder) < v.n &&
		v.decl >= 0 && v.decl != v.me && !v.gone.Has(obs.Called) {
		v.known[v.decl] = v.known[v.decl].With(obs.Called)
	}
	if obs.Given.Valid() && obs.CalledHolder >= 0 && int(obs.CalledHolder) < v.n &&
		obs.CalledHolder != v.me && !v.gone.Has(obs.Given) {
		v.known[obs.CalledHolder] = v.known[obs.CalledHolder].With(obs.Given)
	}
	var knownAll engine.CardSet
	for _, k := range v.known {
		knownAll |= k
	}
	v.unseen = v.pack &^ v.hand &^ v.gone &^ obs.Tapp &^ obs.Discarded &^ knownAll
	return v
}

// packOf returns the pack the rule set plays with (R-CARD-4).
func packOf(r engine.RuleSet) engine.CardSet {
	if r.PackSize == 32 {
		return engine.FullPack32
	}
	return engine.FullPack36
}

// absorbTrick records the cards of a (possibly partial) trick and the voids they show:
// a player who does not follow suit has none of it, and in a trump contract a player who
// neither follows nor trumps has no trump either (R-PLAY-2).
func (v *view) absorbTrick(ps []play) {
	if len(ps) == 0 {
		return
	}
	led := ps[0].card.Suit()
	for i, p := range ps {
		v.gone = v.gone.With(p.card)
		if i == 0 || p.seat < 0 || int(p.seat) >= v.n {
			continue
		}
		if s := p.card.Suit(); s != led {
			v.void[p.seat][led] = true
			if v.trump != engine.NoSuit && s != v.trump {
				v.void[p.seat][v.trump] = true
			}
		}
	}
}

// next returns the seat after s in playing order.
func (v *view) next(s engine.Seat) engine.Seat { return engine.Seat((int(s) + 1) % v.n) }

// later returns the seats still to play to the current trick after the bot.
func (v *view) later() []engine.Seat {
	var out []engine.Seat
	s := v.me
	for i := len(v.trick) + 1; i < v.n; i++ {
		s = v.next(s)
		out = append(out, s)
	}
	return out
}

// partner reports whether seat p plays on the bot's side: the bot itself, or a fellow
// defender. In Ramsch everybody plays alone.
func (v *view) partner(p engine.Seat) bool {
	if p == v.me {
		return true
	}
	if v.contract == engine.Ramsch || v.decl < 0 {
		return false
	}
	return p != v.decl && v.me != v.decl
}

// declarer reports whether the bot is the declarer.
func (v *view) declarer() bool { return v.decl == v.me && v.contract != engine.Ramsch }

// couldHold reports whether seat p may still hold card c, as far as the bot knows.
func (v *view) couldHold(p engine.Seat, c engine.Card) bool {
	if p == v.me {
		return v.hand.Has(c)
	}
	if v.known[p].Has(c) {
		return true
	}
	if v.exact[p] || !v.unseen.Has(c) {
		return false
	}
	return !v.void[p][c.Suit()]
}

// mayBeVoid reports whether seat p may have no card of suit s: known void, or so few cards of
// the suit are unaccounted for that p probably has none.
func (v *view) mayBeVoid(p engine.Seat, s engine.Suit) bool {
	if v.void[p][s] {
		return true
	}
	if v.exact[p] || v.known[p].OfSuit(s) != 0 {
		return v.known[p].OfSuit(s) == 0
	}
	return v.unseen.OfSuit(s).Len() <= 1
}

// beats reports whether card a takes a trick whose best card so far is b (R-PLAY-4).
func beats(a, b engine.Card, trump engine.Suit) bool {
	if a.Suit() == b.Suit() {
		return a.Rank() > b.Rank()
	}
	return trump != engine.NoSuit && a.Suit() == trump
}

// winning returns the index of the card that currently wins the plays.
func winning(ps []play, trump engine.Suit) int {
	best := 0
	for i := 1; i < len(ps); i++ {
		if beats(ps[i].card, ps[best].card, trump) {
			best = i
		}
	}
	return best
}

// trickPoints returns the card points in the plays.
func trickPoints(ps []play) int {
	total := 0
	for _, p := range ps {
		total += p.card.Points()
	}
	return total
}

// canBeatLater reports whether a player still to play after the bot to the current trick,
// and for whom opp returns true, might beat best.
func (v *view) canBeatLater(best engine.Card, opp func(engine.Seat) bool) bool {
	if len(v.trick) == 0 {
		return v.canBeatAfterLead(best, opp)
	}
	led := v.trick[0].card.Suit()
	for _, p := range v.later() {
		if opp != nil && !opp(p) {
			continue
		}
		if v.seatCanBeat(p, best, led) {
			return true
		}
	}
	return false
}

// canBeatAfterLead is canBeatLater for a card the bot leads.
func (v *view) canBeatAfterLead(c engine.Card, opp func(engine.Seat) bool) bool {
	s := v.me
	for i := 1; i < v.n; i++ {
		s = v.next(s)
		if opp != nil && !opp(s) {
			continue
		}
		if v.seatCanBeat(s, c, c.Suit()) {
			return true
		}
	}
	return false
}

// seatCanBeat reports whether seat p, following to a trick led in suit led whose best card
// is best, might beat it.
func (v *view) seatCanBeat(p engine.Seat, best engine.Card, led engine.Suit) bool {
	if best.Suit() != led {
		// best is a ruff: only a player void in the led suit can overtrump it.
		if !v.mayBeVoid(p, led) {
			return false
		}
		for _, c := range higherOf(v.pack, best) {
			if v.couldHold(p, c) {
				return true
			}
		}
		return false
	}
	for _, c := range higherOf(v.pack, best) {
		if v.couldHold(p, c) {
			return true
		}
	}
	if v.trump != engine.NoSuit && led != v.trump && v.mayBeVoid(p, led) {
		for _, c := range v.pack.OfSuit(v.trump).Cards(nil) {
			if v.couldHold(p, c) {
				return true
			}
		}
	}
	return false
}

// higherOf returns the cards of best's suit in the pack that rank above it.
func higherOf(pack engine.CardSet, best engine.Card) []engine.Card {
	var out []engine.Card
	for c := best + 1; c.Valid() && c.Suit() == best.Suit(); c++ {
		if pack.Has(c) {
			out = append(out, c)
		}
	}
	return out
}

// master reports whether c is the highest card of its suit still in play outside the bot's
// hand: no card of the suit above it is unseen or known to be held by someone else.
func (v *view) master(c engine.Card) bool {
	for _, h := range higherOf(v.pack, c) {
		if v.hand.Has(h) || v.gone.Has(h) {
			continue
		}
		if v.unseen.Has(h) {
			return false
		}
		for p := 0; p < v.n; p++ {
			if engine.Seat(p) != v.me && v.known[p].Has(h) {
				return false
			}
		}
	}
	return true
}

// outstanding returns the cards of suit s that another player may still hold.
func (v *view) outstanding(s engine.Suit) engine.CardSet {
	set := v.unseen.OfSuit(s)
	for p := 0; p < v.n; p++ {
		if engine.Seat(p) != v.me {
			set |= v.known[p].OfSuit(s)
		}
	}
	return set
}

// oppsMayHold reports whether some opponent of the bot may still hold a card of suit s.
func (v *view) oppsMayHold(s engine.Suit) bool {
	for p := 0; p < v.n; p++ {
		seat := engine.Seat(p)
		if seat == v.me || v.partner(seat) {
			continue
		}
		if v.known[p].OfSuit(s) != 0 {
			return true
		}
		if !v.exact[p] && !v.void[p][s] && v.unseen.OfSuit(s) != 0 {
			return true
		}
	}
	return false
}

// oppVoidIn reports whether some opponent is known (or very likely) to be void in s.
func (v *view) oppVoidIn(s engine.Suit) bool {
	for p := 0; p < v.n; p++ {
		seat := engine.Seat(p)
		if seat == v.me || v.partner(seat) {
			continue
		}
		if v.mayBeVoid(seat, s) {
			return true
		}
	}
	return false
}

// legalCards returns the cards of obs.Legal that are card plays.
func legalCards(obs *engine.Observation) engine.CardSet {
	var set engine.CardSet
	for _, a := range obs.Legal {
		if a.Kind == engine.ActCard && a.Card.Valid() {
			set = set.With(a.Card)
		}
	}
	return set
}

// suitLen returns how many cards of suit s are in set.
func suitLen(set engine.CardSet, s engine.Suit) int { return set.OfSuit(s).Len() }

// trickPlays returns the cards of trick t in playing order with their seats (Cards[i] was
// played by seat (Leader+i) mod players), appended to buf.
func trickPlays(t engine.Trick, players int, buf []play) []play {
	if t.Leader < 0 || int(t.Leader) >= players {
		return buf
	}
	for i := 0; i < players && i < len(t.Cards); i++ {
		c := t.Cards[i]
		if !c.Valid() {
			break
		}
		buf = append(buf, play{seat: engine.Seat((int(t.Leader) + i) % players), card: c})
	}
	return buf
}
