package replay

import (
	"fmt"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/protoconv"
	"github.com/tapparena/tapp/engine"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// View says through whose eyes a deal is replayed: one seat's (what that seat knew at each
// moment, TAPP-RULES.md §8), a spectator's (public information only: Seat NoSeat), or the full
// view with every card.
type View struct {
	Seat engine.Seat // the seat; NoSeat for the full or the public view
	Full bool        // every card, every request and answer
}

// FullView shows every card.
var FullView = View{Seat: engine.NoSeat, Full: true}

// SeatView shows what one seat knew.
func SeatView(s engine.Seat) View { return View{Seat: s} }

// String is "full", "public" or "seat 1".
func (v View) String() string {
	switch {
	case v.Full:
		return "full"
	case v.Seat == engine.NoSeat:
		return "public"
	}
	return "seat " + v.Seat.String()
}

// Walk is one deal stepped through from one view: a step per decision, then the end.
type Walk struct {
	Match Match
	Deal  *domain.DealRecord
	View  View
	// Dealt is what the view learned before the first decision (the deal, as the view sees it).
	Dealt []engine.Event
	Steps []Step // one per decision in order (Steps[k].Index == k), and the end last
}

// Decisions returns the number of decisions (the end step is Steps[Decisions()]).
func (wk *Walk) Decisions() int { return len(wk.Steps) - 1 }

// Step is one decision of a deal as a view shows it, or the end of the deal. Everything in it
// is limited to what the view may know: in a seat's view, another seat's request, answers and
// hidden cards are left out when the step is built, not when it is shown.
type Step struct {
	Index    int         // the decision's position in the deal, from 0; Decisions() for the end
	End      bool        // the end of the deal: reveal and settlement
	Seat     engine.Seat // who decides (NoSeat at the end)
	Bot      string      // the bot in that seat
	Decision engine.Decision
	// Own says the view may see this decision's request and answers: the full view, or the
	// seat's own decision.
	Own bool

	// Obs is the view's observation just before the decision (at the end: after it). In the
	// full and the public view it is the public observation; the full view adds Hands, Tapp
	// and Discards.
	Obs      engine.Observation
	Hands    [engine.MaxPlayers]engine.CardSet // full view: every seat's hand before the decision
	Tapp     engine.CardSet                    // full view: the tapp as dealt
	Discards engine.CardSet                    // full view: what a Frage declarer has laid away so far
	Legal    []engine.Action                   // Own: the legal actions

	Action engine.Action  // the action taken, as the view saw it (a hidden card is NoCard)
	After  []engine.Event // what the view learned from the action, in order

	// Record is the decision's record: timing, strike and fallback always; the request (Sent,
	// RequestID) and the answers (Attempts) only when Own. Its Action is Step.Action.
	Record    domain.DecisionRecord
	HasRecord bool                    // the deal record has this decision
	Request   *tappv1.DecisionRequest // Own: the request as sent, parsed (nil if none was sent)

	Outcome engine.Outcome // End: the settlement
}

// NewWalk replays a recorded deal with the engine and builds its steps as the view sees
// them. A record the engine refuses (see Verify) is an error naming the move.
func NewWalk(m Match, rec *domain.DealRecord, v View) (*Walk, error) {
	n := m.Rules.Players
	if !v.Full && v.Seat != engine.NoSeat && (v.Seat < 0 || int(v.Seat) >= n) {
		return nil, fmt.Errorf("no seat %d at a table of %d (seats 0-%d)", v.Seat, n, n-1)
	}
	st, err := engine.NewState(m.Rules, rec.Deal, rec.Options)
	if err != nil {
		return nil, fmt.Errorf("deal %d cannot be replayed: %w", rec.Number, err)
	}
	byIndex := make(map[int]*domain.DecisionRecord, len(rec.Decisions))
	for i := range rec.Decisions {
		byIndex[rec.Decisions[i].Index] = &rec.Decisions[i]
	}
	w := &Walk{Match: m, Deal: rec, View: v, Dealt: viewEvents(st, v, 0)}
	var discards engine.CardSet
	for k, mv := range rec.Moves {
		if st.Terminal() {
			return nil, fmt.Errorf("deal %d cannot be replayed: move %d (%s) comes after the end of the deal (run tapp replay verify)", rec.Number, k, mv)
		}
		if mv.Seat != st.ToMove() {
			return nil, fmt.Errorf("deal %d cannot be replayed: move %d (%s) is by seat %d but seat %d is to move (run tapp replay verify)", rec.Number, k, mv, mv.Seat, st.ToMove())
		}
		s := Step{Index: k, Seat: mv.Seat, Bot: botAt(rec, mv.Seat), Decision: st.Decision(),
			Own: v.Full || v.Seat == mv.Seat, Obs: st.Observe(v.Seat)}
		if v.Full {
			for seat := 0; seat < n; seat++ {
				s.Hands[seat] = st.Hand(engine.Seat(seat))
			}
			s.Tapp, s.Discards = rec.Deal.Tapp, discards
		}
		if s.Own {
			s.Legal = st.LegalActions(nil)
		}
		from := st.NumEvents()
		if err := st.Apply(mv.Action); err != nil {
			return nil, fmt.Errorf("deal %d cannot be replayed: move %d (%s): %w (run tapp replay verify)", rec.Number, k, mv, err)
		}
		if mv.Action.Kind == engine.ActDiscard {
			discards = discards.With(mv.Action.Card)
		}
		s.After = viewEvents(st, v, from)
		s.Action = seenAction(s.After, mv)
		if d := byIndex[k]; d != nil {
			s.HasRecord = true
			if s.Own {
				s.Record = *d
				if len(d.Sent) > 0 {
					if req, err := protoconv.DecodeSent(d.Sent); err == nil {
						s.Request = req
					}
				}
			} else {
				s.Record = domain.DecisionRecord{Index: d.Index, Seat: d.Seat, Bot: d.Bot, Decision: d.Decision,
					Latency: d.Latency, Strike: d.Strike, Fallback: d.Fallback}
			}
			s.Record.Action = s.Action
		}
		w.Steps = append(w.Steps, s)
	}
	if !st.Terminal() {
		return nil, fmt.Errorf("deal %d cannot be replayed: its %d moves end before the deal is over (run tapp replay verify)", rec.Number, len(rec.Moves))
	}
	end := Step{Index: len(rec.Moves), End: true, Seat: engine.NoSeat, Obs: st.Observe(v.Seat), Outcome: st.Outcome(),
		Tapp: rec.Deal.Tapp, Discards: discards}
	if v.Full {
		end.Hands = rec.Deal.Hands
	}
	w.Steps = append(w.Steps, end)
	return w, nil
}

// viewEvents returns the events from index from on as the view sees them.
func viewEvents(st *engine.State, v View, from int) []engine.Event {
	if v.Full {
		return st.Events()[from:]
	}
	return st.EventsFor(v.Seat, from)
}

// seenAction is the move as the view saw it: the action of the move's own event in the
// view's (redacted) events.
func seenAction(after []engine.Event, mv engine.Move) engine.Action {
	for _, e := range after {
		switch e.Kind {
		case engine.EvBid, engine.EvDiscard, engine.EvTrump, engine.EvCall, engine.EvGive, engine.EvTout, engine.EvCard:
			if e.Seat == mv.Seat {
				return e.Action
			}
		}
	}
	// Every move logs its own event; this is only reached for a move the engine logs
	// differently, which then hides its card.
	a := mv.Action
	a.Card = engine.NoCard
	return a
}
