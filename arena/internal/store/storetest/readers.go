package storetest

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
)

// Deal summaries are the deals without their requests: what a listing, an analysis or the
// dashboard reads of a long match.
func testDealSummaries(t *testing.T, s Store) {
	ctx := context.Background()
	m := NewMatch(t, s, "", "a", "b", "c")
	var want []*domain.DealRecord
	for n := range 3 {
		want = append(want, SampleDeal(t, m, n, 20, 512))
	}
	for _, n := range []int{1, 0, 2} {
		if err := s.SaveDeal(ctx, want[n]); err != nil {
			t.Fatalf("SaveDeal(%d): %v", n, err)
		}
	}
	got, err := s.DealSummaries(ctx, m.ID)
	if err != nil {
		t.Fatalf("DealSummaries: %v", err)
	}
	if len(got) != len(want) {
		t.Fatalf("DealSummaries returned %d deals, want %d", len(got), len(want))
	}
	for i, w := range want {
		c := *w
		c.Decisions = append([]domain.DecisionRecord(nil), w.Decisions...)
		for j := range c.Decisions {
			c.Decisions[j].Sent = nil
		}
		g := got[i]
		g.SentDigest = nil // a store that rebuilds the requests may say so in a summary too
		CheckDeal(t, &g, &c)
	}

	empty := NewMatch(t, s, "", "a", "b", "c")
	if ds, err := s.DealSummaries(ctx, empty.ID); err != nil || len(ds) != 0 {
		t.Errorf("DealSummaries(match without deals) = %v, %v; want none", ds, err)
	}
	if _, err := s.DealSummaries(ctx, "nope"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("DealSummaries(unknown match) = %v, want ErrNotFound", err)
	}
}

// An analysis is stored per deal and method, replaced when stored again, and only for a
// stored deal.
func testAnalyses(t *testing.T, s Store) {
	ctx := context.Background()
	m := NewMatch(t, s, "", "a", "b", "c")
	for _, n := range []int{0, 1} {
		if err := s.SaveDeal(ctx, SampleDeal(t, m, n, 5, 16)); err != nil {
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
	text := map[int]string{}
	for n, body := range got {
		text[n] = string(body)
	}
	if want := map[int]string{0: `{"deal":0,"again":true}`, 1: `{"deal":1}`}; !reflect.DeepEqual(text, want) {
		t.Errorf("Analyses(v1) = %v, want deal 0 replaced and deal 1: %v", text, want)
	}
	if body, err := s.DealAnalysis(ctx, m.ID, 0, "v1"); err != nil || string(body) != `{"deal":0,"again":true}` {
		t.Errorf("DealAnalysis(0, v1) = %s, %v; want the replaced body", body, err)
	}
	if _, err := s.DealAnalysis(ctx, m.ID, 0, "v2"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("DealAnalysis of a method without one: %v, want ErrNotFound", err)
	}
	if got, _ := s.Analyses(ctx, m.ID, "v3"); len(got) != 0 {
		t.Errorf("Analyses(unknown method) = %d bodies, want none", len(got))
	}
	if err := s.SaveAnalysis(ctx, m.ID, 7, "v1", []byte(`{}`)); err == nil {
		t.Errorf("SaveAnalysis of a deal that is not stored: no error")
	}
}

// A league is stored once, whatever its hosts schedule again: the first plan stays, its
// matches, places and jobs are stored once, its status is kept, and leagues are listed
// newest first.
func testLeagueSchedule(t *testing.T, s Store) {
	ctx := context.Background()
	Schedule(t, s)
	Schedule(t, s) // a second host schedules the same round
	l, err := s.EnsureLeague(ctx, &domain.League{ID: "L", Plan: `{"other":1}`})
	if err != nil || l.Plan != `{"x":1}` || l.Status != domain.LeagueRunning || l.Created.IsZero() {
		t.Errorf("EnsureLeague of an existing league = %+v, %v; want the stored plan, running", l, err)
	}
	lms, err := s.LeagueMatches(ctx, "L")
	if err != nil || len(lms) != 2 || lms[1].MatchID != "L-r0-m1" {
		t.Errorf("LeagueMatches = %+v, %v", lms, err)
	}
	counts, err := s.RoundCounts(ctx, "L")
	want := []domain.RoundCounts{{Round: 0, Available: 4, DealsPlanned: 24}}
	if err != nil || !reflect.DeepEqual(counts, want) {
		t.Errorf("RoundCounts = %+v, %v; want %+v", counts, err, want)
	}
	// The planned deals are counted once, though the round was scheduled twice.
	jt, err := s.LeagueJobTotals(ctx, "L")
	if wantJT := (domain.LeagueJobTotals{DealsPlanned: 24, Waiting: true}); err != nil || jt != wantJT {
		t.Errorf("LeagueJobTotals = %+v, %v; want %+v", jt, err, wantJT)
	}
	if jt, err := s.LeagueJobTotals(ctx, "nonesuch"); err != nil || jt != (domain.LeagueJobTotals{}) {
		t.Errorf("LeagueJobTotals of an unknown league = %+v, %v; want zero", jt, err)
	}
	if err := s.SetLeagueStatus(ctx, "L", domain.LeagueStopped); err != nil {
		t.Fatal(err)
	}
	if got, err := s.GetLeague(ctx, "L"); err != nil || got.Status != domain.LeagueStopped || got.Plan != `{"x":1}` {
		t.Errorf("GetLeague after SetLeagueStatus = %+v, %v", got, err)
	}
	time.Sleep(2 * time.Millisecond) // the next league is newer, also on a coarse clock
	if _, err := s.EnsureLeague(ctx, &domain.League{ID: "K", Plan: `{}`}); err != nil {
		t.Fatal(err)
	}
	ls, err := s.ListLeagues(ctx)
	if err != nil || len(ls) != 2 || ls[0].ID != "K" || ls[1].ID != "L" || ls[1].Status != domain.LeagueStopped {
		t.Errorf("ListLeagues = %+v, %v; want K, then L stopped", ls, err)
	}
	if err := s.SetLeagueStatus(ctx, "nope", domain.LeagueStopped); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("SetLeagueStatus(unknown) = %v, want ErrNotFound", err)
	}
	if _, err := s.GetLeague(ctx, "nope"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("GetLeague(unknown) = %v, want ErrNotFound", err)
	}
}
