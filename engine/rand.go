package engine

import "math/bits"

// Rand is the engine's pseudo-random number generator. It is implemented here, not taken from
// math/rand, so that a seeded deal never changes with the Go version (R-DEAL-2).
//
// Algorithm (fixed forever):
//   - State: a 128-bit LCG state (hi, lo). NewRand(seed, stream) sets
//     hi = SplitMix64(seed) and lo = SplitMix64(stream ^ 0xA0761D6478BD642F), where
//     SplitMix64(x) is Steele, Lea and Flood's finaliser applied to x + 0x9E3779B97F4A7C15.
//     Mixing both words keeps neighbouring seeds and deal numbers unrelated.
//   - Step: state = state * 0x2360ED051FC65DA44385DF649FCCF645 + 0x5851F42D4C957F2D14057B7EF767814F
//     (mod 2^128).
//   - Output: PCG-DXSM of the new state: h = hi; h ^= h >> 32; h *= 0xDA942042E4DD58B5;
//     h ^= h >> 48; h *= lo | 1.
//
// These are exactly the constants and output function of math/rand/v2's PCG, so
// NewRand(seed, stream) produces the same sequence as rand.NewPCG(SplitMix64(seed),
// SplitMix64(stream ^ 0xA0761D6478BD642F)); a test checks that.
//
// IntN(n) is Lemire's multiply-shift with rejection: with x = Uint64(), the 128-bit product
// x*n is (hi, lo); if lo < n, reject while lo < (2^64 - n) mod n; return hi. It is unbiased.
//
// A Rand is not safe for concurrent use. The zero value is a valid generator (state 0).
type Rand struct{ hi, lo uint64 }

const streamSalt = 0xA0761D6478BD642F

// SplitMix64 is the seed mixer of Rand (documented above), exported for reproducibility tools.
func SplitMix64(x uint64) uint64 {
	x += 0x9E3779B97F4A7C15
	x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9
	x = (x ^ (x >> 27)) * 0x94D049BB133111EB
	return x ^ (x >> 31)
}

// NewRand returns a generator for (seed, stream); deals use stream = deal number.
func NewRand(seed, stream uint64) *Rand {
	r := &Rand{}
	r.Seed(seed, stream)
	return r
}

// Seed resets r in place to the state NewRand(seed, stream) would have.
func (r *Rand) Seed(seed, stream uint64) {
	r.hi = SplitMix64(seed)
	r.lo = SplitMix64(stream ^ streamSalt)
}

// Uint64 returns the next 64 random bits.
func (r *Rand) Uint64() uint64 {
	const (
		mulHi = 2549297995355413924
		mulLo = 4865540595714422341
		incHi = 6364136223846793005
		incLo = 1442695040888963407
	)
	hi, lo := bits.Mul64(r.lo, mulLo)
	hi += r.hi*mulLo + r.lo*mulHi
	lo, c := bits.Add64(lo, incLo, 0)
	hi, _ = bits.Add64(hi, incHi, c)
	r.lo, r.hi = lo, hi

	const cheapMul = 0xda942042e4dd58b5
	hi ^= hi >> 32
	hi *= cheapMul
	hi ^= hi >> 48
	hi *= lo | 1
	return hi
}

// IntN returns a uniform integer in [0, n). For n <= 0 it returns 0 (it never panics).
func (r *Rand) IntN(n int) int {
	if n <= 1 {
		return 0
	}
	un := uint64(n)
	hi, lo := bits.Mul64(r.Uint64(), un)
	if lo < un {
		thresh := -un % un
		for lo < thresh {
			hi, lo = bits.Mul64(r.Uint64(), un)
		}
	}
	return int(hi)
}
