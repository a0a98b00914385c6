// Package bots holds what every built-in Go bot shares: the Bot interface that the Go SDK
// (bots/sdk) drives over gRPC and that the arena can also call in-process, and the registry of
// built-in bots by name.
package bots

import (
	"context"

	"github.com/tapparena/tapp/engine"
)

// Bot decides from one seat's observation alone. Built-in bots are stateless between
// decisions, so the same bot value may serve many games at once and must be safe for
// concurrent use.
type Bot interface {
	// Decide returns one of obs.Legal. An error makes the caller fall back to a legal move.
	Decide(ctx context.Context, obs *engine.Observation) (engine.Action, error)
}

// Func adapts a function to the Bot interface.
type Func func(ctx context.Context, obs *engine.Observation) (engine.Action, error)

// Decide calls f.
func (f Func) Decide(ctx context.Context, obs *engine.Observation) (engine.Action, error) {
	return f(ctx, obs)
}
