package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/tapparena/tapp/arena/internal/domain"
)

// convertEpochBoards is the Go part of migration 30: the matches a standing ladder's epochs
// stored before version 22 (which gave a match the board it counts on) move onto the
// ladder's board, as the epochs played since count.
//
// An epoch is told from the stored data alone, without a guess: the ladder names each epoch
// NAME.HASH, HASH being the first 4 bytes of the SHA-256 of its bots (one per line, in the
// order of its stored plan), so a league whose name ends in the hash of its own bots is an
// epoch of the ladder NAME — a league a person named so by chance is one in 2³². The one
// case left out: a league row NAME that is not a ladder's (a league file of that name of
// another format), whose board is its own. A ladder with no row yet (it has not run since
// version 22) gets its row, as its next run would make it.
//
// The leaderboard's sums of the matches moved are then rebuilt from the stored results when
// the store opens (rating_state.stale, the rebuild of version 7), once: the epochs' sums leave
// their leagues for the ladder's board. The rating history's points (taken per league as
// deals are stored) of the epochs stay under the epochs.
func convertEpochBoards(ctx context.Context, s *Store, tx *sql.Tx) error {
	rows, err := tx.QueryContext(ctx, `SELECT id, plan FROM leagues`)
	if err != nil {
		return err
	}
	plans := map[string]string{}
	for rows.Next() {
		var id, plan string
		if err := rows.Scan(&id, &plan); err != nil {
			rows.Close()
			return err
		}
		plans[id] = plan
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	moved := false
	for _, id := range slices.Sorted(maps.Keys(plans)) {
		ladder, ok := epochOf(id, plans[id])
		if !ok {
			continue
		}
		if plan, exists := plans[ladder]; exists && !isLadderPlan(plan, ladder) {
			continue
		}
		res, err := tx.ExecContext(ctx, s.rebind(`UPDATE matches SET board = ? WHERE league_id = ? AND board = ''`), ladder, id)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			continue
		}
		moved = true
		if _, exists := plans[ladder]; !exists {
			t := s.timeArg(now())
			if _, err := tx.ExecContext(ctx, s.rebind(`INSERT INTO leagues (id, plan, status, created, updated) VALUES (?, ?, ?, ?, ?)`),
				ladder, ladderPlan(ladder), string(domain.LeagueFinished), t, t); err != nil {
				return fmt.Errorf("the row of ladder %s: %w", ladder, err)
			}
			plans[ladder] = ladderPlan(ladder)
		}
	}
	if !moved {
		return nil
	}
	_, err = tx.ExecContext(ctx, `UPDATE rating_state SET stale = 1 WHERE id = 1`)
	return err
}

// epochOf returns the ladder whose epoch the league is (see convertEpochBoards).
func epochOf(id, plan string) (string, bool) {
	i := strings.LastIndexByte(id, '.')
	if i <= 0 || len(id)-i-1 != 8 {
		return "", false
	}
	var stored struct {
		Bots []string `json:"bots"`
	}
	if json.Unmarshal([]byte(plan), &stored) != nil || len(stored.Bots) == 0 {
		return "", false
	}
	sum := sha256.Sum256([]byte(strings.Join(stored.Bots, "\n")))
	if hex.EncodeToString(sum[:4]) != id[i+1:] {
		return "", false
	}
	return id[:i], true
}

// ladderPlan is the plan a standing ladder's own row holds (hosting.LadderPlan, as of
// version 30: a migration keeps the format it was written for).
func ladderPlan(name string) string {
	b, _ := json.Marshal(map[string]string{"standing_ladder": name})
	return string(b)
}

func isLadderPlan(plan, name string) bool {
	var p map[string]any
	return json.Unmarshal([]byte(plan), &p) == nil && len(p) == 1 && p["standing_ladder"] == name
}
