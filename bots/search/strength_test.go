//go:build searchexp

package search

// A quick duplicate comparison against the heuristic bot, outside the arena (build tag
// searchexp, minutes per hundred deals):
//
//	DEALS=200 VARIANT=modern PLAYERS=3 go test -tags searchexp -run Strength -v -timeout 2h ./bots/search
//
// Every deal is played once by four (three) heuristic bots and once for every seat with the
// search bot (default settings) there instead; the log shows the search bot's mean gain per
// seat and deal, broken down by what happened (who declared what).

import (
	"context"
	"os"
	"strconv"
	"testing"

	"github.com/tapparena/tapp/bots"
	"github.com/tapparena/tapp/bots/heuristic"
	"github.com/tapparena/tapp/engine"
)

func playWith(t *testing.T, r engine.RuleSet, deal engine.Deal, seatBot func(engine.Seat) bots.Bot) engine.Outcome {
	st, err := engine.NewState(r, deal, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for !st.Terminal() {
		obs := st.Observe(st.ToMove())
		a, err := seatBot(st.ToMove()).Decide(context.Background(), &obs)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Apply(a); err != nil {
			t.Fatal(err)
		}
	}
	return st.Outcome()
}

// Duplicate comparison: the search bot at one seat, heuristic elsewhere, against the
// all-heuristic table on the same deal.
func TestStrengthVsHeuristic(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("DEALS"))
	if n == 0 {
		n = 30
	}
	v, _ := engine.ParseVariant(os.Getenv("VARIANT"))
	if os.Getenv("VARIANT") == "" {
		v = engine.Modern
	}
	r := engine.DefaultRules(v)
	if p, _ := strconv.Atoi(os.Getenv("PLAYERS")); p == 4 {
		r.Players = 4
	}
	h := heuristic.New()
	k := New(Config{})
	var diff, kib, heu float64
	contracts := map[string][2]float64{}
	for i := 0; i < n; i++ {
		deal := engine.DealFromSeed(r, 1234, uint64(i))
		base := playWith(t, r, deal, func(engine.Seat) bots.Bot { return h })
		for s := 0; s < r.Players; s++ {
			me := engine.Seat(s)
			out := playWith(t, r, deal, func(x engine.Seat) bots.Bot {
				if x == me {
					return k
				}
				return h
			})
			d := float64(out.Payoff[s] - base.Payoff[s])
			diff += d
			kib += float64(out.Payoff[s])
			heu += float64(base.Payoff[s])
			key := out.Contract.String()
			if out.Declarer == me {
				key += "/decl"
			} else if out.Contract != engine.Ramsch {
				key += "/def"
			}
			if base.Declarer == me {
				key = "H-declared:" + base.Contract.String()
				if out.Declarer == me {
					key += "+K-too"
				}
			} else if out.Declarer == me {
				key = "K-declared-only:" + out.Contract.String()
			}
			c := contracts[key]
			c[0]++
			c[1] += d
			contracts[key] = c
		}
	}
	t.Logf("%s %dp deals %d: kibitz %.1f heuristic %.1f  diff/seat-deal %.3f", v, r.Players, n, kib, heu, diff/float64(n*r.Players))
	for key, c := range contracts {
		t.Logf("  %-16s n=%4.0f diff %.1f (%.2f each)", key, c[0], c[1], c[1]/c[0])
	}
}
