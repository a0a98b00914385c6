// Package wire is the Go SDK's wire decoder: it reads what the arena sends a bot (tapp.v1,
// proto/tapp/v1) into the engine's types — a decision request straight from its wire form
// into the seat's observation, a game's settlement and reveal — and writes the bot's answer.
// It is all a Go bot needs of the protocol besides the engine and the generated messages; the
// arena's side, which writes them, lives under arena/internal (encode, protoconv), and
// arena/wire/grpccodec carries the bytes through the gRPC stream.
package wire

import (
	"github.com/tapparena/tapp/arena/internal/wireform"
	"github.com/tapparena/tapp/engine"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// CardsFromProto reads a list of cards in R-CARD-5 notation; an unknown or repeated card is
// an error.
func CardsFromProto(cards []string) (engine.CardSet, error) { return wireform.CardsFrom(cards) }

// ActionsFromProto parses actions.
func ActionsFromProto(texts []string) ([]engine.Action, error) {
	out := make([]engine.Action, len(texts))
	for i, t := range texts {
		a, err := engine.ParseAction(t)
		if err != nil {
			return nil, err
		}
		out[i] = a
	}
	return out, nil
}

// DecisionFromProto converts a decision kind; the enums share their order.
func DecisionFromProto(d tappv1.Decision) engine.Decision { return engine.Decision(d) }
