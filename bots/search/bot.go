package search

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tapparena/tapp/bots"
	"github.com/tapparena/tapp/bots/heuristic"
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
	ToutThreshold = 0.92
	// exactTricks: in modern point contracts, where only 61 counts, the bot asks the solver
	// only "61 or not" while more tricks than this remain, and for exact points (a
	// tie-break between equally safe cards) from then on.
	exactTricks = 5
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
// use; every decision takes solvers (each with its transposition table, 8 MiB) from a pool.
type Bot struct {
	cfg      Config
	fallback bots.Bot

	mu   sync.Mutex
	free []*Solver
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

func (b *Bot) getSolver() *Solver {
	b.mu.Lock()
	defer b.mu.Unlock()
	if n := len(b.free); n > 0 {
		s := b.free[n-1]
		b.free = b.free[:n-1]
		return s
	}
	return NewSolver(SolverOptions{})
}

func (b *Bot) putSolver(s *Solver) {
	s.SetLimit(time.Time{}, nil)
	b.mu.Lock()
	b.free = append(b.free, s)
	b.mu.Unlock()
}

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
		if l, legal := findLegal(obs.Legal, a); legal {
			return l, nil
		}
	}
	return b.fallback.Decide(ctx, obs)
}

func findLegal(legal []engine.Action, a engine.Action) (engine.Action, bool) {
	ca := a.Canonical()
	for _, l := range legal {
		if l.Canonical() == ca {
			return l, true
		}
	}
	return engine.Action{}, false
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
func (d *decision) evaluate(nAlt int, fn func(st *engine.State, s *Solver, out []float64) bool) ([]float64, int) {
	n := d.b.cfg.Samples
	results := make([]float64, n*nAlt)
	ok := make([]bool, n)
	var next atomic.Int64
	worker := func() {
		s := d.b.getSolver()
		defer d.b.putSolver(s)
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
	need := minTrumps(r)
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
	const eps = 1e-9
	bi := 0
	for i := range mean {
		if mean[i] > mean[bi] {
			bi = i
		}
	}
	h, err := d.b.fallback.Decide(d.ctx, d.obs)
	if err == nil {
		for i := range mean {
			if mean[i] >= mean[bi]-eps && actions[i].Canonical() == h.Canonical() {
				return i
			}
		}
	}
	return bi
}

// scorer turns a deal's result into payoffs (R-MOD-SETTLE-1, R-CL-SCORE-*, R-WT-*, R-POT).
type scorer struct {
	rules    engine.RuleSet
	contract engine.Contract
	tout     bool
	decl     int
	pot      int // the pot after the ante, for a Solo's pot payments
}

func newScorer(r engine.RuleSet, o engine.Options, c engine.Contract, tout bool, decl int) scorer {
	sc := scorer{rules: r, contract: c, tout: tout, decl: decl}
	if r.Pot {
		sc.pot = o.Pot + 2
	}
	return sc
}

// baseValue is the older variants' game value for s points above 60.
func (sc *scorer) baseValue(s int) int {
	if sc.rules.Variant == engine.Classic {
		switch sc.contract {
		case engine.Frage:
			return (s + 3) / 4
		case engine.Solo:
			return (s + 1) / 2
		}
		return s
	}
	if sc.contract == engine.Solo {
		return 2 * s
	}
	return s
}

// payoff is what seat gets when the declarer ends with value v: his card points in a point
// contract without Tout, else his number of tricks.
func (sc *scorer) payoff(seat, v int) float64 {
	r := &sc.rules
	hand := r.HandSize()
	var won bool
	var value int
	switch {
	case r.Variant == engine.Modern:
		switch sc.contract {
		case engine.Frage, engine.Solo, engine.HeartSolo:
			won = v >= 61
		case engine.Bettel, engine.Ouvert:
			won = v == 0
		default:
			won = v == hand
		}
		value = r.Stakes[sc.contract]
	case sc.tout:
		won = v == hand
		value = sc.baseValue(60) * r.ToutFactor
	default:
		if v == 60 {
			return 0
		}
		won = v > 60
		if won {
			value = sc.baseValue(v - 60)
		} else {
			value = sc.baseValue(60 - v)
		}
	}
	sign := 1
	if !won {
		sign = -1
	}
	if seat != sc.decl {
		return float64(-sign * value)
	}
	pay := sign * value * (r.Players - 1)
	if r.Pot && r.Variant != engine.Modern {
		switch {
		case sc.contract == engine.Frage && !won:
			pay -= value
		case sc.contract != engine.Frage:
			pay += sign * sc.pot
		}
	}
	return float64(pay)
}

// goalOf maps a contract to the solver's goal and tapp rule.
func goalOf(c engine.Contract, tout bool) (Goal, TappRule) {
	switch c {
	case engine.Frage, engine.Solo, engine.HeartSolo:
		if tout {
			return GoalAllTricks, TappNobody
		}
		return GoalPoints, TappDeclarer
	case engine.Bettel, engine.Ouvert:
		return GoalNoTrick, TappNobody
	case engine.Ramsch:
		return GoalRamsch, TappLastTrick
	}
	return GoalAllTricks, TappNobody
}

// playPosition is the perfect-information position of a sampled deal during trick play, from
// the viewpoint of seat me (who is the value's seat in Ramsch).
func playPosition(st *engine.State, obs *engine.Observation) (Position, error) {
	n := obs.Rules.Players
	p := Position{Players: n, Trump: st.Trump()}
	for i := 0; i < n; i++ {
		p.Hands[i] = st.Hand(engine.Seat(i))
	}
	cur := obs.Current
	p.Leader = int(cur.Leader)
	for i := 0; i < n && cur.Cards[i] != engine.NoCard; i++ {
		p.Trick[i] = cur.Cards[i]
		p.NTrick++
	}
	for _, t := range obs.Tricks {
		p.Taken[t.Winner] += t.Points
		p.Tricks[t.Winner]++
	}
	c := st.Contract()
	p.Goal, p.TappRule = goalOf(c, st.Tout())
	p.Declarer = int(st.Declarer())
	deal := st.Deal()
	switch c {
	case engine.Frage:
		d := st.Declarer()
		p.Tapp = ((deal.Hands[d] | deal.Tapp) &^ (st.Hand(d) | obs.Played[d])).Points()
	case engine.Solo, engine.HeartSolo, engine.Ramsch:
		p.Tapp = deal.Tapp.Points()
	}
	if c == engine.Ramsch {
		p.Declarer = int(obs.Seat)
	}
	return p, p.Validate()
}
