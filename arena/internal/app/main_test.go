package app

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"

	"go.uber.org/zap"

	"github.com/tapparena/tapp/bots/builtin"
	"github.com/tapparena/tapp/bots/sdk"
)

// botEnv makes the test binary a bot program (see TestMain): its value is the built-in bot
// it plays. Leagues in these tests launch it as they launch any bot's command.
const botEnv = "TAPP_APP_TEST_BOT"

// TestMain lets the test binary play a bot program: with TAPP_APP_TEST_BOT set it connects to
// $TAPP_ARENA with $TAPP_TOKEN (what an arena gives the bots it launches) through the Go SDK.
func TestMain(m *testing.M) {
	if kind := os.Getenv(botEnv); kind != "" {
		seed, _ := strconv.ParseUint(os.Getenv("TAPP_SEED"), 10, 64)
		b, err := builtin.New(kind, seed)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		capacity, _ := strconv.Atoi(os.Getenv("TAPP_CAPACITY"))
		err = sdk.Run(context.Background(), sdk.Config{Arena: os.Getenv("TAPP_ARENA"), Token: os.Getenv("TAPP_TOKEN"),
			Name: os.Getenv("TAPP_BOT_NAME"), Version: "test/" + kind, Capacity: max(capacity, 1), Log: zap.NewNop()}, b)
		if err != nil && err != sdk.ErrGoingAway {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}
