package board

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tapparena/tapp/arena/internal/rating"
)

// The skewness sample is the first rating.SampleSources sources of each league and rule set
// by key, whatever order they came in, with their cells; a league's sources do not crowd out
// another's.
func TestSampleIsTheFirstSourcesByKey(t *testing.T) {
	t.Parallel()
	a := NewAccumulator()
	rng := rand.New(rand.NewPCG(1, 2))
	lrs := []LeagueRules{{League: "L", Rules: "modern"}, {League: "", Rules: "classic"}}
	keys := map[LeagueRules][]string{}
	for i := range 3 * rating.SampleSources {
		lr := lrs[min(i%7, 1)] // most to the first
		source := fmt.Sprintf("%016x", rng.Uint64())
		keys[lr] = append(keys[lr], source)
		for range 1 + i%2 { // some sources get a second unit, of the same cell
			a.addUnit(Scope{League: lr.League, Rules: lr.Rules, Bots: "a,b,c"}, source, "m", []string{"a", "b", "c"}, 1, []int64{1, -1, 0})
		}
	}
	sample := a.sample(func(LeagueRules) bool { return true }, nil)
	for _, lr := range lrs {
		want := slices.Sorted(slices.Values(keys[lr]))
		want = want[:min(len(want), rating.SampleSources)]
		got := slices.Sorted(func(yield func(string) bool) {
			for k := range sample[lr] {
				if !yield(k) {
					return
				}
			}
		})
		if !slices.Equal(got, want) {
			t.Errorf("%v: sample of %d sources %v…, want the first %d by key %v…", lr, len(got), got[:min(len(got), 3)], len(want), want[:3])
		}
		for _, k := range got {
			if c := sample[lr][k]; len(c) != 1 || c[0].Deals < 1 {
				t.Errorf("%v: source %s's cells %+v", lr, k, c)
			}
		}
	}
}
