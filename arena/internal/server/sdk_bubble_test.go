package server_test

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/protoconv"
	"github.com/tapparena/tapp/bots"
	"github.com/tapparena/tapp/bots/random"
	"github.com/tapparena/tapp/bots/sdk"
	"github.com/tapparena/tapp/engine"
)

// The Go SDK (bots/sdk) against the real server in the bubble's fake time
// (bubble_harness_test.go): what the SDK does for a bot that misbehaves, to the exact
// millisecond, on any machine.

// sdkPerDecision is the time per decision of these matches; the SDK answers for its bot
// sdkMargin before (the larger of 20 ms and a tenth).
const (
	sdkPerDecision = 300 * time.Millisecond
	sdkMargin      = 30 * time.Millisecond
)

// playInBubble runs a modern match of nDeals between two random bots and odd, all through the
// SDK (odd with the given capacity), and returns odd's decisions. The match has no overage
// bank: an answer after the deadline is a strike.
func playInBubble(t *testing.T, odd bots.Bot, nDeals, capacity int) []domain.DecisionRecord {
	t.Helper()
	a := newBubbleArena(t, time.Second)
	defer a.stop()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()
	players := map[string]bots.Bot{"r1": random.New(1), "r2": random.New(2), "odd": odd}
	for name, b := range players {
		a.srv.AddLaunchToken("token-"+name, name)
		cfg := sdk.Config{Arena: "bufconn", Dial: a.dialer(), Token: "token-" + name, Name: name, Capacity: capacity}
		wg.Go(func() {
			if err := sdk.Run(ctx, cfg, b); err != nil {
				t.Errorf("Run for %s = %v", name, err)
			}
		})
	}
	a.waitSessions(len(players))
	a.play(domain.MatchSpec{Rules: engine.DefaultRules(engine.Modern), Bots: []string{"r1", "r2", "odd"}, Deals: nDeals, Seed: 9,
		TimeControl: domain.TimeControl{PerDecision: sdkPerDecision, MaxStrikes: 3}})
	decisions := a.store.decisionsOf("odd")
	if len(decisions) == 0 {
		t.Fatal("the bot made no decisions")
	}
	return decisions
}

// Whatever the bot does, the SDK answers a legal action in time; for a bot that is too slow,
// exactly at the margin.
func TestSDKAnswersLegallyWhateverTheBotDoes(t *testing.T) {
	t.Parallel()
	cases := map[string]struct {
		bot     bots.Func
		latency time.Duration // of every decision
	}{
		"panics": {func(context.Context, *engine.Observation) (engine.Action, error) { panic("boom") }, 0},
		"illegal": {func(context.Context, *engine.Observation) (engine.Action, error) {
			return engine.Action{Kind: engine.ActCard, Card: engine.NoCard}, nil
		}, 0},
		"errors": {func(context.Context, *engine.Observation) (engine.Action, error) {
			return engine.Action{}, context.Canceled
		}, 0},
		"too slow": {func(_ context.Context, obs *engine.Observation) (engine.Action, error) {
			time.Sleep(2 * time.Second) // ignores its context, as careless bots do
			return obs.Legal[0], nil
		}, sdkPerDecision - sdkMargin},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				defer time.Sleep(2 * time.Second) // until the slow bot's last calls return
				for _, d := range playInBubble(t, c.bot, 3, 2) {
					if d.Strike || d.Fallback || d.Latency != c.latency {
						t.Fatalf("decision %d: strike %v fallback %v latency %v; want the SDK's legal answer after %v", d.Index, d.Strike, d.Fallback, d.Latency, c.latency)
					}
					if len(d.Attempts) != 1 || d.Attempts[0].Rejected != "" {
						t.Fatalf("decision %d attempts %+v, want one accepted answer", d.Index, d.Attempts)
					}
				}
			})
		})
	}
}

// A bot whose first decisions never return holds them hanging, more of them than the SDK
// has slots (4 per game it plays at once): the SDK answers those at the margin itself and
// goes on asking the bot for the later ones, which it answers at once.
func TestSDKKeepsAskingTheBotAfterDecisionsHang(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		const hanging = 6
		release := make(chan struct{})
		var mu sync.Mutex
		calls := 0
		bot := bots.Func(func(_ context.Context, obs *engine.Observation) (engine.Action, error) {
			mu.Lock()
			calls++
			n := calls
			mu.Unlock()
			if n <= hanging {
				<-release // ignores its context until the test ends
			}
			return obs.Legal[len(obs.Legal)-1], nil
		})
		decisions := playInBubble(t, bot, 4, 1)
		close(release)
		chosen := 0
		for i, d := range decisions {
			if d.Strike || d.Fallback {
				t.Fatalf("decision %d of %d: strike %v fallback %v; the SDK must answer in time", d.Index, len(decisions), d.Strike, d.Fallback)
			}
			if i < hanging && d.Latency != sdkPerDecision-sdkMargin {
				t.Errorf("hanging decision %d answered after %v, want the margin's %v", i, d.Latency, sdkPerDecision-sdkMargin)
			}
			req, err := protoconv.DecodeSent(d.Sent)
			if err != nil {
				t.Fatal(err)
			}
			if legal := req.GetLegal(); i >= hanging && len(legal) > 1 && d.Action.String() == legal[len(legal)-1] {
				chosen++
			}
		}
		if chosen == 0 {
			t.Fatalf("none of the %d decisions after the hanging ones was the bot's: it was not asked again", len(decisions)-hanging)
		}
	})
}
