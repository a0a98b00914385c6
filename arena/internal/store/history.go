package store

import (
	"context"
	"database/sql"
	"errors"
	"sync"

	"github.com/tapparena/tapp/arena/internal/board"
)

// The rating history (migration 16's rating_history; board.RecordHistory says when a point is
// due and which go): after a transaction that stored deals commits, each league and rule set
// whose deal sources it added checks its clock against its history's last point, kept in
// memory (read once per process), and takes the point when due. A point is a board computed
// from the kept sums (rows in proportion to the compositions): a few per doubling of the
// clock. It is taken after the commit, by the writer that made it due, and one at a time per
// league: a point that fails (the board could not be read) is taken at the next due deal;
// the deals stored are not affected.

var _ board.HistoryStore = (*Store)(nil)

// historyState is the process's view of one history: its last point's clock (−1 until read)
// and whether a point is being taken.
type historyState struct {
	mu   sync.Mutex
	last int64
	read bool
}

// recordHistory takes the points the deals just committed made due (clock: the deal sources
// of each league and rule set after them).
func (s *Store) recordHistory(ctx context.Context, clocks map[board.LeagueRules]int64) {
	for lr, clock := range clocks {
		v, _ := s.history.LoadOrStore(lr, &historyState{last: -1})
		h := v.(*historyState)
		if !h.mu.TryLock() { // another writer of this process is taking one
			continue
		}
		if !h.read {
			last, err := s.lastHistoryClock(ctx, lr)
			if err != nil {
				h.mu.Unlock()
				continue
			}
			h.last, h.read = last, true
		}
		if last, err := board.RecordHistory(ctx, s, lr, h.last, clock); err == nil {
			h.last = last
		}
		h.mu.Unlock()
	}
}

func (s *Store) lastHistoryClock(ctx context.Context, lr board.LeagueRules) (int64, error) {
	var last sql.NullInt64
	err := s.r.QueryRowContext(ctx, s.rebind(`SELECT max(clock) FROM rating_history WHERE league_id = ? AND rules = ?`),
		lr.League, lr.Rules).Scan(&last)
	if err != nil || !last.Valid {
		return -1, err
	}
	return last.Int64, nil
}

// HistoryClocks implements board.HistoryClocks: the clocks of a league's points, all that
// taking a point reads of the history (its rows hold every bot of every point).
func (s *Store) HistoryClocks(ctx context.Context, lr board.LeagueRules) ([]int64, error) {
	const op = "read the rating history"
	st, err := s.readStmt(ctx, s.rebind(`SELECT DISTINCT clock FROM rating_history WHERE league_id = ? AND rules = ? ORDER BY clock`))
	if err != nil {
		return nil, s.wrap(op, err)
	}
	rows, err := st.QueryContext(ctx, lr.League, lr.Rules)
	if err != nil {
		return nil, s.wrap(op, err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var c int64
		if err := rows.Scan(&c); err != nil {
			return nil, s.wrap(op, err)
		}
		out = append(out, c)
	}
	return out, s.wrap(op, rows.Err())
}

// RatingHistory implements board.HistoryStore: the points of a league and rule set, oldest
// first, each with its bots in the board's order.
func (s *Store) RatingHistory(ctx context.Context, lr board.LeagueRules) ([]board.HistoryPoint, error) {
	const op = "read the rating history"
	rows, err := s.r.QueryContext(ctx, s.rebind(`SELECT clock, taken, sources, deals, bot, rating, lo, hi, has_interval, provisional
FROM rating_history WHERE league_id = ? AND rules = ? ORDER BY clock, place`), lr.League, lr.Rules)
	if err != nil {
		return nil, s.wrap(op, err)
	}
	defer rows.Close()
	var out []board.HistoryPoint
	for rows.Next() {
		var clock int64
		var at dbTime
		var sources, deals int
		var b board.HistoryBot
		var iv, prov int
		if err := rows.Scan(&clock, &at, &sources, &deals, &b.Bot, &b.Rating, &b.Lo, &b.Hi, &iv, &prov); err != nil {
			return nil, s.wrap(op, err)
		}
		b.Interval, b.Provisional = iv != 0, prov != 0
		if n := len(out); n == 0 || out[n-1].Clock != clock {
			out = append(out, board.HistoryPoint{Clock: clock, At: at.T, Sources: sources, Deals: deals})
		}
		out[len(out)-1].Bots = append(out[len(out)-1].Bots, b)
	}
	return out, s.wrap(op, rows.Err())
}

// AddHistory implements board.HistoryStore, in one transaction.
func (s *Store) AddHistory(ctx context.Context, lr board.LeagueRules, p board.HistoryPoint, drop []int64) error {
	const op = "store a point of the rating history"
	// Prepared before the transaction (stmt): a point is stored after most batches of deals
	// while a league is young, and the driver parses a text anew at every run.
	if err := s.readyQueries(ctx, []string{s.rebind(dropHistoryPoint), s.rebind(insertHistoryBot)}); err != nil {
		return s.wrap(op, err)
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return s.wrap(op, err)
	}
	defer tx.Rollback()
	for _, c := range drop {
		if _, err := s.txExec(ctx, tx, s.rebind(dropHistoryPoint), lr.League, lr.Rules, c); err != nil {
			return s.wrap(op, err)
		}
	}
	flag := func(b bool) int {
		if b {
			return 1
		}
		return 0
	}
	for i, b := range p.Bots {
		if _, err := s.txExec(ctx, tx, s.rebind(insertHistoryBot), lr.League, lr.Rules, p.Clock, b.Bot, s.timeArg(p.At), p.Sources,
			p.Deals, i, b.Rating, b.Lo, b.Hi, flag(b.Interval), flag(b.Provisional)); err != nil {
			return s.wrap(op, err)
		}
	}
	err = tx.Commit()
	if errors.Is(err, context.Canceled) {
		return err
	}
	return s.wrap(op, err)
}

// The statements of AddHistory.
const (
	dropHistoryPoint = `DELETE FROM rating_history WHERE league_id = ? AND rules = ? AND clock = ?`
	insertHistoryBot = `INSERT INTO rating_history (league_id, rules, clock, bot, taken, sources, deals,
	place, rating, lo, hi, has_interval, provisional) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (league_id, rules, clock, bot) DO NOTHING`
)
