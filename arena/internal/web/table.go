package web

import (
	"github.com/tapparena/tapp/arena/internal/replay"
	"github.com/tapparena/tapp/engine"
	viewv1 "github.com/tapparena/tapp/proto/tapp/view/v1"
)

// The table of a replay step as one view sees it (Step.table): the bidding log, every trick
// with its leader, cards and winner, the hands, the tapp and the lay-away, the called card,
// tricks and card points taken so far.
//
// Everything here comes from the replay step, which replay.NewWalk limits to what the view
// may know when it builds it: the view's observation (engine.Observe) for the public and seat
// views, and in the full view the step's hands, tapp and lay-away. A full-information field
// (a hidden hand, the tapp, the analysis) is added only where seesEverything says the view may
// see every card, so that a rule that closes a view (a duplicate group still being played
// elsewhere) applies to it through the step alone.

// seesEverything reports whether the view knows every card at step s: the full view, or any
// view at the end of the deal when the step carries the reveal (R-INFO-4).
func seesEverything(view replay.View, s *replay.Step) bool {
	return view.Full || (s.End && s.Obs.Reveal != nil)
}

// cardTexts writes a set of cards in notation, in the engine's order.
func cardTexts(set engine.CardSet) []string {
	cards := set.Cards(nil)
	out := make([]string, len(cards))
	for i, c := range cards {
		out[i] = c.String()
	}
	return out
}

// cardText is a card in notation, "" for none.
func cardText(c engine.Card) string {
	if !c.Valid() {
		return ""
	}
	return c.String()
}

// seenAction is an action in notation, a card the view may not see left out.
func seenAction(a engine.Action) string {
	if (a.Kind == engine.ActDiscard || a.Kind == engine.ActGive) && !a.Card.Valid() {
		return a.Kind.String()
	}
	return a.String()
}

// tableOf is the table at step k of the walk as the view sees it. moves are the walk's moves
// as the view saw them (walkMoves).
func tableOf(w *replay.Walk, k int, moves []engine.Move) *viewv1.TableView {
	s := &w.Steps[k]
	o := &s.Obs
	r := w.Match.Rules
	n := r.Players
	all := seesEverything(w.View, s)
	t := &viewv1.TableView{Declarer: int32(o.Declarer), Tout: o.Tout, TappTakenBy: -1,
		Called: cardText(o.Called), CalledHolder: int32(o.CalledHolder), CalledInTapp: o.CalledInTapp, Given: cardText(o.Given)}
	if o.Contract != engine.NoContract {
		t.Contract = o.Contract.String()
	}
	if o.Trump < engine.NumSuits {
		t.Trump = o.Trump.String()
	}

	// The moves before this step: the bidding and declaration log, and each card's decision.
	done := moves[:s.Index]
	var cardDecisions []int32
	for i, mv := range done {
		if mv.Action.Kind == engine.ActCard {
			cardDecisions = append(cardDecisions, int32(i))
			continue
		}
		t.Bidding = append(t.Bidding, &viewv1.LogEntry{Decision: int32(i), Seat: int32(mv.Seat), Action: seenAction(mv.Action)})
		if mv.Action.Kind == engine.ActGive && mv.Action.Card.Valid() && t.Given == "" {
			t.Given = mv.Action.Card.String() // the full view sees the give
		}
	}
	trick := func(number int, tr engine.Trick) *viewv1.TrickView {
		tv := &viewv1.TrickView{Number: int32(number), Leader: int32(tr.Leader), Winner: int32(tr.Winner), Points: int32(tr.Points)}
		for i := 0; i < n; i++ {
			c := tr.Cards[i]
			if !c.Valid() {
				break
			}
			tv.Cards = append(tv.Cards, c.String())
			tv.Seats = append(tv.Seats, int32((int(tr.Leader)+i)%n))
			if j := number*n + i; j < len(cardDecisions) {
				tv.Decisions = append(tv.Decisions, cardDecisions[j])
			}
		}
		return tv
	}
	t.TricksTaken = make([]int32, n)
	t.PointsTaken = make([]int32, n)
	for i, tr := range o.Tricks {
		t.Tricks = append(t.Tricks, trick(i, tr))
		if tr.Winner >= 0 && int(tr.Winner) < n {
			t.PointsTaken[tr.Winner] += int32(tr.Points)
		}
	}
	for seat := 0; seat < n; seat++ {
		t.TricksTaken[seat] = int32(o.TricksTaken[seat])
	}
	if o.Current.Leader != engine.NoSeat {
		t.Current = trick(len(o.Tricks), o.Current)
	}

	// The hands: every card in the full view (at the end, as dealt); the seat's own and an
	// exposed Ouvert hand in a seat view, the others counted; every hand as dealt once the
	// end reveals them.
	for seat := 0; seat < n; seat++ {
		h := &viewv1.SeatHand{}
		switch {
		case s.End && all:
			deal := w.Deal.Deal
			if o.Reveal != nil {
				deal = *o.Reveal
			}
			h.Cards, h.Dealt = cardTexts(deal.Hands[seat]), true
		case w.View.Full:
			h.Cards = cardTexts(s.Hands[seat])
		case engine.Seat(seat) == o.Seat:
			h.Cards = cardTexts(o.Hand)
		case o.Exposed != 0 && engine.Seat(seat) == o.Declarer:
			h.Cards, h.Exposed = cardTexts(o.Exposed), true
			h.Hidden = int32(max(o.HandSizes[seat]-o.Exposed.Len(), 0))
		default:
			h.Hidden = int32(o.HandSizes[seat])
		}
		t.Hands = append(t.Hands, h)
	}

	// The tapp and the lay-away.
	// A Frage declarer takes up the tapp with the contract (R-MOD-FRAGE).
	frageTaken := o.Contract == engine.Frage && o.Declarer != engine.NoSeat
	if frageTaken {
		t.TappTakenBy = int32(o.Declarer)
	}
	discards := 0
	for _, mv := range done {
		if mv.Action.Kind == engine.ActDiscard {
			discards++
		}
	}
	switch {
	case s.End && all:
		deal := w.Deal.Deal
		if o.Reveal != nil {
			deal = *o.Reveal
		}
		t.Tapp, t.LaidAway = cardTexts(deal.Tapp), cardTexts(o.Discards)
	case w.View.Full:
		t.Tapp, t.LaidAway = cardTexts(s.Tapp), cardTexts(s.Discards)
	default:
		t.Tapp, t.LaidAway = cardTexts(o.Tapp), cardTexts(o.Discarded)
		if o.Tapp == 0 && !frageTaken {
			t.TappHidden = int32(r.TappSize())
		}
		t.LaidAwayHidden = int32(max(discards-len(t.LaidAway), 0))
	}
	return t
}

// walkMoves are the deal's moves as the view saw them: each step's action (a card hidden from
// the view is NoCard).
func walkMoves(w *replay.Walk) []engine.Move {
	moves := make([]engine.Move, 0, len(w.Steps))
	for i := range w.Steps {
		s := &w.Steps[i]
		if s.End {
			break
		}
		moves = append(moves, engine.Move{Seat: s.Seat, Action: s.Action})
	}
	return moves
}
