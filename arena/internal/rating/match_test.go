package rating

import (
	"slices"
	"testing"
)

func TestPairwiseFromMatch(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		m    Match
		want []PairResult
	}{
		{
			name: "four bots with a tie",
			m:    Match{Bots: []string{"n", "e", "s", "w"}, Cents: []int64{120, -40, -40, -40}},
			want: []PairResult{
				{A: "n", B: "e", WDL: WDL{W: 1}},
				{A: "n", B: "s", WDL: WDL{W: 1}},
				{A: "n", B: "w", WDL: WDL{W: 1}},
				{A: "e", B: "s", WDL: WDL{D: 1}},
				{A: "e", B: "w", WDL: WDL{D: 1}},
				{A: "s", B: "w", WDL: WDL{D: 1}},
			},
		},
		{
			name: "three bots",
			m:    Match{Bots: []string{"x", "y", "z"}, Cents: []int64{-30, 50, -20}},
			want: []PairResult{
				{A: "x", B: "y", WDL: WDL{L: 1}},
				{A: "x", B: "z", WDL: WDL{L: 1}},
				{A: "y", B: "z", WDL: WDL{W: 1}},
			},
		},
	}
	for _, tc := range tests {
		got, err := PairwiseFromMatch(tc.m)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestMatchValidate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		m    Match
		ok   bool
	}{
		{"fine", Match{Bots: []string{"a", "b", "c"}, Cents: []int64{1, 2, 3}}, true},
		{"one bot", Match{Bots: []string{"a"}, Cents: []int64{1}}, false},
		{"missing total", Match{Bots: []string{"a", "b"}, Cents: []int64{1}}, false},
		{"duplicate", Match{Bots: []string{"a", "a"}, Cents: []int64{1, 2}}, false},
		{"empty name", Match{Bots: []string{"a", ""}, Cents: []int64{1, 2}}, false},
	}
	for _, tc := range tests {
		err := tc.m.Validate()
		if (err == nil) != tc.ok {
			t.Errorf("%s: err %v, want ok %v", tc.name, err, tc.ok)
		}
		if _, perr := PairwiseFromMatch(tc.m); (perr == nil) != tc.ok {
			t.Errorf("%s: PairwiseFromMatch err %v, want ok %v", tc.name, perr, tc.ok)
		}
	}
}

func TestMergePairs(t *testing.T) {
	t.Parallel()
	in := []PairResult{
		{A: "b", B: "a", WDL: WDL{W: 2, D: 1}},
		{A: "a", B: "b", WDL: WDL{W: 1, L: 1}},
		{A: "c", B: "a", WDL: WDL{L: 4}},
	}
	want := []PairResult{
		{A: "a", B: "b", WDL: WDL{W: 1, D: 1, L: 3}},
		{A: "a", B: "c", WDL: WDL{W: 4}},
	}
	got, err := MergePairs(in)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// Pairwise results from many 4-bot matches feed Bradley–Terry end to end.
func TestPairwiseFeedsBradleyTerry(t *testing.T) {
	t.Parallel()
	matches := []Match{
		{Bots: []string{"ace", "bob", "cat", "dan"}, Cents: []int64{90, 10, -40, -60}},
		{Bots: []string{"bob", "cat", "dan", "ace"}, Cents: []int64{30, -10, -50, 30}},
		{Bots: []string{"cat", "dan", "ace", "bob"}, Cents: []int64{-20, 5, 40, -25}},
		{Bots: []string{"dan", "ace", "bob", "cat"}, Cents: []int64{10, -30, 25, -5}},
	}
	var pairs []PairResult
	for _, m := range matches {
		p, err := PairwiseFromMatch(m)
		if err != nil {
			t.Fatal(err)
		}
		pairs = append(pairs, p...)
	}
	res, err := BradleyTerry(pairs, nil)
	if err != nil {
		t.Fatal(err)
	}
	games := 0
	for _, g := range res.Games {
		games += g
	}
	if games != 2*6*len(matches) {
		t.Errorf("total games %d, want %d", games, 2*6*len(matches))
	}
	if ace, dan := res.Index("ace"), res.Index("dan"); !(res.Ratings[ace] > res.Ratings[dan]) {
		t.Errorf("ace %.1f not above dan %.1f", res.Ratings[ace], res.Ratings[dan])
	}
}
