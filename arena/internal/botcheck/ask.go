package botcheck

import (
	"context"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/reask"
	"github.com/tapparena/tapp/arena/internal/referee"
	"github.com/tapparena/tapp/engine"
)

// ask puts a position to the bot exactly as the referee would in a game (reask.Ask, the
// arena's one re-ask): GameStarted, the seat's events so far (streamed or batched into the
// request, as the bot asked in its hello), the request; a refused answer is told its reason
// and may be corrected until the deadline. The game then ends as aborted.
func ask(ctx context.Context, conn referee.Conn, pos position, id string, players []string, tc domain.TimeControl) (*reask.Result, error) {
	st, seat := pos.state, pos.seat
	r := st.Rules()
	gameID := "check/" + id
	// The request the referee's own Build makes; a bot that streams events was told them
	// before it, as it would have been in the game.
	var earlier []engine.Event
	if conn.StreamEvents() {
		earlier = st.EventsFor(seat, 0)
	}
	req := &referee.Request{}
	req.Build(st, gameID, "q-"+id, time.Time{}, tc.Overage, len(earlier))
	p := reask.Position{
		Start: &referee.Start{
			GameID: gameID, MatchID: "check", Number: 0, Rules: r, Seat: seat, Players: players,
			TimeControl: tc, Hand: st.Deal().Hands[seat],
		},
		Request: req,
		Earlier: earlier,
		State:   st, PerDecision: tc.PerDecision, Overage: tc.Overage,
	}
	return reask.Ask(ctx, conn, p, nil)
}
