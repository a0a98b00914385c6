package rating

import (
	"slices"
	"testing"
)

func TestMultiEloPublished(t *testing.T) {
	t.Parallel()
	// multielo README: K 32, D 400, ratings in finishing order.
	got, err := MultiElo([]float64{1200, 1000, 900}, nil, 32, 400)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{1208.346, 1002.553, 889.100}
	for i := range want {
		if round(got[i], 3) != want[i] {
			t.Errorf("player %d: got %.6f, want %.3f", i, got[i], want[i])
		}
	}
}

func TestMultiEloTies(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		ratings []float64
		places  []float64
		want    []float64 // to 3 decimals
	}{
		{
			// Equal ratings: E = 1/3 each; tied winners score (2/3 + 1/3)/2 = 1/2.
			name:    "two tied first",
			ratings: []float64{1000, 1000, 1000},
			places:  []float64{1, 1, 3},
			want:    []float64{1010.667, 1010.667, 978.667},
		},
		{
			name:    "dense ranking means the same",
			ratings: []float64{1000, 1000, 1000},
			places:  []float64{1, 1, 2},
			want:    []float64{1010.667, 1010.667, 978.667},
		},
		{
			name:    "all tied, equal ratings: no change",
			ratings: []float64{1500, 1500, 1500, 1500},
			places:  []float64{1, 1, 1, 1},
			want:    []float64{1500, 1500, 1500, 1500},
		},
		{
			name:    "places out of listing order",
			ratings: []float64{900, 1000, 1200},
			places:  []float64{3, 2, 1},
			want:    []float64{889.100, 1002.553, 1208.346},
		},
		{
			name:    "single player unchanged",
			ratings: []float64{1234},
			places:  nil,
			want:    []float64{1234},
		},
	}
	for _, tc := range tests {
		got, err := MultiElo(tc.ratings, tc.places, 32, 400)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		sumDelta := 0.0
		for i := range got {
			sumDelta += got[i] - tc.ratings[i]
			if round(got[i], 3) != tc.want[i] {
				t.Errorf("%s: player %d got %.6f, want %.3f", tc.name, i, got[i], tc.want[i])
			}
		}
		if !near(sumDelta, 0, 1e-9) {
			t.Errorf("%s: updates sum to %v, want 0", tc.name, sumDelta)
		}
	}
}

func TestMultiEloErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		places []float64
		k, d   float64
	}{
		{"places length", []float64{1, 2}, 32, 400},
		{"zero K", nil, 0, 400},
		{"negative D", nil, 32, -1},
	}
	for _, tc := range tests {
		if _, err := MultiElo([]float64{1, 2, 3}, tc.places, tc.k, tc.d); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}

func TestPlaces(t *testing.T) {
	t.Parallel()
	tests := []struct {
		scores []int64
		want   []float64
	}{
		{[]int64{5, 5, -10}, []float64{1.5, 1.5, 3}},
		{[]int64{3, 9, 3, 1}, []float64{2.5, 1, 2.5, 4}},
		{[]int64{0, 0, 0}, []float64{2, 2, 2}},
		{[]int64{-1, 2, 7, 4}, []float64{4, 3, 1, 2}},
		{nil, []float64{}},
	}
	for _, tc := range tests {
		if got := Places(tc.scores); !slices.Equal(got, tc.want) {
			t.Errorf("Places(%v) = %v, want %v", tc.scores, got, tc.want)
		}
	}
}

func TestMultiEloScores(t *testing.T) {
	t.Parallel()
	tests := []struct {
		n      int
		places []float64
		want   []float64
	}{
		{3, nil, []float64{2.0 / 3, 1.0 / 3, 0}},
		{4, nil, []float64{0.5, 1.0 / 3, 1.0 / 6, 0}},
		{4, []float64{1, 2, 2, 4}, []float64{0.5, 0.25, 0.25, 0}},
		{1, nil, []float64{1}},
	}
	for _, tc := range tests {
		got, err := MultiEloScores(tc.n, tc.places)
		if err != nil {
			t.Fatal(err)
		}
		for i := range tc.want {
			if !near(got[i], tc.want[i], 1e-15) {
				t.Errorf("MultiEloScores(%d, %v) = %v, want %v", tc.n, tc.places, got, tc.want)
				break
			}
		}
	}
}
