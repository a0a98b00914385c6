package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
)

// CreateMatch stores a new match, assigning m.ID when empty, m.Started when zero and m.Status
// (running) when empty. An ID already used is domain.ErrConflict.
func (s *Store) CreateMatch(ctx context.Context, m *domain.Match) error {
	if m.ID == "" {
		m.ID = newID()
	}
	if m.Started.IsZero() {
		m.Started = now()
	}
	m.Started = m.Started.UTC().Truncate(time.Microsecond)
	if m.Status == "" {
		m.Status = domain.MatchRunning
	}
	op := "create match " + m.ID
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return s.wrap(op, err)
	}
	defer tx.Rollback()
	inserted, err := s.insertMatch(ctx, tx, m)
	if err != nil {
		return s.wrap(op, err)
	}
	if !inserted {
		return fmt.Errorf("match %s: %w", m.ID, domain.ErrConflict)
	}
	return s.wrap(op, tx.Commit())
}

// insertMatch inserts m (its fields already completed by the caller) and its match_bots
// rows in tx; a match whose ID is taken is left as it is and reported as not inserted.
func (s *Store) insertMatch(ctx context.Context, tx *sql.Tx, m *domain.Match) (bool, error) {
	sp := &m.Spec
	res, err := tx.ExecContext(ctx, s.rebind(`INSERT INTO matches (id, league_id, rules, bots, deals, seed,
	duplicate, deals_text, per_decision_us, overage_us, max_strikes, status, started, finished, forfeited, format, rounds)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`),
		m.ID, sp.LeagueID, formatRules(sp.Rules), formatNames(sp.Bots), sp.Deals,
		strconv.FormatUint(sp.Seed, 10), sp.Duplicate, sp.DealsText,
		us(sp.TimeControl.PerDecision), us(sp.TimeControl.Overage), sp.TimeControl.MaxStrikes,
		string(m.Status), s.timeArg(m.Started), s.timeArg(m.Finished), formatNames(m.Forfeited), formatOf(sp), sp.Rounds)
	if err != nil {
		return false, err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return false, err
	}
	if sp.Board != "" && s.schema >= boardSchema {
		if _, err := tx.ExecContext(ctx, s.rebind(`UPDATE matches SET board = ? WHERE id = ?`), sp.Board, m.ID); err != nil {
			return false, err
		}
	}
	// A separate statement, so that a match with the default clock is stored by the
	// statement every schema version knows (the tests of old schemas store such matches).
	if sp.TimeControl.Scope == domain.ClockPerMatch && s.schema >= clockScopeSchema {
		if _, err := tx.ExecContext(ctx, s.rebind(`UPDATE matches SET clock_scope = ? WHERE id = ?`),
			string(domain.ClockPerMatch), m.ID); err != nil {
			return false, err
		}
	}
	// A separate statement, so that a match without a commitment is stored by the statement
	// every schema version knows (the tests of old schemas store such matches).
	if m.Commitment != "" || m.Nonce != "" {
		q, args := `UPDATE matches SET commitment = ?, nonce = ? WHERE id = ?`, []any{m.Commitment, m.Nonce, m.ID}
		if s.chained {
			q, args = `UPDATE matches SET commitment = ?, nonce = ?, commitment_version = ? WHERE id = ?`,
				[]any{m.Commitment, m.Nonce, m.CommitmentVersion, m.ID}
		}
		if _, err := tx.ExecContext(ctx, s.rebind(q), args...); err != nil {
			return false, err
		}
	}
	for i, bot := range sp.Bots {
		if _, err := tx.ExecContext(ctx, s.rebind(`INSERT INTO match_bots (match_id, position, bot) VALUES (?, ?, ?)`),
			m.ID, i, bot); err != nil {
			return false, err
		}
	}
	return true, nil
}

// formatOf is the stored format of a spec: FormatDeals unless it says otherwise.
func formatOf(sp *domain.MatchSpec) string {
	if sp.Format == "" {
		return domain.FormatDeals
	}
	return sp.Format
}

// UpdateMatch stores m's status, finish time and forfeits; domain.ErrNotFound for an unknown
// match. The spec of a match never changes.
func (s *Store) UpdateMatch(ctx context.Context, m *domain.Match) error {
	op := "update match " + m.ID
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return s.wrap(op, err)
	}
	defer tx.Rollback()
	query, args := `UPDATE matches SET status = ?, finished = ?, forfeited = ? WHERE id = ?`,
		[]any{string(m.Status), s.timeArg(m.Finished), formatNames(m.Forfeited), m.ID}
	if m.Decisions > 0 { // the counts' columns are newer than the statement
		query, args = `UPDATE matches SET status = ?, finished = ?, forfeited = ?, decisions = ?, fallbacks = ? WHERE id = ?`,
			[]any{string(m.Status), s.timeArg(m.Finished), formatNames(m.Forfeited), m.Decisions, m.Fallbacks, m.ID}
	}
	res, err := tx.ExecContext(ctx, s.rebind(query), args...)
	if err != nil {
		return s.wrap(op, err)
	}
	if m.Admission != nil && s.schema >= clockScopeSchema {
		text, err := json.Marshal(m.Admission)
		if err != nil {
			return s.wrap(op, err)
		}
		if _, err := tx.ExecContext(ctx, s.rebind(`UPDATE matches SET admission = ? WHERE id = ?`), string(text), m.ID); err != nil {
			return s.wrap(op, err)
		}
	}
	n, err := res.RowsAffected()
	if err != nil {
		return s.wrap(op, err)
	}
	if n == 0 {
		return fmt.Errorf("match %s: %w", m.ID, domain.ErrNotFound)
	}
	if m.Status == domain.MatchFinished {
		if err := s.rateFinished(ctx, tx, m.ID); err != nil { // the running Elo, ratingstats.go
			return s.wrap(op, err)
		}
	}
	return s.wrap(op, tx.Commit())
}

const matchColumns = `m.id, m.league_id, m.rules, m.bots, m.deals, m.seed, m.duplicate, m.deals_text,
	m.per_decision_us, m.overage_us, m.max_strikes, m.status, m.started, m.finished, m.forfeited, m.format, m.rounds,
	m.commitment, m.nonce, m.decisions, m.fallbacks, ` + chainColumns + `, ` + clockColumns + `, ` + boardColumn

// chainColumns are the match's columns of schema version 15, read as zeros from an older one;
// clockColumns those of clockScopeSchema, read as the match's clock (as it was played) from an
// older one. The tests of old schemas read matches of them.
const (
	chainColumns    = `m.commitment_version, m.chain_version, m.chain_len, m.chain_head`
	unchainColumns  = `0, 0, 0, NULL`
	clockColumns    = `m.clock_scope, m.admission`
	oldClockColumns = `'match', ''`
	boardColumn     = `m.board`
	noBoardColumn   = `''`
)

// matchColumnsOf is matchColumns for the store's schema.
func (s *Store) matchColumnsOf() string {
	cols := matchColumns
	if !s.chained {
		cols = strings.Replace(cols, chainColumns, unchainColumns, 1)
	}
	if s.schema < clockScopeSchema {
		cols = strings.Replace(cols, clockColumns, oldClockColumns, 1)
	}
	if s.schema < boardSchema {
		cols = strings.Replace(cols, boardColumn, noBoardColumn, 1)
	}
	return cols
}

// clockScopeSchema is the schema version that keeps a match's clock scope and admission
// (migrations/*/0019_clock_scope.sql).
const clockScopeSchema = 19

// boardSchema is the schema version that keeps the board a match counts on
// (migrations/*/0022_match_board.sql).
const boardSchema = 22

func scanMatch(sc interface{ Scan(...any) error }) (*domain.Match, error) {
	var (
		m                         domain.Match
		rules, bots, seed, status string
		forfeited, scope, admit   string
		perDecision, overage      int64
		started, finished         dbTime
	)
	sp := &m.Spec
	if err := sc.Scan(&m.ID, &sp.LeagueID, &rules, &bots, &sp.Deals, &seed, &sp.Duplicate, &sp.DealsText,
		&perDecision, &overage, &sp.TimeControl.MaxStrikes, &status, &started, &finished, &forfeited,
		&sp.Format, &sp.Rounds, &m.Commitment, &m.Nonce, &m.Decisions, &m.Fallbacks, &m.CommitmentVersion,
		&m.ChainVersion, &m.ChainLength, &m.ChainHead, &scope, &admit, &sp.Board); err != nil {
		return nil, err
	}
	if scope == string(domain.ClockPerMatch) {
		sp.TimeControl.Scope = domain.ClockPerMatch // the zero value is a game's clock
	}
	if admit != "" {
		m.Admission = &domain.Admission{}
		if err := json.Unmarshal([]byte(admit), m.Admission); err != nil {
			return nil, fmt.Errorf("stored admission %q: %w", admit, err)
		}
	}
	var err error
	if sp.Rules, err = parseRules(rules); err != nil {
		return nil, err
	}
	if sp.Bots, err = parseNames(bots); err != nil {
		return nil, err
	}
	if sp.Seed, err = strconv.ParseUint(seed, 10, 64); err != nil {
		return nil, fmt.Errorf("stored seed %q: %w", seed, err)
	}
	if m.Forfeited, err = parseNames(forfeited); err != nil {
		return nil, err
	}
	if sp.Format == domain.FormatDeals {
		sp.Format = "" // the zero value is the default format
	}
	sp.TimeControl.PerDecision = fromUS(perDecision)
	sp.TimeControl.Overage = fromUS(overage)
	m.Status = domain.MatchStatus(status)
	m.Started, m.Finished = started.T, finished.T
	return &m, nil
}

// GetMatch returns the match, or domain.ErrNotFound.
func (s *Store) GetMatch(ctx context.Context, id string) (*domain.Match, error) {
	row := s.r.QueryRowContext(ctx, s.rebind(`SELECT `+s.matchColumnsOf()+` FROM matches m WHERE m.id = ?`), id)
	m, err := scanMatch(row)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("match %s: %w", id, domain.ErrNotFound)
	}
	if err != nil {
		return nil, s.damaged("read match "+id, err)
	}
	return m, nil
}

// filterWhere turns a filter into a WHERE clause (with its leading " WHERE ", or empty) over
// matches m; league selects the column that holds the league id.
func filterWhere(f domain.MatchFilter, s *Store, league string) (string, []any) {
	var conds []string
	var args []any
	if f.MatchID != "" {
		conds = append(conds, `m.id = ?`)
		args = append(args, f.MatchID)
	}
	if f.Bot != "" {
		conds = append(conds, `EXISTS (SELECT 1 FROM match_bots mb WHERE mb.match_id = m.id AND mb.bot = ?)`)
		args = append(args, f.Bot)
	}
	if f.LeagueID != "" && s.schema >= boardSchema {
		// A league, or the board of a ladder's epochs: the matches of each through its index
		// (an OR of the two columns would scan every match; board <> '' lets the partial
		// index answer).
		conds = append(conds, `m.id IN (SELECT id FROM matches WHERE league_id = ?
	UNION ALL SELECT id FROM matches WHERE board = ? AND board <> '')`)
		args = append(args, f.LeagueID, f.LeagueID)
	} else if f.LeagueID != "" {
		conds = append(conds, league+` = ?`)
		args = append(args, f.LeagueID)
	}
	if f.Rules != "" {
		conds = append(conds, `m.rules = ?`)
		args = append(args, f.Rules)
	}
	if !f.Since.IsZero() {
		conds = append(conds, `m.started >= ?`)
		args = append(args, s.timeArg(f.Since))
	}
	if len(conds) == 0 {
		return "", nil
	}
	return " WHERE " + strings.Join(conds, " AND "), args
}

// newestOfLeague is the WHERE clause of ListMatches for the newest f.Limit matches of a
// league or board: the newest f.Limit of each of the two (the league's through its index on
// (league_id, started), the board's through its partial index), and the newest of those. The
// league's ids whole (filterWhere) are every match of the league: at 20,000 matches looking
// each up and sorting them took 100 ms for a page of 50.
func (s *Store) newestOfLeague(f domain.MatchFilter) (string, []any) {
	rest := f
	rest.LeagueID = ""
	more, moreArgs := filterWhere(rest, s, "m.league_id")
	if more != "" {
		more = " AND " + strings.TrimPrefix(more, " WHERE ")
	}
	newest := func(cond string) string {
		return `SELECT id FROM (SELECT m.id FROM matches m WHERE ` + cond + more + ` ORDER BY m.started DESC, m.id DESC` + limit(f) + `)`
	}
	where := ` WHERE m.id IN (` + newest(`m.league_id = ?`) + ` AS l UNION ALL ` + newest(`m.board = ? AND m.board <> ''`) + ` AS b)`
	args := slices.Concat([]any{f.LeagueID}, moreArgs, []any{f.LeagueID}, moreArgs)
	return where, args
}

func limit(f domain.MatchFilter) string {
	if f.Limit > 0 {
		return " LIMIT " + strconv.Itoa(f.Limit)
	}
	return ""
}

// ListMatches returns the matches the filter selects, newest first (by start time), at most
// f.Limit of them when it is positive.
func (s *Store) ListMatches(ctx context.Context, f domain.MatchFilter) ([]domain.Match, error) {
	where, args := filterWhere(f, s, "m.league_id")
	if f.LeagueID != "" && s.schema >= boardSchema && f.Limit > 0 {
		where, args = s.newestOfLeague(f)
	}
	rows, err := s.r.QueryContext(ctx, s.rebind(`SELECT `+s.matchColumnsOf()+` FROM matches m`+where+
		` ORDER BY m.started DESC, m.id DESC`+limit(f)), args...)
	if err != nil {
		return nil, s.wrap("list matches", err)
	}
	defer rows.Close()
	var ms []domain.Match
	for rows.Next() {
		m, err := scanMatch(rows)
		if err != nil {
			return nil, s.damaged("list matches", err)
		}
		ms = append(ms, *m)
	}
	return ms, s.wrap("list matches", rows.Err())
}
