package sdk_test

import (
	"context"
	"fmt"
	"os"

	"github.com/tapparena/tapp/bots"
	"github.com/tapparena/tapp/bots/sdk"
	"github.com/tapparena/tapp/engine"
)

// A bot is anything with a Decide method; bots.Func turns a function into one. This one plays
// the last legal action; the SDK calls it with each request's observation.
func Example_bot() {
	last := bots.Func(func(_ context.Context, obs *engine.Observation) (engine.Action, error) {
		return obs.Legal[len(obs.Legal)-1], nil
	})
	// What the SDK does with a request, shown on the first decision of a deal.
	rules := engine.DefaultRules(engine.Modern)
	st, err := engine.NewState(rules, engine.DealFromSeed(rules, 42, 0), engine.Options{})
	if err != nil {
		panic(err)
	}
	obs := st.Observe(st.ToMove())
	a, err := last.Decide(context.Background(), &obs)
	fmt.Println(obs.Legal, "->", a, err)
	// Output:
	// [pass play] -> play <nil>
}

// A bot that a league launches finds the arena, its token and its name in the environment.
func ExampleConfigFromEnv() {
	for k, v := range map[string]string{"TAPP_ARENA": "127.0.0.1:7000", "TAPP_TOKEN": "launch_0123", "TAPP_BOT_NAME": "mybot", "TAPP_CAPACITY": "4"} {
		os.Setenv(k, v)
		defer os.Unsetenv(k)
	}
	cfg, err := sdk.ConfigFromEnv()
	fmt.Println(cfg.Arena, cfg.Name, cfg.Capacity, err)
	// Output:
	// 127.0.0.1:7000 mybot 4 <nil>
}

// The whole program of a Go bot: read where to play, then play until the arena stops it.
// (Not run here: it needs an arena, such as `tapp serve` or a league.)
func ExampleRun() {
	cfg, err := sdk.ConfigFromEnv()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	cfg.Version = "1.0"
	bot := bots.Func(func(_ context.Context, obs *engine.Observation) (engine.Action, error) {
		return obs.Legal[0], nil
	})
	if err := sdk.Run(context.Background(), cfg, bot); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
