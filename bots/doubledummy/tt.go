package doubledummy

import (
	"math/bits"

	"github.com/tapparena/tapp/engine"
)

// The transposition table holds bounds on the value of the rest of the deal at trick starts.
//
// That value depends only on the hands, the leader and the solver's configuration (players,
// trump, who counts, who maximises, the unit, the tapp going to the last trick), and not even
// on the exact ranks of the cards: within a suit only the order of the cards still in play
// matters for taking tricks, and the points only of cards worth points. So the key is built
// from canonical hands: in every suit the in-play cards that are interchangeable for the goal
// (all of them for the trick goals, the zero-point 9-8-7-6 for point goals) are packed down
// to the lowest ranks, keeping their order and owners. Positions reached through different
// played cards then share one entry.
//
// An entry is keyed by a 64-bit hash of the canonical hands, the leader and the configuration
// and stores the whole key: a wrong hit needs two positions whose 64-bit keys are equal, a
// chance of about 2^-64 per probe. Entries stay valid across samples, decisions and deals, so
// the table is never cleared; stale entries are simply replaced.
//
// Buckets have two slots: slot 0 keeps the entry with more cards left (more work saved),
// slot 1 is always replaced.
//
// Clearing the table (Solver.ClearTable, for searches whose effort must not depend on what
// came before) starts a new generation: entries of an older one count as empty.

type ttEntry struct {
	key    uint64 // 0 marks an empty slot
	lo, hi int8   // bounds on the remaining value
	best   uint8  // best lead as suit<<4 | in-play cards of that suit above it, or 0xFF
	depth  uint8  // cards left in the leader's hand
	gen    uint16 // the table's generation when stored
}

type table struct {
	slots []ttEntry // 2 per bucket
	mask  uint64    // bucket index mask
	gen   uint16    // entries of other generations are empty
}

// clear empties the table: a new generation, or, once the generations wrap around, zeroes.
func (t *table) clear() {
	t.gen++
	if t.gen == 0 {
		clear(t.slots)
	}
}

const defaultTTBits = 18 // 2^18 buckets × 2 slots × 16 bytes = 8 MiB

func newTable(logBuckets int) *table {
	if logBuckets <= 0 {
		logBuckets = defaultTTBits
	}
	n := uint64(1) << logBuckets
	return &table{slots: make([]ttEntry, 2*n), mask: n - 1}
}

func fmix(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}

// pext4 and pext5 pack the bits of x selected by mask m down to the low bits (x ⊆ m).
var pext4 [16][16]uint8
var pext5 [32][32]uint8

func init() {
	pext := func(x, m int) uint8 {
		out, k := 0, 0
		for b := 0; m>>b != 0; b++ {
			if m>>b&1 == 1 {
				out |= (x >> b & 1) << k
				k++
			}
		}
		return uint8(out)
	}
	for m := 0; m < 16; m++ {
		for x := 0; x < 16; x++ {
			pext4[m][x] = pext(x&m, m)
		}
	}
	for m := 0; m < 32; m++ {
		for x := 0; x < 32; x++ {
			pext5[m][x] = pext(x&m, m)
		}
	}
}

// ttKey hashes the canonical hands (see above), the leader and the configuration. Call only at
// a trick start.
func (s *Solver) ttKey() uint64 {
	var all engine.CardSet
	for i := 0; i < s.n; i++ {
		all |= s.hands[i]
	}
	x := uint64(s.cfg)<<8 | uint64(s.leader)
	for i := 0; i < s.n; i++ {
		x = fmix(x ^ uint64(s.canonical(s.hands[i], all)))
	}
	if x == 0 {
		x = 1
	}
	return x
}

// canonical packs the interchangeable in-play cards of h's suits down to the lowest ranks.
func (s *Solver) canonical(h, all engine.CardSet) engine.CardSet {
	var out engine.CardSet
	for su := uint(0); su < engine.NumSuits; su++ {
		hs := uint64(h>>(9*su)) & 511
		ms := uint64(all>>(9*su)) & 511
		var c uint64
		if s.tricksUnit {
			lo := pext5[ms&31][hs&31]
			hi := pext4[ms>>5][hs>>5]
			c = uint64(lo) | uint64(hi)<<bits.OnesCount64(ms&31)
		} else {
			c = uint64(pext4[ms&15][hs&15]) | hs&^15
		}
		out |= engine.CardSet(c) << (9 * su)
	}
	return out
}

// encodeBest stores card c as its suit and the number of in-play cards of that suit above it,
// which names the corresponding card in every position with the same canonical key.
func encodeBest(c engine.Card, all engine.CardSet) uint8 {
	if c == engine.NoCard {
		return 0xFF
	}
	above := all & engine.SuitSet(c.Suit()) &^ (engine.CardSet(2)<<c - 1)
	return uint8(c.Suit())<<4 | uint8(above.Len())
}

func decodeBest(b uint8, all engine.CardSet) engine.Card {
	if b == 0xFF {
		return engine.NoCard
	}
	in := all & engine.SuitSet(engine.Suit(b>>4))
	for k := int(b & 15); k > 0 && in != 0; k-- {
		in = in.Without(in.Highest())
	}
	return in.Highest()
}

func (t *table) bucket(key uint64) int {
	return int(key&t.mask) * 2
}

// probe returns the matching entry or nil.
func (t *table) probe(key uint64) *ttEntry {
	i := t.bucket(key)
	if e := &t.slots[i]; e.key == key && e.gen == t.gen {
		return e
	}
	if e := &t.slots[i+1]; e.key == key && e.gen == t.gen {
		return e
	}
	return nil
}

// store records bounds lo ≤ value ≤ hi (merged with what the entry knew) and the best lead.
func (t *table) store(key uint64, depth int, lo, hi int, best uint8) {
	i := t.bucket(key)
	var e *ttEntry
	for j := i; j < i+2; j++ {
		if s := &t.slots[j]; s.key == key && s.gen == t.gen {
			e = s
			if int(e.lo) > lo {
				lo = int(e.lo)
			}
			if int(e.hi) < hi {
				hi = int(e.hi)
			}
			if best == 0xFF {
				best = e.best
			}
			break
		}
	}
	if e == nil {
		s0 := &t.slots[i]
		if s0.key == 0 || s0.gen != t.gen || int(s0.depth) <= depth {
			if s0.key != 0 && s0.gen == t.gen {
				t.slots[i+1] = *s0 // the old deep entry moves to the always-replace slot
			}
			e = s0
		} else {
			e = &t.slots[i+1]
		}
		e.key = key
		e.depth = uint8(depth)
		e.gen = t.gen
	}
	e.lo, e.hi, e.best = int8(lo), int8(hi), best
}
