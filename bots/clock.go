package bots

import (
	"context"
	"time"
)

// Clock is a decision's time as the arena gave it: when the decision's own time ends, and
// the overage bank left beyond that. An answer after Deadline is still taken, the overrun
// coming out of the bank (of the game; of the match, with a per-match clock); only one after
// the bank too is played by the fallback and costs a strike. A bot that knows the bank can
// spend it where a decision matters and save it where it does not.
//
// Every path that asks a Go bot puts the clock on the decision's context (ClockOf): the Go
// SDK (bots/sdk) from the request's deadline and overage_left, the in-process adapter from
// the referee's request. A bot that does not look keeps deciding as before.
type Clock struct {
	// Deadline is the end of the decision's own time; the zero time when the request gave
	// none.
	Deadline time.Time
	// Overage is the bank left beyond Deadline.
	Overage time.Duration
}

// End is the last moment an answer is taken without a strike: Deadline plus the bank (the
// zero time without a deadline).
func (c Clock) End() time.Time {
	if c.Deadline.IsZero() {
		return time.Time{}
	}
	return c.Deadline.Add(c.Overage)
}

// ClockKey is the context key of a decision's clock: WithClock sets it, and an adapter with a
// context type of its own (the arena's in-process one, which allocates nothing per decision)
// answers Value(ClockKey{}) with the Clock itself.
type ClockKey struct{}

// WithClock returns ctx carrying c (ClockOf).
func WithClock(ctx context.Context, c Clock) context.Context {
	return context.WithValue(ctx, ClockKey{}, c)
}

// ClockOf returns the clock of the decision ctx belongs to; false when the caller gave none
// (a test, an older caller).
func ClockOf(ctx context.Context) (Clock, bool) {
	c, ok := ctx.Value(ClockKey{}).(Clock)
	return c, ok
}

// BankSpender is implemented by a bot that manages its own time from ClockOf and may spend
// the overage bank. Over gRPC, the Go SDK ends the context of a bot that reports true not at
// the decision's deadline (less its margin), as for every other bot, but when the bank is
// spent too (less the margin), and answers the fallback for it only then; in process the
// context of every bot ends with the bank. A bot that spends the bank is trusted to stop in
// time: the bank is the game's, and a bot that drains it early has none for a slow moment
// later.
type BankSpender interface {
	Bot
	SpendsBank() bool
}
