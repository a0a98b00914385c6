package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/tapparena/tapp/arena/internal/board"
	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/rating"
)

// The leaderboard's sufficient statistics (arena/internal/board) are kept in the tables of
// migrations 0007_rating_sums and 0012_rating_compositions: every stored deal adds to them in
// the transaction that stores it, with additive upserts (x = x + excluded.x), which PostgreSQL
// applies atomically per row, so several workers' sums stay exact. A duplicate group waits in
// rating_open_groups until the transaction that stores its last seating folds it into
// rating_tables. The board reads only rows per composition, role and Elo ledger bot, plus the
// tainted matches through partial indexes that hold nothing else: nothing per match or deal.

// tableColumns are rating_tables' value columns, in the order of tableValues.
var tableColumns = func() []string {
	cols := []string{"units", "deals", "deals_sq"}
	for i := range rating.MaxSeats {
		cols = append(cols, fmt.Sprintf("net%d", i))
	}
	for i := range rating.MaxSeats {
		cols = append(cols, fmt.Sprintf("dnet%d", i))
	}
	for i := range rating.MaxSeats {
		for j := i; j < rating.MaxSeats; j++ {
			cols = append(cols, fmt.Sprintf("q%d%d", i, j))
		}
	}
	for _, p := range []string{"w", "t"} {
		for i := range rating.MaxSeats {
			for j := i + 1; j < rating.MaxSeats; j++ {
				cols = append(cols, fmt.Sprintf("%s%d%d", p, i, j))
			}
		}
	}
	return cols
}()

var netColumns = []string{"net0", "net1", "net2", "net3"}

// tableValues lays out sums in tableColumns' order (zeros for seats a smaller table lacks).
func tableValues(t *rating.TableSums) []any {
	k, n := len(t.Bots), rating.MaxSeats
	v := make([]int64, len(tableColumns))
	v[0], v[1], v[2] = t.Units, t.Deals, t.DealsSq
	at := 3
	for i := range k {
		v[at+i], v[at+n+i] = t.Net[i], t.DealNet[i]
	}
	at += 2 * n
	for i := range k {
		for j := i; j < k; j++ {
			v[at+rating.CrossIndex(i, j, n)] = t.Cross[rating.CrossIndex(i, j, k)]
		}
	}
	at += n * (n + 1) / 2
	pairs := n * (n - 1) / 2
	for i := range k {
		for j := i + 1; j < k; j++ {
			v[at+rating.PairIndex(i, j, n)] = t.Wins[rating.PairIndex(i, j, k)]
			v[at+pairs+rating.PairIndex(i, j, n)] = t.Ties[rating.PairIndex(i, j, k)]
		}
	}
	out := make([]any, len(v))
	for i, x := range v {
		out[i] = x
	}
	return out
}

// tableFromValues is the inverse of tableValues.
func tableFromValues(bots []string, v []int64) (*rating.TableSums, error) {
	t, err := rating.NewTableSums(bots)
	if err != nil {
		return nil, err
	}
	t.Points, t.PointsCross = nil, nil // set apart (setPoints)
	k, n := len(t.Bots), rating.MaxSeats
	t.Units, t.Deals, t.DealsSq = v[0], v[1], v[2]
	at := 3
	for i := range k {
		t.Net[i], t.DealNet[i] = v[at+i], v[at+n+i]
	}
	at += 2 * n
	for i := range k {
		for j := i; j < k; j++ {
			t.Cross[rating.CrossIndex(i, j, k)] = v[at+rating.CrossIndex(i, j, n)]
		}
	}
	at += n * (n + 1) / 2
	pairs := n * (n - 1) / 2
	for i := range k {
		for j := i + 1; j < k; j++ {
			t.Wins[rating.PairIndex(i, j, k)] = v[at+rating.PairIndex(i, j, n)]
			t.Ties[rating.PairIndex(i, j, k)] = v[at+pairs+rating.PairIndex(i, j, n)]
		}
	}
	return t, nil
}

// upsert is an INSERT of one row into table (keys, then values) that adds the values to a
// row already there; returning, if set, is a RETURNING clause. The conflict is on the first
// nkeys keys; the other keys are only written with a new row.
func upsert(table string, keys []string, nkeys int, values []string, returning string) string {
	cols := append(slices.Clone(keys), values...)
	var set []string
	for _, c := range values {
		set = append(set, fmt.Sprintf("%s = %s.%s + excluded.%s", c, table, c, c))
	}
	q := "INSERT INTO " + table + " (" + strings.Join(cols, ", ") + ") VALUES (" + placeholders(len(cols)) +
		") ON CONFLICT (" + strings.Join(keys[:nkeys], ", ") + ") DO UPDATE SET " + strings.Join(set, ", ")
	if returning != "" {
		q += " RETURNING " + returning
	}
	return q
}

var (
	// The match's deals after the upsert tell a new match (as many as the batch adds).
	upsertRatingMatch = strings.Replace(upsert("rating_matches",
		[]string{"match_id", "league_id", "rules", "bots", "duplicate", "tainted_by_fallbacks"}, 1,
		append([]string{"deals", "decisions", "fallbacks"}, netColumns...), "deals"),
		" RETURNING", ", "+taintedByFallbacks+" RETURNING", 1)
	upsertRatingGroup = upsert("rating_open_groups", []string{"match_id", "grp"}, 2,
		append([]string{"deals"}, netColumns...), "deals, "+strings.Join(netColumns, ", "))
	deleteRatingGroup = `DELETE FROM rating_open_groups WHERE match_id = ? AND grp = ?`
	upsertRatingRole  = upsert("rating_roles", []string{"league_id", "rules", "bots", "bot", "role"}, 5,
		[]string{"deals", "total", "total_sq", "made"}, "")
	upsertRatingComposition = upsert("rating_compositions", []string{"league_id", "rules", "bots"}, 3,
		[]string{"matches", "deals", "duplicate", "open_groups"}, "")
)

// taintedByFallbacks keeps rating_matches.tainted_by_fallbacks in step with the sums the
// upsert adds to (the right-hand sides see the row before it): more than 1% of the decisions
// were fallbacks (board.MaxFallbackShare).
const taintedByFallbacks = `tainted_by_fallbacks = CASE WHEN (rating_matches.fallbacks + excluded.fallbacks) * 100 >
	rating_matches.decisions + excluded.decisions THEN 1 ELSE 0 END`

// fallbackTainted is tainted_by_fallbacks of a new row.
func fallbackTainted(m *board.MatchSums) int {
	if m.Fallbacks*100 > m.Decisions {
		return 1
	}
	return 0
}

// fillRatingCompositions derives rating_compositions from rating_matches and
// rating_open_groups (as migration 0012 does): for the rebuild of the sums.
const fillRatingCompositions = `INSERT INTO rating_compositions (league_id, rules, bots, matches, deals, duplicate, open_groups)
SELECT rm.league_id, rm.rules, rm.bots, count(*), sum(rm.deals), sum(CASE WHEN rm.duplicate THEN 1 ELSE 0 END),
	sum((SELECT count(*) FROM rating_open_groups g WHERE g.match_id = rm.match_id))
FROM rating_matches rm GROUP BY rm.league_id, rm.rules, rm.bots`

// compositionDelta is what a batch adds to one row of rating_compositions.
type compositionDelta struct {
	matches, deals, duplicate, openGroups int64
}

// ratingBatch is what a batch of deals adds to the sums, summed per row, each kind of row
// in key order (so that PostgreSQL transactions lock shared rows in one order).
type ratingBatch struct {
	matches []*board.MatchSums
	groups  []groupDelta
	units   []completedUnit // units complete in themselves (no duplicate)
	roles   []board.RoleDelta
	// clocks are the deal sources of the leagues and rule sets the batch added sources to,
	// after it (written by writeRatingSums): their rating histories' clocks.
	clocks map[board.LeagueRules]int64
}

// groupDelta is what a batch adds to one duplicate group.
type groupDelta struct {
	scope  board.Scope
	comp   []string
	source string // the group's deal source (board.SourceOf)
	match  string
	group  int
	want   int64 // deals of the complete group
	deals  int64
	net    []int64
}

// prepareRatingSums computes what the deals add (before their transaction: it reads only
// the matches, which do not change) and prepares the statements that write it.
func (s *Store) prepareRatingSums(ctx context.Context, ds []*domain.DealRecord) (*ratingBatch, error) {
	b := &ratingBatch{}
	matches := map[string]*board.MatchSums{}
	groups := map[string]*groupDelta{}
	roles := map[board.RoleKey]*board.RoleSums{}
	for _, d := range ds {
		info, err := s.ratingInfo(ctx, d.MatchID)
		if err != nil {
			return nil, err
		}
		dd, err := board.Delta(info, d)
		if err != nil {
			return nil, fmt.Errorf("store: saving deal %d of match %s: %w", d.Number, d.MatchID, err)
		}
		m := matches[d.MatchID]
		if m == nil {
			m = board.NewMatchSums(info, dd.Comp)
			matches[d.MatchID] = m
		}
		m.AddDeal(dd)
		board.AddRoles(roles, dd.Roles)
		if want := int64(info.UnitDeals()); want == 1 {
			b.units = append(b.units, newCompletedUnit(board.LeagueRules{League: dd.Scope.League, Rules: dd.Scope.Rules},
				dd.Source, rating.Cell{Bots: dd.Comp, Deals: 1, Net: dd.Net}))
		} else {
			key := fmt.Sprintf("%s\x00%09d", d.MatchID, d.Group)
			g := groups[key]
			if g == nil {
				g = &groupDelta{scope: dd.Scope, comp: dd.Comp, source: dd.Source, match: d.MatchID, group: d.Group, want: want,
					net: make([]int64, len(dd.Comp))}
				groups[key] = g
			}
			g.deals++
			for i, v := range dd.Net {
				g.net[i] += v
			}
		}
	}
	for _, id := range slices.Sorted(mapKeys(matches)) {
		b.matches = append(b.matches, matches[id])
	}
	for _, key := range slices.Sorted(mapKeys(groups)) {
		b.groups = append(b.groups, *groups[key])
	}
	for k, r := range roles {
		b.roles = append(b.roles, board.RoleDelta{Key: k, RoleSums: *r})
	}
	slices.SortFunc(b.roles, func(x, y board.RoleDelta) int { return compareRoleKeys(x.Key, y.Key) })
	queries := []string{s.rebind(upsertRatingMatch), s.rebind(upsertRatingGroup), s.rebind(deleteRatingGroup),
		s.rebind(upsertRatingComposition), s.rebind(upsertRatingRole)}
	if s.keepsSourceSums() {
		for _, q := range s.sourceQueries() {
			queries = append(queries, s.rebind(q))
		}
		queries = append(queries, s.sourceBatchQueries()...)
	}
	return b, s.readyQueries(ctx, queries)
}

func compareRoleKeys(x, y board.RoleKey) int {
	return cmp.Or(strings.Compare(x.League, y.League), strings.Compare(x.Rules, y.Rules),
		strings.Compare(x.Bots, y.Bots), cmp.Compare(x.Bot, y.Bot), strings.Compare(x.Role, y.Role))
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// writeRatingSums adds the batch to the sums in tx.
func (s *Store) writeRatingSums(ctx context.Context, tx *sql.Tx, b *ratingBatch) error {
	comps := map[board.Scope]*compositionDelta{}
	comp := func(sc board.Scope) *compositionDelta {
		c := comps[sc]
		if c == nil {
			c = &compositionDelta{}
			comps[sc] = c
		}
		return c
	}
	for _, m := range b.matches {
		args := []any{m.ID, m.League, m.Rules, rating.CompositionKey(m.Bots), m.Duplicate, fallbackTainted(m), m.Deals,
			m.Decisions, m.Fallbacks}
		var deals int64
		if err := s.txQueryRow(ctx, tx, s.rebind(upsertRatingMatch), append(args, nets(m.Net)...)...).Scan(&deals); err != nil {
			return fmt.Errorf("rating sums of match %s: %w", m.ID, err)
		}
		c := comp(board.Scope{League: m.League, Rules: m.Rules, Bots: rating.CompositionKey(m.Bots)})
		c.deals += m.Deals
		if deals == m.Deals { // the match's first deals
			c.matches++
			if m.Duplicate {
				c.duplicate++
			}
		}
	}
	units := slices.Clone(b.units)
	for _, g := range b.groups {
		args := append([]any{g.match, g.group, g.deals}, nets(g.net)...)
		var deals int64
		net := make([]int64, rating.MaxSeats)
		if err := s.txQueryRow(ctx, tx, s.rebind(upsertRatingGroup), args...).Scan(&deals, &net[0], &net[1], &net[2], &net[3]); err != nil {
			return fmt.Errorf("rating sums of group %d of match %s: %w", g.group, g.match, err)
		}
		c := comp(g.scope)
		if deals == g.deals { // the group's first deals
			c.openGroups++
		}
		if deals < g.want {
			continue
		}
		c.openGroups--
		if _, err := s.txExec(ctx, tx, s.rebind(deleteRatingGroup), g.match, g.group); err != nil {
			return fmt.Errorf("rating sums of group %d of match %s: %w", g.group, g.match, err)
		}
		units = append(units, newCompletedUnit(board.LeagueRules{League: g.scope.League, Rules: g.scope.Rules},
			g.source, rating.Cell{Bots: g.comp, Deals: deals, Net: net[:len(g.comp)]}))
	}
	if s.keepsSourceSums() {
		var err error
		if b.clocks, err = s.writeSourceUnits(ctx, tx, units); err != nil {
			return err
		}
	}
	for _, sc := range slices.SortedFunc(scopeKeys(comps), compareScopes) {
		c := comps[sc]
		if _, err := s.txExec(ctx, tx, s.rebind(upsertRatingComposition), sc.League, sc.Rules, sc.Bots,
			c.matches, c.deals, c.duplicate, c.openGroups); err != nil {
			return fmt.Errorf("rating sums of composition %s: %w", sc.Bots, err)
		}
	}
	for _, r := range b.roles {
		k := r.Key
		if _, err := s.txExec(ctx, tx, s.rebind(upsertRatingRole), k.League, k.Rules, k.Bots, k.Bot, k.Role,
			r.Deals, r.Total, r.TotalSq, r.Made); err != nil {
			return fmt.Errorf("rating sums of roles: %w", err)
		}
	}
	return nil
}

func nets(v []int64) []any {
	out := make([]any, rating.MaxSeats)
	for i := range out {
		out[i] = int64(0)
		if i < len(v) {
			out[i] = v[i]
		}
	}
	return out
}

func scopeKeys[V any](m map[board.Scope]V) func(func(board.Scope) bool) {
	return func(yield func(board.Scope) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func compareScopes(a, b board.Scope) int {
	return cmp.Or(strings.Compare(a.League, b.League), strings.Compare(a.Rules, b.Rules), strings.Compare(a.Bots, b.Bots))
}

// ratingInfo is what the sums need of a match (its duplicate flag besides matchInfo's rules
// and league), read once per match and kept like matchInfo. Its League is the board the match
// counts on: its league's, or the one it names (MatchSpec.Board, a standing ladder's).
func (s *Store) ratingInfo(ctx context.Context, matchID string) (board.MatchInfo, error) {
	if v, ok := s.ratingInfos.Load(matchID); ok {
		return v.(board.MatchInfo), nil
	}
	rules, league, err := s.matchInfo(ctx, matchID)
	if err != nil {
		return board.MatchInfo{}, err
	}
	var dup bool
	var boardOf string // the board the match counts on, when not its league's (a ladder's epochs)
	q := `SELECT duplicate, '' FROM matches WHERE id = ?`
	if s.schema >= boardSchema {
		q = `SELECT duplicate, board FROM matches WHERE id = ?`
	}
	if err := s.r.QueryRowContext(ctx, s.rebind(q), matchID).Scan(&dup, &boardOf); err != nil {
		return board.MatchInfo{}, s.wrap("read match "+matchID, err)
	}
	info := board.MatchInfo{ID: matchID, League: cmp.Or(boardOf, league), Rules: formatRules(rules), Duplicate: dup, Players: rules.Players}
	if s.ratingInfoCount.Add(1) > maxCachedMatches {
		s.ratingInfos.Clear()
		s.ratingInfoCount.Store(1)
	}
	s.ratingInfos.Store(matchID, info)
	return info, nil
}

// RatingSums reads the sufficient statistics of the filter's league and rule set (the other
// fields of the filter are not kept apart and are ignored) in one read transaction: one row
// per table composition, per role of each of its bots, per composition's matches, per
// tainted match and per bot of Elo ledger k; with history also ledger k's matches in order.
func (s *Store) RatingSums(ctx context.Context, f domain.MatchFilter, k board.EloKey, o board.SumsRead) (*board.Sums, error) {
	var opts *sql.TxOptions
	if s.dialect == postgresDialect {
		opts = &sql.TxOptions{ReadOnly: true, Isolation: sql.LevelRepeatableRead}
	}
	tx, err := s.r.BeginTx(ctx, opts)
	if err != nil {
		return nil, s.wrap(readRatingSums, err)
	}
	r := &sumsReader{s: s, ctx: ctx, tx: tx, sums: board.NewSums()}
	defer func() {
		tx.Rollback()
		r.prepareMisses()
	}()
	r.where, r.args = ratingWhere(f, "")
	r.sums.BySource = true
	for _, step := range []func() error{
		r.tables,
		func() error { return readSourceSums(r.sums, r.s.dialect, s.sourceRows(), r.where, r.args, r.each) },
		func() error { return r.roles(o.RoleTotals) },
		r.compositions,
		func() error { return r.taintedMatches(f) },
		func() error { return r.elo(k, o.History) },
	} {
		if err := step(); err != nil {
			return nil, err
		}
	}
	return r.sums, nil
}

// readRatingSums is what a failed RatingSums was doing.
const readRatingSums = "read the rating sums"

// sumsReader reads the rating sums of one scope (where, args) in one read transaction, a
// table of them at a time.
type sumsReader struct {
	s     *Store
	ctx   context.Context
	tx    *sql.Tx
	where string
	args  []any
	sums  *board.Sums
	// misses are the queries run without a prepared statement (SQLite), prepared once the
	// transaction is over (prepareMisses).
	misses []string
}

// each runs query and hands each row to scan. On SQLite it runs through the read pool's
// prepared statement of the query once there is one: the driver parses a query's text anew at
// every run, and the rating history takes a board (about ten of these queries) after most
// batches of deals while a league is young (2% of a stored deal's CPU in
// BenchmarkInProcessMatch). PostgreSQL's driver keeps its own per connection.
func (r *sumsReader) each(query string, qargs []any, scan func(sc func(...any) error) error) error {
	q := r.s.rebind(query)
	var rows *sql.Rows
	var err error
	if v, ok := r.s.rstmts.Load(q); ok && r.s.dialect == sqliteDialect {
		rows, err = r.tx.StmtContext(r.ctx, v.(*sql.Stmt)).QueryContext(r.ctx, qargs...)
	} else {
		if r.s.dialect == sqliteDialect {
			r.misses = append(r.misses, q)
		}
		rows, err = r.tx.QueryContext(r.ctx, q, qargs...)
	}
	if err != nil {
		return r.s.wrap(readRatingSums, err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows.Scan); err != nil {
			return r.s.wrap(readRatingSums, err)
		}
	}
	return r.s.wrap(readRatingSums, rows.Err())
}

// prepareMisses prepares the queries each ran without a statement, after the read
// transaction is over: preparing takes a connection of the read pool, and one taken while
// the transaction holds another could wait for readers that wait alike.
func (r *sumsReader) prepareMisses() {
	for _, q := range r.misses {
		_, _ = r.s.readStmt(context.WithoutCancel(r.ctx), q) // the next read prepares it again if this fails
	}
}

// tables reads the per-composition tables with their points.
func (r *sumsReader) tables() error {
	cols := slices.Concat(tableColumns, pointColumns)
	return r.each(`SELECT league_id, rules, bots, `+strings.Join(cols, ", ")+` FROM rating_tables`+r.where, r.args,
		func(scan func(...any) error) error {
			var sc board.Scope
			v := make([]int64, len(cols))
			dest := []any{&sc.League, &sc.Rules, &sc.Bots}
			for i := range v {
				dest = append(dest, &v[i])
			}
			if err := scan(dest...); err != nil {
				return err
			}
			t, err := tableFromValues(strings.Split(sc.Bots, ","), v[:len(tableColumns)])
			if err != nil {
				return fmt.Errorf("rating sums of %s: %w", sc.Bots, err)
			}
			setPoints(t, v[len(tableColumns):])
			r.sums.Tables[sc] = t
			return nil
		})
}

// totalRoles selects the roles of a bot's totals (board.IsTotalRole).
const totalRoles = `(role IN ('` + board.RoleDeclarer + `', '` + board.RoleNoDeclarer + `') OR role LIKE '` + board.RoleDefendVs + `%')`

// roles reads each bot's sums per role; with totals, only the roles of its totals.
func (r *sumsReader) roles(totals bool) error {
	where := r.where
	if totals && where == "" {
		where = " WHERE " + totalRoles
	} else if totals {
		where += " AND " + totalRoles
	}
	return r.each(`SELECT league_id, rules, bots, bot, role, deals, total, total_sq, made FROM rating_roles`+where, r.args,
		func(scan func(...any) error) error {
			var k board.RoleKey
			var rs board.RoleSums
			if err := scan(&k.League, &k.Rules, &k.Bots, &k.Bot, &k.Role, &rs.Deals, &rs.Total, &rs.TotalSq, &rs.Made); err != nil {
				return err
			}
			r.sums.Roles[k] = &rs
			return nil
		})
}

// compositions reads each composition's matches and groups, and the groups still open.
func (r *sumsReader) compositions() error {
	return r.each(`SELECT league_id, rules, bots, matches, deals, duplicate, open_groups FROM rating_compositions`+r.where, r.args,
		func(scan func(...any) error) error {
			var sc board.Scope
			var g board.MatchGroup
			var dup, open int64
			if err := scan(&sc.League, &sc.Rules, &sc.Bots, &g.Matches, &g.Deals, &dup, &open); err != nil {
				return err
			}
			g.Duplicate = dup > 0
			r.sums.OpenGroups += int(open)
			if g.Matches > 0 {
				r.sums.Groups[sc] = &g
			}
			return nil
		})
}

// taintedMatches reads the matches the filter's tainted query names, one by one.
func (r *sumsReader) taintedMatches(f domain.MatchFilter) error {
	tq, targs := r.s.taintedQuery(f)
	return r.each(tq, targs, func(scan func(...any) error) error {
		var m board.MatchSums
		var comp, status, forfeited string
		var started, finished dbTime
		net := make([]int64, rating.MaxSeats)
		if err := scan(&m.ID, &m.League, &m.Rules, &comp, &m.Duplicate, &m.Deals, &m.Decisions, &m.Fallbacks,
			&net[0], &net[1], &net[2], &net[3], &status, &started, &finished, &forfeited); err != nil {
			return err
		}
		m.Bots = strings.Split(comp, ",")
		m.Net = net[:len(m.Bots)]
		m.Status, m.Started, m.Finished = domain.MatchStatus(status), started.T, finished.T
		var err error
		if m.Forfeited, err = parseNames(forfeited); err != nil {
			return fmt.Errorf("match %s: %w", m.ID, err)
		}
		r.sums.Matches[m.ID] = &m
		return nil
	})
}

// eloWhere selects one Elo ledger (league, rules, tainted).
const eloWhere = ` WHERE league_id = ? AND rules = ? AND tainted = ?`

// elo reads Elo ledger k: its head, and either its ratings or, with history, its matches in
// order, replayed.
func (r *sumsReader) elo(k board.EloKey, history bool) error {
	keyArgs := []any{k.League, k.Rules, tainted(k)}
	if err := r.each(`SELECT seq FROM rating_elo_head`+eloWhere, keyArgs,
		func(scan func(...any) error) error { return scan(&r.sums.Elo.Rated) }); err != nil {
		return err
	}
	if history {
		l := board.NewEloLedger(true)
		err := r.each(`SELECT l.match_id, rm.bots, rm.net0, rm.net1, rm.net2, rm.net3 FROM rating_elo_log l
JOIN rating_matches rm ON rm.match_id = l.match_id WHERE l.league_id = ? AND l.rules = ? AND l.tainted = ? ORDER BY l.seq`, keyArgs,
			func(scan func(...any) error) error {
				var id, comp string
				net := make([]int64, rating.MaxSeats)
				if err := scan(&id, &comp, &net[0], &net[1], &net[2], &net[3]); err != nil {
					return err
				}
				bots := strings.Split(comp, ",")
				return l.Apply(id, bots, net[:len(bots)])
			})
		if err != nil {
			return err
		}
		r.sums.Elo = l
		return nil
	}
	return r.each(`SELECT bot, elo, matches FROM rating_elo`+eloWhere, keyArgs, func(scan func(...any) error) error {
		var b string
		var elo float64
		var n int
		if err := scan(&b, &elo, &n); err != nil {
			return err
		}
		r.sums.Elo.Ratings[b], r.sums.Elo.Matches[b] = elo, n
		return nil
	})
}

// taintedQuery reads the tainted matches of the filter's league and rule set (both causes:
// more than 1% fallbacks, a forfeit), each through the partial index of migration 0012 that
// holds only such matches, so that it reads nothing of the clean ones. On SQLite INDEXED BY
// makes that a promise: the query fails rather than fall back to a scan of every match.
func (s *Store) taintedQuery(f domain.MatchFilter) (string, []any) {
	const cols = `SELECT rm.match_id, rm.league_id, rm.rules, rm.bots, rm.duplicate, rm.deals, rm.decisions, rm.fallbacks,
	rm.net0, rm.net1, rm.net2, rm.net3, m.status, m.started, m.finished, m.forfeited`
	fallbacks, forfeited := "", ""
	if s.dialect == sqliteDialect {
		fallbacks, forfeited = " INDEXED BY rating_matches_fallbacks", " INDEXED BY matches_forfeited"
	}
	var conds, fconds []string
	var args, fargs []any
	if f.LeagueID != "" {
		conds, args = append(conds, "rm.league_id = ?"), append(args, f.LeagueID)
		fconds, fargs = append(fconds, "rm.league_id = ?"), append(fargs, f.LeagueID) // the board's (MatchSpec.Board)
	}
	if f.Rules != "" {
		conds, args = append(conds, "rm.rules = ?"), append(args, f.Rules)
		fconds, fargs = append(fconds, "rm.rules = ?"), append(fargs, f.Rules)
	}
	conds = append(conds, "rm.tainted_by_fallbacks = 1")
	fconds = append(fconds, "m.forfeited NOT IN ('', '[]')")
	q := cols + ` FROM rating_matches rm` + fallbacks + ` JOIN matches m ON m.id = rm.match_id WHERE ` + strings.Join(conds, " AND ") +
		"\nUNION\n" + cols + ` FROM matches m` + forfeited + ` JOIN rating_matches rm ON rm.match_id = m.id WHERE ` + strings.Join(fconds, " AND ")
	return q, append(args, fargs...)
}

// ratingWhere is the WHERE clause (possibly empty) of the filter's league and rule set, on
// columns with the given prefix.
func ratingWhere(f domain.MatchFilter, prefix string) (string, []any) {
	var conds []string
	var args []any
	if f.LeagueID != "" {
		conds, args = append(conds, prefix+"league_id = ?"), append(args, f.LeagueID)
	}
	if f.Rules != "" {
		conds, args = append(conds, prefix+"rules = ?"), append(args, f.Rules)
	}
	if len(conds) == 0 {
		return "", nil
	}
	return " WHERE " + strings.Join(conds, " AND "), args
}

func tainted(k board.EloKey) int {
	if k.Tainted {
		return 1
	}
	return 0
}

// EloOrder lists the matches of ledger k in the order the store rated them.
func (s *Store) EloOrder(ctx context.Context, k board.EloKey) ([]string, error) {
	rows, err := s.r.QueryContext(ctx, s.rebind(`SELECT match_id FROM rating_elo_log WHERE league_id = ? AND rules = ?
	AND tainted = ? ORDER BY seq`), k.League, k.Rules, tainted(k))
	if err != nil {
		return nil, s.wrap("read the Elo order", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, s.wrap("read the Elo order", err)
		}
		out = append(out, id)
	}
	return out, s.wrap("read the Elo order", rows.Err())
}

// rateFinished puts a finished match in its Elo ledgers (board.EloKeys), once, in tx: for
// each ledger it takes the ledger's next number (an upsert whose row lock makes concurrent
// finishes wait their turn), reads its bots' ratings, and writes their ratings after the match
// and the match's place in the ledger's order. A match without stored deals is not rated.
func (s *Store) rateFinished(ctx context.Context, tx *sql.Tx, matchID string) error {
	var m board.MatchSums
	var comp, status, forfeited string
	var rated int
	var finished dbTime
	net := make([]int64, rating.MaxSeats)
	err := tx.QueryRowContext(ctx, s.rebind(`SELECT rm.league_id, rm.rules, rm.bots, rm.deals, rm.decisions, rm.fallbacks,
	rm.rated, rm.net0, rm.net1, rm.net2, rm.net3, m.status, m.forfeited, m.finished
FROM rating_matches rm JOIN matches m ON m.id = rm.match_id WHERE rm.match_id = ?`), matchID).Scan(&m.League, &m.Rules,
		&comp, &m.Deals, &m.Decisions, &m.Fallbacks, &rated, &net[0], &net[1], &net[2], &net[3], &status, &forfeited, &finished)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	if rated != 0 || domain.MatchStatus(status) != domain.MatchFinished {
		return nil
	}
	m.ID, m.Bots, m.Status = matchID, strings.Split(comp, ","), domain.MatchFinished
	m.Net = net[:len(m.Bots)]
	if m.Forfeited, err = parseNames(forfeited); err != nil {
		return err
	}
	if len(m.Bots) < 2 {
		return nil
	}
	for _, k := range board.EloKeys(&m) {
		ka := []any{k.League, k.Rules, tainted(k)}
		var seq int64
		if err := tx.QueryRowContext(ctx, s.rebind(`INSERT INTO rating_elo_head (league_id, rules, tainted, seq) VALUES (?, ?, ?, 1)
ON CONFLICT (league_id, rules, tainted) DO UPDATE SET seq = rating_elo_head.seq + 1 RETURNING seq`), ka...).Scan(&seq); err != nil {
			return err
		}
		l := board.NewEloLedger(false)
		rows, err := tx.QueryContext(ctx, s.rebind(`SELECT bot, elo, matches FROM rating_elo WHERE league_id = ? AND rules = ? AND tainted = ?
	AND bot IN (`+placeholders(len(m.Bots))+`)`), append(ka, anys(m.Bots)...)...)
		if err != nil {
			return err
		}
		for rows.Next() {
			var b string
			var elo float64
			var n int
			if err := rows.Scan(&b, &elo, &n); err != nil {
				rows.Close()
				return err
			}
			l.Ratings[b], l.Matches[b] = elo, n
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		after, err := board.EloStep(l.Before(m.Bots), m.Net)
		if err != nil {
			return err
		}
		for i, b := range m.Bots {
			if _, err := tx.ExecContext(ctx, s.rebind(`INSERT INTO rating_elo (league_id, rules, tainted, bot, elo, matches)
VALUES (?, ?, ?, ?, ?, 1) ON CONFLICT (league_id, rules, tainted, bot) DO UPDATE SET elo = excluded.elo,
	matches = rating_elo.matches + 1`), append(ka, b, after[i])...); err != nil {
				return err
			}
			if err := s.addEloPoint(ctx, tx, k, b, l.Matches[b]+1, matchID, finished.T, after[i]); err != nil { // elohistory.go
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, s.rebind(`INSERT INTO rating_elo_log (league_id, rules, tainted, seq, match_id)
VALUES (?, ?, ?, ?, ?)`), append(ka, seq, matchID)...); err != nil {
			return err
		}
	}
	_, err = tx.ExecContext(ctx, s.rebind(`UPDATE rating_matches SET rated = 1 WHERE match_id = ?`), matchID)
	return err
}

func anys(v []string) []any {
	out := make([]any, len(v))
	for i, x := range v {
		out[i] = x
	}
	return out
}

// rebuildRatingSums recomputes every sum from the raw results when the database held deals
// before the sums were kept (rating_state.stale, set by the migration). It holds the write
// lock meanwhile (SQLite: the IMMEDIATE transaction; PostgreSQL: a SHARE lock on deals, which
// waits for transactions storing deals and holds off new ones), so no deal is stored between
// the reading and the writing.
func (s *Store) rebuildRatingSums(ctx context.Context) error {
	const op = "rebuild the rating sums"
	var stale int
	if err := s.r.QueryRowContext(ctx, `SELECT stale FROM rating_state WHERE id = 1`).Scan(&stale); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		return s.wrap(op, err)
	}
	if stale == 0 {
		return nil
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return s.wrap(op, err)
	}
	defer tx.Rollback()
	if s.dialect == postgresDialect {
		if _, err := tx.ExecContext(ctx, `LOCK TABLE deals IN SHARE MODE`); err != nil {
			return s.wrap(op, err)
		}
	}
	if err := tx.QueryRowContext(ctx, `SELECT stale FROM rating_state WHERE id = 1`).Scan(&stale); err != nil || stale == 0 {
		return s.wrap(op, err)
	}
	ms, err := s.ListMatches(ctx, domain.MatchFilter{})
	if err != nil {
		return err
	}
	acc, err := board.Replay(ctx, s, ms, func(done, total int) { s.report("matches whose rating sums are rebuilt", done, total) })
	if err != nil {
		return err
	}
	if err := s.writeRebuiltSums(ctx, tx, acc); err != nil {
		return s.wrap(op, err)
	}
	// The matches finished so far enter the Elo ledgers in the order they finished.
	slices.SortFunc(ms, func(a, b domain.Match) int {
		return cmp.Or(a.Finished.Compare(b.Finished), strings.Compare(a.ID, b.ID))
	})
	for _, m := range ms {
		if m.Status == domain.MatchFinished {
			if err := s.rateFinished(ctx, tx, m.ID); err != nil {
				return s.wrap(op, err)
			}
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE rating_state SET stale = 0 WHERE id = 1`); err != nil {
		return s.wrap(op, err)
	}
	return s.wrap(op, tx.Commit())
}

// writeRebuiltSums replaces every rating sum (but the Elo ledgers, which rateFinished fills)
// with those replayed from the stored results: matches, open groups, compositions, sources
// and roles.
func (s *Store) writeRebuiltSums(ctx context.Context, tx *sql.Tx, acc *board.Accumulator) error {
	for _, t := range slices.Concat([]string{"rating_roles", "rating_matches", "rating_open_groups", "rating_compositions",
		"rating_elo", "rating_elo_head", "rating_elo_log", "rating_elo_points"}, sourceTables) {
		if _, err := tx.ExecContext(ctx, "DELETE FROM "+t); err != nil {
			return err
		}
	}
	sums := acc.Sums
	for _, id := range slices.Sorted(mapKeys(sums.Matches)) {
		m := sums.Matches[id]
		args := append([]any{m.ID, m.League, m.Rules, rating.CompositionKey(m.Bots), m.Duplicate, fallbackTainted(m), m.Deals,
			m.Decisions, m.Fallbacks}, nets(m.Net)...)
		if _, err := tx.ExecContext(ctx, s.rebind(upsertRatingMatch), args...); err != nil {
			return err
		}
	}
	for _, g := range acc.Open() {
		args := append([]any{g.Match, g.Group, g.Deals}, nets(g.Net)...)
		if _, err := tx.ExecContext(ctx, s.rebind(strings.Split(upsertRatingGroup, " RETURNING")[0]), args...); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, fillRatingCompositions); err != nil {
		return err
	}
	if err := s.writeAccumulatedSources(ctx, tx, acc, s.sourceRows()); err != nil {
		return err
	}
	for k, r := range sums.Roles {
		if _, err := tx.ExecContext(ctx, s.rebind(upsertRatingRole), k.League, k.Rules, k.Bots, k.Bot, k.Role,
			r.Deals, r.Total, r.TotalSq, r.Made); err != nil {
			return err
		}
	}
	return nil
}
