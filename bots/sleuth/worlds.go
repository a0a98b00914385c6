package sleuth

import (
	"math"
	"sort"

	"github.com/tapparena/tapp/engine"
)

// Worlds: the deals the bot imagines, each a full state consistent with its observation.
//
// Candidates are drawn by the engine (engine.Observation.Sample: every card the seat cannot
// see dealt at random, subject to everything it knows for certain), then weighted by the
// opponent model's likelihood of every bid, pass and card the other seats chose in that
// world (model.go). A batch of candidates is turned into the worlds the bot solves by
// systematic resampling: a candidate's share of the batch's weight decides how many of the
// solved slots it gets, so that likely worlds are solved with more weight and unlikely ones
// not at all. Every candidate comes from its own random stream of the decision's seed: the
// same observation gives the same worlds.

// world is one imagined deal with the weight of its slots.
type world struct {
	st     *engine.State
	weight float64
	// thumb is, per seat, the probability that it plays by the rule of thumb, given what it
	// did in this world (see Model.ruleOfThumb)
	thumb [engine.MaxPlayers]float64
}

// batch is one batch of candidates, weighted.
type batch struct {
	worlds []world
	ess    float64 // the effective number of candidates: (Σw)² / Σw²
}

// candidate is a drawn world and the log-likelihood of the other seats' actions in it (up to
// a constant shared by the decision's candidates).
type candidate struct {
	st    *engine.State
	ll    float64
	thumb [engine.MaxPlayers]float64
}

// Candidates are drawn in two stages, because the bidding is read cheaply and the cards
// dearly (every past card of every other seat is a decision of the heuristic to replay):
// bidStageFactor times as many candidates as asked are drawn and weighed by the bidding and
// the declaration (every move before the first card), resampled down to the number asked,
// and only those are weighed by the cards as well, with the weight the bidding did not
// already give them. Few draws are wasted on worlds the bidding rules out.
const bidStageFactor = 3

// candidates draws n candidates from streams from.. and weighs them by the model (every
// log-likelihood 0 with inference off). Fewer come back when draws fail; a candidate drawn
// twice by the resampling comes back once, its weight counting both.
// Fewer come back, too, when the clock runs out (at least one, if any can be drawn): reading
// a world's history costs more the further the deal is, and a host busy enough makes even a
// small batch slow.
func (d *decision) candidates(from, n int) []candidate {
	if d.b.cfg.NoInference {
		out := make([]candidate, 0, n)
		for i := from; i < from+n && !(len(out) > 0 && d.timeUp()); i++ {
			d.spend(sampleCost)
			if st, err := d.obs.Sample(engine.NewRand(d.seed, uint64(i))); err == nil {
				out = append(out, candidate{st: st, thumb: d.b.model.ruleOfThumb(nil, d.obs.Rules.Players)})
			}
		}
		return out
	}
	history := d.obs.History
	firstCard := len(history)
	for i, m := range history {
		if m.Action.Kind == engine.ActCard {
			firstCard = i
			break
		}
	}
	type drawn struct {
		st   *engine.State
		bids []agreement
		ll   float64
	}
	players := d.obs.Rules.Players
	var stage1 []drawn
	for i := from; i < from+bidStageFactor*n && !(len(stage1) > 0 && d.timeUp()); i++ {
		d.spend(sampleCost)
		st, err := d.obs.Sample(engine.NewRand(d.seed, uint64(i)))
		if err != nil {
			continue
		}
		bids, err := d.reader.readWorld(st, d.obs.Seat, 0, firstCard, nil)
		d.spend(uint64(len(bids)) * readCost)
		if err != nil {
			continue
		}
		stage1 = append(stage1, drawn{st, bids, d.b.model.score(bids, players)})
	}
	if len(stage1) == 0 {
		return nil
	}
	if firstCard == len(history) { // nothing but the bidding to read
		out := make([]candidate, len(stage1))
		for i, c := range stage1 {
			out[i] = candidate{c.st, c.ll, d.b.model.ruleOfThumb(c.bids, players)}
		}
		return out
	}
	w := make([]float64, len(stage1))
	maxLL := math.Inf(-1)
	for _, c := range stage1 {
		maxLL = max(maxLL, c.ll)
	}
	for i, c := range stage1 {
		w[i] = math.Exp(c.ll - maxLL)
	}
	var out []candidate
	for i, copies := range systematic(w, n, engine.NewRand(d.seed, resampleStream+uint64(from))) {
		if copies == 0 {
			continue
		}
		if len(out) > 0 && d.timeUp() {
			break
		}
		c := stage1[i]
		all, err := d.reader.readWorld(c.st, d.obs.Seat, firstCard, len(history), c.bids)
		d.spend(uint64(len(all)-len(c.bids)) * readCost)
		if err != nil {
			continue
		}
		// the weight of the whole history over that of the bidding, which the resampling gave
		out = append(out, candidate{c.st, math.Log(float64(copies)) + d.b.model.score(all, players) - c.ll,
			d.b.model.ruleOfThumb(all, players)})
	}
	return out
}

// systematic resampling: k equally spaced points through the cumulative weights, at a random
// offset; it returns how many points fall on each weight.
func systematic(w []float64, k int, rng *engine.Rand) []int {
	sum := 0.0
	for _, x := range w {
		sum += x
	}
	out := make([]int, len(w))
	if sum <= 0 || k <= 0 {
		return out
	}
	step := sum / float64(k)
	pos := float64(rng.IntN(1<<30)) / (1 << 30) * step
	acc := 0.0
	for i, x := range w {
		acc += x
		for pos < acc {
			out[i]++
			pos += step
		}
	}
	return out
}

// weights turns log-likelihoods into weights, the largest 1, and their effective number
// (Σw)² / Σw².
func weights(cands []candidate) ([]float64, float64) {
	maxLL := math.Inf(-1)
	for _, c := range cands {
		maxLL = max(maxLL, c.ll)
	}
	w := make([]float64, len(cands))
	sum, sum2 := 0.0, 0.0
	for i, c := range cands {
		w[i] = math.Exp(c.ll - maxLL)
		sum += w[i]
		sum2 += w[i] * w[i]
	}
	if sum == 0 {
		return w, 0
	}
	return w, sum * sum / sum2
}

// drawBatch draws candidates number from..from+n-1 and resamples them into at most k
// worlds. With inference off the first k candidates are the worlds, each of weight 1.
func (d *decision) drawBatch(from, n, k int) batch {
	cands := d.candidates(from, n)
	if len(cands) == 0 {
		return batch{}
	}
	w, ess := weights(cands)
	out := batch{ess: ess}
	if d.b.cfg.NoInference {
		for _, c := range cands[:min(k, len(cands))] {
			out.worlds = append(out.worlds, world{st: c.st, weight: 1, thumb: c.thumb})
		}
		return out
	}
	for i, copies := range systematic(w, k, engine.NewRand(d.seed, resampleStream+1+uint64(from))) {
		if copies > 0 {
			out.worlds = append(out.worlds, world{st: cands[i].st, weight: float64(copies), thumb: cands[i].thumb})
		}
	}
	// most weight first: when the budget runs out, the likeliest worlds have been solved
	sort.SliceStable(out.worlds, func(i, j int) bool { return out.worlds[i].weight > out.worlds[j].weight })
	return out
}

// resampleStream is the random stream of a batch's resampling, apart from the candidates'.
const resampleStream = 1 << 40
