package botcheck

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/referee"
	"github.com/tapparena/tapp/engine"
)

// asked is what came of one question.
type asked struct {
	request  *referee.Request
	attempts []domain.AnswerAttempt
	rules    []string // the rule id of each refused attempt
	accepted bool
	latency  time.Duration
}

// ask puts a position to the bot exactly as the referee would in a game: GameStarted, the
// seat's events so far (streamed or batched into the request, as the bot asked in its hello),
// the request; a refused answer is told its reason and may be corrected until the deadline.
// The game then ends as aborted.
func ask(ctx context.Context, conn referee.Conn, pos position, id string, players []string, tc domain.TimeControl) (*asked, error) {
	st, seat := pos.state, pos.seat
	r := st.Rules()
	gameID := "check/" + id
	started := &referee.Start{
		GameID: gameID, MatchID: "check", Number: 0, Rules: r, Seat: seat, Players: players,
		TimeControl: tc, Hand: st.Deal().Hands[seat],
	}
	obs := st.Observe(seat)
	events := st.EventsFor(seat, 0)
	start := time.Now()
	req := &referee.Request{
		GameID: gameID, RequestID: "q-" + id, Observation: &obs, Legal: st.LegalActions(nil),
		Deadline: start.Add(tc.PerDecision), OverageLeft: tc.Overage, Rules: r.String(),
	}
	answers, closeFn := conn.Open(started, func(use func(*referee.Request)) { use(req) })
	defer closeFn()
	if conn.StreamEvents() {
		conn.Events(gameID, events, 0)
	} else {
		req.Events = events
	}
	if _, _, err := conn.Ask(req); err != nil {
		return nil, fmt.Errorf("sending to the bot: %w", err)
	}
	defer conn.End(&referee.End{GameID: gameID, Aborted: true}, nil, 0)
	out := &asked{request: req}
	wait := time.NewTimer(tc.PerDecision + tc.Overage)
	defer wait.Stop()
	for {
		select {
		case a := <-answers:
			at := domain.AnswerAttempt{Text: a.Action, After: a.At.Sub(start)}
			rule, reason := checkAnswer(st, req.RequestID, a)
			if rule == "" {
				out.attempts = append(out.attempts, at)
				out.accepted, out.latency = true, at.After
				return out, nil
			}
			at.Rejected = reason
			out.attempts = append(out.attempts, at)
			out.rules = append(out.rules, rule)
			conn.Refuse(referee.Refusal{GameID: gameID, RequestID: a.RequestID, Rule: rule, Reason: reason})
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
