package sleuth

import (
	"context"
	"math"
	"testing"

	"github.com/tapparena/tapp/bots/heuristic"
	"github.com/tapparena/tapp/bots/random"
	"github.com/tapparena/tapp/engine"
)

// places returns, for every card hidden from the observer, its weighted share of the worlds
// in each place (a hand, or the tapp and lay-away last), normalised to sum to 1.
func places(obs *engine.Observation, cands []candidate, w []float64) map[engine.Card][engine.MaxPlayers + 1]float64 {
	n := obs.Rules.Players
	var played engine.CardSet
	for s := 0; s < n; s++ {
		played |= obs.Played[s]
	}
	hidden := obs.Rules.Pack() &^ (obs.Hand | played | obs.Exposed | obs.Tapp | obs.Discarded)
	total := 0.0
	for _, x := range w {
		total += x
	}
	out := map[engine.Card][engine.MaxPlayers + 1]float64{}
	for _, c := range hidden.Cards(nil) {
		var share [engine.MaxPlayers + 1]float64
		for i, cd := range cands {
			share[placeOf(cd.st, c, n)] += w[i] / total
		}
		out[c] = share
	}
	return out
}

func placeOf(st *engine.State, c engine.Card, players int) int {
	for s := 0; s < players; s++ {
		if st.Hand(engine.Seat(s)).Has(c) {
			return s
		}
	}
	return players // the tapp or a lay-away
}

// score adds up, for the hidden cards, the log-probability of each card's true place and
// whether the likeliest place is the true one.
func score(truth *engine.State, players int, probs map[engine.Card][engine.MaxPlayers + 1]float64) (logLik, correct float64) {
	for c, p := range probs {
		tp := placeOf(truth, c, players)
		logLik += math.Log(p[tp])
		best := 0
		for k := 1; k <= players; k++ {
			if p[k] > p[best] {
				best = k
			}
		}
		if best == tp {
			correct++
		}
	}
	return logLik, correct
}

// Inference puts the hidden cards where they are more often than uniform sampling does, on
// deals it was not trained on: at every card decision of one seat after the bidding, with
// heuristic bots at the other seats (and the observer's own seat, so that the deals are the
// ones the model describes), the worlds weighted by the model give the true places of the
// hidden cards a higher mean log-probability and more right guesses than the same worlds
// drawn uniformly.
func TestInferenceBeatsUniform(t *testing.T) {
	const shrinkWorlds = 4
	t.Parallel()
	for _, tc := range []struct {
		name  string
		rules engine.RuleSet
		deals int
	}{
		{"modern", engine.DefaultRules(engine.Modern), 24},
		{"modern-4p", func() engine.RuleSet { r := engine.DefaultRules(engine.Modern); r.Players = 4; return r }(), 12},
		{"classic", engine.DefaultRules(engine.Classic), 12},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			bot := New(Config{Seed: 3})
			uniform := New(Config{Seed: 3, NoInference: true})
			h := heuristic.New()
			var inf, uni, infOK, uniOK, essSum float64
			points := 0
			cards := 0
			for i := 0; i < tc.deals; i++ {
				st, err := engine.NewState(tc.rules, engine.DealFromSeed(tc.rules, 0x68656c64, uint64(i)), engine.Options{}) // "held" out
				if err != nil {
					t.Fatal(err)
				}
				me := engine.Seat(i % tc.rules.Players)
				for !st.Terminal() {
					obs := st.Observe(st.ToMove())
					if obs.Seat == me && obs.Decision == engine.DecideCard && obs.Contract != engine.Ramsch &&
						len(obs.Tricks) < tc.rules.HandSize()-2 {
						d := &decision{b: bot, ctx: context.Background(), obs: &obs, seed: random.Hash(7, &obs)}
						d.reader.model, d.reader.policy = bot.model, bot.fallback
						cands := d.candidates(0, 64)
						w, ess := weights(cands)
						essSum += ess
						points++
						u := &decision{b: uniform, ctx: context.Background(), obs: &obs, seed: d.seed}
						ucands := u.candidates(0, 64)
						ones, _ := weights(ucands)
						// uniform: the share of 64 worlds, smoothed by half a world per place;
						// inferred: the weighted share counted as ess worlds, shrunk towards the
						// uniform estimate by shrinkWorlds worlds (a weighted sample of small
						// effective size is noisy)
						n := tc.rules.Players
						pu, pi := places(&obs, ucands, ones), places(&obs, cands, w)
						for c, share := range pu {
							for k := range share {
								share[k] = (share[k]*float64(len(ucands)) + 0.5) / (float64(len(ucands)) + 0.5*float64(n+1))
							}
							pu[c] = share
						}
						for c, share := range pi {
							for k := range share {
								share[k] = (share[k]*ess + shrinkWorlds*pu[c][k]) / (ess + shrinkWorlds)
							}
							pi[c] = share
						}
						a, b := score(st, n, pi)
						c, e := score(st, n, pu)
						inf, infOK, uni, uniOK, cards = inf+a, infOK+b, uni+c, uniOK+e, cards+len(pu)
					}
					a, err := h.Decide(context.Background(), &obs)
					if err != nil {
						t.Fatal(err)
					}
					if err := st.Apply(a); err != nil {
						t.Fatal(err)
					}
				}
			}
			if cards < 100 {
				t.Fatalf("only %d hidden cards scored", cards)
			}
			c := float64(cards)
			t.Logf("%d hidden cards: log-likelihood per card %.3f inferred, %.3f uniform; right place %.1f%%, %.1f%%; mean ESS %.1f of 64",
				cards, inf/c, uni/c, 100*infOK/c, 100*uniOK/c, essSum/float64(points))
			if inf <= uni || infOK <= uniOK {
				t.Errorf("inference does not beat uniform sampling: log-likelihood %.3f vs %.3f, right %.1f%% vs %.1f%%",
					inf/c, uni/c, 100*infOK/c, 100*uniOK/c)
			}
		})
	}
}
