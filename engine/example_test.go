package engine_test

import (
	"fmt"

	"github.com/tapparena/tapp/engine"
)

// A whole deal: every seat in turn sees its observation and plays the first legal action.
func Example() {
	rules := engine.DefaultRules(engine.Modern)
	deal := engine.DealFromSeed(rules, 42, 0) // the same seed and number give the same cards
	st, err := engine.NewState(rules, deal, engine.Options{})
	if err != nil {
		panic(err)
	}
	decisions := 0
	for !st.Terminal() {
		obs := st.Observe(st.ToMove()) // what that seat may know, and its legal actions
		if err := st.Apply(obs.Legal[0]); err != nil {
			panic(err)
		}
		decisions++
	}
	out := st.Outcome()
	fmt.Println("decisions:", decisions)
	fmt.Println("contract:", out.Contract)
	fmt.Println("payoffs:", out.Payoff[:rules.Players])
	// Output:
	// decisions: 36
	// contract: ramsch
	// payoffs: [5 5 -10]
}

// An answer's text is parsed into an action; an illegal one is refused with the rule it
// breaks.
func ExampleState_Check() {
	rules := engine.DefaultRules(engine.Modern)
	st, err := engine.NewState(rules, engine.DealFromSeed(rules, 42, 0), engine.Options{})
	if err != nil {
		panic(err)
	}
	for _, text := range []string{"pass", "H6", "nonsense"} {
		a, err := engine.ParseAction(text)
		if err != nil {
			fmt.Printf("%q does not parse\n", text)
			continue
		}
		if err := st.Check(a); err != nil {
			fmt.Printf("%q is refused: %v\n", text, err)
			continue
		}
		fmt.Printf("%q is legal\n", text)
	}
	// Output:
	// "pass" is legal
	// "H6" is refused: R-MOD-BID-1: round one: say play or pass, not H6
	// "nonsense" does not parse
}

// A rule set is written as its variant and options; String gives the canonical text.
func ExampleParseRuleSet() {
	r, err := engine.ParseRuleSet("modern players=4")
	if err != nil {
		panic(err)
	}
	fmt.Println(r.Players, r)
	// Output:
	// 4 modern players=4 pack=36 frage=off stakes=solo:5,heartsolo:10,bettel:15,rufer:15,heartrufer:30,ouvert:30,durch:30,heartdurch:60,ramsch:5
}
