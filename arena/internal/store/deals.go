package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/tapparena/tapp/arena/internal/dealchain"
	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/engine"
)

// maxRowsPerInsert bounds a multi-row INSERT (13 columns × 100 rows stays far below both
// backends' limits on parameters).
const maxRowsPerInsert = 100

// SaveDeal stores a finished deal, its decisions and its results in one transaction: either
// all of it is stored or nothing. A deal already stored under (match, number) is
// domain.ErrConflict and is left as it was; an unknown match is domain.ErrNotFound. A full disk
// or a database locked by another process are reported as such (ErrDiskFull, ErrLocked),
// with nothing stored. A zero d.Started is stored as the time of saving. The deal must fit
// the match's rule set (it is read back with engine.ParseDeal), and no two decisions may have
// the same index. Each decision's Sent is stored as the bytes it is, whatever they hold.
//
// The decisions are stored as one compressed value beside the deal (see decisionlog.go).
func (s *Store) SaveDeal(ctx context.Context, d *domain.DealRecord) error {
	return s.saveDeal(ctx, d, saveHooks{})
}

// SaveDeals stores several finished deals in one transaction (group commit: one commit and
// one fsync for all). Each deal is stored whole or not at all, and so is the batch: if any
// deal cannot be stored (domain.ErrConflict for one stored already, a full disk, a lock), none
// is, and the caller may store them one by one to learn which.
func (s *Store) SaveDeals(ctx context.Context, ds []*domain.DealRecord) error {
	return s.saveBatch(ctx, ds, saveHooks{})
}

// saveHooks are what storing a league's deals adds to the transaction that stores them.
type saveHooks struct {
	// before runs first in the transaction, to take locks that must come before the matches'
	// (a league's jobs: every transaction takes jobs, then matches, in ascending order).
	before func(tx *sql.Tx) error
	// then runs after the deals' rows are written and before the commit.
	then func(tx *sql.Tx) error
}

// saveBatch is SaveDeals with hooks; an error from a hook rolls everything back.
func (s *Store) saveBatch(ctx context.Context, ds []*domain.DealRecord, hooks saveHooks) error {
	if len(ds) == 0 {
		return nil
	}
	first := ds[0]
	b, err := s.prepareBatch(ctx, ds)
	if err != nil {
		return err
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return s.wrapSave(first.MatchID, first.Number, err)
	}
	defer tx.Rollback()
	if hooks.before != nil {
		if err := hooks.before(tx); err != nil {
			return s.wrapSave(first.MatchID, first.Number, err)
		}
	}
	// The deals join their matches' chains in the order of the batch (chain.go).
	if err := s.chainDeals(ctx, tx, ds, b.digests, b.dealArgs); err != nil {
		return s.wrapSave(first.MatchID, first.Number, err)
	}
	if err := s.insertDeals(ctx, tx, ds, b.deals); err != nil {
		return err
	}
	if err := s.execOps(ctx, tx, b.results); err != nil {
		return s.wrapSave(first.MatchID, first.Number, fmt.Errorf("results: %w", err))
	}
	if err := s.execOps(ctx, tx, b.scores); err != nil {
		return s.wrapSave(first.MatchID, first.Number, fmt.Errorf("running scores: %w", err))
	}
	if err := s.writeRatingSums(ctx, tx, b.sums); err != nil {
		return s.wrapSave(first.MatchID, first.Number, err)
	}
	if hooks.then != nil {
		if err := hooks.then(tx); err != nil {
			return err
		}
	}
	if err := s.execOps(ctx, tx, b.totals); err != nil {
		return s.wrapSave(first.MatchID, first.Number, fmt.Errorf("league totals: %w", err))
	}
	if err := tx.Commit(); err != nil {
		return s.wrapSave(first.MatchID, first.Number, err)
	}
	s.recordHistory(ctx, b.sums.clocks) // the rating over time, history.go
	return nil
}

// dealBatch is what a batch of deals writes, prepared before its transaction begins: the
// deals' rows with their digests, the results of those that are not compact records, the
// leaderboard's aggregates, the matches' running scores and the league's running totals.
type dealBatch struct {
	digests                        [][32]byte
	dealArgs                       []any
	deals, results, scores, totals []writeOp
	sums                           *ratingBatch
}

// prepareBatch encodes the deals and builds the batch's statements (as few as possible),
// preparing each of them, so that the transaction only executes.
func (s *Store) prepareBatch(ctx context.Context, ds []*domain.DealRecord) (*dealBatch, error) {
	first := ds[0]
	b := &dealBatch{digests: make([][32]byte, len(ds))}
	var resultArgs []any
	for i, d := range ds {
		p, err := s.prepareDeal(ctx, d)
		if err != nil {
			return nil, err
		}
		b.digests[i] = p.digest
		b.dealArgs = append(b.dealArgs, p.dealArgs...)
		resultArgs = append(resultArgs, p.resultArgs...)
	}
	b.deals = s.rowOps(insertDeal, dealCols, b.dealArgs, ` ON CONFLICT DO NOTHING`)
	if !s.chained { // a schema before version 15, which tests build: its columns only
		b.deals = s.rowOps(insertUnchainedDeal, dealCols-2, unchained(b.dealArgs), ` ON CONFLICT DO NOTHING`)
	}
	b.results = s.rowOps(insertResult, resultCols, resultArgs)
	var err error
	if b.sums, err = s.prepareRatingSums(ctx, ds); err != nil { // the leaderboard's aggregates, ratingstats.go
		return nil, s.wrapSave(first.MatchID, first.Number, err)
	}
	if b.totals, err = s.aggregateOps(ctx, ds); err != nil { // the league's running totals, aggregates.go
		return nil, s.wrapSave(first.MatchID, first.Number, err)
	}
	if b.scores, err = s.scoreOps(ctx, ds); err != nil { // the matches' running scores, scores.go
		return nil, s.wrapSave(first.MatchID, first.Number, err)
	}
	for _, op := range slices.Concat(b.deals, b.results, b.scores, b.totals) {
		if _, err := s.stmt(ctx, op.query); err != nil {
			return nil, s.wrapSave(first.MatchID, first.Number, err)
		}
	}
	if err := s.readyQueries(ctx, s.chainQueries()); err != nil {
		return nil, s.wrapSave(first.MatchID, first.Number, err)
	}
	return b, nil
}

// insertDeals inserts the deals' rows; a row not inserted is a deal stored already, and the
// batch fails with domain.ErrConflict.
func (s *Store) insertDeals(ctx context.Context, tx *sql.Tx, ds []*domain.DealRecord, deals []writeOp) error {
	first := ds[0]
	inserted := 0
	for _, op := range deals {
		res, err := s.txExec(ctx, tx, op.query, op.args...)
		if err != nil {
			return s.wrapSave(first.MatchID, first.Number, err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return s.wrapSave(first.MatchID, first.Number, err)
		}
		inserted += int(n)
	}
	if inserted == len(ds) {
		return nil
	}
	if len(ds) == 1 {
		return fmt.Errorf("deal %d of match %s: %w", first.Number, first.MatchID, domain.ErrConflict)
	}
	return fmt.Errorf("%d of %d deals (the first: deal %d of match %s) stored already: %w",
		len(ds)-inserted, len(ds), first.Number, first.MatchID, domain.ErrConflict)
}

// execOps executes prepared statements in the transaction, in order.
func (s *Store) execOps(ctx context.Context, tx *sql.Tx, ops []writeOp) error {
	for _, op := range ops {
		if _, err := s.txExec(ctx, tx, op.query, op.args...); err != nil {
			return err
		}
	}
	return nil
}

// The multi-row INSERTs of saveBatch: the head of each, and its columns.
const (
	insertDeal = `INSERT INTO deals (match_id, number, deal_group, seating, deal, options, moves, outcome,
	started, duration_us, decision_log, record, chain_seq, chain_link) VALUES `
	dealCols = 14
	// chainCols are the places of chain_seq and chain_link in a deal's values, which the
	// transaction fills in (chainDeals).
	chainSeqCol, chainLinkCol = 12, 13
	// insertUnchainedDeal is insertDeal for a schema before version 15.
	insertUnchainedDeal = `INSERT INTO deals (match_id, number, deal_group, seating, deal, options, moves, outcome,
	started, duration_us, decision_log, record) VALUES `
	insertResult = `INSERT INTO results (match_id, deal_number, league_id, seat, bot, payoff, points, tricks,
	declarer) VALUES `
	resultCols = 9
)

// unchained is the deals' values without their chain columns.
func unchained(args []any) []any {
	out := make([]any, 0, len(args)/dealCols*(dealCols-2))
	for i := 0; i < len(args); i += dealCols {
		out = append(out, args[i:i+chainSeqCol]...)
	}
	return out
}

// saveDeal is SaveDeal; then, when set, runs inside the transaction after the deal's rows are
// written and before the commit (an error from it rolls everything back).
func (s *Store) saveDeal(ctx context.Context, d *domain.DealRecord, hooks saveHooks) error {
	then := hooks.then
	if then != nil {
		hooks.then = func(tx *sql.Tx) error {
			if err := then(tx); err != nil {
				return s.wrapSave(d.MatchID, d.Number, err)
			}
			return nil
		}
	}
	return s.saveBatch(ctx, []*domain.DealRecord{d}, hooks)
}

// preparedDeal is a deal record checked and converted for writing: the values of its row
// of deals and of its rows of results, in the columns of insertDeal and insertResult, and its
// digest in the match's chain (dealchain.Digest, of the deal as it reads back).
type preparedDeal struct {
	dealArgs   []any // dealCols values
	resultArgs []any // resultCols per seat
	digest     [32]byte
}

// writeOp is one statement of a write, with its arguments.
type writeOp struct {
	query string // rebound for the dialect
	args  []any
}

// stmt returns the store's prepared statement for a write query, preparing it on first use.
// The statements that store deals are few and run for every deal, and preparing one (parsing
// a multi-row INSERT) costs about as much as running it. It must not be called inside a
// transaction of this goroutine: on SQLite the writer pool has one connection.
func (s *Store) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	return prepared(ctx, s.w, &s.stmts, query)
}

// prepared returns query's statement from cache, preparing it on db on first use.
func prepared(ctx context.Context, db *sql.DB, cache *sync.Map, query string) (*sql.Stmt, error) {
	if v, ok := cache.Load(query); ok {
		return v.(*sql.Stmt), nil
	}
	st, err := db.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	if v, loaded := cache.LoadOrStore(query, st); loaded {
		st.Close()
		return v.(*sql.Stmt), nil
	}
	return st, nil
}

// readStmt is stmt for a read query that runs often (once per league job, say), prepared on
// the read pool.
func (s *Store) readStmt(ctx context.Context, query string) (*sql.Stmt, error) {
	return prepared(ctx, s.r, &s.rstmts, query)
}

// readyQueries prepares write queries (see stmt) before a transaction that runs them with
// txExec or txQueryRow begins.
func (s *Store) readyQueries(ctx context.Context, queries []string) error {
	for _, q := range queries {
		if q == "" {
			continue
		}
		if _, err := s.stmt(ctx, q); err != nil {
			return err
		}
	}
	return nil
}

// txExec runs a write query in tx, through its prepared statement if it has one (readyQueries).
func (s *Store) txExec(ctx context.Context, tx *sql.Tx, query string, args ...any) (sql.Result, error) {
	if v, ok := s.stmts.Load(query); ok {
		return tx.StmtContext(ctx, v.(*sql.Stmt)).ExecContext(ctx, args...)
	}
	return tx.ExecContext(ctx, query, args...)
}

// txQueryRow runs a query in tx, through its prepared statement if it has one (readyQueries).
func (s *Store) txQueryRow(ctx context.Context, tx *sql.Tx, query string, args ...any) *sql.Row {
	if v, ok := s.stmts.Load(query); ok {
		return tx.StmtContext(ctx, v.(*sql.Stmt)).QueryRowContext(ctx, args...)
	}
	return tx.QueryRowContext(ctx, query, args...)
}

// rowOps splits rows of ncols values each (args holds them one row after the other) into
// multi-row INSERTs of a power of two rows, at most maxRowsPerInsert rounded down to one;
// tail, if given, ends each statement. The store prepares each statement text once and
// keeps it, and a prepared INSERT of 100 rows takes SQLite about 70 KB: one per batch size
// up to 100 grew the arena by megabytes per table over a night as rarer sizes came along;
// seven sizes per table are all there are, prepared in the first seconds.
func (s *Store) rowOps(head string, ncols int, args []any, tail ...string) []writeOp {
	var ops []writeOp
	rows := len(args) / ncols
	one := "(" + strings.Repeat("?, ", ncols-1) + "?)"
	for start := 0; start < rows; {
		n := 1 << (bits.Len(uint(min(maxRowsPerInsert, rows-start))) - 1)
		q := head + strings.Repeat(one+", ", n-1) + one + strings.Join(tail, "")
		ops = append(ops, writeOp{query: s.rebind(q), args: args[start*ncols : (start+n)*ncols]})
		start += n
	}
	return ops
}

// prepareDeal checks a deal record against its match and converts it for writing: as a
// compact record (record.go) when it can be, else as text columns, a decision log and rows
// of results.
func (s *Store) prepareDeal(ctx context.Context, d *domain.DealRecord) (*preparedDeal, error) {
	info, err := s.cachedMatchInfo(ctx, d.MatchID)
	if err != nil {
		return nil, err
	}
	rules, leagueID := info.rules, info.league
	if err := d.Deal.Validate(rules); err != nil {
		return nil, fmt.Errorf("store: saving deal %d of match %s: the cards do not fit the rules: %w", d.Number, d.MatchID, err)
	}
	for i, m := range d.Moves {
		if m.Seat < 0 || int(m.Seat) >= rules.Players {
			return nil, fmt.Errorf("store: saving deal %d of match %s: move %d is by seat %d", d.Number, d.MatchID, i, m.Seat)
		}
	}
	started := d.Started
	if started.IsZero() {
		started = now()
	}
	// The start as it reads back: the record's clock fields are kept relative to it.
	started = time.UnixMicro(started.UnixMicro()).UTC()
	// A compact record keeps no results: they are rebuilt from its seating and outcome, and so
	// it is only for a deal whose results are those (all but one given results by hand).
	if slices.Equal(d.Results, domain.ResultsOf(d.Seating, d.Outcome)) {
		if rec, err := encodeRecord(d, started, info); err == nil {
			// The chain covers the digest of the requests the record keeps (its header), as
			// the deal reads back.
			digest := chainDigest(d, started, rules.Players, rec[1:1+domain.SentDigestSize])
			return &preparedDeal{dealArgs: []any{d.MatchID, d.Number, d.Group, "", "", "", "", "", s.timeArg(started),
				us(d.Duration), nil, rec, nil, nil}, digest: digest}, nil
		}
	}
	digest := chainDigest(d, started, rules.Players, dealchain.SentDigestOf(d))
	text, err := textColumns(d, rules)
	if err != nil {
		return nil, fmt.Errorf("store: saving deal %d of match %s: %w", d.Number, d.MatchID, err)
	}
	p := &preparedDeal{dealArgs: []any{d.MatchID, d.Number, d.Group, text[0], text[1], text[2], text[3], text[4],
		s.timeArg(started), us(d.Duration), text[5], nil, nil, nil}, digest: digest}
	// Any other deal keeps its results as rows; league_id is copied from the match, so that
	// league queries need no join.
	p.resultArgs = make([]any, 0, len(d.Results)*resultCols)
	for _, r := range d.Results {
		p.resultArgs = append(p.resultArgs, d.MatchID, d.Number, leagueID, int(r.Seat), r.Bot, r.Payoff, r.Points,
			r.Tricks, r.Declarer)
	}
	return p, nil
}

// textColumns returns a deal that is not a compact record as it is stored: the values of
// its seating, deal, options, moves, outcome and decision_log columns.
func textColumns(d *domain.DealRecord, rules engine.RuleSet) ([6]any, error) {
	log, err := encodeDecisionLog(d.Decisions)
	if err != nil {
		return [6]any{}, err
	}
	return [6]any{formatNames(d.Seating), formatDeal(d.Deal, rules), formatOptions(d.Options), formatMoves(d.Moves),
		formatOutcome(d.Outcome), log}, nil
}

// insertRows inserts rows of ncols values each (args holds them one row after the other)
// with multi-row INSERTs (rowOps); tail, if given, ends each statement (e.g. ON CONFLICT DO
// NOTHING).
func (s *Store) insertRows(ctx context.Context, tx *sql.Tx, head string, ncols int, args []any, tail ...string) error {
	for _, op := range s.rowOps(head, ncols, args, tail...) {
		if _, err := tx.ExecContext(ctx, op.query, op.args...); err != nil {
			return err
		}
	}
	return nil
}

// matchInfo returns the rule set and the league of a match, or domain.ErrNotFound (see
// cachedMatchInfo).
func (s *Store) matchInfo(ctx context.Context, matchID string) (engine.RuleSet, string, error) {
	info, err := s.cachedMatchInfo(ctx, matchID)
	if err != nil {
		return engine.RuleSet{}, "", err
	}
	return info.rules, info.league, nil
}

// cachedMatchInfo returns what storing and reading deals need of a match, or
// domain.ErrNotFound. None of it changes once the match is scheduled (and a match is never
// deleted), so it is read once and kept for the next deals of the match: reading it cost
// about as much as compressing a deal's decisions.
func (s *Store) cachedMatchInfo(ctx context.Context, matchID string) (*matchInfo, error) {
	if v, ok := s.matchInfos.Load(matchID); ok {
		return v.(*matchInfo), nil
	}
	info, err := s.readMatchInfo(ctx, s.r, matchID)
	if err != nil {
		return nil, err
	}
	if info.league != "" && info.round < 0 {
		// Not (yet) placed in its league's schedule: look again next time rather than keep it.
		return info, nil
	}
	if s.cachedMatches.Add(1) > maxCachedMatches { // start afresh rather than grow without end
		s.matchInfos.Clear()
		s.cachedMatches.Store(1)
	}
	s.matchInfos.Store(matchID, info)
	return info, nil
}

// querier is what reading deals needs of a pool or a transaction.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// readMatchInfo reads what storing and reading deals need of a match, or domain.ErrNotFound.
func (s *Store) readMatchInfo(ctx context.Context, q querier, matchID string) (*matchInfo, error) {
	var rulesText, league, bots string
	var duplicate bool
	var round int
	var perDecision, overage int64
	err := q.QueryRowContext(ctx, s.rebind(`SELECT m.rules, m.league_id, m.bots, m.duplicate, coalesce(lm.round, -1),
	m.per_decision_us, m.overage_us
FROM matches m LEFT JOIN league_matches lm ON lm.match_id = m.id WHERE m.id = ?`), matchID).
		Scan(&rulesText, &league, &bots, &duplicate, &round, &perDecision, &overage)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("match %s: %w", matchID, domain.ErrNotFound)
	}
	if err != nil {
		return nil, s.wrap("read match "+matchID, err)
	}
	rules, err := parseRules(rulesText)
	if err != nil {
		return nil, fmt.Errorf("store: match %s: %w", matchID, err)
	}
	names, err := parseNames(bots)
	if err != nil {
		return nil, fmt.Errorf("store: match %s: %w", matchID, err)
	}
	info := &matchInfo{rules: rules, league: league, bots: names, round: round, want: unitsWanted(rules.Players, duplicate),
		perDecision: fromUS(perDecision), overage: fromUS(overage)}
	return info, nil
}

// matchInfo is what storing and reading deals need of their match.
type matchInfo struct {
	id     string // set by readers that keep several
	rules  engine.RuleSet
	league string
	bots   []string // in table order
	round  int      // in its league's schedule; -1 for none
	want   int      // deals of each unit (unitsWanted)
	// The match's clock as stored, from which a compact record's clock fields are kept.
	perDecision, overage time.Duration
}

// maxCachedMatches bounds the matches whose matchInfo a Store keeps.
const maxCachedMatches = 4096

const dealColumns = `d.match_id, d.number, d.deal_group, d.seating, d.deal, d.options, d.moves, d.outcome,
	d.started, d.duration_us, d.decision_log IS NULL, d.decision_log, d.record`

// scanDeal reads a row of dealColumns: the deal without its decisions and results, and its
// decision log (nil for a deal stored before schema version 4, whose decisions are rows; an
// empty value, which SQLite may also read as nil, is not one and fails to decode). A deal
// stored as a compact record (record.go) is read whole from it, decisions included (with
// their requests rebuilt when withSent) and results, and has no decision log.
func scanDeal(sc interface{ Scan(...any) error }, info *matchInfo, withSent bool) (*domain.DealRecord, []byte, error) {
	rules := info.rules
	var (
		d                                      domain.DealRecord
		seating, deal, options, moves, outcome string
		started                                dbTime
		duration                               int64
		inRows                                 bool
		log, record                            []byte
	)
	if err := sc.Scan(&d.MatchID, &d.Number, &d.Group, &seating, &deal, &options, &moves, &outcome,
		&started, &duration, &inRows, &log, &record); err != nil {
		return nil, nil, err
	}
	d.Started, d.Duration = started.T, fromUS(duration)
	if record != nil {
		if err := decodeRecord(&d, record, info, withSent); err != nil {
			return nil, nil, err
		}
		d.Results = domain.ResultsOf(d.Seating, d.Outcome) // see prepareDeal
		return &d, nil, nil
	}
	if !inRows && log == nil {
		log = []byte{}
	}
	var err error
	if d.Seating, err = parseNames(seating); err != nil {
		return nil, nil, err
	}
	if d.Deal, err = parseDeal(rules, deal); err != nil {
		return nil, nil, err
	}
	if d.Options, err = parseOptions(options); err != nil {
		return nil, nil, err
	}
	if d.Moves, err = parseMoves(moves); err != nil {
		return nil, nil, err
	}
	if d.Outcome, err = parseOutcome(outcome); err != nil {
		return nil, nil, err
	}
	return &d, log, nil
}

const decisionColumns = `deal_number, idx, seat, bot, decision, request_id, sent, attempts, action, latency_us,
	strike, fallback`

func scanDecision(sc interface{ Scan(...any) error }) (int, domain.DecisionRecord, error) {
	var (
		x                                domain.DecisionRecord
		number, seat                     int
		decision, sent, attempts, action string
		latency                          int64
	)
	if err := sc.Scan(&number, &x.Index, &seat, &x.Bot, &decision, &x.RequestID, &sent, &attempts, &action,
		&latency, &x.Strike, &x.Fallback); err != nil {
		return 0, x, err
	}
	var err error
	x.Seat = engine.Seat(seat)
	if x.Decision, err = parseDecision(decision); err != nil {
		return 0, x, err
	}
	if sent != "" {
		x.Sent = []byte(sent)
	}
	if x.Attempts, err = parseAttempts(attempts); err != nil {
		return 0, x, err
	}
	if x.Action, err = parseAction(action); err != nil {
		return 0, x, err
	}
	x.Latency = fromUS(latency)
	return number, x, nil
}

const resultColumns = `deal_number, seat, bot, payoff, points, tricks, declarer`

func scanResult(sc interface{ Scan(...any) error }) (int, domain.SeatResult, error) {
	var r domain.SeatResult
	var number, seat int
	err := sc.Scan(&number, &seat, &r.Bot, &r.Payoff, &r.Points, &r.Tricks, &r.Declarer)
	r.Seat = engine.Seat(seat)
	return number, r, err
}

// Deal returns one stored deal with its decisions (by index) and results (by seat), or
// domain.ErrNotFound.
func (s *Store) Deal(ctx context.Context, matchID string, number int) (*domain.DealRecord, error) {
	deals, err := s.loadDeals(ctx, matchID, oneDeal(number), true)
	if err != nil {
		return nil, err
	}
	if len(deals) == 0 {
		return nil, fmt.Errorf("deal %d of match %s: %w", number, matchID, domain.ErrNotFound)
	}
	return &deals[0], nil
}

// Deals returns every stored deal of a match in number order (domain.ErrNotFound for an
// unknown match; an empty list for a match without finished deals).
func (s *Store) Deals(ctx context.Context, matchID string) ([]domain.DealRecord, error) {
	return s.loadDeals(ctx, matchID, allDeals, true)
}

// dealRange selects the deals numbered first to last (inclusive) of a match.
type dealRange struct{ first, last int }

// allDeals selects every deal of a match; oneDeal(n) deal n.
var allDeals = dealRange{first: 0, last: math.MaxInt32}

func oneDeal(n int) dealRange { return dealRange{first: n, last: n} }

// loadDeals reads the deals of a match that sel selects with their decisions and results;
// withSent false leaves out each decision's request. A deal
// stored since schema version 4 has its decisions in its decision log; one stored before has
// them in rows of decisions, which are read only when there is such a deal; one stored since
// version 11 as a compact record is rebuilt from it (record.go). A deal is stored in one
// transaction and never changed (but by migrations), so reading its parts one after the
// other sees all of them.
func (s *Store) loadDeals(ctx context.Context, matchID string, sel dealRange, withSent bool) ([]domain.DealRecord, error) {
	info, err := s.cachedMatchInfo(ctx, matchID)
	if err != nil {
		return nil, err
	}
	return s.loadDealsFrom(ctx, s.r, info, matchID, sel, withSent)
}

// loadDealsFrom is loadDeals reading through q, for the match info describes.
func (s *Store) loadDealsFrom(ctx context.Context, q querier, info *matchInfo, matchID string, sel dealRange, withSent bool) ([]domain.DealRecord, error) {
	w := dealWhere(matchID, sel)
	l, err := s.scanDeals(ctx, q, info, w, withSent)
	if err != nil || len(l.deals) == 0 {
		return nil, err
	}
	if len(l.inRows) > 0 {
		if err := s.addDecisionRows(ctx, q, w, l, withSent); err != nil {
			return nil, err
		}
	}
	if !l.withRows {
		return l.deals, nil
	}
	return l.deals, s.addResultRows(ctx, q, w, l)
}

// dealSelection is a read of some deals of a match: what the error says it was, and the
// condition on the deals table (alias d) and on the tables keyed by deal_number.
type dealSelection struct {
	match, op, dealCond, cond string
	args                      []any
}

// dealWhere selects the deals sel names of match matchID.
func dealWhere(matchID string, sel dealRange) dealSelection {
	w := dealSelection{match: matchID, op: "read the deals of match " + matchID, dealCond: ` WHERE d.match_id = ?`, cond: ` WHERE match_id = ?`, args: []any{matchID}}
	switch {
	case sel.first == sel.last:
		w.op = fmt.Sprintf("read deal %d of match %s", sel.first, matchID)
		w.dealCond += ` AND d.number = ?`
		w.cond += ` AND deal_number = ?`
		w.args = append(w.args, sel.first)
	case sel != allDeals:
		w.op = fmt.Sprintf("read deals %d to %d of match %s", sel.first, sel.last, matchID)
		w.dealCond += ` AND d.number BETWEEN ? AND ?`
		w.cond += ` AND deal_number BETWEEN ? AND ?`
		w.args = append(w.args, sel.first, sel.last)
	}
	return w
}

// loadedDeals are deals read from their rows, with what is still to be read beside them.
type loadedDeals struct {
	deals    []domain.DealRecord
	at       map[int]int  // deal number → index in deals
	inRows   map[int]bool // the deals whose decisions are rows (stored before version 4)
	withRows bool         // some deal is not a compact record, and has rows of results
}

// scanDeals reads the selected deals' rows: a compact record whole, an older deal with its
// decision log decoded, or marked as having its decisions in rows.
func (s *Store) scanDeals(ctx context.Context, q querier, info *matchInfo, w dealSelection, withSent bool) (*loadedDeals, error) {
	rows, err := q.QueryContext(ctx, s.rebind(`SELECT `+dealColumns+` FROM deals d`+w.dealCond+
		` ORDER BY d.number`), w.args...)
	if err != nil {
		return nil, s.wrap(w.op, err)
	}
	defer rows.Close()
	l := &loadedDeals{at: map[int]int{}, inRows: map[int]bool{}}
	for rows.Next() {
		d, log, err := scanDeal(rows, info, withSent)
		if err != nil {
			return nil, s.damaged(w.op, err)
		}
		l.at[d.Number] = len(l.deals)
		l.withRows = l.withRows || d.SentDigest == nil
		if d.SentDigest != nil {
			// a compact record, read whole
		} else if log == nil {
			l.inRows[d.Number] = true
		} else if d.Decisions, err = decodeDecisionLog(log, withSent); err != nil {
			return nil, s.damaged(w.op, fmt.Errorf("deal %d of match %s: the stored decisions do not decode: %w", d.Number, w.match, err))
		}
		l.deals = append(l.deals, *d)
	}
	if err := rows.Err(); err != nil || len(l.deals) == 0 {
		return l, s.wrap(w.op, err)
	}
	return l, nil
}

// addDecisionRows reads the decisions of the deals stored before version 4, kept in rows.
func (s *Store) addDecisionRows(ctx context.Context, q querier, w dealSelection, l *loadedDeals, withSent bool) error {
	cols := decisionColumns
	if !withSent {
		cols = summaryDecisionColumns
	}
	rows, err := q.QueryContext(ctx, s.rebind(`SELECT `+cols+` FROM decisions`+w.cond+
		` ORDER BY deal_number, idx`), w.args...)
	if err != nil {
		return s.wrap(w.op, err)
	}
	defer rows.Close()
	for rows.Next() {
		n, x, err := scanDecision(rows)
		if err != nil {
			return s.wrap(w.op, err)
		}
		if i, ok := l.at[n]; ok && l.inRows[n] {
			l.deals[i].Decisions = append(l.deals[i].Decisions, x)
		}
	}
	return s.wrap(w.op, rows.Err())
}

// addResultRows reads the results of the deals that are not compact records.
func (s *Store) addResultRows(ctx context.Context, q querier, w dealSelection, l *loadedDeals) error {
	rows, err := q.QueryContext(ctx, s.rebind(`SELECT `+resultColumns+` FROM results`+w.cond+
		` ORDER BY deal_number, seat`), w.args...)
	if err != nil {
		return s.wrap(w.op, err)
	}
	defer rows.Close()
	for rows.Next() {
		n, r, err := scanResult(rows)
		if err != nil {
			return s.wrap(w.op, err)
		}
		if i, ok := l.at[n]; ok && l.deals[i].SentDigest == nil {
			l.deals[i].Results = append(l.deals[i].Results, r)
		}
	}
	return s.wrap(w.op, rows.Err())
}

// DealNumbers returns the numbers of the match's stored (finished) deals, ascending.
func (s *Store) DealNumbers(ctx context.Context, matchID string) ([]int, error) {
	return s.dealNumbers(ctx, matchID, `SELECT number FROM deals WHERE match_id = ? ORDER BY number`, matchID)
}

// DealNumbersBetween returns the numbers from first to last (inclusive) of the match's
// stored deals, ascending (one range of the primary key).
func (s *Store) DealNumbersBetween(ctx context.Context, matchID string, first, last int) ([]int, error) {
	st, err := s.readStmt(ctx, s.rebind(`SELECT number FROM deals WHERE match_id = ? AND number BETWEEN ? AND ? ORDER BY number`))
	if err != nil {
		return nil, s.wrap("list the deals of match "+matchID, err)
	}
	rows, err := st.QueryContext(ctx, matchID, first, last)
	return s.scanNumbers(matchID, rows, err)
}

func (s *Store) dealNumbers(ctx context.Context, matchID, query string, args ...any) ([]int, error) {
	rows, err := s.r.QueryContext(ctx, s.rebind(query), args...)
	return s.scanNumbers(matchID, rows, err)
}

// scanNumbers reads the deal numbers a query gave.
func (s *Store) scanNumbers(matchID string, rows *sql.Rows, err error) ([]int, error) {
	if err != nil {
		return nil, s.wrap("list the deals of match "+matchID, err)
	}
	defer rows.Close()
	var ns []int
	for rows.Next() {
		var n int
		if err := rows.Scan(&n); err != nil {
			return nil, s.wrap("list the deals of match "+matchID, err)
		}
		ns = append(ns, n)
	}
	return ns, s.wrap("list the deals of match "+matchID, rows.Err())
}

// Results returns the raw per-seat results of the matches the filter selects, by match (in
// the order they started), deal and seat, at most f.Limit rows when it is positive. f.Bot
// selects the matches the bot played in and returns every seat of them (opponents too), as
// the ratings need. A deal stored as a compact record has its results rebuilt from it (a
// replay of the deal); any other has them in rows of results.
func (s *Store) Results(ctx context.Context, f domain.MatchFilter) ([]domain.ResultRow, error) {
	const op = "read results"
	rows, err := s.resultRows(ctx, f)
	if err != nil {
		return nil, s.wrap(op, err)
	}
	compact, err := s.compactResults(ctx, f)
	if err != nil {
		return nil, s.wrap(op, err)
	}
	if len(compact) > 0 {
		rows = append(rows, compact...)
		slices.SortStableFunc(rows, func(a, b orderedResult) int {
			return cmp.Or(a.started.Compare(b.started), strings.Compare(a.MatchID, b.MatchID),
				cmp.Compare(a.Deal, b.Deal), cmp.Compare(a.Seat, b.Seat))
		})
	}
	if f.Limit > 0 && len(rows) > f.Limit {
		rows = rows[:f.Limit]
	}
	out := make([]domain.ResultRow, len(rows))
	for i := range rows {
		out[i] = rows[i].ResultRow
	}
	return out, nil
}

// orderedResult is a result with its match's start, the first key of Results' order.
type orderedResult struct {
	domain.ResultRow
	started time.Time
}

// resultOrder is the order of Results, in SQL.
const resultOrder = ` ORDER BY m.started, m.id`

// resultRows reads the results kept as rows (deals that are not compact records), in
// Results' order.
func (s *Store) resultRows(ctx context.Context, f domain.MatchFilter) ([]orderedResult, error) {
	where, args := filterWhere(f, s, "r.league_id")
	rows, err := s.r.QueryContext(ctx, s.rebind(`SELECT r.match_id, r.league_id, r.deal_number, d.deal_group,
	m.rules, m.started, r.seat, r.bot, r.payoff, r.points, r.tricks, r.declarer
FROM results r
JOIN deals d ON d.match_id = r.match_id AND d.number = r.deal_number
JOIN matches m ON m.id = r.match_id`+where+resultOrder+`, r.deal_number, r.seat`+limit(f)), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []orderedResult
	for rows.Next() {
		var r orderedResult
		var started dbTime
		var seat int
		if err := rows.Scan(&r.MatchID, &r.LeagueID, &r.Deal, &r.Group, &r.Rules, &started, &seat, &r.Bot, &r.Payoff,
			&r.Points, &r.Tricks, &r.Declarer); err != nil {
			return nil, err
		}
		r.Seat, r.started = engine.Seat(seat), started.T
		out = append(out, r)
	}
	return out, rows.Err()
}

// compactResults rebuilds the results of the deals stored as compact records, in Results'
// order; with f.Limit, of as many deals at most (each has a result at least).
func (s *Store) compactResults(ctx context.Context, f domain.MatchFilter) ([]orderedResult, error) {
	where, args := filterWhere(f, s, "m.league_id")
	cond := ` WHERE d.record IS NOT NULL`
	if where != "" {
		cond += ` AND ` + strings.TrimPrefix(where, ` WHERE `)
	}
	rows, err := s.r.QueryContext(ctx, s.rebind(`SELECT d.match_id, d.number, d.deal_group, d.started, d.record,
	m.league_id, m.rules, m.started
FROM deals d JOIN matches m ON m.id = d.match_id`+cond+resultOrder+`, d.number`+limit(f)), args...)
	if err != nil {
		return nil, err
	}
	type stored struct {
		row    orderedResult
		start  dbTime
		record []byte
	}
	var deals []stored
	for rows.Next() {
		var x stored
		var started dbTime
		if err := rows.Scan(&x.row.MatchID, &x.row.Deal, &x.row.Group, &x.start, &x.record, &x.row.LeagueID,
			&x.row.Rules, &started); err != nil {
			rows.Close()
			return nil, err
		}
		x.row.started = started.T
		deals = append(deals, x)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	// Decoded once the rows are read: reading a match's info takes a connection of the pool.
	var out []orderedResult
	for _, x := range deals {
		info, err := s.cachedMatchInfo(ctx, x.row.MatchID)
		if err != nil {
			return nil, err
		}
		d := domain.DealRecord{MatchID: x.row.MatchID, Number: x.row.Deal, Group: x.row.Group, Started: x.start.T}
		if err := decodeOutcome(&d, x.record, info); err != nil {
			return nil, s.damaged("read results", fmt.Errorf("deal %d of match %s: %w", d.Number, d.MatchID, err))
		}
		for _, r := range domain.ResultsOf(d.Seating, d.Outcome) {
			row := x.row
			row.SeatResult = r
			out = append(out, row)
		}
	}
	return out, nil
}
