package app

import (
	"context"
	"testing"

	"github.com/tapparena/tapp/arena/internal/analysis"
)

// A stored match's analysis is stored: a second call reads every deal; the analysis of its
// export is computed afresh and says the same of every deal; the stored analysis of one deal
// reads back, and one that cannot be read is an error, not an empty note.
func TestAnalyzeStoresItsWork(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, m, src := playedSource(t, 2, "heuristic", "random", "heuristic")
	first, err := Analyze(ctx, src, analysis.Run{Workers: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Deals) != 2 || first.Computed != 2 || first.Stored != 0 {
		t.Fatalf("first analysis: %d deals, %d computed, %d stored; want 2 computed", len(first.Deals), first.Computed, first.Stored)
	}
	again, err := Analyze(ctx, src, analysis.Run{Workers: 1}, nil)
	if err != nil || again.Computed != 0 || again.Stored != 2 {
		t.Fatalf("second analysis: %+v, %v; want both deals read from the store", again, err)
	}
	file, err := Analyze(ctx, export(t, st, m.ID), analysis.Run{Workers: 1}, nil)
	if err != nil || file.Computed != 2 || file.Stored != 0 {
		t.Fatalf("analysis of the export: %+v, %v; want both deals computed", file, err)
	}
	for i, d := range file.Deals {
		if s := first.Deals[i]; d.Number != s.Number || d.Contract != s.Contract || (d.Par == nil) != (s.Par == nil) || d.Par != nil && d.Par.Payoff != s.Par.Payoff {
			t.Errorf("deal %d: the export's analysis %+v differs from the store's %+v", d.Number, d, s)
		}
	}
	one := 1
	if only, err := Analyze(ctx, export(t, st, m.ID), analysis.Run{Workers: 1}, &one); err != nil || len(only.Deals) != 1 || only.Deals[0].Number != 1 {
		t.Errorf("only deal 1 of the export: %+v, %v", only, err)
	}
	missing := 9
	if _, err := Analyze(ctx, export(t, st, m.ID), analysis.Run{Workers: 1}, &missing); err == nil {
		t.Error("deal 9 of a 2-deal export: no error")
	}

	d, err := StoredAnalysis(ctx, src, 1)
	if err != nil || d == nil || d.Number != 1 {
		t.Fatalf("StoredAnalysis(1) = %+v, %v", d, err)
	}
	if d, err := StoredAnalysis(ctx, export(t, st, m.ID), 1); d != nil || err != nil {
		t.Errorf("StoredAnalysis of an export = %+v, %v; want none", d, err)
	}
	if err := st.SaveAnalysis(ctx, m.ID, 1, analysis.Options{}.Key(), []byte("{broken")); err != nil {
		t.Fatal(err)
	}
	if _, err := StoredAnalysis(ctx, src, 1); err == nil {
		t.Error("an unreadable stored analysis: no error")
	}
}
