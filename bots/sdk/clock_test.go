package sdk_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/tapparena/tapp/bots"
	"github.com/tapparena/tapp/bots/sdk"
	"github.com/tapparena/tapp/engine"
)

// bankSpender is a bot that says it spends the overage bank, and hangs until release.
type bankSpender struct{ release <-chan struct{} }

func (b bankSpender) SpendsBank() bool { return true }

func (b bankSpender) Decide(_ context.Context, obs *engine.Observation) (engine.Action, error) {
	<-b.release
	return obs.Legal[len(obs.Legal)-1], nil
}

// A bot finds the request's clock on its context: its own time (less the SDK's margin) and
// the bank the arena says is left; its context still ends at its own time, so a bot that
// does not look decides as before.
func TestSDKGivesTheBotItsClock(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		type seen struct {
			clock    bots.Clock
			ok       bool
			deadline time.Time
		}
		got := make(chan seen, 1)
		bot := bots.Func(func(ctx context.Context, obs *engine.Observation) (engine.Action, error) {
			c, ok := bots.ClockOf(ctx)
			dl, _ := ctx.Deadline()
			got <- seen{c, ok, dl}
			return obs.Legal[0], nil
		})
		arena, stop := inBubble(t, sdk.Config{}, bot)
		defer stop()
		req := request(t, "r1", time.Second)
		req.GetDecisionRequest().OverageLeft = durationpb.New(4 * time.Second)
		arena.toBot <- req
		sent := time.Now()
		s := <-got
		<-arena.answers
		if !s.ok {
			t.Fatal("no clock on the bot's context")
		}
		if want := sent.Add(900 * time.Millisecond); !s.clock.Deadline.Equal(want) || s.clock.Overage != 4*time.Second {
			t.Errorf("clock %v + %v, want %v + 4s", s.clock.Deadline.Sub(sent), s.clock.Overage, want.Sub(sent))
		}
		if !s.deadline.Equal(s.clock.Deadline) {
			t.Errorf("context ends %v after the request, want at the clock's deadline %v", s.deadline.Sub(sent), s.clock.Deadline.Sub(sent))
		}
	})
}

// A bot that spends the bank (bots.BankSpender) is answered for only when the bank is spent
// too: a hanging one at its own time less the margin plus the whole bank.
func TestSDKLetsABankSpenderUseTheBank(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		defer close(release)
		arena, stop := inBubble(t, sdk.Config{}, bankSpender{release})
		defer stop()
		req := request(t, "r1", time.Second)
		req.GetDecisionRequest().OverageLeft = durationpb.New(3 * time.Second)
		arena.toBot <- req
		sent := time.Now()
		got := <-arena.answers
		if elapsed, want := got.at.Sub(sent), 3900*time.Millisecond; elapsed != want {
			t.Errorf("answered for the bot %v after the request, want %v (900 ms of its own and the 3 s bank)", elapsed, want)
		}
		if want := req.GetDecisionRequest().GetLegal()[0]; got.answer.GetAction() != want {
			t.Errorf("answer %s, want the fallback %s", got.answer.GetAction(), want)
		}
	})
}
