package sleuth

import (
	"hash/fnv"
	"slices"

	"github.com/tapparena/tapp/engine"
)

// The value of saying "play" in modern round one. Each plan that plays names one contract X
// in round two whatever happened in between; but the bot names its contract only in round
// two, when it has heard who else said "play" and what the seats before it named. Valued as
// "the best fixed X", play is worth too little exactly where the bidding is contested: a hand
// that should name Solo when nobody else plays and Heart Solo (or Bettel) to outbid a rival
// is charged, in every world, with the one X that is best on average. So the worlds are
// grouped by what the bot will have heard at its round-two turn (heardAt), the best X is
// chosen within each group, and "play" is valued as that policy: per world, the value of the
// X its group chose. A group of too few worlds (adaptMinWorlds) takes the X best over all
// worlds, so that the choice within a group is not the luck of two or three deals.

// adaptMinWorlds is the effective number of worlds a group needs for an X of its own.
const adaptMinWorlds = 6

// heard names what the bot has heard by its round-two turn in a simulated bidding: every
// move of the other seats since the decision being made (round-one answers and the names
// said before its turn), hashed. Worlds with the same value are the same to the bot then.
func heard(st *engine.State, since int, me engine.Seat) uint64 {
	h := fnv.New64a()
	for _, m := range st.History()[since:] {
		if m.Seat == me {
			continue
		}
		a := m.Action.Canonical()
		h.Write([]byte{byte(m.Seat), byte(a.Kind), byte(a.Contract), byte(a.Suit)})
	}
	return h.Sum64()
}

// adaptivePlay returns, for each world of ev, the value of playing with the contract chosen by
// what the bot will have heard (tags[i] for world i), choosing among the alternatives plays;
// and whether any group chose differently from the best fixed alternative. plays must not be
// empty.
func adaptivePlay(ev *evaluation, tags []uint64, plays []int) ([]float64, bool) {
	overall := bestOf(ev, plays, nil)
	groups := map[uint64][]int{}
	for i, t := range tags {
		groups[t] = append(groups[t], i)
	}
	choice := map[uint64]int{}
	differs := false
	for t, rows := range groups {
		choice[t] = overall
		if effectiveWorlds(ev, rows) < adaptMinWorlds {
			continue
		}
		if j := bestOf(ev, plays, rows); j != overall {
			choice[t] = j
			differs = true
		}
	}
	out := make([]float64, ev.worlds())
	for i, t := range tags {
		out[i] = ev.values[i][choice[t]]
	}
	return out, differs
}

// bestOf is the alternative among alts with the best weighted mean over rows (every world
// when rows is nil); ties go to the first.
func bestOf(ev *evaluation, alts, rows []int) int {
	if rows == nil {
		rows = make([]int, ev.worlds())
		for i := range rows {
			rows[i] = i
		}
	}
	best, bestV := alts[0], 0.0
	for k, j := range alts {
		sum, sw := 0.0, 0.0
		for _, i := range rows {
			sum += ev.weight[i] * ev.values[i][j]
			sw += ev.weight[i]
		}
		v := 0.0
		if sw > 0 {
			v = sum / sw
		}
		if k == 0 || v > bestV {
			best, bestV = j, v
		}
	}
	return best
}

// effectiveWorlds is (Σw)² / Σw² over rows.
func effectiveWorlds(ev *evaluation, rows []int) float64 {
	sw, sw2 := 0.0, 0.0
	for _, i := range rows {
		w := ev.weight[i]
		sw += w
		sw2 += w * w
	}
	if sw2 == 0 {
		return 0
	}
	return sw * sw / sw2
}

// withColumn returns a copy of ev with one more alternative whose value in world i is col[i].
func (ev *evaluation) withColumn(col []float64) *evaluation {
	out := &evaluation{alts: ev.alts + 1, weight: ev.weight}
	out.values = make([][]float64, len(ev.values))
	for i, vs := range ev.values {
		out.values[i] = append(slices.Clip(vs), col[i])
	}
	return out
}
