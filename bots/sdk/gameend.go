package sdk

import (
	"log/slog"

	"github.com/tapparena/tapp/arena/wire"
	"github.com/tapparena/tapp/engine"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// GameEnd is how a game ended, as the arena tells each of its seats at the end
// (Config.GameEnded), in the engine's terms.
type GameEnd struct {
	GameID string
	// Aborted says the arena stopped the game before its end (it shut down): the game has
	// no result, counts for nothing, and the fields below are zero.
	Aborted bool
	// Players is the table's size: the seats of Outcome and Deal that count.
	Players int
	// Outcome is the settlement: the contract and its declarer, whether it was won, and by
	// seat the card points, the tricks and the payoff.
	Outcome engine.Outcome
	// Deal is the reveal (R-INFO-4): every hand as dealt, and the tapp; Discarded is what the
	// Frage declarer laid away (none in other contracts).
	Deal      engine.Deal
	Discarded engine.CardSet
}

// gameEnded hands a game's end to Config.GameEnded; an end the SDK cannot read is logged
// instead.
func (c *client) gameEnded(m *tappv1.GameEnded) {
	end, err := gameEndFromProto(m)
	if err != nil {
		c.log.Error("unreadable end of a game", slog.String("game", m.GetGameId()), slog.Any("error", err))
		return
	}
	c.cfg.GameEnded(end)
}

func gameEndFromProto(m *tappv1.GameEnded) (GameEnd, error) {
	end := GameEnd{GameID: m.GetGameId(), Aborted: m.GetAborted()}
	if end.Aborted {
		return end, nil
	}
	var err error
	if end.Outcome, err = wire.OutcomeFromProto(m.GetSettlement()); err != nil {
		return end, err
	}
	if end.Deal, end.Discarded, err = wire.RevealFromProto(m.GetReveal()); err != nil {
		return end, err
	}
	end.Players = len(m.GetReveal().GetHands())
	return end, nil
}
