package botcheck

import (
	"context"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/reask"
	"github.com/tapparena/tapp/arena/internal/referee"
)

// ask puts a position to the bot exactly as the referee would in a game (reask.Ask, the
// arena's one re-ask): GameStarted, the seat's events so far (streamed or batched into the
// request, as the bot asked in its hello), the request; a refused answer is told its reason
// and may be corrected until the deadline. The game then ends as aborted.
func ask(ctx context.Context, conn referee.Conn, pos position, id string, players []string, tc domain.TimeControl) (*reask.Result, error) {
	st, seat := pos.state, pos.seat
	r := st.Rules()
	gameID := "check/" + id
	obs := st.Observe(seat)
	p := reask.Position{
		Start: &referee.Start{
			GameID: gameID, MatchID: "check", Number: 0, Rules: r, Seat: seat, Players: players,
			TimeControl: tc, Hand: st.Deal().Hands[seat],
		},
		Request: &referee.Request{
			GameID: gameID, RequestID: "q-" + id, Observation: &obs, Legal: st.LegalActions(nil),
			OverageLeft: tc.Overage, Rules: r.String(),
		},
		State: st, PerDecision: tc.PerDecision, Overage: tc.Overage,
	}
	events := st.EventsFor(seat, 0)
	if conn.StreamEvents() {
		p.Earlier = events
	} else {
		p.Request.Events = events
	}
	return reask.Ask(ctx, conn, p, nil)
}
