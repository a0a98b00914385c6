package sleuth

import "testing"

// Play is valued as the policy of naming, in each group of worlds the bot cannot tell apart
// at its round-two turn, the contract best in that group; a group too small for a choice of
// its own takes the contract best over all worlds.
func TestAdaptivePlayChoosesByWhatWasHeard(t *testing.T) {
	t.Parallel()
	// alternatives: 0 pass, 1 play naming Solo, 2 play naming Heart Solo
	ev := &evaluation{alts: 3}
	var tags []uint64
	for i := 0; i < 10; i++ { // nobody else played: Solo is worth more
		ev.add(1, []float64{0, 8, 2})
		tags = append(tags, 1)
	}
	for i := 0; i < 8; i++ { // a rival played: only Heart Solo outbids him
		ev.add(1, []float64{-3, -4, 6})
		tags = append(tags, 2)
	}
	for i := 0; i < 3; i++ { // too few worlds for a choice of their own: the overall best
		ev.add(1, []float64{0, -10, 20})
		tags = append(tags, 3)
	}
	col, differs := adaptivePlay(ev, tags, []int{1, 2})
	if !differs {
		t.Fatal("the groups chose differently from the best fixed contract, but differs is false")
	}
	overall := bestOf(ev, []int{1, 2}, nil)
	for i, v := range col {
		var want float64
		switch tags[i] {
		case 1:
			want = ev.values[i][1]
		case 2:
			want = ev.values[i][2]
		default:
			want = ev.values[i][overall]
		}
		if v != want {
			t.Errorf("world %d (group %d): value %v, want %v", i, tags[i], v, want)
		}
	}
	wide := ev.withColumn(col)
	if gap, _ := wide.gap(3, 0); gap <= 0 {
		t.Errorf("the adaptive play gains %v over passing, want more than 0", gap)
	}
	if m := wide.means(); m[3] < m[1] || m[3] < m[2] {
		t.Errorf("the adaptive play is worth %v, less than a fixed contract (%v, %v)", m[3], m[1], m[2])
	}
}

// Where every group would name the same contract, nothing differs from the fixed plans.
func TestAdaptivePlaySameEverywhere(t *testing.T) {
	t.Parallel()
	ev := &evaluation{alts: 3}
	var tags []uint64
	for i := 0; i < 20; i++ {
		ev.add(1, []float64{0, 5, 1})
		tags = append(tags, uint64(1+i%2))
	}
	if _, differs := adaptivePlay(ev, tags, []int{1, 2}); differs {
		t.Fatal("differs is true, but Solo is best in every group")
	}
}
