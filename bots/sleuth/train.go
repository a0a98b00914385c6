package sleuth

import (
	"context"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/tapparena/tapp/bots"
	"github.com/tapparena/tapp/bots/doubledummy"
	"github.com/tapparena/tapp/bots/heuristic"
	"github.com/tapparena/tapp/engine"
)

// Training: the opponent model and the calibrations are fitted to deals the bot plays against
// heuristic bots, in this process, from a seed (the same seed, the same parameters).
//
// Two kinds of deals, for every table family:
//   - forced deals: the bot declares one of the contracts its bidding would weigh
//     (bidCandidates; at random, four times in five among those not lost double-dummy), the
//     others pass; the double-dummy verdict of the contract as the bidding values it
//     (doubledummy.DeclaredPosition on the real deal) and whether the bot then won it give the
//     calibration of the bot's own contracts (RoleBot). Forcing samples every kind of hand the
//     bidding weighs, not only the ones it chose to play.
//   - natural deals: the bot and two (or three) heuristic bots play as in a match; each
//     contract a heuristic bot declares gives the calibration of the others' contracts
//     (RoleOther), and every decision of every seat with a choice gives the opponent model
//     its data: was it the heuristic's choice?
//
// The calibration is the share of deals won per class, role and level, shrunk towards the
// role's mean over all classes (calPrior pseudo-deals); the older variants' Shift and Slope the
// least-squares line of the points made on the double-dummy points (their chances serve only
// a Tout, which the training never plays: those keep the starting values, as the provenance's
// cells_from_role_mean does not count). A family whose role has fewer than minSamples
// contracts to fit fails the training: a calibration is never left at its starting values
// without saying so. The model is a two-kind
// mixture fitted by expectation-maximisation over the seats' decisions, each seat of a deal one
// unit; Sharp is capped at maxSharp so that one odd move never rules a world out.

// TrainConfig sets what Train plays.
type TrainConfig struct {
	Seed    uint64
	Workers int     // deals played at once (0: 1)
	Scale   float64 // the number of deals, relative to the documented sizes (0: 1)
	// Effort is the bot's Config.Effort in the training deals (0: DefaultEffort/4: the training
	// must fit in an hour on two cores; the bot plays a little weaker than at full effort).
	Effort uint64
	// Families are the table families to train (nil: all). The others' calibrations, and the
	// opponent model when not every family is trained, are taken from Base, whose provenance
	// is kept under "earlier".
	Families []string
	Base     *Params
	// Progress, if set, is called after every deal with the deals done and the total.
	Progress func(done, total int)
}

// trainSizes are the deals per family at Scale 1: forced, natural.
var trainSizes = map[string][2]int{
	"modern-3": {1200, 600},
	"modern-4": {480, 240},
	"older":    {640, 320},
}

// familyRules is the rule set of a family's i-th training deal (the older family alternates
// classic and wuerttemberg).
func familyRules(f string, i int) engine.RuleSet {
	switch f {
	case "modern-4":
		r := engine.DefaultRules(engine.Modern)
		r.Players = 4
		return r
	case "older":
		if i%2 == 0 {
			return engine.DefaultRules(engine.Classic)
		}
		return engine.DefaultRules(engine.Wuerttemberg)
	}
	return engine.DefaultRules(engine.Modern)
}

// verdictSample is one contract played: its class, who declared, the verdict at the first
// lead and the result (points made: an older variant's point contract).
type verdictSample struct {
	class        Class
	role         int
	level        int
	won          bool
	older        bool // an older variant's point contract: ddPoints and points count
	ddPoints     int
	trumps       int // the declarer's cards of the trump suit at the first lead
	actualPoints int
	ramsch       bool // a Ramsch: the bot's payoff, and what the play-out predicted
	playedOut    float64
	payoff       float64
}

// seatRecord is one seat's decisions in one deal, for the model.
type seatRecord struct {
	heuristic bool // the seat was a heuristic bot (for the report)
	moves     []agreement
}

type trainResult struct {
	family  string
	samples []verdictSample
	seats   []seatRecord
}

// Train plays the training deals and fits the parameters.
func Train(ctx context.Context, cfg TrainConfig) (*Params, error) {
	if cfg.Workers <= 0 {
		cfg.Workers = 1
	}
	if cfg.Scale <= 0 {
		cfg.Scale = 1
	}
	if cfg.Effort == 0 {
		cfg.Effort = DefaultEffort / 4
	}
	type job struct {
		family string
		i      int
		forced bool
	}
	trainFams := cfg.Families
	if len(trainFams) == 0 {
		trainFams = families
	}
	for _, f := range trainFams {
		if _, ok := trainSizes[f]; !ok {
			return nil, fmt.Errorf("unknown table family %q (the families: %v)", f, families)
		}
	}
	if len(trainFams) < len(families) && cfg.Base == nil {
		return nil, fmt.Errorf("training only %v needs the other families' parameters (Base)", trainFams)
	}
	var jobs []job
	deals := map[string][2]int{}
	for _, f := range trainFams {
		n := trainSizes[f]
		forced, natural := int(float64(n[0])*cfg.Scale), int(float64(n[1])*cfg.Scale)
		deals[f] = [2]int{forced, natural}
		for i := 0; i < forced; i++ {
			jobs = append(jobs, job{f, i, true})
		}
		for i := 0; i < natural; i++ {
			jobs = append(jobs, job{f, i, false})
		}
	}
	// the training bot: hand-set starting calibration, untrained model
	start := startParams()
	bot := New(Config{Effort: cfg.Effort, MaxTime: -1, Seed: cfg.Seed, Model: &start.Model, Calibrations: start.Calibrations})
	results := make([]trainResult, len(jobs))
	var wg sync.WaitGroup
	next := make(chan int)
	var mu sync.Mutex
	done := 0
	var firstErr error
	for w := 0; w < cfg.Workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			solver := doubledummy.NewSolver(doubledummy.SolverOptions{})
			for k := range next {
				j := jobs[k]
				var res trainResult
				var err error
				if j.forced {
					res, err = forcedDeal(ctx, bot, solver, j.family, cfg.Seed, j.i)
				} else {
					res, err = naturalDeal(ctx, bot, solver, j.family, cfg.Seed, j.i)
				}
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				results[k] = res
				done++
				if cfg.Progress != nil {
					cfg.Progress(done, len(jobs))
				}
				mu.Unlock()
			}
		}()
	}
	for k := range jobs {
		if ctx.Err() != nil {
			break
		}
		next <- k
	}
	close(next)
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return fit(results, cfg, trainFams, deals)
}

// startParams are the hand-set values training starts from.
func startParams() Params {
	cal := Calibration{NearMiss: 12, Shift: [numRoles]float64{8, 0}}
	for c := range NumClasses {
		for r := range numRoles {
			cal.Win[c][r] = [numLevels]float64{0.1, 0.5, 0.9, 0.5}
		}
	}
	cals := map[string]Calibration{}
	for _, f := range families {
		cals[f] = cal
	}
	m := Model{Prior: 0.5}
	for k := range NumKinds {
		m.Sharp[k], m.Loose[k] = 0.97, 0.5
	}
	return Params{Model: m, Calibrations: cals}
}

// verdictOn is the level of p under the bot's rules for it: each solve capped at solveCap
// nodes on a cleared table.
func verdictOn(s *doubledummy.Solver, p *doubledummy.Position, r engine.RuleSet, cal *Calibration) int {
	d := &decision{solver: s, cal: cal, budget: math.MaxUint64 / 2, ctx: context.Background()}
	s.ClearTable()
	d.nodes0 = s.Nodes()
	level, _ := d.verdict(p, r)
	s.SetLimit(time.Time{}, nil)
	return level
}

// trumpsOf is how many cards of the trump suit the declarer holds in p.
func trumpsOf(p *doubledummy.Position) int {
	if p.Trump == engine.NoSuit {
		return 0
	}
	return p.Hands[p.Declarer].OfSuit(p.Trump).Len()
}

// forcedDeal plays training deal i of family f with the bot declaring a contract at random
// from its candidates.
func forcedDeal(ctx context.Context, bot *Bot, s *doubledummy.Solver, f string, seed uint64, i int) (trainResult, error) {
	res := trainResult{family: f}
	r := familyRules(f, i)
	deal := engine.DealFromSeed(r, seed^0x666f72636564, uint64(i)) // "forced"
	me := engine.Seat(i % r.Players)
	cands := bidCandidates(&r, deal.Hands[me])
	if len(cands) == 0 {
		return res, nil
	}
	// Most candidates are hopeless (lost double-dummy) and say little: four times in five the
	// contract is drawn from those with another verdict, when there are any.
	cal := startParams().Calibrations[f]
	levels := make([]int, len(cands))
	trumps := make([]int, len(cands))
	var open []int
	for j, c := range cands {
		p := doubledummy.DeclaredPosition(r, deal.Hands, deal.Tapp, int(me), c.name.Contract, c.trump)
		levels[j] = verdictOn(s, &p, r, &cal)
		trumps[j] = trumpsOf(&p)
		if levels[j] != LevelLost || (r.Variant != engine.Modern && p.Goal == doubledummy.GoalPoints) {
			open = append(open, j)
		}
	}
	rng := engine.NewRand(seed, uint64(i))
	pick := rng.IntN(len(cands))
	if len(open) > 0 && rng.IntN(5) != 0 {
		pick = open[rng.IntN(len(open))]
	}
	c, level := cands[pick], levels[pick]
	st, err := engine.NewState(r, deal, engine.Options{})
	if err != nil {
		return res, err
	}
	for st.Decision() == engine.DecideBid || st.Decision() == engine.DecideContract {
		a := engine.PassAction()
		if st.ToMove() == me {
			a = engine.PlayAction()
			if st.Decision() == engine.DecideContract || r.Variant != engine.Modern {
				a = c.name
			}
		}
		if err := st.Apply(a); err != nil {
			return res, fmt.Errorf("forced deal %s/%d: %w", f, i, err)
		}
	}
	contract := st.Contract()
	trump := c.trump
	goal, _ := doubledummy.GoalOf(contract, false)
	h := heuristic.New()
	out, err := playRest(ctx, st, func(seat engine.Seat) bots.Bot {
		if seat == me {
			return bot
		}
		return h
	}, func(st *engine.State) error {
		if st.Decision() == engine.DecideTrump && st.ToMove() == me {
			return st.Apply(engine.TrumpAction(trump)) // the trump the verdict assumed
		}
		return nil
	})
	if err != nil {
		return res, err
	}
	res.samples = append(res.samples, sampleOf(r, out, contract, RoleBot, level, trumps[pick], goal))
	return res, nil
}

// naturalDeal plays training deal i of family f: the bot at one seat, heuristic bots at the
// others.
func naturalDeal(ctx context.Context, bot *Bot, s *doubledummy.Solver, f string, seed uint64, i int) (trainResult, error) {
	res := trainResult{family: f}
	r := familyRules(f, i)
	deal := engine.DealFromSeed(r, seed^0x6e61747572616c, uint64(i)) // "natural"
	me := engine.Seat(i % r.Players)
	h := heuristic.New()
	st, err := engine.NewState(r, deal, engine.Options{})
	if err != nil {
		return res, err
	}
	seats := make([]seatRecord, r.Players)
	for k := range seats {
		seats[k].heuristic = engine.Seat(k) != me
	}
	level, trumps, goal, leadSeen := 0, 0, doubledummy.GoalPoints, false
	predicted := 0.0
	cal := startParams().Calibrations[f]
	for !st.Terminal() {
		if !leadSeen && st.Decision() == engine.DecideCard {
			leadSeen = true
			if st.Contract() == engine.Ramsch {
				d := &decision{b: bot, ctx: ctx}
				o, ok := d.playOut(st)
				if !ok {
					return res, fmt.Errorf("natural deal %s/%d: the Ramsch play-out failed", f, i)
				}
				predicted = float64(o.Payoff[me])
			}
			if d := st.Declarer(); d >= 0 && d != me {
				p, err := doubledummy.PositionOf(st, d)
				if err != nil {
					return res, err
				}
				level, trumps, goal = verdictOn(s, &p, r, &cal), trumpsOf(&p), p.Goal
			}
		}
		seat := st.ToMove()
		obs := st.Observe(seat)
		b := bots.Bot(h)
		if seat == me {
			b = bot
		}
		a, err := b.Decide(ctx, &obs)
		if err != nil {
			return res, err
		}
		if k, ok := kindOf(obs.Decision); ok && len(obs.Legal) > 1 {
			agree := true
			if seat == me {
				ha, _ := h.Decide(ctx, &obs)
				agree = ha.Canonical() == a.Canonical()
			}
			seats[seat].moves = append(seats[seat].moves, agreement{seat: seat, kind: k, nLegal: len(obs.Legal), agree: agree})
		}
		if err := st.Apply(a); err != nil {
			return res, err
		}
	}
	res.seats = seats
	out := st.Outcome()
	if leadSeen && out.Declarer >= 0 && out.Declarer != me {
		res.samples = append(res.samples, sampleOf(r, out, out.Contract, RoleOther, level, trumps, goal))
	}
	if leadSeen && out.Contract == engine.Ramsch {
		res.samples = append(res.samples, verdictSample{ramsch: true, playedOut: predicted, payoff: float64(out.Payoff[me])})
	}
	return res, nil
}

// sampleOf turns a played contract into a calibration sample.
func sampleOf(r engine.RuleSet, out engine.Outcome, c engine.Contract, role, level, trumps int, goal doubledummy.Goal) verdictSample {
	vs := verdictSample{class: classOf(c, out.Tout), role: role, level: level, won: out.DeclarerWon}
	if r.Variant != engine.Modern && goal == doubledummy.GoalPoints {
		vs.older, vs.ddPoints, vs.actualPoints, vs.trumps = true, level, out.Points[out.Declarer], trumps
	}
	return vs
}

// playRest plays st to the end with the seats' bots; before each decision hook may play a
// move itself (it applies it and returns nil) or leave it to the bot.
func playRest(ctx context.Context, st *engine.State, seatBot func(engine.Seat) bots.Bot, hook func(*engine.State) error) (engine.Outcome, error) {
	for !st.Terminal() {
		before := len(st.History())
		if err := hook(st); err != nil {
			return engine.Outcome{}, err
		}
		if len(st.History()) != before {
			continue
		}
		obs := st.Observe(st.ToMove())
		a, err := seatBot(st.ToMove()).Decide(ctx, &obs)
		if err != nil {
			return engine.Outcome{}, err
		}
		if err := st.Apply(a); err != nil {
			return engine.Outcome{}, err
		}
	}
	return st.Outcome(), nil
}

// Fitting.

const (
	calPrior = 4    // pseudo-deals pulling a calibration cell towards its role's mean
	maxSharp = 0.99 // the sharpest a rule-of-thumb player is assumed to be
)

func fit(results []trainResult, cfg TrainConfig, trainFams []string, deals map[string][2]int) (*Params, error) {
	p := &Params{Calibrations: map[string]Calibration{}}
	if cfg.Base != nil {
		for f, c := range cfg.Base.Calibrations {
			p.Calibrations[f] = c
		}
	}
	counts := map[string]any{}
	levels := map[string]any{}
	older := map[string]any{}
	priors := map[string]any{}
	for _, f := range trainFams {
		var samples []verdictSample
		for _, r := range results {
			if r.family == f {
				samples = append(samples, r.samples...)
			}
		}
		cal, rep, err := fitCalibration(samples, f != "older")
		if err != nil {
			return nil, fmt.Errorf("calibration of %s (%d deals forced, %d natural): %w", f, deals[f][0], deals[f][1], err)
		}
		p.Calibrations[f] = cal
		counts[f] = len(samples)
		priors[f] = rep.priorCells
		if f == "older" {
			older[f] = rep.older
		}
		// deals and wins by role and level (all classes), for the record
		var tally [numRoles][numLevels][2]int
		for _, s := range samples {
			if !s.ramsch && !s.older {
				tally[s.role][s.level][0]++
				if s.won {
					tally[s.role][s.level][1]++
				}
			}
		}
		levels[f] = tally
	}
	var seats []seatRecord
	for _, r := range results {
		seats = append(seats, r.seats...)
	}
	prov := map[string]any{
		"command":                 "go run ./scripts/sleuthtrain",
		"seed":                    cfg.Seed,
		"scale":                   cfg.Scale,
		"effort":                  cfg.Effort,
		"families_trained":        trainFams,
		"deals_per_family":        deals,
		"calibration_samples":     counts,
		"deals_won_by_role_level": levels,
		"cells_from_role_mean":    priors,
	}
	if len(older) > 0 {
		prov["older_points_fit"] = older
	}
	if len(trainFams) == len(families) {
		m, ll := fitModel(seats)
		p.Model = m
		prov["model_seats"] = len(seats)
		prov["model_log_lik"] = ll
	} else {
		p.Model = cfg.Base.Model
		prov["model"] = "kept from the earlier run (only part of the families trained)"
		prov["earlier"] = cfg.Base.Provenance
	}
	p.Provenance = prov
	return p, nil
}

// minSamples is the fewest played contracts a role's calibration of a family may be fitted
// to: with fewer the trainer fails rather than keep the starting values unannounced.
const minSamples = 20

// Slopes of the older variants' points, clipped: a fit outside says more about its few
// samples than about the verdicts.
const (
	minSlope    = 0.2
	maxSlope    = 1.2
	maxPerTrump = 10
)

// calReport is what fitCalibration tells the provenance.
type calReport struct {
	priorCells int            // class, role, level cells without a sample of their own
	older      map[string]any // the older variants' points fit, per role
}

// fitCalibration fits one family's calibration: of the modern point and other contracts'
// chances when modern, of the older variants' points (Shift, Slope) when not. It fails when a
// role has fewer than minSamples samples of what the family's bidding values.
func fitCalibration(samples []verdictSample, modern bool) (Calibration, calReport, error) {
	start := startParams().Calibrations["modern-3"]
	cal := Calibration{NearMiss: start.NearMiss, Shift: start.Shift, Slope: [numRoles]float64{1, 1}}
	rep := calReport{older: map[string]any{}}
	var won, all [NumClasses][numRoles][numLevels]float64
	var roleWon, roleAll [numRoles][numLevels]float64
	var pts [numRoles][][3]float64 // dd − 60, trumps − 4, made − 60
	var ramsch, ramschN float64
	for _, s := range samples {
		if s.ramsch {
			ramsch += s.payoff - s.playedOut
			ramschN++
			continue
		}
		if s.older {
			pts[s.role] = append(pts[s.role], [3]float64{float64(s.ddPoints - 60), float64(s.trumps - 4), float64(s.actualPoints - 60)})
			continue
		}
		all[s.class][s.role][s.level]++
		roleAll[s.role][s.level]++
		if s.won {
			won[s.class][s.role][s.level]++
			roleWon[s.role][s.level]++
		}
	}
	if ramschN > 0 {
		cal.RamschShift = ramsch / ramschN
	}
	roleNames := [numRoles]string{"bot", "other"}
	for r := range numRoles {
		if modern {
			total := 0.0
			for l := range numLevels {
				total += roleAll[r][l]
			}
			if total < minSamples {
				return cal, rep, fmt.Errorf("%v contracts declared by the %s, fewer than %d to fit", total, roleNames[r], minSamples)
			}
		} else {
			if len(pts[r]) < minSamples {
				return cal, rep, fmt.Errorf("%d point contracts declared by the %s, fewer than %d to fit", len(pts[r]), roleNames[r], minSamples)
			}
			a, b, c, sd := fitPoints(pts[r])
			cal.Shift[r], cal.Slope[r], cal.Trumps[r] = a, b, c
			rep.older[roleNames[r]] = map[string]any{"deals": len(pts[r]), "shift": a, "slope": b, "per_trump": c, "residual_sd": sd}
		}
		for l := range numLevels {
			mean := start.Win[0][r][l]
			if roleAll[r][l] > 0 {
				mean = (roleWon[r][l] + calPrior*mean) / (roleAll[r][l] + calPrior)
			}
			for c := range NumClasses {
				if modern && all[c][r][l] == 0 {
					rep.priorCells++
				}
				cal.Win[c][r][l] = (won[c][r][l] + calPrior*mean) / (all[c][r][l] + calPrior)
			}
		}
	}
	return cal, rep, nil
}

// fitPoints fits made = a + b·dd + c·trumps by least squares (each about its centre: 60 and
// four trumps), b clipped to [minSlope, maxSlope] and c to ±maxPerTrump (a and c refitted
// then); it returns the residual standard deviation too.
func fitPoints(rows [][3]float64) (a, b, c, sd float64) {
	n := float64(len(rows))
	var m [3]float64
	for _, r := range rows {
		for k := range 3 {
			m[k] += r[k] / n
		}
	}
	var cov [3][3]float64 // centred second moments
	for _, r := range rows {
		for i := range 3 {
			for j := range 3 {
				cov[i][j] += (r[i] - m[i]) * (r[j] - m[j]) / n
			}
		}
	}
	det := cov[0][0]*cov[1][1] - cov[0][1]*cov[0][1]
	b, c = 1, 0
	if det > 1e-9 {
		b = (cov[0][2]*cov[1][1] - cov[1][2]*cov[0][1]) / det
		c = (cov[1][2]*cov[0][0] - cov[0][2]*cov[0][1]) / det
	}
	if b < minSlope || b > maxSlope {
		b = min(maxSlope, max(minSlope, b))
		c = 0
		if cov[1][1] > 0 {
			c = (cov[1][2] - b*cov[0][1]) / cov[1][1]
		}
	}
	c = min(maxPerTrump, max(-maxPerTrump, c))
	a = m[2] - b*m[0] - c*m[1]
	var ss float64
	for _, r := range rows {
		e := r[2] - a - b*r[0] - c*r[1]
		ss += e * e
	}
	return a, b, c, math.Sqrt(ss / n)
}

// fitModel fits the two-kind mixture by expectation-maximisation; it returns the model and
// the mean log-likelihood per seat.
func fitModel(seats []seatRecord) (Model, float64) {
	m := startParams().Model
	type tally struct{ agree, total, logOthers float64 }
	unit := make([][NumKinds]tally, len(seats))
	for i, s := range seats {
		for _, a := range s.moves {
			t := &unit[i][a.kind]
			t.total++
			if a.agree {
				t.agree++
			} else {
				t.logOthers += math.Log(float64(a.nLegal - 1))
			}
		}
	}
	ll := 0.0
	for iter := 0; iter < 50; iter++ {
		var sa, st, la, lt [NumKinds]float64
		prior := 0.0
		ll = 0
		for i := range seats {
			var ev seatEvidence
			for k := range NumKinds {
				t := unit[i][k]
				dis := t.total - t.agree
				ev.sharp += t.agree*math.Log(m.Sharp[k]) + dis*math.Log(1-m.Sharp[k]) - t.logOthers
				ev.loose += t.agree*math.Log(m.Loose[k]) + dis*math.Log(1-m.Loose[k]) - t.logOthers
			}
			total := m.logLikelihood(ev)
			ll += total
			resp := math.Exp(math.Log(m.Prior) + ev.sharp - total)
			prior += resp
			for k := range NumKinds {
				t := unit[i][k]
				sa[k] += resp * t.agree
				st[k] += resp * t.total
				la[k] += (1 - resp) * t.agree
				lt[k] += (1 - resp) * t.total
			}
		}
		for k := range NumKinds {
			m.Sharp[k] = math.Min(maxSharp, (sa[k]+1)/(st[k]+2))
			m.Loose[k] = (la[k] + 1) / (lt[k] + 2)
		}
		m.Prior = math.Min(0.99, math.Max(0.01, prior/float64(max(1, len(seats)))))
	}
	return m, ll / float64(max(1, len(seats)))
}
