package rating

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestChangeCellIsTheSourceAddedAgain: keeping the sums cell by cell as units arrive (a
// composition's first unit of a source, then more units of it, in any order) gives exactly the
// sums of every source added whole at the end.
func TestChangeCellIsTheSourceAddedAgain(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	comps := [][]string{{"a", "b", "c"}, {"a", "b", "d"}, {"a", "c", "d"}, {"b", "c", "d"}, {"a", "b", "c", "d"}}
	kept := NewSourceSums()
	cells := map[int]map[string]*Cell{} // source → composition → cell
	for range 400 {
		g := rng.IntN(30)
		comp := comps[rng.IntN(len(comps))]
		net := make([]int64, len(comp))
		for i := range net {
			net[i] = rng.Int64N(121) - 60
		}
		deals := int64(1 + rng.IntN(6))
		if cells[g] == nil {
			cells[g] = map[string]*Cell{}
		}
		key := CompositionKey(comp)
		var others []Cell
		for k, c := range cells[g] {
			if k != key {
				others = append(others, *c)
			}
		}
		old := cells[g][key]
		cur := Cell{Bots: comp, Deals: deals, Net: net}
		if old != nil {
			cur.Deals += old.Deals
			cur.Net = slices.Clone(old.Net)
			for i := range net {
				cur.Net[i] += net[i]
			}
		}
		kept.ChangeCell(others, old, cur)
		cells[g][key] = &cur
	}
	whole := NewSourceSums()
	for _, byComp := range cells {
		var cs []Cell
		for _, c := range byComp {
			cs = append(cs, *c)
		}
		whole.AddSource(cs, 1)
	}
	if got, want := fmt.Sprint(kept.Sources, kept.BotSources), fmt.Sprint(whole.Sources, whole.BotSources); got != want {
		t.Errorf("sources and bots' sources kept %s, whole %s", got, want)
	}
	for k, w := range whole.Tables {
		if g := kept.Tables[k]; fmt.Sprint(g) != fmt.Sprint(w) {
			t.Errorf("table %s: kept %v, whole %v", k, g, w)
		}
	}
	for k, w := range whole.Pairs {
		if g := kept.Pairs[k]; fmt.Sprint(g) != fmt.Sprint(w) {
			t.Errorf("pair %v: kept %v, whole %v", k, g, w)
		}
	}
	if len(kept.Tables) != len(whole.Tables) || len(kept.Pairs) != len(whole.Pairs) {
		t.Errorf("kept %d tables and %d pairs, whole %d and %d", len(kept.Tables), len(kept.Pairs), len(whole.Tables), len(whole.Pairs))
	}
	if len(whole.Pairs) == 0 || whole.Sources != 30 {
		t.Fatalf("%d pairs, %d sources: the test tests nothing", len(whole.Pairs), whole.Sources)
	}
}

func TestSourceKeyIsTheDealsCards(t *testing.T) {
	t.Parallel()
	if a, b := SourceKey("x y z"), SourceKey(" x y z\n"); a != b || len(a) != 16 {
		t.Errorf("keys %q, %q: want one key of 16 hex digits for one deal", a, b)
	}
	if SourceKey("x y z") == SourceKey("x y w") {
		t.Error("two deals share a key")
	}
}
