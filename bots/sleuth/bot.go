package sleuth

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	"github.com/tapparena/tapp/bots"
	"github.com/tapparena/tapp/bots/doubledummy"
	"github.com/tapparena/tapp/bots/heuristic"
	"github.com/tapparena/tapp/bots/internal/pimc"
	"github.com/tapparena/tapp/bots/random"
	"github.com/tapparena/tapp/engine"
)

// Name is the bot's name.
const Name = "sleuth"

// Defaults of Config.
const (
	DefaultSamples = 24
	DefaultEffort  = 1_200_000
	DefaultMaxTime = 900 * time.Millisecond
)

// Config sets the bot's effort. The zero value is the default bot.
type Config struct {
	// Samples is the number of worlds solved per batch (0: DefaultSamples).
	Samples int
	// Effort is the work of an ordinary decision, in solver nodes (0: DefaultEffort); see
	// effort.go for how decisions that matter get more.
	Effort uint64
	// MaxTime caps a decision's wall-clock time (0: the request's deadline, or DefaultMaxTime
	// when the context has none; negative: only the request's deadline). The bot decides on
	// the work done when it runs out. Leaving it 0 keeps a match deterministic on a busy host
	// as long as a decision's work fits in the clock (tapp match --time 30s).
	MaxTime time.Duration
	// Seed makes the sampling reproducible.
	Seed uint64
	// NoInference draws the worlds uniformly, without the opponent model (for comparison).
	NoInference bool
	// NoModelReplies values every card by the solver alone, even where the seats still to play
	// to the trick are, by the evidence, rule-of-thumb players whose replies the model knows.
	NoModelReplies bool
	// FixedPlay values "play" in modern round one by the best fixed contract to name in round
	// two, as before adapt.go (for comparison).
	FixedPlay bool
	// SolverDefence plays a defender's cards in a modern point contract by the solver over
	// the worlds, as before play-outs (rollout.go), for comparison.
	SolverDefence bool
	// PlayOutDefence values such a defender's cards by play-outs in every world, even where
	// the evidence says another seat is no rule-of-thumb player (session 6's defence), for
	// comparison.
	PlayOutDefence bool
	// Model is the opponent model (nil: the trained one, model.json).
	Model *Model
	// Calibrations turn double-dummy verdicts into chances, by Family (nil: the trained ones).
	Calibrations map[string]Calibration
}

// Bot is the inference bot; safe for concurrent use (solvers come from a pool).
type Bot struct {
	cfg      Config
	model    *Model
	cals     map[string]Calibration
	fallback heuristic.Bot
	solvers  pimc.SolverPool
}

var _ bots.BankSpender = (*Bot)(nil)

// SpendsBank implements bots.BankSpender: decisions that matter may run on into the overage
// bank when their work does not fit in their own time (effort.go).
func (b *Bot) SpendsBank() bool { return true }

// New returns a bot with the given settings (zero fields take the defaults).
func New(cfg Config) *Bot {
	if cfg.Samples <= 0 {
		cfg.Samples = DefaultSamples
	}
	if cfg.Effort == 0 {
		cfg.Effort = DefaultEffort
	}
	b := &Bot{cfg: cfg, model: cfg.Model, cals: cfg.Calibrations}
	if b.model == nil {
		b.model = trainedModel()
	}
	if b.cals == nil {
		b.cals = trainedCalibrations()
	}
	return b
}

// Config returns the bot's settings with the defaults filled in.
func (b *Bot) Config() Config { return b.cfg }

var errNoLegal = errors.New("sleuth: observation has no legal action")

// Decide returns one of obs.Legal.
func (b *Bot) Decide(ctx context.Context, obs *engine.Observation) (engine.Action, error) {
	if obs == nil || len(obs.Legal) == 0 {
		return engine.Action{}, errNoLegal
	}
	if len(obs.Legal) == 1 {
		return obs.Legal[0], nil
	}
	d := &decision{b: b, ctx: ctx, obs: obs, seed: random.Hash(b.cfg.Seed, obs)}
	d.reader.model, d.reader.policy = b.model, b.fallback
	cal := b.cals[Family(obs.Rules)]
	d.cal = &cal
	d.start(ctx)
	s := b.solvers.Get()
	defer b.solvers.Put(s)
	d.solver = s
	s.ClearTable()
	d.stop = new(atomic.Bool)
	defer context.AfterFunc(ctx, func() { d.stop.Store(true) })()
	s.SetLimit(d.deadline, d.stop)
	d.nodes0 = s.Nodes()

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
	b      *Bot
	ctx    context.Context
	obs    *engine.Observation
	seed   uint64
	solver *doubledummy.Solver
	reader reader
	cal    *Calibration
	// scratch is the state play-outs run on
	scratch *engine.State

	deadline time.Time
	stop     *atomic.Bool // set when the context ends
	budget   uint64       // work units this decision may spend
	nodes0   uint64       // the solver's node count at the start
	extra    uint64       // work spent outside the solver (sampling, reading worlds, rollouts)
}

// heuristicChoice is the rule-of-thumb choice, the tie-break among equal alternatives.
func (d *decision) heuristicChoice() engine.Action {
	a, _ := d.b.fallback.Decide(d.ctx, d.obs)
	return a
}

// best returns the index of the highest value; among values within eps of it the one whose
// action is the heuristic's choice, else the first.
func (d *decision) best(values []float64, actions []engine.Action, eps float64) int {
	return pimc.Best(values, actions, eps, d.heuristicChoice(), true)
}
