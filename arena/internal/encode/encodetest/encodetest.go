// Package encodetest gives the tests and benchmarks of the request encoder
// (arena/internal/encode) and of the SDK's decoder (arena/wire) the same requests: those of
// every decision of random deals of every variant, built as the referee builds them.
package encodetest

import (
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/referee"
	"github.com/tapparena/tapp/engine"
)

// RuleSets are the rule sets the requests come from: every variant and table size, both packs,
// Frage, and the pot.
var RuleSets = []string{"modern", "modern frage=on", "modern players=4", "modern pack=32", "classic",
	"wuerttemberg pot=on"}

// Request is one decision of a random deal, as the referee asks it.
type Request struct {
	Rules string // the rule set's text as in RuleSets
	Deal  int
	Index int // the decision's number in the deal
	Req   *referee.Request
}

// EachRequest calls f with the request of every decision of deals random deals of every rule
// set of RuleSets (a pot carried in and forced Ramsch deals among them), with the events since
// the seat's last request, as the referee sends them; deadlines and the overage left (negative
// too) vary. The request is valid only during the call.
func EachRequest(t testing.TB, deals int, f func(r Request)) {
	t.Helper()
	for _, text := range RuleSets {
		rules, err := engine.ParseRuleSet(text)
		if err != nil {
			t.Fatal(err)
		}
		rng := engine.NewRand(5, 0)
		for n := range deals {
			var opts engine.Options
			if rules.Pot {
				opts.Pot = n % 3 * 20
			}
			if rules.Variant == engine.Modern {
				opts.ForcedRamsch = n%7 == 0
			}
			st, err := engine.NewState(rules, engine.DealFromSeed(rules, 8, uint64(n)), opts)
			if err != nil {
				t.Fatal(err)
			}
			sent := make([]int, rules.Players)
			var legal []engine.Action
			var req referee.Request
			for i := 0; !st.Terminal(); i++ {
				seat := st.ToMove()
				req.Build(st, "m-1/2", "r"+string(rune('a'+i%26)), time.Unix(1_800_000_000+int64(i), int64(i)*7919),
					time.Duration(i-5)*123456789, sent[seat])
				f(Request{Rules: text, Deal: n, Index: i, Req: &req})
				sent[seat] += len(req.Events)
				legal = st.LegalActions(legal[:0])
				if err := st.Apply(legal[rng.IntN(len(legal))]); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

// States returns the state before every decision of a few random modern deals, at least n:
// the mix of requests a random bot gets.
func States(tb testing.TB, n int) []*engine.State {
	tb.Helper()
	rules := engine.DefaultRules(engine.Modern)
	rng := engine.NewRand(11, 0)
	var out []*engine.State
	var legal []engine.Action
	for d := 0; len(out) < n; d++ {
		st, err := engine.NewState(rules, engine.DealFromSeed(rules, 5, uint64(d)), engine.Options{})
		if err != nil {
			tb.Fatal(err)
		}
		for !st.Terminal() {
			out = append(out, st.Clone())
			legal = st.LegalActions(legal[:0])
			if err := st.Apply(legal[rng.IntN(len(legal))]); err != nil {
				tb.Fatal(err)
			}
		}
	}
	return out
}

// PlayOut plays random legal actions until the deal is over.
func PlayOut(tb testing.TB, st *engine.State, rng *engine.Rand) {
	tb.Helper()
	var legal []engine.Action
	for !st.Terminal() {
		legal = st.LegalActions(legal[:0])
		if err := st.Apply(legal[rng.IntN(len(legal))]); err != nil {
			tb.Fatal(err)
		}
	}
}
