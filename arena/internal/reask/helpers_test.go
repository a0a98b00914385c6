package reask

import (
	"context"
	"fmt"
	"os"
	"testing"

	"go.uber.org/zap"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/replay"
	"github.com/tapparena/tapp/arena/internal/replay/replaytest"
	"github.com/tapparena/tapp/bots"
	"github.com/tapparena/tapp/bots/builtin"
	"github.com/tapparena/tapp/bots/sdk"
	"github.com/tapparena/tapp/engine"
)

// botEnv makes the test binary a bot (see TestMain): its value names the bot.
const botEnv = "TAPP_REASK_TEST_BOT"

// TestMain lets the test binary play a bot program for the ask tests: with TAPP_REASK_TEST_BOT
// set it connects to $TAPP_ARENA with $TAPP_TOKEN through the Go SDK and plays that bot.
func TestMain(m *testing.M) {
	if kind := os.Getenv(botEnv); kind != "" {
		b := lastLegalBot()
		if kind != "last" {
			var err error
			if b, err = builtin.New(kind, 1); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(2)
			}
		}
		err := sdk.Run(context.Background(), sdk.Config{Arena: os.Getenv("TAPP_ARENA"), Token: os.Getenv("TAPP_TOKEN"),
			Name: "test-" + kind, Version: "test/" + kind, Log: zap.NewNop()}, b)
		if err != nil && err != sdk.ErrGoingAway {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// lastLegalBot always plays the last legal action.
func lastLegalBot() bots.Bot {
	return bots.Func(func(_ context.Context, obs *engine.Observation) (engine.Action, error) {
		return obs.Legal[len(obs.Legal)-1], nil
	})
}

// testClock is the fast clock the test matches are played under.
var testClock = replaytest.Clock

// play plays a seeded match of n deals among in-process answer functions (replaytest.Play)
// and returns its replay context and records.
func play(t testing.TB, rulesText string, n int, answers ...replaytest.Answers) (replay.Match, []domain.DealRecord) {
	t.Helper()
	m, recs := replaytest.Play(t, rulesText, n, answers...)
	return replay.MatchOf(m), recs
}
