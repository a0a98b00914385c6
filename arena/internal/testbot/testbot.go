// Package testbot lets a test binary be a bot program, so that tests launch real bot
// processes the way an arena launches any bot's command: a test's TestMain calls
// RunIfAsked first, and a test starts os.Args[0] with the variable set. Only tests import it.
package testbot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strconv"

	"github.com/tapparena/tapp/bots"
	"github.com/tapparena/tapp/bots/builtin"
	"github.com/tapparena/tapp/bots/sdk"
)

// RunIfAsked returns at once unless the variable env is set. Set, its value names the bot to
// play (custom's, when custom knows it, else a built-in bot seeded with $TAPP_SEED): the
// process connects to $TAPP_ARENA with $TAPP_TOKEN through the Go SDK (as $TAPP_BOT_NAME,
// else test-KIND, version test/KIND, $TAPP_CAPACITY games at once), plays until the arena
// goes away, and exits.
func RunIfAsked(env string, custom func(kind string) (bots.Bot, bool)) {
	kind := os.Getenv(env)
	if kind == "" {
		return
	}
	b, ok := bots.Bot(nil), false
	if custom != nil {
		b, ok = custom(kind)
	}
	if !ok {
		seed, _ := strconv.ParseUint(os.Getenv("TAPP_SEED"), 10, 64)
		var err error
		if b, err = builtin.New(kind, seed); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
	}
	name := os.Getenv("TAPP_BOT_NAME")
	if name == "" {
		name = "test-" + kind
	}
	capacity, _ := strconv.Atoi(os.Getenv("TAPP_CAPACITY"))
	err := sdk.Run(context.Background(), sdk.Config{Arena: os.Getenv("TAPP_ARENA"), Token: os.Getenv("TAPP_TOKEN"),
		Name: name, Version: "test/" + kind, Capacity: max(capacity, 1), Log: slog.New(slog.DiscardHandler)}, b)
	if err != nil && !errors.Is(err, sdk.ErrGoingAway) {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
}
