package server_test

import (
	"context"
	"net"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/match"
	"github.com/tapparena/tapp/arena/internal/server"
	"github.com/tapparena/tapp/arena/internal/store"
	"github.com/tapparena/tapp/bots"
	"github.com/tapparena/tapp/bots/random"
	"github.com/tapparena/tapp/bots/sdk"
	"github.com/tapparena/tapp/engine"
)

// These tests drive the Go SDK (bots/sdk) against a real arena server over loopback gRPC; they
// live beside the server because the SDK may not import the arena's internal packages.

// playWith runs a 3-deal modern match between two random bots and the given bot, all through
// the SDK over loopback gRPC, and returns the decisions of the given bot.
func playWith(t *testing.T, odd bots.Bot, perDecision time.Duration) []domain.DecisionRecord {
	return playMatch(t, odd, perDecision, 3, 2)
}

// playMatch is playWith with the number of deals and the bots' capacity (games at once). The
// SDK must answer by each per-decision deadline; the match also has an overage bank of
// seconds, so that a busy machine's scheduling delays cannot make an answer the SDK sent in
// time a strike, while an SDK that did not answer for its bot still would be.
func playMatch(t *testing.T, odd bots.Bot, perDecision time.Duration, nDeals, capacity int) []domain.DecisionRecord {
	t.Helper()
	_, deals := runSDKMatch(t, odd, perDecision, nDeals, capacity, nil)
	var out []domain.DecisionRecord
	for _, d := range deals {
		for _, x := range d.Decisions {
			if x.Bot == "odd" {
				out = append(out, x)
			}
		}
	}
	if len(out) == 0 {
		t.Fatal("the bot made no decisions")
	}
	return out
}

// runSDKMatch plays playMatch's match, the SDK's Config of the given bot ("odd") changed by
// configure (if not nil), and returns the match's id and its deals as stored.
func runSDKMatch(t *testing.T, odd bots.Bot, perDecision time.Duration, nDeals, capacity int, configure func(*sdk.Config)) (string, []domain.DealRecord) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "sdk.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := server.New(server.Config{Store: st, Grace: time.Second})
	go func() { _ = srv.Serve(lis) }()
	defer srv.Shutdown(context.Background())

	players := map[string]bots.Bot{"r1": random.New(1), "r2": random.New(2), "odd": odd}
	done := make(chan error, len(players))
	for name, b := range players {
		token := "token-" + name
		srv.AddLaunchToken(token, name)
		cfg := sdk.Config{Arena: lis.Addr().String(), Token: token, Name: name, Capacity: capacity}
		if name == "odd" && configure != nil {
			configure(&cfg)
		}
		go func() {
			done <- sdk.Run(ctx, cfg, b)
		}()
	}
	runner := &match.Runner{Store: st, Seats: srv, Parallel: 2}
	m, err := runner.Create(ctx, domain.MatchSpec{Rules: engine.DefaultRules(engine.Modern), Bots: []string{"r1", "r2", "odd"},
		Deals: nDeals, Seed: 9, TimeControl: domain.TimeControl{PerDecision: perDecision, Overage: 5 * time.Second, MaxStrikes: 3}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := runner.Run(ctx, m); err != nil {
		t.Fatal(err)
	}
	deals, err := st.Deals(ctx, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	return m.ID, deals
}

// The SDK's handling of bots that panic, fail, hang or are too slow is tested in fake time
// (sdk_bubble_test.go); this test checks over real loopback gRPC what a bot is given.
func TestSDKDecidesFromTheObservationItWasSent(t *testing.T) {
	t.Parallel()
	// A bot that checks what the SDK rebuilt from the wire against the engine's rules.
	var mu sync.Mutex
	var bad []string
	check := bots.Func(func(_ context.Context, obs *engine.Observation) (engine.Action, error) {
		mu.Lock()
		defer mu.Unlock()
		if len(obs.Legal) == 0 {
			bad = append(bad, "no legal actions")
		}
		if obs.Decision == engine.DecideCard {
			for _, a := range obs.Legal {
				if !obs.Hand.Has(a.Card) {
					bad = append(bad, "legal card "+a.String()+" not in hand "+obs.Hand.String())
				}
			}
		}
		if obs.Seat != obs.ToMove {
			bad = append(bad, "asked although not to move")
		}
		return obs.Legal[len(obs.Legal)-1], nil
	})
	playWith(t, bots.Func(func(ctx context.Context, obs *engine.Observation) (engine.Action, error) {
		return check(ctx, obs)
	}), time.Second)
	mu.Lock()
	defer mu.Unlock()
	if len(bad) > 0 {
		t.Fatalf("observations rebuilt wrongly: %v", bad[:min(len(bad), 5)])
	}
}
