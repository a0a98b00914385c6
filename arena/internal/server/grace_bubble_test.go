package server_test

import (
	"context"
	"log/slog"
	"testing"
	"testing/synctest"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/exp/zapslog"
	"go.uber.org/zap/zaptest/observer"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/bots/random"
	"github.com/tapparena/tapp/bots/sdk"
	"github.com/tapparena/tapp/engine"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// The server's grace period and keepalive under the bubble's fake time
// (bubble_harness_test.go).

const testGrace = 2 * time.Second

// graceSpec leaves 10 s per decision, far more than the grace period: what ends a dropped
// bot's wait is the grace period, not its deadline.
func graceSpec(names []string) domain.MatchSpec {
	return domain.MatchSpec{Rules: engine.DefaultRules(engine.Modern), Bots: names, Deals: 2, Seed: 3,
		TimeControl: domain.TimeControl{PerDecision: 10 * time.Second, Overage: time.Second, MaxStrikes: 3}}
}

// dropAt connects bot "odd", which answers at once but hangs up without answering its nth
// request; dropped receives the Welcome of the stream it dropped.
func dropAt(a *bubbleArena, n int) (odd *timedBot, dropped chan *tappv1.Welcome) {
	dropped = make(chan *tappv1.Welcome, 1)
	odd = a.connect("odd", nil, func(k int, req *tappv1.DecisionRequest) (*string, time.Duration) {
		if k != n {
			return &req.Legal[0], 0
		}
		for _, msg := range odd.messages() {
			if w := msg.GetWelcome(); w != nil {
				dropped <- w
			}
		}
		odd.cancel()
		return nil, 0
	})
	return odd, dropped
}

// A bot that drops its stream and is not back within the grace period is gone: the request
// it left open gets its fallback when the grace period ends (not at its deadline, and without
// a strike), and its later decisions are played without asking it.
func TestBotGoneAfterGraceGetsFallbacks(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		a := newBubbleArena(t, testGrace)
		defer a.stop()
		dropAt(a, 3)
		names := goodBots(a, "odd")
		a.waitSessions(3)
		start := time.Now()
		a.play(graceSpec(names))
		if took := time.Since(start); took != testGrace {
			t.Errorf("the match took %v, want the grace period %v (everything else is at once)", took, testGrace)
		}
		decs := a.store.decisionsOf("odd")
		for i, d := range decs {
			switch {
			case i < 2 && (d.Fallback || d.Strike):
				t.Errorf("decision %d, answered at once: fallback %v strike %v", i, d.Fallback, d.Strike)
			case i == 2 && (!d.Fallback || d.Strike || d.Latency != testGrace):
				t.Errorf("the decision left open: fallback %v strike %v latency %v, want a fallback after the grace period, no strike", d.Fallback, d.Strike, d.Latency)
			case i > 2 && (!d.Fallback || d.RequestID != ""):
				t.Errorf("decision %d of the gone bot: fallback %v request %q, want a fallback without asking", i, d.Fallback, d.RequestID)
			}
		}
	})
}

// A dropped bot that resumes its session just within the grace period is sent its open
// request again and answers it; one millisecond past it, the session is gone and a new one
// starts.
func TestResumeWithinTheGracePeriodOnly(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name    string
		back    time.Duration
		resumed bool
	}{
		{"just within", testGrace - time.Millisecond, true},
		{"just past", testGrace + time.Millisecond, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				a := newBubbleArena(t, testGrace)
				defer a.stop()
				odd, dropped := dropAt(a, 3)
				names := goodBots(a, "odd")
				a.waitSessions(3)
				back := make(chan *timedBot, 1)
				go func() {
					w := <-dropped
					<-odd.done
					time.Sleep(c.back)
					back <- a.connect("odd", &tappv1.Hello{Name: "odd", Capacity: 8, ResumeToken: w.GetResumeToken()}, atOnce)
				}()
				a.play(graceSpec(names))
				again := <-back
				var resumed, pending bool
				for _, msg := range again.messages() {
					if w := msg.GetWelcome(); w != nil {
						resumed = w.GetResumed()
					}
					for _, g := range msg.GetSnapshot().GetGames() {
						pending = pending || g.GetPending() != nil
					}
				}
				if resumed != c.resumed || pending != c.resumed {
					t.Errorf("back after %v: resumed %v, snapshot with the open request %v; want %v", c.back, resumed, pending, c.resumed)
				}
				open := a.store.decisionsOf("odd")[2]
				if c.resumed && (open.Fallback || open.Strike || open.Latency != c.back) {
					t.Errorf("the open request, answered on resuming: fallback %v strike %v latency %v, want the answer after %v", open.Fallback, open.Strike, open.Latency, c.back)
				}
				if !c.resumed && (!open.Fallback || open.Latency != testGrace) {
					t.Errorf("the open request of the gone session: fallback %v latency %v, want a fallback after %v", open.Fallback, open.Latency, testGrace)
				}
			})
		})
	}
}

// The SDK's keepalive pings and the server's ping policy agree: a bot that waits ten minutes
// for its first game keeps its one session (a server that allowed fewer pings would send it
// away with GOAWAY, and it would reconnect).
func TestIdleSDKBotKeepsItsSession(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		a := newBubbleArena(t, testGrace)
		defer a.stop()
		a.srv.AddLaunchToken("token-idle", "idle")
		core, logs := observer.New(zap.InfoLevel)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			done <- sdk.Run(ctx, sdk.Config{Arena: "bufconn", Dial: a.dialer(), Token: "token-idle", Log: slog.New(zapslog.NewHandler(core))}, random.New(1))
		}()
		a.waitSessions(1)
		first := a.srv.Sessions()[0].GetSessionId()
		time.Sleep(10 * time.Minute)
		sessions := a.srv.Sessions()
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run = %v", err)
		}
		if len(sessions) != 1 || sessions[0].GetSessionId() != first {
			t.Errorf("after 10 idle minutes: sessions %v, want the first one (%s) only", sessions, first)
		}
		if n := logs.FilterMessage("connected").Len(); n != 1 {
			t.Errorf("the SDK connected %d times in 10 idle minutes, want once: %v", n, logs.All())
		}
	})
}
