// Package reask puts one decision to a bot outside a match, exactly as the referee would put
// it in a game, and reports what the bot answered: the one re-ask of the arena. `tapp replay
// ask` and `tapp replay diff` re-ask recorded decisions of a stored deal or an export
// (Question), and `tapp bot check` asks the positions it has built (arena/internal/botcheck).
//
// A bot connects to a re-ask as to a real arena: LocalArena is an ephemeral arena of
// arena/internal/host (the same gRPC protocol, the same SDKs, one-time tokens, a bot command
// started by the arena's launcher) that stores nothing. The read-only viewer of recorded
// deals is arena/internal/replay, which links none of this.
//
// Files: reask.go (a position put to a bot on a referee.Conn, and how its answers are
// judged), question.go (a recorded decision as a question, and the answer), arena.go (the
// ephemeral arena a re-asked bot connects to).
package reask

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

// Position is one decision of a game, ready to be put to a bot.
type Position struct {
	// Start is what the seat is told when the game begins (GameStarted).
	Start *referee.Start
	// Request is the decision request; its Deadline is set when it is sent (now plus
	// PerDecision), the rest is sent as it is.
	Request *referee.Request
	// Earlier are the seat's events before those the request carries: they are sent first,
	// as one event notice, so that a stateful bot is where it would be in the game.
	Earlier []engine.Event
	// State is the game just before the decision: answers are judged against it.
	State *engine.State
	// PerDecision is the time the bot gets; Overage is added to it before the arena gives up
	// (a legal answer in the overage is accepted, as the referee accepts it).
	PerDecision, Overage time.Duration
}

// Result is what came of a position put to a bot.
type Result struct {
	Request  *referee.Request // as sent (with its deadline)
	Action   engine.Action    // the accepted answer, canonical (zero when none came in time)
	Accepted bool             // a legal answer came before the deadline and its overage
	Latency  time.Duration    // from the request to the accepted answer, or the whole wait
	// Attempts are every answer in the order they came, refused ones with the reason; Rules
	// holds the rule id (R-… or PROTO-…) of each refused one, in the same order.
	Attempts []domain.AnswerAttempt
	Rules    []string
}

// Errors a re-ask ends with when there is no answer to report.
var (
	ErrBotGone = errors.New("the bot left before it answered (its stream dropped and it did not come back)")
	// ErrExited is returned when the bot's process ended while it was being asked.
	ErrExited = errors.New("the bot's process ended before it answered")
)

// Ask puts the position to the bot on conn as the referee would: GameStarted, the earlier
// events, the request; a refused answer is told its reason and may be corrected until the
// deadline. The game is then ended as aborted. exited, when not nil, reports that the bot's
// process has ended (Ask then returns ErrExited). On an error the result holds what came
// before it.
func Ask(ctx context.Context, conn referee.Conn, p Position, exited <-chan struct{}) (*Result, error) {
	gameID := p.Start.GameID
	start := time.Now()
	req := p.Request
	req.Deadline = start.Add(p.PerDecision)
	answers, closeFn := conn.Open(p.Start, func(use func(*referee.Request)) { use(req) })
	defer closeFn()
	out := &Result{Request: req}
	if len(p.Earlier) > 0 {
		conn.Events(gameID, p.Earlier, 0)
	}
	if _, _, err := conn.Ask(req); err != nil {
		return out, fmt.Errorf("sending to the bot: %w", err)
	}
	defer conn.End(&referee.End{GameID: gameID, Aborted: true}, nil, 0)
	wait := p.PerDecision + p.Overage
	hard := time.NewTimer(wait)
	defer hard.Stop()
	for {
		select {
		case a := <-answers:
			at := domain.AnswerAttempt{Text: a.Action, After: a.At.Sub(start)}
			action, rule, reason := judge(p.State, req.RequestID, a)
			if rule == "" {
				out.Attempts = append(out.Attempts, at)
				out.Action, out.Accepted, out.Latency = action, true, at.After
				return out, nil
			}
			at.Rejected = reason
			out.Attempts = append(out.Attempts, at)
			out.Rules = append(out.Rules, rule)
			conn.Refuse(referee.Refusal{GameID: gameID, RequestID: a.RequestID, Rule: rule, Reason: reason})
		case <-hard.C:
			out.Latency = wait
			return out, nil
		case <-conn.Gone():
			return out, ErrBotGone
		case <-exited:
			return out, ErrExited
		case <-ctx.Done():
			return out, ctx.Err()
		}
	}
}

// judge checks one answer as the referee does: the canonical action, or the rule id and
// reason of its refusal.
func judge(st *engine.State, requestID string, a referee.Answer) (action engine.Action, rule, reason string) {
	if a.RequestID != requestID {
		return action, referee.ReasonUnknownRequest, "no open request " + strconv.Quote(a.RequestID) +
			" in this game (the open one is " + strconv.Quote(requestID) + ")"
	}
	action, err := engine.ParseAction(a.Action)
	if err != nil {
		return action, referee.ReasonMalformed, err.Error()
	}
	if err := st.Check(action); err != nil {
		var re *engine.RuleError
		if errors.As(err, &re) {
			return action, re.Rule, err.Error()
		}
		return action, referee.ReasonMalformed, err.Error()
	}
	return action.Canonical(), "", ""
}
