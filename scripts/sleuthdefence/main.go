// Command sleuthdefence compares the card play of the sleuth bot with the heuristic bot's on
// the same hands and contracts: every deal is bid and played by heuristic bots, and each
// deal that ends in a point contract (Frage, Solo, Heart Solo) is played again with the bot
// playing one seat's cards, every seat in turn, the bidding and the other seats' cards still
// the heuristic's. Two bots play each seat: sleuth at its defaults and sleuth defending by
// the solver (sleuth.Config.SolverDefence); the payoffs are compared seat by seat with the
// heuristic's, and with each other:
//
//	go run ./scripts/sleuthdefence [-rules modern] [-seed 4242] [-from 0] [-deals 300] [-role def] [-workers 2]
//
// Printed per role and contract: each bot's payoff a seat minus the heuristic's, and the
// default's minus the solver defence's, with standard errors over the deals (the seats of a
// deal counted together: they share the cards). docs/STRENGTH.md (session 6) has the figures.
// The same flags give the same figures: the bots run without a clock, bounded by their work.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"runtime"
	"sort"
	"sync"

	"github.com/tapparena/tapp/bots"
	"github.com/tapparena/tapp/bots/heuristic"
	"github.com/tapparena/tapp/bots/search"
	"github.com/tapparena/tapp/bots/sleuth"
	"github.com/tapparena/tapp/engine"
)

func main() {
	rulesText := flag.String("rules", "modern", "rule set (as tapp match spells it)")
	seed := flag.Uint64("seed", 4242, "seed of the deals")
	from := flag.Int("from", 0, "first deal number")
	deals := flag.Int("deals", 300, "deals to play")
	role := flag.String("role", "def", "seats compared: def (defenders), decl (the declarer) or all")
	others := flag.String("others", "heuristic", "who plays the other seats' cards: heuristic or kibitz")
	kibitzSamples := flag.Int("kibitz-samples", search.DefaultSamples, "with -others kibitz: the worlds kibitz searches a decision")
	workers := flag.Int("workers", runtime.NumCPU(), "seats played at once")
	flag.Parse()
	kibitzWorlds = *kibitzSamples
	if err := run(*rulesText, *seed, *from, *deals, *role, *others, *workers); err != nil {
		fmt.Fprintln(os.Stderr, "sleuthdefence:", err)
		os.Exit(1)
	}
}

// kibitzWorlds is -kibitz-samples.
var kibitzWorlds = search.DefaultSamples

// players are the bots compared at a seat, the first the yardstick.
var players = []string{"heuristic", "sleuth", "sleuth-play-out-defence", "sleuth-solver-defence"}

func newPlayer(name string) bots.Bot {
	switch name {
	case "sleuth":
		return sleuth.New(sleuth.Config{Seed: 1, MaxTime: -1})
	case "sleuth-play-out-defence":
		return sleuth.New(sleuth.Config{Seed: 1, MaxTime: -1, PlayOutDefence: true})
	case "sleuth-solver-defence":
		return sleuth.New(sleuth.Config{Seed: 1, MaxTime: -1, SolverDefence: true})
	case "kibitz":
		// a fixed number of worlds instead of its 200 ms: the same work on a busy host
		return search.New(search.Config{Seed: 1, Samples: kibitzWorlds, Budget: -1})
	}
	return heuristic.New()
}

// seatResult is one bot's payoff at one seat of one deal.
type seatResult struct {
	deal, seat int
	key        string // role/contract
	player     int
	payoff     int
}

func run(rulesText string, seed uint64, from, deals int, role, others string, workers int) error {
	r, err := engine.ParseRuleSet(rulesText)
	if err != nil {
		return err
	}
	if role != "def" && role != "decl" && role != "all" {
		return errors.New("-role must be def, decl or all")
	}
	if others != "heuristic" && others != "kibitz" {
		return errors.New("-others must be heuristic or kibitz")
	}
	h := heuristic.New()
	type job struct {
		deal, seat, player int
		key                string
		d                  engine.Deal
	}
	jobs := make(chan job)
	results := make(chan seatResult)
	var wg sync.WaitGroup
	var firstErr error
	var errOnce sync.Once
	for range max(workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				me := engine.Seat(j.seat)
				bot := newPlayer(players[j.player])
				other := newPlayer(others)
				o, err := play(r, j.d, func(s engine.Seat, dec engine.Decision) bots.Bot {
					switch {
					case dec != engine.DecideCard:
						return h
					case s == me:
						return bot
					}
					return other
				})
				if err != nil {
					errOnce.Do(func() { firstErr = err })
					continue
				}
				results <- seatResult{j.deal, j.seat, j.key, j.player, o.Payoff[j.seat]}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for i := from; i < from+deals; i++ {
			d := engine.DealFromSeed(r, seed, uint64(i))
			o, err := play(r, d, func(engine.Seat, engine.Decision) bots.Bot { return h })
			if err != nil {
				errOnce.Do(func() { firstErr = err })
				return
			}
			switch o.Contract {
			case engine.Frage, engine.Solo, engine.HeartSolo:
			default:
				continue
			}
			for s := range r.Players {
				decl := s == int(o.Declarer)
				if role == "def" && decl || role == "decl" && !decl {
					continue
				}
				name := "defender"
				if decl {
					name = "declarer"
				}
				key := fmt.Sprintf("%s %v", name, o.Contract)
				if others == "heuristic" {
					results <- seatResult{i, s, key, 0, o.Payoff[s]} // the heuristic's own play
				} else {
					jobs <- job{i, s, 0, key, d}
				}
				for p := 1; p < len(players); p++ {
					jobs <- job{i, s, p, key, d}
				}
			}
			fmt.Fprintf(os.Stderr, "deal %d of %d\n", i-from+1, deals)
		}
	}()
	go func() { wg.Wait(); close(results) }()
	// payoff[key][deal][seat][player]
	payoff := map[string]map[int]map[int][]int{}
	for res := range results {
		byDeal := payoff[res.key]
		if byDeal == nil {
			byDeal = map[int]map[int][]int{}
			payoff[res.key] = byDeal
		}
		if byDeal[res.deal] == nil {
			byDeal[res.deal] = map[int][]int{}
		}
		p := byDeal[res.deal][res.seat]
		if p == nil {
			p = make([]int, len(players))
			byDeal[res.deal][res.seat] = p
		}
		p[res.player] = res.payoff
	}
	if firstErr != nil {
		return firstErr
	}
	report(r, payoff)
	return nil
}

// report prints, per role and contract, each sleuth's payoff a seat minus the heuristic's and
// the default sleuth's minus the other two's, with standard errors over the deals.
func report(r engine.RuleSet, payoff map[string]map[int]map[int][]int) {
	keys := make([]string, 0, len(payoff))
	for k := range payoff {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Printf("%s; payoff a seat (%s), mean ± standard error over the deals\n", r, unit(r))
	for _, k := range keys {
		diff := func(a, b int) (float64, float64, int) {
			var perDeal []float64 // the sum over the deal's seats
			seats := 0
			for _, bySeat := range payoff[k] {
				sum := 0.0
				for _, p := range bySeat {
					sum += float64(p[a] - p[b])
					seats++
				}
				perDeal = append(perDeal, sum)
			}
			m, se := meanSE(perDeal)
			per := float64(len(perDeal)) / float64(seats) // deals per seat
			return m * per, se * per, seats
		}
		m1, se1, n := diff(1, 0)
		m2, se2, _ := diff(2, 0)
		m3, se3, _ := diff(3, 0)
		m4, se4, _ := diff(1, 2)
		m5, se5, _ := diff(1, 3)
		fmt.Printf("%-20s %4d seats  − heuristic: sleuth %+6.3f ± %.3f, play-outs %+6.3f ± %.3f, solver %+6.3f ± %.3f;  sleuth − play-outs %+6.3f ± %.3f, sleuth − solver %+6.3f ± %.3f\n",
			k, n, m1, se1, m2, se2, m3, se3, m4, se4, m5, se5)
	}
}

func unit(r engine.RuleSet) string {
	if r.Variant == engine.Modern {
		return "cents"
	}
	return "game points"
}

func meanSE(v []float64) (float64, float64) {
	if len(v) == 0 {
		return 0, 0
	}
	m := 0.0
	for _, x := range v {
		m += x
	}
	m /= float64(len(v))
	if len(v) < 2 {
		return m, 0
	}
	s := 0.0
	for _, x := range v {
		s += (x - m) * (x - m)
	}
	return m, math.Sqrt(s / float64(len(v)-1) / float64(len(v)))
}

// play plays deal d to the end, each move by the bot seat says, and returns its outcome.
func play(r engine.RuleSet, d engine.Deal, seat func(engine.Seat, engine.Decision) bots.Bot) (engine.Outcome, error) {
	st, err := engine.NewState(r, d, engine.Options{})
	if err != nil {
		return engine.Outcome{}, err
	}
	ctx := context.Background()
	for !st.Terminal() {
		obs := st.Observe(st.ToMove())
		a, err := seat(st.ToMove(), obs.Decision).Decide(ctx, &obs)
		if err != nil {
			return engine.Outcome{}, fmt.Errorf("%s decision: %w", obs.Decision, err)
		}
		if err := st.Apply(a); err != nil {
			return engine.Outcome{}, err
		}
	}
	return st.Outcome(), nil
}
