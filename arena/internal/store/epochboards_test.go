package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/board"
	"github.com/tapparena/tapp/arena/internal/domain"
)

// epochID is the name the standing ladder gives an epoch of these bots.
func epochID(ladder string, bots []string) string {
	sum := sha256.Sum256([]byte(strings.Join(bots, "\n")))
	return ladder + "." + hex.EncodeToString(sum[:4])
}

// Matches a standing ladder's epochs stored before schema version 22 count on their own
// epoch's board; migration 30 moves them onto the ladder's, where the epochs played since
// count: the match names the ladder's board, the ladder gets its row, and the leaderboard's
// sums of the ladder hold them (rebuilt from the stored results). A league that only looks
// like an epoch (its name's hash is not its bots'), and an epoch of a name whose row is an
// ordinary league, stay where they are.
func TestMigration30PutsOldEpochMatchesOnTheirLaddersBoard(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		dsn := b.newDSN(t)
		old, err := open(ctx, dsn, boardSchema-1)
		if err != nil {
			t.Fatal(err)
		}
		bots := []string{"pybot@1", "random", "heuristic"}
		plan := func(bots []string) string {
			b, _ := json.Marshal(map[string]any{"rules": "modern players=3", "format": "ladder", "bots": bots, "deals": 1})
			return string(b)
		}
		epoch := epochID("club", bots)
		leagues := map[string]string{
			epoch:                 plan(bots),
			"fake.0123abcd":       plan(bots), // not the hash of its bots
			epochID("solo", bots): plan(bots), // solo is a league of its own
			"solo":                plan([]string{"a", "b", "c"}),
		}
		deals := map[string]int{epoch: 3, "fake.0123abcd": 2, epochID("solo", bots): 1}
		for id, p := range leagues {
			if _, err := old.EnsureLeague(ctx, &domain.League{ID: id, Plan: p}); err != nil {
				t.Fatal(err)
			}
		}
		for league, n := range deals {
			m := &domain.Match{ID: league + "-m", Spec: domain.MatchSpec{Rules: mustRules(t, "modern"), Bots: bots, Deals: 8, Seed: 1,
				TimeControl: domain.DefaultTimeControl, LeagueID: league}, Status: domain.MatchRunning, Started: time.Now()}
			if err := old.CreateMatch(ctx, m); err != nil {
				t.Fatal(err)
			}
			var ds []*domain.DealRecord
			for k := range n {
				ds = append(ds, totalsDeal(t, m, k))
			}
			if err := old.SaveDeals(ctx, ds); err != nil {
				t.Fatal(err)
			}
		}
		old.Close()

		s := openTest(t, dsn)
		for league, want := range map[string]string{epoch: "club", "fake.0123abcd": "", epochID("solo", bots): ""} {
			m, err := s.GetMatch(ctx, league+"-m")
			if err != nil {
				t.Fatal(err)
			}
			if m.Spec.Board != want {
				t.Errorf("the match of %s counts on board %q after the migration, want %q", league, m.Spec.Board, want)
			}
		}
		row, err := s.GetLeague(ctx, "club")
		if err != nil || row.Plan != `{"standing_ladder":"club"}` {
			t.Fatalf("the ladder's row after the migration: %+v, %v; want its standing ladder plan", row, err)
		}
		if n, err := s.BoardDeals(ctx, "club"); err != nil || n != 3 {
			t.Errorf("BoardDeals(club) = %d, %v; want the epoch's 3", n, err)
		}
		var sumsOn string // the board the leaderboard's sums of the match are kept under
		if err := s.r.QueryRowContext(ctx, s.rebind(`SELECT league_id FROM rating_matches WHERE match_id = ?`), epoch+"-m").Scan(&sumsOn); err != nil || sumsOn != "club" {
			t.Errorf("the rating sums of the epoch's match are under %q (%v), want the ladder's board", sumsOn, err)
		}
		sums, err := s.RatingSums(ctx, domain.MatchFilter{LeagueID: "club"}, board.EloKey{}, board.SumsRead{})
		if err != nil || len(sums.Tables) == 0 {
			t.Errorf("the ladder's board has no rating sums after the migration (%v)", err)
		}
		if ms, err := s.ListMatches(ctx, domain.MatchFilter{LeagueID: "club"}); err != nil || len(ms) != 1 || ms[0].ID != epoch+"-m" {
			t.Errorf("the ladder's matches = %v, %v; want the epoch's", ms, err)
		}
	})
}
