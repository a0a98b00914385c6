package sdk

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/tapparena/tapp/bots"
)

type ctxKey struct{}

// A bot's context behaves as context.WithDeadline(session, end) with the clock on it: it
// carries the clock and the session's values, and ends at the deadline, with the session, or
// when the decision is over — whether the bot asked for Done before or after.
func TestDecisionContextEndsAsWithDeadline(t *testing.T) {
	t.Parallel()
	session := context.WithValue(context.Background(), ctxKey{}, "session value")
	clock := bots.Clock{Deadline: time.Now().Add(time.Hour), Overage: time.Second}

	c := &decisionContext{parent: session, deadline: clock.Deadline, clock: clock}
	if got, ok := bots.ClockOf(c); !ok || got != clock {
		t.Fatalf("ClockOf = %v %v, want %v", got, ok, clock)
	}
	if c.Value(ctxKey{}) != "session value" {
		t.Fatalf("the session's value is lost")
	}
	if dl, ok := c.Deadline(); !ok || !dl.Equal(clock.Deadline) {
		t.Fatalf("Deadline = %v %v", dl, ok)
	}
	if c.Err() != nil {
		t.Fatalf("Err before the end = %v", c.Err())
	}
	done := c.Done()
	c.stop()
	<-done
	if !errors.Is(c.Err(), context.Canceled) {
		t.Fatalf("Err after the decision = %v, want Canceled", c.Err())
	}

	// Done asked for only after the decision: already closed.
	c = &decisionContext{parent: session, deadline: clock.Deadline}
	c.stop()
	<-c.Done()

	// The deadline: Err from the clock alone, Done closed by the guard's timer (expire).
	c = &decisionContext{parent: session, deadline: time.Now().Add(-time.Millisecond)}
	if !errors.Is(c.Err(), context.DeadlineExceeded) {
		t.Fatalf("Err past the deadline = %v, want DeadlineExceeded", c.Err())
	}
	<-c.Done()
	c = &decisionContext{parent: session, deadline: time.Now().Add(time.Hour)}
	done = c.Done()
	c.expire()
	<-done
	if !errors.Is(c.Err(), context.DeadlineExceeded) {
		t.Fatalf("Err after expire = %v, want DeadlineExceeded", c.Err())
	}
	c.stop() // the decision's end after the deadline keeps DeadlineExceeded
	if !errors.Is(c.Err(), context.DeadlineExceeded) {
		t.Fatalf("Err after expire and stop = %v, want DeadlineExceeded", c.Err())
	}

	// The session's end, before and after Done is asked for.
	sctx, cancel := context.WithCancel(session)
	c = &decisionContext{parent: sctx, deadline: time.Now().Add(time.Hour)}
	done = c.Done()
	cancel()
	<-done
	if !errors.Is(c.Err(), context.Canceled) {
		t.Fatalf("Err after the session's end = %v, want Canceled", c.Err())
	}
	c = &decisionContext{parent: sctx, deadline: time.Now().Add(time.Hour)}
	if !errors.Is(c.Err(), context.Canceled) {
		t.Fatalf("Err in an ended session = %v, want Canceled", c.Err())
	}
	<-c.Done()

	// A context derived by the bot ends with it.
	c = &decisionContext{parent: session, deadline: time.Now().Add(time.Hour)}
	child, cancelChild := context.WithCancel(c)
	defer cancelChild()
	c.stop()
	<-child.Done()
}
