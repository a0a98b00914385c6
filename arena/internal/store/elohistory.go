package store

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/tapparena/tapp/arena/internal/board"
	"github.com/tapparena/tapp/arena/internal/rating"
)

// Rating histories (schema version 18): each bot's multiplayer Elo after each of its rated
// matches, per ledger, in rating_elo_points, keyed by the bot's match count. rateFinished
// writes a point per bot and ledger as it rates a finished match; EloHistory reads a bounded
// sample of them, so that a history costs what it shows, however many matches were rated.

// eloPointsSchema is the schema version that keeps the Elo points (rating_elo_points).
const eloPointsSchema = 18

// addEloPoint records bot's rating after its n-th match of ledger k (match matchID, which
// finished then), in tx.
func (s *Store) addEloPoint(ctx context.Context, tx *sql.Tx, k board.EloKey, bot string, n int, matchID string, finished time.Time, elo float64) error {
	if s.schema < eloPointsSchema {
		return nil // a store opened at an older version (tests): its migration 18 fills them in
	}
	return s.insertEloPoint(ctx, tx, k, bot, n, matchID, finished, elo)
}

// insertEloPoint is addEloPoint whatever the store's schema (migration 18 fills the table).
func (s *Store) insertEloPoint(ctx context.Context, tx *sql.Tx, k board.EloKey, bot string, n int, matchID string, finished time.Time, elo float64) error {
	var at any
	if !finished.IsZero() {
		at = s.timeArg(finished)
	}
	_, err := tx.ExecContext(ctx, s.rebind(`INSERT INTO rating_elo_points (league_id, rules, tainted, bot, n, match_id, finished, elo)
VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`), k.League, k.Rules, tainted(k), bot, n, matchID, at, elo)
	return err
}

// EloHistory implements board.EloHistorySource: ledger k's bots, each with its rating after
// its matches, at most points in all (a bot's first and last match always among them, the
// others evenly spaced by match count), best rating first. It reads one row per bot and one
// per point shown.
func (s *Store) EloHistory(ctx context.Context, k board.EloKey, points int) ([]board.BotEloHistory, error) {
	const op = "read the rating history"
	ka := []any{k.League, k.Rules, tainted(k)}
	rows, err := s.r.QueryContext(ctx, s.rebind(`SELECT bot, elo, matches FROM rating_elo WHERE league_id = ? AND rules = ? AND tainted = ?`), ka...)
	if err != nil {
		return nil, s.wrap(op, err)
	}
	var out []board.BotEloHistory
	for rows.Next() {
		var h board.BotEloHistory
		if err := rows.Scan(&h.Bot, &h.Rating, &h.Matches); err != nil {
			rows.Close()
			return nil, s.wrap(op, err)
		}
		out = append(out, h)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, s.wrap(op, err)
	}
	slices.SortFunc(out, func(a, b board.BotEloHistory) int {
		return cmp.Or(cmp.Compare(b.Rating, a.Rating), strings.Compare(a.Bot, b.Bot))
	})
	per := board.PointsPerBot(points, len(out))
	for i := range out {
		h := &out[i]
		ns := board.SampleMatches(h.Matches, per)
		if len(ns) == 0 {
			continue
		}
		args := append(append([]any{}, ka...), h.Bot)
		for _, n := range ns {
			args = append(args, n)
		}
		rows, err := s.r.QueryContext(ctx, s.rebind(`SELECT n, elo, match_id, finished FROM rating_elo_points
WHERE league_id = ? AND rules = ? AND tainted = ? AND bot = ? AND n IN (`+placeholders(len(ns))+`) ORDER BY n`), args...)
		if err != nil {
			return nil, s.wrap(op, err)
		}
		for rows.Next() {
			var p board.EloSample
			var finished dbTime
			if err := rows.Scan(&p.Number, &p.Rating, &p.Match, &finished); err != nil {
				rows.Close()
				return nil, s.wrap(op, err)
			}
			p.Finished = finished.T
			h.Points = append(h.Points, p)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, s.wrap(op, err)
		}
	}
	return out, nil
}

// convertEloPoints is the Go part of migration 18: the points of every ledger, replayed from
// its log in order (the ratings the store computed as it rated the matches).
func convertEloPoints(ctx context.Context, s *Store, tx *sql.Tx) error {
	rows, err := tx.QueryContext(ctx, `SELECT league_id, rules, tainted FROM rating_elo_head`)
	if err != nil {
		return err
	}
	var keys []board.EloKey
	for rows.Next() {
		var k board.EloKey
		var t int
		if err := rows.Scan(&k.League, &k.Rules, &t); err != nil {
			rows.Close()
			return err
		}
		k.Tainted = t != 0
		keys = append(keys, k)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, k := range keys {
		if err := s.replayEloPoints(ctx, tx, k); err != nil {
			return fmt.Errorf("the rating history of ledger %s/%s: %w", k.League, k.Rules, err)
		}
	}
	return nil
}

// replayEloPoints writes ledger k's points from its log.
func (s *Store) replayEloPoints(ctx context.Context, tx *sql.Tx, k board.EloKey) error {
	type rated struct {
		id       string
		bots     []string
		net      []int64
		finished time.Time
	}
	rows, err := tx.QueryContext(ctx, s.rebind(`SELECT l.match_id, rm.bots, rm.net0, rm.net1, rm.net2, rm.net3, m.finished
FROM rating_elo_log l JOIN rating_matches rm ON rm.match_id = l.match_id JOIN matches m ON m.id = l.match_id
WHERE l.league_id = ? AND l.rules = ? AND l.tainted = ? ORDER BY l.seq`), k.League, k.Rules, tainted(k))
	if err != nil {
		return err
	}
	var log []rated
	for rows.Next() {
		var r rated
		var comp string
		var finished dbTime
		net := make([]int64, rating.MaxSeats)
		if err := rows.Scan(&r.id, &comp, &net[0], &net[1], &net[2], &net[3], &finished); err != nil {
			rows.Close()
			return err
		}
		r.bots = strings.Split(comp, ",")
		r.net, r.finished = net[:len(r.bots)], finished.T
		log = append(log, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	l := board.NewEloLedger(false)
	for _, r := range log {
		before := l.Before(r.bots)
		after, err := board.EloStep(before, r.net)
		if err != nil {
			return err
		}
		for i, b := range r.bots {
			if err := s.insertEloPoint(ctx, tx, k, b, l.Matches[b]+1, r.id, r.finished, after[i]); err != nil {
				return err
			}
		}
		l.Set(r.id, r.bots, after)
	}
	return nil
}
