package sdk_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"

	"github.com/tapparena/tapp/bots"
	"github.com/tapparena/tapp/bots/sdk"
	"github.com/tapparena/tapp/engine"
)

// A bot that plays its lowest legal card, and the first legal action in every other
// decision. Run ends with sdk.ErrGoingAway when the arena shuts down: a normal end.
func ExampleRun() {
	lowCard := bots.Func(func(_ context.Context, obs *engine.Observation) (engine.Action, error) {
		var playable []engine.Card
		for _, a := range obs.Legal {
			if a.Kind == engine.ActCard {
				playable = append(playable, a.Card)
			}
		}
		if len(playable) > 0 {
			return engine.CardAction(sdk.Lowest(playable)), nil
		}
		return obs.Legal[0], nil
	})
	cfg, err := sdk.ConfigFromEnv() // TAPP_ARENA (default localhost:7000), TAPP_TOKEN, ...
	if err != nil {
		log.Fatal(err)
	}
	err = sdk.Run(context.Background(), cfg, lowCard)
	if err != nil && !errors.Is(err, sdk.ErrGoingAway) {
		log.Fatal(err)
	}
}

func ExampleConfigFromEnv() {
	os.Unsetenv("TAPP_ARENA")
	os.Setenv("TAPP_TOKEN", "tapp_0123")
	defer os.Unsetenv("TAPP_TOKEN")
	cfg, err := sdk.ConfigFromEnv()
	fmt.Println(cfg.Arena, cfg.Token, err)
	// Output: localhost:7000 tapp_0123 <nil>
}

func ExampleTrickWinner() {
	trick, _ := sdk.ParseCards("H7", "HA", "C6") // in play order, the leader's card first
	fmt.Println(sdk.TrickWinner(trick, engine.Clubs), sdk.TrickWinner(trick, engine.NoSuit))
	// Output: 2 1
}

func ExampleFollowCards() {
	hand, _ := engine.ParseCardSet("CA C7 HK D6")
	trick, _ := sdk.ParseCards("S9") // spades led: no spade in hand, so a trump if there is one
	fmt.Println(sdk.FollowCards(hand, trick, engine.Hearts))
	fmt.Println(sdk.FollowCards(hand, trick, engine.NoSuit))
	// Output:
	// HK
	// C7 CA HK D6
}

func ExampleStrength() {
	king, _ := engine.ParseCard("SK")
	ten, _ := engine.ParseCard("ST")
	fmt.Println(sdk.Strength(ten) > sdk.Strength(king), sdk.Points(king, ten))
	// Output: true 14
}

func ExampleHighest() {
	hearts, _ := sdk.ParseCards("HK", "H7", "HT")
	fmt.Println(sdk.Highest(hearts), sdk.Lowest(hearts))
	// Output: HT H7
}

func ExampleSplitAction() {
	for _, a := range []string{"pass", "solo:C", "HA"} {
		name, arg := sdk.SplitAction(a)
		fmt.Printf("%s %q\n", name, arg)
	}
	// Output:
	// pass ""
	// solo "C"
	// card "HA"
}

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
