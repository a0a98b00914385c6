package sdk

import (
	"context"
	"sync"
	"time"

	"github.com/tapparena/tapp/bots"
)

// decisionContext is the context a bot decides in: it ends at its deadline (the guard's
// moment), when the session ends, or when the decision is over (stop), as
// context.WithDeadline(session, end) cancelled after the call would, and it carries the
// decision's clock (bots.ClockOf) and the session's values. Most bots never ask whether it
// has ended (a random bot does not), so its channel is made only when a bot asks for Done:
// WithDeadline made a timer, registered with the session's context under its lock and
// unregistered again, and WithClock a context of its own, on every decision (issue 31). Err
// reads the clock, and the guard's timer closes the channel at the deadline.
type decisionContext struct {
	parent   context.Context // the session's
	deadline time.Time
	clock    bots.Clock

	mu         sync.Mutex
	done       chan struct{} // made when first asked for
	over       bool          // the decision is over (stop): Canceled, unless ended before
	err        error         // why done was closed, once it is
	stopParent func() bool   // the watch on parent's end, once done is made
}

func (c *decisionContext) Deadline() (time.Time, bool) { return c.deadline, true }

func (c *decisionContext) Done() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done != nil {
		return c.done
	}
	c.done = make(chan struct{})
	if err := c.errLocked(); err != nil {
		c.closeLocked(err)
		return c.done
	}
	c.stopParent = context.AfterFunc(c.parent, func() { c.end(c.parent.Err()) })
	return c.done
}

// Err is the session's error once it ended, DeadlineExceeded from the deadline on, Canceled
// once the decision is over; what ended the channel first, once it is closed.
func (c *decisionContext) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.errLocked()
}

func (c *decisionContext) errLocked() error {
	if c.err != nil {
		return c.err
	}
	if err := c.parent.Err(); err != nil {
		return err
	}
	if !time.Now().Before(c.deadline) {
		return context.DeadlineExceeded
	}
	if c.over {
		return context.Canceled
	}
	return nil
}

// Value answers the decision's clock, and the session's values for every other key.
func (c *decisionContext) Value(key any) any {
	if _, ok := key.(bots.ClockKey); ok {
		return c.clock
	}
	return c.parent.Value(key)
}

// end closes the channel, if it was made and is still open, for err.
func (c *decisionContext) end(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done != nil && c.err == nil {
		c.closeLocked(err)
	}
}

// expire is the deadline come (the guard's timer).
func (c *decisionContext) expire() { c.end(context.DeadlineExceeded) }

// stop ends the context when the decision is over, as the cancel of context.WithDeadline.
func (c *decisionContext) stop() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.over = true
	if c.done != nil && c.err == nil {
		c.closeLocked(context.Canceled)
	}
}

// stopUntouched is stop, reporting whether the bot never asked for Done: then nothing of the
// bot's can wait on the context, and it may be reused once the bot's Decide has returned.
func (c *decisionContext) stopUntouched() bool {
	c.stop()
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.done == nil
}

// closeLocked closes done for err; c.mu is held.
func (c *decisionContext) closeLocked(err error) {
	c.err = err
	close(c.done)
	if c.stopParent != nil {
		c.stopParent()
	}
}
