package board

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/rating"
	"github.com/tapparena/tapp/engine"
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

// A deal's source key is what every stored deal-source row is keyed by: the first 16 hex
// digits of the SHA-256 of its deal in the engine's notation. Pinned for one deal (the key a
// database written by an earlier build holds), so that a faster way to make it cannot
// change it.
func TestSourceOfIsTheKeyOfTheDealsNotation(t *testing.T) {
	t.Parallel()
	r := engine.DefaultRules(engine.Modern)
	d := &domain.DealRecord{Deal: engine.DealFromSeed(r, 1, 0)}
	const text = "C8 C9 CJ CT SQ SA H9 HK HA D9 DA | C6 C7 CQ CK SK H6 H7 H8 HT D6 DJ | CA S7 S8 S9 ST HJ HQ D7 D8 DQ DK | S6 SJ DT"
	if got := SourceOf(MatchInfo{ID: "m", Rules: r.String()}, d); got != "42713ffcb4039c14" || got != rating.SourceKey(text) {
		t.Errorf("SourceOf = %s, want 42713ffcb4039c14, the key of %q", got, text)
	}
}
