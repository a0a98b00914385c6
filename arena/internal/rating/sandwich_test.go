package rating

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestLowRankSandwichIsTheProduct: the fit test's variance M·W·Mᵀ, M = diag(d) − Z·Jᵀ, comes
// out as the product formed and multiplied out, for W with zeros (the seats of compositions
// that share no source) and without symmetry assumed, at sizes from none to some hundreds.
func TestLowRankSandwichIsTheProduct(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 1))
	for _, size := range []struct{ n, p int }{{0, 3}, {1, 1}, {7, 3}, {60, 13}, {301, 25}} {
		n, p := size.n, size.p
		d := make([]float64, n)
		z, j, w := newMatrixRect(n, p), newMatrixRect(n, p), newMatrix(n)
		for x := range n {
			d[x] = 1 / float64(1+rng.IntN(5000))
			for q := range p {
				z[x][q], j[x][q] = rng.NormFloat64()*1e-3, rng.NormFloat64()
			}
			for y := range n {
				if rng.IntN(4) == 0 {
					w[x][y] = rng.NormFloat64() * 1e4
				}
			}
		}
		m := newMatrix(n)
		for x := range n {
			for y := range n {
				for q := range p {
					m[x][y] -= z[x][q] * j[y][q]
				}
			}
			m[x][x] += d[x]
		}
		want := mul(mul(m, w), transpose(m))
		got := lowRankSandwich(d, z, j, w)
		if len(got) != n {
			t.Fatalf("n=%d: %d rows", n, len(got))
		}
		var scale float64
		for x := range n {
			for y := range n {
				scale = math.Max(scale, math.Abs(want[x][y]))
			}
		}
		for x := range n {
			for y := range n {
				if math.Abs(got[x][y]-want[x][y]) > 1e-12*scale {
					t.Fatalf("n=%d p=%d: [%d][%d] = %g, want %g (largest %g)", n, p, x, y, got[x][y], want[x][y], scale)
				}
			}
		}
	}
}
