// Package search is Tapp Arena's strong built-in bot, "Kibitz": determinized search (PIMC,
// perfect-information Monte Carlo, as in Skat programs) over a fast double-dummy solver.
//
// The solver is package bots/doubledummy: an exact alpha-beta search over bitmask hands for
// every contract goal (61 or not, exact points, every trick, no trick, paranoid Ramsch).
//
// # Bot
//
// At every decision the bot draws deals consistent with its observation
// (engine.Observation.Sample, filtered so that an opponent declarer's hand fits his
// contract), solves each and takes the action with the best mean payoff (the engine's
// settlement: modern stakes, the older variants' game points and pot):
//   - cards: every legal card on every sampled deal. In modern point contracts only 61 counts,
//     so the solver answers "61 or not" (exact points, as a tie-break, in the last five
//     tricks); in the older variants the margin above 60 scores, so points within 8 (exact
//     in the last six tricks); every-trick and no-trick contracts are won or lost (in a
//     Bettel the tricks the declarer is forced to take break ties); in Ramsch the bot
//     minimises its own paranoid points, leaving the first three tricks to the heuristic
//     bot, for which the paranoid search is too slow and too pessimistic;
//   - bidding: every contract it could name (with enough trumps to be worth solving) is
//     played out double-dummy on the sampled deals with the bot as declarer; it plays (or
//     bids, in the auction) when the best beats passing (0). Double-dummy defenders see every
//     card and are stronger than real ones, so point contracts are credited bidOptimism card
//     points; Tout is announced only when every trick is taken in ToutThreshold of the deals;
//   - Frage lay-away, classic Solo trump, Rufer call and give: every alternative (for the
//     lay-away and the call, a short list from a rule of thumb) over the sampled deals.
//
// Settings (Config): samples per decision, a time budget per decision and threads. With a
// sample budget only (Budget < 0) the bot is deterministic for a seed, whatever the threads.
// Should no sample finish in time, the heuristic bot (package heuristic) decides.
package search

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tapparena/tapp/bots"
	"github.com/tapparena/tapp/bots/doubledummy"
	"github.com/tapparena/tapp/bots/heuristic"
	"github.com/tapparena/tapp/bots/internal/pimc"
	"github.com/tapparena/tapp/bots/random"
	"github.com/tapparena/tapp/engine"
)

// Name is the bot's name: a Kibitz (kibitzer) is the onlooker at a card table who, seeing
// one hand, imagines all the others — which is what the bot does, many times a decision.
const Name = "kibitz"

// Defaults of Config.
const (
	DefaultSamples = 32
	DefaultBudget  = 200 * time.Millisecond
	// ToutThreshold is the share of sampled deals in which the declarer must take every trick
	// before the bot announces Tout (classic, wuerttemberg).
	ToutThreshold = pimc.ToutThreshold
)

// Config sets the bot's search effort.
type Config struct {
	// Samples is the number of deals sampled per decision (0: DefaultSamples).
	Samples int
	// Budget is the wall-clock time per decision (0: DefaultBudget; negative: no limit). When
	// it runs out the bot decides on the samples solved so far; the solve in progress is
	// abandoned.
	Budget time.Duration
	// Threads is the number of goroutines solving samples of one decision (0: 1).
	Threads int
	// Seed makes the sampling reproducible: with Threads any, a negative Budget and the same
	// Seed, the same observation always gets the same action.
	Seed uint64
}

// Bot is the determinized-search bot: see the package comment. It is safe for concurrent
// use; every decision takes solvers from a pool.
type Bot struct {
	cfg      Config
	fallback bots.Bot
	solvers  pimc.SolverPool
}

var _ bots.Bot = (*Bot)(nil)

// New returns a bot with the given settings (zero fields take the defaults).
func New(cfg Config) *Bot {
	if cfg.Samples <= 0 {
		cfg.Samples = DefaultSamples
	}
	if cfg.Budget == 0 {
		cfg.Budget = DefaultBudget
	}
	if cfg.Threads <= 0 {
		cfg.Threads = 1
	}
	return &Bot{cfg: cfg, fallback: heuristic.New()}
}

// Config returns the bot's settings with the defaults filled in.
func (b *Bot) Config() Config { return b.cfg }

var errNoLegal = errors.New("search: observation has no legal action")

// Decide returns one of obs.Legal. Every decision is made by sampling the hidden cards
// (Observation.Sample) and solving the sampled deals; should no sample complete in time the
// bot falls back to the heuristic bot's choice.
func (b *Bot) Decide(ctx context.Context, obs *engine.Observation) (engine.Action, error) {
	if obs == nil || len(obs.Legal) == 0 {
		return engine.Action{}, errNoLegal
	}
	if len(obs.Legal) == 1 {
		return obs.Legal[0], nil
	}
	d := &decision{b: b, ctx: ctx, obs: obs, seed: random.Hash(b.cfg.Seed, obs)}
	if b.cfg.Budget > 0 {
		d.deadline = time.Now().Add(b.cfg.Budget)
	}
	if dl, ok := ctx.Deadline(); ok && (d.deadline.IsZero() || dl.Before(d.deadline)) {
		d.deadline = dl
	}
	stopWatch := context.AfterFunc(ctx, func() { d.stop.Store(true) })
	defer stopWatch()

	var a engine.Action
	ok := false
	switch obs.Decision {
	case engine.DecideCard:
		a, ok = d.card()
	case engine.DecideBid, engine.DecideContract:
		a, ok = d.bid()
	case engine.DecideDiscard:
		a, ok = d.discard()
	case engine.DecideTrump:
		a, ok = d.trump()
	case engine.DecideCall:
		a, ok = d.call()
	case engine.DecideGive:
		a, ok = d.give()
	case engine.DecideTout:
		a, ok = d.tout()
	}
	if ok {
		if l, legal := pimc.FindLegal(obs.Legal, a); legal {
			return l, nil
		}
	}
	return b.fallback.Decide(ctx, obs)
}

// decision is one call of Decide.
type decision struct {
	b        *Bot
	ctx      context.Context
	obs      *engine.Observation
	seed     uint64
	deadline time.Time
	stop     atomic.Bool
}

func (d *decision) expired() bool {
	return d.stop.Load() || (!d.deadline.IsZero() && time.Now().After(d.deadline))
}

// evaluate samples deals 0..Samples-1 (sample i from the stream NewRand(seed, i), so the
// result does not depend on the threads) until the budget is spent. fn solves one sampled
// deal, writing one utility per alternative to out, and reports success. evaluate returns the
// mean utility of every alternative over the samples that completed, and their number.
func (d *decision) evaluate(nAlt int, fn func(st *engine.State, s *doubledummy.Solver, out []float64) bool) ([]float64, int) {
	n := d.b.cfg.Samples
	results := make([]float64, n*nAlt)
	ok := make([]bool, n)
	var next atomic.Int64
	worker := func() {
		s := d.b.solvers.Get()
		defer d.b.solvers.Put(s)
		s.SetLimit(d.deadline, &d.stop)
		for {
			i := int(next.Add(1) - 1)
			if i >= n || d.expired() {
				return
			}
			st, err := d.sample(i)
			if err != nil {
				continue
			}
			good := fn(st, s, results[i*nAlt:(i+1)*nAlt])
			if s.Aborted() {
				return
			}
			ok[i] = good
		}
	}
	if t := d.b.cfg.Threads; t > 1 {
		var wg sync.WaitGroup
		for k := 0; k < t; k++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				worker()
			}()
		}
		wg.Wait()
	} else {
		worker()
	}
	count := 0
	mean := make([]float64, nAlt)
	for i := 0; i < n; i++ {
		if !ok[i] {
			continue
		}
		count++
		for j := 0; j < nAlt; j++ {
			mean[j] += results[i*nAlt+j]
		}
	}
	if count > 0 {
		for j := range mean {
			mean[j] /= float64(count)
		}
	}
	return mean, count
}

// sampleTries is how many deals sample draws at most to find one where the declarer's hand
// fits his contract.
const sampleTries = 16

// sample draws sample i: a deal consistent with the observation in which, when somebody else
// declared, his hand fits his contract (plausible); the bidding is evidence the engine's
// sampling does not use. After sampleTries misses the last draw is used.
func (d *decision) sample(i int) (*engine.State, error) {
	var st *engine.State
	var err error
	for k := 0; k < sampleTries; k++ {
		st, err = d.obs.Sample(engine.NewRand(d.seed, uint64(i)|uint64(k)<<32))
		if err != nil || plausible(d.obs, st) {
			break
		}
	}
	return st, err
}

// plausible reports whether the declarer's dealt hand in a sampled deal could have bid the
// contract: enough trumps for a suit contract (the tapp may help a Frage), no long run of
// high cards for a Bettel.
func plausible(obs *engine.Observation, st *engine.State) bool {
	dl := obs.Declarer
	if dl < 0 || dl == obs.Seat || obs.Contract == engine.Ramsch {
		return true
	}
	r := &obs.Rules
	hand := st.Deal().Hands[dl]
	need := pimc.MinTrumps(r)
	switch obs.Contract {
	case engine.Frage:
		return hand.OfSuit(engine.Hearts).Len() >= need-2
	case engine.Bettel, engine.Ouvert:
		high := 0
		for _, c := range hand.Cards(nil) {
			if c.Rank() >= engine.King {
				high++
			}
		}
		return high <= 2
	}
	if obs.Trump == engine.NoSuit {
		return true
	}
	return hand.OfSuit(obs.Trump).Len() >= need
}

// choose returns the action with the highest mean payoff over n sampled deals (see best);
// false when no deal was sampled.
func (d *decision) choose(mean []float64, n int, actions []engine.Action) (engine.Action, bool) {
	if n == 0 {
		return engine.Action{}, false
	}
	return actions[d.best(mean, actions)], true
}

// best returns the index of the highest mean; among ties (means within 1e-9) the one whose
// action equals the heuristic bot's choice, else the first.
func (d *decision) best(mean []float64, actions []engine.Action) int {
	h, err := d.b.fallback.Decide(d.ctx, d.obs)
	return pimc.Best(mean, actions, 1e-9, h, err == nil)
}
