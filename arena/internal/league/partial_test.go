package league_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/league/plan"
	"github.com/tapparena/tapp/arena/internal/store/memstore"
)

// A round is stored in parts (whole matches with their jobs); a host that died after the
// first part left a round with fewer matches than the plan's. The next run stores the rest
// of it, and the league plays the same deals an uninterrupted one does.
func TestHalfStoredRoundIsStoredWholeOnResume(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, ref := memstore.New(), memstore.New()
	a := newArena(t, st, fourBots)
	b := newArena(t, ref, fourBots)
	p := testPlan(t, "half", plan.RoundRobin, 1, 1)
	if _, err := st.EnsureLeague(ctx, &domain.League{ID: p.League, Plan: p.Fingerprint()}); err != nil {
		t.Fatal(err)
	}
	places, matches, jobs, err := p.Round(0, p.FixedTables(0))
	if err != nil {
		t.Fatal(err)
	}
	if len(matches) != 4 {
		t.Fatalf("%d matches in round 0, want 4 tables of 4 bots", len(matches))
	}
	// The first match with its jobs only, as the first part of a round.
	var first []domain.Job
	for _, j := range jobs {
		if j.MatchID == matches[0].ID {
			first = append(first, j)
		}
	}
	if err := st.ScheduleRound(ctx, places[:1], matches[:1], first); err != nil {
		t.Fatal(err)
	}
	out := runLeague(t, ctx, st, a, p, 8)
	want := runLeague(t, ctx, ref, b, p, 8)
	if !out.Finished || out.Played != want.Played || out.Played != 4*6 {
		t.Fatalf("resumed league %s, uninterrupted %s; want both finished with 24 deals", describe(out), describe(want))
	}
	if got, wantSched := len(leagueMatches(t, st, p.League)), len(leagueMatches(t, ref, p.League)); got != wantSched {
		t.Errorf("%d matches scheduled after the resume, %d uninterrupted", got, wantSched)
	}
	if got, wantRes := results(t, st, p.League), results(t, ref, p.League); !reflect.DeepEqual(got, wantRes) {
		t.Errorf("the resumed league's results differ from the uninterrupted one's")
	}
}

func leagueMatches(t *testing.T, st *memstore.Memory, league string) []domain.LeagueMatch {
	t.Helper()
	lms, err := st.LeagueMatches(context.Background(), league)
	if err != nil {
		t.Fatal(err)
	}
	return lms
}
