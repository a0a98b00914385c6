package app

import (
	"context"
	"errors"
	"testing"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/league/plan"
	"github.com/tapparena/tapp/arena/internal/store/memstore"
)

// leagueWithMatch is a memory store holding a league whose plan declares families, and one
// match of the league played in this process.
func leagueWithMatch(t *testing.T, families map[string]string) *memstore.Memory {
	t.Helper()
	ctx := context.Background()
	st := memstore.New()
	kinds := []string{"random", "heuristic", "random"}
	s := spec(t, "modern", 6, kinds...)
	s.LeagueID = "L"
	p := &plan.Plan{League: "L", Rules: s.Rules, Format: plan.RoundRobin, Bots: s.Bots, Rounds: 1, Deals: 6, Seed: 3,
		TimeControl: s.TimeControl, Families: families}
	if _, err := st.EnsureLeague(ctx, &domain.League{ID: "L", Plan: p.Fingerprint()}); err != nil {
		t.Fatal(err)
	}
	if _, err := PlayMatch(ctx, st, MatchPlay{Spec: s, Kinds: kinds, InProcess: true}); err != nil {
		t.Fatal(err)
	}
	return st
}

// The leaderboard of a league splits the results of the families its file declared (kept in
// its stored plan); families the user gives override the league's; the dashboard's board is
// the same with every bot's Elo history.
func TestLeaderboardHasTheLeaguesFamilies(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := leagueWithMatch(t, map[string]string{"random": "rnd", "random#2": "rnd"})
	family := func(q BoardQuery) map[string]string {
		t.Helper()
		lb, err := Leaderboard(ctx, st, q)
		if err != nil {
			t.Fatal(err)
		}
		if lb.League != q.Filter.LeagueID || len(lb.Bots) != 3 {
			t.Fatalf("board of league %q with %d bots, want league %q with 3", lb.League, len(lb.Bots), q.Filter.LeagueID)
		}
		out := map[string]string{}
		for _, b := range lb.Bots {
			if b.Family != nil {
				out[b.Bot] = b.Family.Name
			}
		}
		return out
	}
	league := domain.MatchFilter{LeagueID: "L"}
	if got := family(BoardQuery{Filter: league}); len(got) != 2 || got["random"] != "rnd" || got["random#2"] != "rnd" {
		t.Errorf("families %v, want the league file's: random and random#2 in rnd", got)
	}
	given := BoardQuery{Filter: league, Families: map[string]string{"random#2": "other", "heuristic": "h"}}
	if got := family(given); got["random"] != "rnd" || got["random#2"] != "other" || got["heuristic"] != "h" {
		t.Errorf("families %v, want the given ones over the league's", got)
	}
	if got := family(BoardQuery{}); len(got) != 0 {
		t.Errorf("families %v of the board of every result, want none", got)
	}
	lb, err := Leaderboards(st)(ctx, league)
	if err != nil {
		t.Fatal(err)
	}
	if len(lb.History) == 0 || len(lb.History[len(lb.History)-1].Bots) != 3 {
		t.Errorf("dashboard board: rating history %+v (%s), want the league's, of its 3 bots", lb.History, lb.HistoryNote)
	}
	for _, b := range lb.Bots {
		if b.Family == nil && b.Bot != "heuristic" {
			t.Errorf("dashboard board: %s has family %v; want its family", b.Bot, b.Family)
		}
	}
}

// A league that is not stored, or whose stored plan cannot be read, is an error: a board
// without the families it should have is not shown as if it were complete.
func TestLeagueFamiliesReportsWhatItCannotRead(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := leagueWithMatch(t, nil)
	if fams, err := LeagueFamilies(ctx, st, ""); err != nil || fams != nil {
		t.Errorf("no league: %v, %v; want no families and no error", fams, err)
	}
	if fams, err := LeagueFamilies(ctx, st, "L"); err != nil || len(fams) != 0 {
		t.Errorf("a league without families: %v, %v", fams, err)
	}
	if _, err := LeagueFamilies(ctx, st, "nosuch"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("an unknown league: %v, want ErrNotFound", err)
	}
	if _, err := Leaderboard(ctx, st, BoardQuery{Filter: domain.MatchFilter{LeagueID: "nosuch"}}); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("the board of an unknown league: %v, want ErrNotFound", err)
	}
	if _, err := st.EnsureLeague(ctx, &domain.League{ID: "broken", Plan: "{not json"}); err != nil {
		t.Fatal(err)
	}
	if _, err := LeagueFamilies(ctx, st, "broken"); err == nil {
		t.Error("an unreadable stored plan: no error")
	}
}
