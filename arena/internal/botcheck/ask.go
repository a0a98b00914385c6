package botcheck

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/tapparena/tapp/arena"
	"github.com/tapparena/tapp/arena/internal/referee"
	"github.com/tapparena/tapp/arena/wire"
	"github.com/tapparena/tapp/engine"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// asked is what came of one question.
type asked struct {
	request  *tappv1.DecisionRequest
	attempts []arena.AnswerAttempt
	rules    []string // the rule id of each refused attempt
	accepted bool
	latency  time.Duration
}

// ask puts a position to the bot exactly as the referee would in a game: GameStarted, the
// seat's events so far (streamed or batched into the request, as the bot asked in its hello),
// the request; a refused answer is told its reason and may be corrected until the deadline.
// The game then ends as aborted.
func ask(ctx context.Context, conn referee.Conn, pos position, id string, players []string, tc arena.TimeControl) (*asked, error) {
	st, seat := pos.state, pos.seat
	r := st.Rules()
	gameID := "check/" + id
	started := &tappv1.GameStarted{
		GameId: gameID, MatchId: "check", DealNumber: 0, Rules: r.String(), Seat: int32(seat), Players: players,
		TimeControl: wire.TimeControlToProto(tc), Hand: wire.CardsToProto(st.Deal().Hands[seat]),
	}
	obs := st.Observe(seat)
	legal := st.LegalActions(nil)
	events := wire.EventsToProto(st.EventsFor(seat, 0), 0)
	start := time.Now()
	req := &tappv1.DecisionRequest{
		GameId: gameID, RequestId: "q-" + id, Decision: wire.DecisionToProto(st.Decision()),
		Legal: wire.ActionsToProto(legal), Deadline: wire.Timestamp(start.Add(tc.PerDecision)),
		OverageLeft: wire.Duration(tc.Overage), Observation: wire.ObservationToProto(&obs),
	}
	answers, closeFn := conn.Open(gameID, func() *tappv1.Snapshot_Game {
		return &tappv1.Snapshot_Game{Started: started, Observation: req.GetObservation(), Pending: req}
	})
	defer closeFn()
	send := func(m *tappv1.ConnectResponse) error {
		if err := conn.Send(m); err != nil {
			return fmt.Errorf("sending to the bot: %w", err)
		}
		return nil
	}
	if err := send(&tappv1.ConnectResponse{Message: &tappv1.ConnectResponse_GameStarted{GameStarted: started}}); err != nil {
		return nil, err
	}
	if conn.StreamEvents() {
		if err := send(&tappv1.ConnectResponse{Message: &tappv1.ConnectResponse_Event{Event: &tappv1.EventNotice{GameId: gameID, Events: events}}}); err != nil {
			return nil, err
		}
	} else {
		req.Events = events
	}
	if err := send(&tappv1.ConnectResponse{Message: &tappv1.ConnectResponse_DecisionRequest{DecisionRequest: req}}); err != nil {
		return nil, err
	}
	defer func() {
		_ = conn.Send(&tappv1.ConnectResponse{Message: &tappv1.ConnectResponse_GameEnded{GameEnded: &tappv1.GameEnded{GameId: gameID, Aborted: true}}})
	}()
	out := &asked{request: req}
	wait := time.NewTimer(tc.PerDecision + tc.Overage)
	defer wait.Stop()
	for {
		select {
		case a := <-answers:
			at := arena.AnswerAttempt{Text: a.Action, After: a.At.Sub(start)}
			rule, reason := checkAnswer(st, req.GetRequestId(), a)
			if rule == "" {
				out.attempts = append(out.attempts, at)
				out.accepted, out.latency = true, at.After
				return out, nil
			}
			at.Rejected = reason
			out.attempts = append(out.attempts, at)
			out.rules = append(out.rules, rule)
			_ = conn.Send(&tappv1.ConnectResponse{Message: &tappv1.ConnectResponse_AnswerRejected{AnswerRejected: &tappv1.AnswerRejected{
				GameId: gameID, RequestId: a.RequestID, RuleId: rule, Reason: reason}}})
		case <-wait.C:
			out.latency = tc.PerDecision + tc.Overage
			return out, nil
		case <-conn.Gone():
			return out, errBotGone
		case <-ctx.Done():
			return out, ctx.Err()
		}
	}
}

var errBotGone = errors.New("the bot left (its stream dropped and it did not come back)")

// checkAnswer judges one answer as the referee does: the rule id and reason of a refusal, or
// "" when the answer is accepted.
func checkAnswer(st *engine.State, requestID string, a referee.Answer) (rule, reason string) {
	if a.RequestID != requestID {
		return referee.ReasonUnknownRequest, "no open request " + strconv.Quote(a.RequestID) + " in this game (the open one is " + strconv.Quote(requestID) + ")"
	}
	act, err := engine.ParseAction(a.Action)
	if err != nil {
		return referee.ReasonMalformed, err.Error()
	}
	if err := st.Check(act); err != nil {
		var re *engine.RuleError
		if errors.As(err, &re) {
			return re.Rule, err.Error()
		}
		return referee.ReasonMalformed, err.Error()
	}
	return "", ""
}
