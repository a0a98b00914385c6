package store

import (
	"context"
	"testing"
)

func TestAnalysesRoundTripPerMethodAndReplace(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		m := newMatch(t, s, "", "a", "b", "c")
		for _, n := range []int{0, 1} {
			if err := s.SaveDeal(ctx, sampleDeal(t, m, n, 5, 16)); err != nil {
				t.Fatalf("SaveDeal(%d): %v", n, err)
			}
		}
		must := func(err error) {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
		}
		must(s.SaveAnalysis(ctx, m.ID, 0, "v1", []byte(`{"deal":0}`)))
		must(s.SaveAnalysis(ctx, m.ID, 1, "v1", []byte(`{"deal":1}`)))
		must(s.SaveAnalysis(ctx, m.ID, 1, "v2", []byte(`{"other":1}`)))
		must(s.SaveAnalysis(ctx, m.ID, 0, "v1", []byte(`{"deal":0,"again":true}`)))
		got, err := s.Analyses(ctx, m.ID, "v1")
		must(err)
		if len(got) != 2 || string(got[0]) != `{"deal":0,"again":true}` || string(got[1]) != `{"deal":1}` {
			t.Errorf("Analyses(v1) = %s, %s; want deal 0 replaced and deal 1", got[0], got[1])
		}
		if got, _ := s.Analyses(ctx, m.ID, "v3"); len(got) != 0 {
			t.Errorf("Analyses(unknown method) = %d bodies, want none", len(got))
		}
		if err := s.SaveAnalysis(ctx, m.ID, 7, "v1", []byte(`{}`)); err == nil {
			t.Errorf("SaveAnalysis of a deal that is not stored: no error")
		}
	})
}
