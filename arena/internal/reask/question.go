package reask

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/encode"
	"github.com/tapparena/tapp/arena/internal/protoconv"
	"github.com/tapparena/tapp/arena/internal/referee"
	"github.com/tapparena/tapp/arena/internal/replay"
	"github.com/tapparena/tapp/engine"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// Question is one recorded decision, ready to be asked again: the request exactly as it was
// sent, and what the bot had been told before it in that game, so that a stateful bot is in
// the same position as in the match.
type Question struct {
	Match    replay.Match
	Deal     *domain.DealRecord
	Index    int
	Seat     engine.Seat
	Decision engine.Decision
	Recorded domain.DecisionRecord // what happened in the match

	// Request is the request exactly as it was sent (the decision record's Sent). When none
	// was sent (the arena played a fallback for a bot that had forfeited or was gone), it is
	// rebuilt from the engine as the referee would have sent it, and Rebuilt is set.
	Request *tappv1.DecisionRequest
	Rebuilt bool
	// Earlier are the game's events the seat had been told before the request (the request
	// carries only the newest ones).
	Earlier []engine.Event

	start *referee.Start // what the seat was told when the game began
	state *engine.State  // the deal just before the decision, to check answers
}

// NewQuestion prepares decision k of a recorded deal.
func NewQuestion(m replay.Match, rec *domain.DealRecord, k int) (*Question, error) {
	if k < 0 || k >= len(rec.Moves) {
		if len(rec.Moves) == 0 {
			return nil, fmt.Errorf("deal %d has no decisions", rec.Number)
		}
		return nil, fmt.Errorf("deal %d has no decision %d (decisions 0-%d)", rec.Number, k, len(rec.Moves)-1)
	}
	st, err := engine.NewState(m.Rules, rec.Deal, rec.Options)
	if err != nil {
		return nil, fmt.Errorf("deal %d cannot be replayed: %w", rec.Number, err)
	}
	for i, mv := range rec.Moves[:k] {
		if err := st.Apply(mv.Action); err != nil {
			return nil, fmt.Errorf("deal %d cannot be replayed: move %d (%s): %w (run tapp replay verify)", rec.Number, i, mv, err)
		}
	}
	seat := st.ToMove()
	if seat != rec.Moves[k].Seat {
		return nil, fmt.Errorf("deal %d cannot be replayed: move %d is by seat %d, but seat %d is to move (run tapp replay verify)", rec.Number, k, rec.Moves[k].Seat, seat)
	}
	q := &Question{Match: m, Deal: rec, Index: k, Seat: seat, Decision: st.Decision(), state: st}
	for _, x := range rec.Decisions {
		if x.Index == k {
			q.Recorded = x
		}
	}
	if q.Recorded.Bot == "" {
		q.Recorded = domain.DecisionRecord{Index: k, Seat: seat, Bot: botAt(rec, seat), Decision: q.Decision, Action: rec.Moves[k].Action}
	}
	gameID := referee.GameID(m.ID, rec.Number)
	all := st.EventsFor(seat, 0)
	if len(q.Recorded.Sent) > 0 {
		req, err := protoconv.DecodeSent(q.Recorded.Sent)
		if err != nil {
			return nil, fmt.Errorf("deal %d, decision %d: the recorded request cannot be read: %w", rec.Number, k, err)
		}
		q.Request = req
		gameID = req.GetGameId()
	} else {
		// As the referee would have asked it: built by its own Build and encoded as the
		// adapters encode it. Nothing was sent, so no deadline ran; the bank is the match's.
		var r referee.Request
		r.Build(st, gameID, "replay-"+strconv.Itoa(k), time.Time{}, m.TimeControl.Overage, 0)
		req, err := protoconv.DecodeSent(encode.AppendRequest(nil, &r))
		if err != nil {
			return nil, fmt.Errorf("deal %d, decision %d: the request cannot be rebuilt: %w", rec.Number, k, err)
		}
		req.Deadline = nil
		q.Request = req
		q.Rebuilt = true
	}
	first := len(all)
	if evs := q.Request.GetEvents(); len(evs) > 0 {
		first = min(int(evs[0].GetIndex()), len(all))
	}
	q.Earlier = all[:first]
	q.start = &referee.Start{
		GameID: gameID, MatchID: m.ID, Number: rec.Number, Rules: m.Rules, Seat: seat,
		Players: rec.Seating, TimeControl: m.TimeControl, Hand: rec.Deal.Hands[seat],
	}
	return q, nil
}

// Legal returns the legal actions of the question.
func (q *Question) Legal() []engine.Action { return q.state.LegalActions(nil) }

// Observation returns the seat's observation at the question (what the bot was told).
func (q *Question) Observation() engine.Observation { return q.state.Observe(q.Seat) }

// PerDecision is the time the bot gets to answer: the match's time per decision.
func (q *Question) PerDecision() time.Duration {
	if d := q.Match.TimeControl.PerDecision; d > 0 {
		return d
	}
	return domain.DefaultTimeControl.PerDecision
}

// Answer is what a bot answered when asked again.
type Answer struct {
	Bot      string                 // the name the answering bot connected as
	Version  string                 // the version it said in its hello
	Action   engine.Action          // the accepted answer (zero when none came in time)
	Answered bool                   // a legal answer came before the deadline (and its overage)
	Latency  time.Duration          // from the request to the accepted answer
	Attempts []domain.AnswerAttempt // every answer, refused ones with the reason
	// Fallback is what the arena would have played when no legal answer came in time.
	Fallback engine.Action
}

// Same reports whether the bot now plays what it played in the match.
func (a *Answer) Same(q *Question) bool {
	return a.Answered && q.Recorded.Action == a.Action
}

// Position is the question as a position to put to a bot: the recorded request, built again
// by the referee's own Request.Build from the deal just before the decision (the same
// observation, legal actions and events, so encoding it gives the recorded bytes), with the
// recorded names and bank, and its deadline moved to the moment it is sent plus the time per
// decision (a deadline in the past would make every bot answer its fallback at once).
func (q *Question) Position() Position {
	overage := q.Request.GetOverageLeft().AsDuration()
	req := &referee.Request{}
	req.Build(q.state, q.Request.GetGameId(), q.Request.GetRequestId(), time.Time{}, overage, len(q.Earlier))
	return Position{
		Start: q.start, Earlier: q.Earlier, State: q.state, PerDecision: q.PerDecision(), Overage: overage,
		Request: req,
	}
}

// ask asks the question on a bot's line (see Ask). exited, when not nil, reports that the
// bot's process has ended.
func (q *Question) ask(ctx context.Context, conn referee.Conn, exited <-chan struct{}) (*Answer, error) {
	res, err := Ask(ctx, conn, q.Position(), exited)
	if err != nil {
		return nil, err
	}
	return &Answer{Action: res.Action, Answered: res.Accepted, Latency: res.Latency, Attempts: res.Attempts,
		Fallback: referee.Fallback(q.Legal())}, nil
}

// botAt is the bot in seat s of a deal, "" when unknown.
func botAt(rec *domain.DealRecord, s engine.Seat) string {
	if s < 0 || int(s) >= len(rec.Seating) {
		return ""
	}
	return rec.Seating[s]
}
