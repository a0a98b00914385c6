package store

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/tapparena/tapp/arena/internal/board"
	"github.com/tapparena/tapp/arena/internal/rating"
)

// The deal-source sums (migration 0016_source_sums; rating.SourceSums): the ratings' unit is
// the deal source, every table and seating that shares one deal's cards, and a source's cells
// (what each composition played of it) are correlated. So besides each composition's sums
// over its cells (rating_tables) the store keeps, for every pair of compositions that shared
// sources, the sums of their cells' products (rating_pairs), and the sources of each league
// and rule set and of each bot (rating_source_counts, rating_bot_sources). A unit completing
// changes one cell (rating_cells, one row per source and composition) and so the pairs of that
// cell with the source's other cells: the transaction that completes it locks the source's row
// (rating_sources), reads its cells, and adds the change of every sum (board.ChangeCell) with
// additive upserts. The lock makes concurrent writers of one source take turns (their changes
// of a pair's sums are products of each other's cells); the board never reads a cell except
// those of the sources a tainted match played.

// pointColumns are rating_tables' Bradley–Terry columns (rating.TableSums.Points and
// PointsCross), in the order of pointValues.
var pointColumns = func() []string {
	var cols []string
	for i := range rating.MaxSeats {
		cols = append(cols, fmt.Sprintf("p%d", i))
	}
	for i := range rating.MaxSeats {
		for j := i; j < rating.MaxSeats; j++ {
			cols = append(cols, fmt.Sprintf("pq%d%d", i, j))
		}
	}
	return cols
}()

// pairColumns are rating_pairs' value columns (rating.PairSums), in the order of pairValues:
// A's seat x and B's seat y index nn, pp as nn{x}{y}.
var pairColumns = func() []string {
	cols := []string{"sources", "dd"}
	n := rating.MaxSeats
	for _, p := range []string{"nd", "dn", "pc", "cp"} {
		for i := range n {
			cols = append(cols, fmt.Sprintf("%s%d", p, i))
		}
	}
	for _, p := range []string{"nn", "pp"} {
		for x := range n {
			for y := range n {
				cols = append(cols, fmt.Sprintf("%s%d%d", p, x, y))
			}
		}
	}
	return cols
}()

// pointValues lays out a table's Bradley–Terry sums in pointColumns' order.
func pointValues(t *rating.TableSums) []int64 {
	k, n := len(t.Bots), rating.MaxSeats
	v := make([]int64, len(pointColumns))
	if t.Points == nil {
		return v
	}
	for i := range k {
		v[i] = t.Points[i]
		for j := i; j < k; j++ {
			v[n+rating.CrossIndex(i, j, n)] = t.PointsCross[rating.CrossIndex(i, j, k)]
		}
	}
	return v
}

// setPoints is the inverse of pointValues.
func setPoints(t *rating.TableSums, v []int64) {
	k, n := len(t.Bots), rating.MaxSeats
	t.Points, t.PointsCross = make([]int64, k), make([]int64, k*(k+1)/2)
	for i := range k {
		t.Points[i] = v[i]
		for j := i; j < k; j++ {
			t.PointsCross[rating.CrossIndex(i, j, k)] = v[n+rating.CrossIndex(i, j, n)]
		}
	}
}

// pairValues lays out a pair's sums in pairColumns' order (zeros for seats a smaller table
// lacks).
func pairValues(p *rating.PairSums) []int64 {
	n := rating.MaxSeats
	ka, kb := len(p.A), len(p.B)
	v := make([]int64, len(pairColumns))
	v[0], v[1] = p.Sources, p.DD
	at := 2
	for x := range ka {
		v[at+x], v[at+2*n+x] = p.ND[x], p.PC[x]
	}
	for y := range kb {
		v[at+n+y], v[at+3*n+y] = p.DN[y], p.CP[y]
	}
	at += 4 * n
	for x := range ka {
		for y := range kb {
			v[at+x*n+y], v[at+n*n+x*n+y] = p.NN[x*kb+y], p.PP[x*kb+y]
		}
	}
	return v
}

// pairFromValues is the inverse of pairValues.
func pairFromValues(a, b []string, v []int64) *rating.PairSums {
	n := rating.MaxSeats
	ka, kb := len(a), len(b)
	p := &rating.PairSums{A: a, B: b, Sources: v[0], DD: v[1], ND: make([]int64, ka), DN: make([]int64, kb),
		NN: make([]int64, ka*kb), PC: make([]int64, ka), CP: make([]int64, kb), PP: make([]int64, ka*kb)}
	at := 2
	for x := range ka {
		p.ND[x], p.PC[x] = v[at+x], v[at+2*n+x]
	}
	for y := range kb {
		p.DN[y], p.CP[y] = v[at+n+y], v[at+3*n+y]
	}
	at += 4 * n
	for x := range ka {
		for y := range kb {
			p.NN[x*kb+y], p.PP[x*kb+y] = v[at+x*n+y], v[at+n*n+x*n+y]
		}
	}
	return p
}

func anyInts(v []int64) []any {
	out := make([]any, len(v))
	for i, x := range v {
		out[i] = x
	}
	return out
}

// sourceBatchQueries are the multi-row statements of writeSourceUnits in every size rowOps
// makes, prepared with the batch (before its transaction); spelled once per store (and
// layout of the rows: a test's store may be migrated while open).
func (s *Store) sourceBatchQueries() []string {
	rows := s.sourceRows()
	if rows.scoped {
		s.sourceBatch.Do(func() { s.sourceBatchQs = s.spellSourceBatchQueries(rows) })
		return s.sourceBatchQs
	}
	return s.spellSourceBatchQueries(rows)
}

// spellSourceBatchQueries spells sourceBatchQueries.
func (s *Store) spellSourceBatchQueries(rows *sourceRows) []string {
	var qs []string
	for n := 1; n <= maxRowsPerInsert; n *= 2 {
		for _, op := range []struct {
			head string
			cols int
			tail []string
		}{
			{rows.insertSources, rows.sourceCols, []string{rows.addSources, rows.returningCells}},
			{rows.insertSources, rows.sourceCols, []string{rows.addSources}},
			{rows.insertCells, rows.cellCols, []string{rows.setCells}},
		} {
			for _, w := range s.rowOps(op.head, op.cols, make([]any, n*op.cols), op.tail...) {
				qs = append(qs, w.query)
			}
		}
	}
	return qs
}

var (
	upsertRatingTable = upsert("rating_tables", []string{"league_id", "rules", "bots"}, 3, slices.Concat(tableColumns, pointColumns), "")
	upsertRatingPair  = upsert("rating_pairs", []string{"league_id", "rules", "a", "b"}, 4, pairColumns, "")
	upsertSourceCount = upsert("rating_source_counts", []string{"league_id", "rules"}, 2, []string{"sources"}, "sources")
	upsertBotSources  = upsert("rating_bot_sources", []string{"league_id", "rules", "bot"}, 3, []string{"sources"}, "")
)

// sourceQueries are the statements writeSourceUnits prepares.
func (s *Store) sourceQueries() []string {
	rows := s.sourceRows()
	return []string{rows.readCells, rows.setCell, upsertRatingTable, upsertRatingPair, upsertSourceCount, upsertBotSources}
}

// completedUnit is a unit (a duplicate group under every seating, or a deal) that a batch
// completes: what it adds to its deal source's cell of its composition.
type completedUnit struct {
	lr     board.LeagueRules
	source string
	cell   rating.Cell // the composition sorted, the nets in that order
	key    string      // rating.CompositionKey(cell.Bots), spelled once (sorting compares it)
}

func newCompletedUnit(lr board.LeagueRules, source string, cell rating.Cell) completedUnit {
	return completedUnit{lr: lr, source: source, cell: cell, key: rating.CompositionKey(cell.Bots)}
}

func compareUnits(a, b completedUnit) int {
	return cmp.Or(strings.Compare(a.source, b.source), strings.Compare(a.lr.League, b.lr.League),
		strings.Compare(a.lr.Rules, b.lr.Rules), strings.Compare(a.key, b.key))
}

// writeSourceUnits adds the completed units to the deal-source sums in tx: lock every source's
// row (in one order, compareUnits', so that concurrent writers lock sources alike), read the cells
// of those that have any, change the cells the units fall in and write them; then add the
// sums' changes, each kind of row in key order. The rows of many sources go in one statement
// each (lockSources, and rowOps' multi-row upserts): a statement per source and step, three
// for every deal of a match without duplicates, were 17% of a stored deal's CPU in SQLite.
//
// It returns the deal sources of each league and rule set to which the units added one: the
// clocks of their rating histories.
func (s *Store) writeSourceUnits(ctx context.Context, tx *sql.Tx, units []completedUnit) (map[board.LeagueRules]int64, error) {
	if len(units) == 0 {
		return nil, nil
	}
	slices.SortFunc(units, compareUnits)
	var runs [][]completedUnit // the units of each source, in compareUnits' order
	var lrs []board.LeagueRules
	for start := 0; start < len(units); {
		end := start + 1
		for end < len(units) && units[end].lr == units[start].lr && units[end].source == units[start].source {
			end++
		}
		runs = append(runs, units[start:end])
		lrs = append(lrs, units[start].lr)
		start = end
	}
	keys, err := s.sourceKeysFor(ctx, tx, lrs)
	if err != nil {
		return nil, fmt.Errorf("rating sums of deal sources: %w", err)
	}
	have, guessed, err := s.lockSources(ctx, tx, keys, runs)
	if err != nil {
		return nil, err
	}
	delta := map[board.LeagueRules]*rating.SourceSums{}
	var cellArgs, addedArgs []any
	for i, run := range runs {
		u := run[0]
		d := delta[u.lr]
		if d == nil {
			d = rating.NewSourceSums()
			delta[u.lr] = d
		}
		cells := map[string]*rating.Cell{}
		if have[i] > 0 {
			if cells, err = s.readCells(ctx, tx, u.lr, u.source); err != nil {
				return nil, fmt.Errorf("rating sums of deal source %s: %w", u.source, err)
			}
		}
		before := len(cells)
		for k, v := range run { // a run is in key order: a composition's units follow each other
			board.ChangeCell(d, cells, v.cell)
			if k+1 < len(run) && run[k+1].key == v.key {
				continue
			}
			c := cells[v.key]
			cellArgs = append(append(keys.args(cellArgs, u.lr), u.source, v.key, c.Deals), nets(c.Net)...)
		}
		if added := len(cells) - before; added != guessed[i] { // lockSources added guessed already
			addedArgs = append(keys.args(addedArgs, u.lr), u.source, added-guessed[i])
		}
	}
	rows := keys.rows
	if err := s.execOps(ctx, tx, s.rowOps(rows.insertCells, rows.cellCols, cellArgs, rows.setCells)); err != nil {
		return nil, fmt.Errorf("rating sums of deal sources: cells: %w", err)
	}
	if err := s.execOps(ctx, tx, s.rowOps(rows.insertSources, rows.sourceCols, addedArgs, rows.addSources)); err != nil {
		return nil, fmt.Errorf("rating sums of deal sources: %w", err)
	}
	clocks := map[board.LeagueRules]int64{}
	for _, lr := range slices.SortedFunc(maps.Keys(delta), compareLR) {
		clock, err := s.addSourceSums(ctx, tx, lr, delta[lr])
		if err != nil {
			return nil, err
		}
		if clock > 0 {
			clocks[lr] = clock
		}
	}
	return clocks, nil
}

// lockSources takes the row of every run's source in tx, in the runs' order (inserting those
// new): the row lock (PostgreSQL) orders the writers of one source. It returns how many cells
// each source had, and how many it added to each source's count already: the compositions
// of its run, the cells a new source gets (a source new to this transaction, which every
// deal is when a match plays no duplicates, is then written once, not inserted and then
// updated); writeSourceUnits adds the difference to the cells really added, where it is not 0.
func (s *Store) lockSources(ctx context.Context, tx *sql.Tx, keys *sourceKeys, runs [][]completedUnit) (have []int64, guessed []int, err error) {
	rows := keys.rows
	args := make([]any, 0, len(runs)*rows.sourceCols)
	at := make(map[board.LeagueRules]map[string]int, 1)
	guessed = make([]int, len(runs))
	for i, run := range runs {
		u := run[0]
		for k := range run { // a run is in key order: a composition's units follow each other
			if k+1 == len(run) || run[k+1].key != run[k].key {
				guessed[i]++
			}
		}
		args = append(keys.args(args, u.lr), u.source, guessed[i])
		if at[u.lr] == nil {
			at[u.lr] = map[string]int{}
		}
		at[u.lr][u.source] = i
	}
	have = make([]int64, len(runs))
	for _, op := range s.rowOps(rows.insertSources, rows.sourceCols, args, rows.addSources, rows.returningCells) {
		if err := s.txQueryEach(ctx, tx, op, func(scan func(...any) error) error {
			var source string
			var cells int64
			lr, err := keys.scanKey(scan, &source, &cells)
			if err != nil {
				return err
			}
			if i, ok := at[lr][source]; ok {
				have[i] = cells - int64(guessed[i])
			}
			return nil
		}); err != nil {
			return nil, nil, fmt.Errorf("rating sums of deal sources: lock: %w", err)
		}
	}
	return have, guessed, nil
}

// txQueryEach runs op in tx (through its prepared statement if it has one) and hands each
// row to scan.
func (s *Store) txQueryEach(ctx context.Context, tx *sql.Tx, op writeOp, scan func(func(...any) error) error) error {
	var rows *sql.Rows
	var err error
	if v, ok := s.stmts.Load(op.query); ok {
		rows, err = tx.StmtContext(ctx, v.(*sql.Stmt)).QueryContext(ctx, op.args...)
	} else {
		rows, err = tx.QueryContext(ctx, op.query, op.args...)
	}
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows.Scan); err != nil {
			return err
		}
	}
	return rows.Err()
}

// readCells reads a source's cells through q, by composition key.
func (s *Store) readCells(ctx context.Context, q querier, lr board.LeagueRules, source string) (map[string]*rating.Cell, error) {
	var rows *sql.Rows
	var err error
	args := []any{lr.League, lr.Rules, source}
	query := s.rebind(s.sourceRows().readCells)
	if tx, ok := q.(*sql.Tx); ok {
		if v, ok := s.stmts.Load(query); ok {
			rows, err = tx.StmtContext(ctx, v.(*sql.Stmt)).QueryContext(ctx, args...)
		} else {
			rows, err = tx.QueryContext(ctx, query, args...)
		}
	} else {
		rows, err = q.QueryContext(ctx, query, args...)
	}
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cells := map[string]*rating.Cell{}
	for rows.Next() {
		var key string
		c := rating.Cell{Net: make([]int64, rating.MaxSeats)}
		if err := rows.Scan(&key, &c.Deals, &c.Net[0], &c.Net[1], &c.Net[2], &c.Net[3]); err != nil {
			return nil, err
		}
		c.Bots = strings.Split(key, ",")
		c.Net = c.Net[:len(c.Bots)]
		cells[key] = &c
	}
	return cells, rows.Err()
}

// addSourceSums adds the deal-source sums d of one league and rule set to the kept rows in
// tx (additive upserts; rows whose change is zero are left alone). It returns the league's
// deal sources after them when d added some, else 0.
func (s *Store) addSourceSums(ctx context.Context, tx *sql.Tx, lr board.LeagueRules, d *rating.SourceSums) (int64, error) {
	for _, key := range slices.Sorted(maps.Keys(d.Tables)) {
		t := d.Tables[key]
		v := slices.Concat(tableInts(t), pointValues(t))
		if allZero(v) {
			continue
		}
		if _, err := s.txExec(ctx, tx, s.rebind(upsertRatingTable), append([]any{lr.League, lr.Rules, key}, anyInts(v)...)...); err != nil {
			return 0, fmt.Errorf("rating sums of table %s: %w", key, err)
		}
	}
	for _, key := range slices.SortedFunc(maps.Keys(d.Pairs), comparePairKeys) {
		v := pairValues(d.Pairs[key])
		if allZero(v) {
			continue
		}
		if _, err := s.txExec(ctx, tx, s.rebind(upsertRatingPair), append([]any{lr.League, lr.Rules, key[0], key[1]}, anyInts(v)...)...); err != nil {
			return 0, fmt.Errorf("rating sums of tables %s and %s: %w", key[0], key[1], err)
		}
	}
	var clock int64
	if d.Sources != 0 {
		if err := s.txQueryRow(ctx, tx, s.rebind(upsertSourceCount), lr.League, lr.Rules, d.Sources).Scan(&clock); err != nil {
			return 0, fmt.Errorf("rating sums' deal sources: %w", err)
		}
	}
	for _, b := range slices.Sorted(maps.Keys(d.BotSources)) {
		if n := d.BotSources[b]; n != 0 {
			if _, err := s.txExec(ctx, tx, s.rebind(upsertBotSources), lr.League, lr.Rules, b, n); err != nil {
				return 0, fmt.Errorf("rating sums' deal sources of %s: %w", b, err)
			}
		}
	}
	return clock, nil
}

func tableInts(t *rating.TableSums) []int64 {
	var out []int64
	for _, x := range tableValues(t) {
		out = append(out, x.(int64))
	}
	return out
}

func allZero(v []int64) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}

func comparePairKeys(a, b [2]string) int {
	return cmp.Or(strings.Compare(a[0], b[0]), strings.Compare(a[1], b[1]))
}

func compareLR(a, b board.LeagueRules) int {
	return cmp.Or(strings.Compare(a.League, b.League), strings.Compare(a.Rules, b.Rules))
}

// readSourceSums reads the pairs and deal-source counts of the filter's league and rule set
// into sums (its tables are read with their points by RatingSums), and the sample of deal
// sources with the query sampleCells spells for the dialect and the rows' layout.
func readSourceSums(sums *board.Sums, d dialect, rows *sourceRows, where string, args []any, each func(string, []any, func(func(...any) error) error) error) error {
	err := each(`SELECT league_id, rules, a, b, `+strings.Join(pairColumns, ", ")+` FROM rating_pairs`+where, args,
		func(scan func(...any) error) error {
			var ps board.PairScope
			v := make([]int64, len(pairColumns))
			dest := []any{&ps.League, &ps.Rules, &ps.A, &ps.B}
			for i := range v {
				dest = append(dest, &v[i])
			}
			if err := scan(dest...); err != nil {
				return err
			}
			sums.Pairs[ps] = pairFromValues(strings.Split(ps.A, ","), strings.Split(ps.B, ","), v)
			return nil
		})
	if err != nil {
		return err
	}
	err = each(`SELECT league_id, rules, sources FROM rating_source_counts`+where, args, func(scan func(...any) error) error {
		var lr board.LeagueRules
		var n int64
		if err := scan(&lr.League, &lr.Rules, &n); err != nil {
			return err
		}
		sums.SourceCounts[lr] = n
		return nil
	})
	if err != nil {
		return err
	}
	err = each(`SELECT league_id, rules, bot, sources FROM rating_bot_sources`+where, args, func(scan func(...any) error) error {
		var lr board.LeagueRules
		var b string
		var n int64
		if err := scan(&lr.League, &lr.Rules, &b, &n); err != nil {
			return err
		}
		if sums.BotSources[lr] == nil {
			sums.BotSources[lr] = map[string]int64{}
		}
		sums.BotSources[lr][b] = n
		return nil
	})
	if err != nil {
		return err
	}
	// The sample of deal sources (board.Sums.Sample): the first ones by key, through the
	// sources' primary key, with their cells through the cells'.
	for _, lr := range slices.SortedFunc(maps.Keys(sums.SourceCounts), compareLR) {
		sample := map[string][]rating.Cell{}
		err := each(sampleCells(d, rows), []any{lr.League, lr.Rules, lr.League, lr.Rules}, func(scan func(...any) error) error {
			var src, bots string
			c := rating.Cell{Net: make([]int64, rating.MaxSeats)}
			if err := scan(&src, &bots, &c.Deals, &c.Net[0], &c.Net[1], &c.Net[2], &c.Net[3]); err != nil {
				return err
			}
			c.Bots = strings.Split(bots, ",")
			c.Net = c.Net[:len(c.Bots)]
			sample[src] = append(sample[src], c)
			return nil
		})
		if err != nil {
			return err
		}
		sums.Sample[lr] = sample
	}
	return nil
}

// sampleCells is the query of the sample's cells: those of the first rating.SampleSources
// deal sources by key, of a league and rule set (its arguments: the league and the rules,
// twice). Both read the sources' primary key for the first ones and
// the cells' for their cells, rows in proportion to the sample whatever the table holds. On
// PostgreSQL each source of the sample looks its cells up by key (a lateral subquery, which
// OFFSET 0 keeps from being merged into a join): given "source IN (subquery)", its planner
// joins the subquery to every cell of the league — a hash join after a scan of all of
// rating_cells (a row per deal source: 900,000 in a ladder of a million deals), or, while
// the table's statistics still say it is small, a semi-join that runs the subquery again
// for every cell (30 ms at 2,000 cells, for every board the store computes, and so for
// every point of the rating history while deals are stored); "source = ANY(ARRAY(subquery))"
// reads every cell of the league, in the index's order, to save sorting 256 rows.
//
// The rows are keyed by league_id and rules (versions 16 to 32) or by their scope's number,
// looked up from the same arguments (sourcerows.go).
func sampleCells(d dialect, rows *sourceRows) string {
	key := `league_id = ? AND rules = ?`
	if rows.scoped {
		key = `scope = ` + scopeOf
	}
	if d == postgresDialect {
		return fmt.Sprintf(`SELECT s.source, c.bots, c.deals, c.net0, c.net1, c.net2, c.net3
FROM (SELECT source FROM rating_sources WHERE %s ORDER BY source LIMIT %d) s
CROSS JOIN LATERAL (SELECT bots, deals, net0, net1, net2, net3 FROM rating_cells
	WHERE %s AND source = s.source OFFSET 0) c
ORDER BY s.source, c.bots`, key, rating.SampleSources, key)
	}
	return fmt.Sprintf(`SELECT source, bots, deals, net0, net1, net2, net3 FROM rating_cells WHERE %s
	AND source IN (SELECT source FROM rating_sources WHERE %s ORDER BY source LIMIT %d)
ORDER BY source, bots`, key, key, rating.SampleSources)
}

// SourceCells reads the cells of deal sources of one league and rule set (board.CellSource):
// what taking a tainted match out of the kept sums needs.
func (s *Store) SourceCells(ctx context.Context, lr board.LeagueRules, sources []string) (map[string][]rating.Cell, error) {
	out := map[string][]rating.Cell{}
	for _, src := range sources {
		cells, err := s.readCells(ctx, s.r, lr, src)
		if err != nil {
			return nil, s.wrap("read the cells of deal source "+src, err)
		}
		for _, key := range slices.Sorted(maps.Keys(cells)) {
			out[src] = append(out[src], *cells[key])
		}
	}
	return out, nil
}

// writeAccumulatedSources writes the deal-source sums of an accumulator that replayed stored
// deals (a rebuild: the rows are empty) in tx: every source's row and cells, and the sums;
// its rows keyed as rows say (migration 16's conversion writes them as version 16 did).
func (s *Store) writeAccumulatedSources(ctx context.Context, tx *sql.Tx, acc *board.Accumulator, rows *sourceRows) error {
	keys := &sourceKeys{rows: rows}
	err := acc.EachSource(func(lr board.LeagueRules, source string, cells []rating.Cell) error {
		if rows.scoped && keys.ids[lr] == 0 {
			id, err := s.scopeID(ctx, tx, lr)
			if err != nil {
				return err
			}
			if keys.ids == nil {
				keys.ids = map[board.LeagueRules]int64{}
			}
			keys.ids[lr] = id
		}
		if _, err := tx.ExecContext(ctx, s.rebind(rows.insertSource), append(keys.args(nil, lr), source, len(cells))...); err != nil {
			return err
		}
		for _, c := range cells {
			if _, err := tx.ExecContext(ctx, s.rebind(rows.setCell), append(append(keys.args(nil, lr), source,
				rating.CompositionKey(c.Bots), c.Deals), nets(c.Net)...)...); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	sums := acc.Finish(nil)
	byLR := map[board.LeagueRules]*rating.SourceSums{}
	get := func(lr board.LeagueRules) *rating.SourceSums {
		if byLR[lr] == nil {
			byLR[lr] = rating.NewSourceSums()
		}
		return byLR[lr]
	}
	for sc, t := range sums.Tables {
		get(board.LeagueRules{League: sc.League, Rules: sc.Rules}).Tables[sc.Bots] = t
	}
	for ps, p := range sums.Pairs {
		get(board.LeagueRules{League: ps.League, Rules: ps.Rules}).Pairs[[2]string{ps.A, ps.B}] = p
	}
	for lr, n := range sums.SourceCounts {
		get(lr).Sources = n
	}
	for lr, bs := range sums.BotSources {
		maps.Copy(get(lr).BotSources, bs)
	}
	for _, lr := range slices.SortedFunc(maps.Keys(byLR), compareLR) {
		if _, err := s.addSourceSums(ctx, tx, lr, byLR[lr]); err != nil {
			return err
		}
	}
	return nil
}

// sourceTables are the tables of the deal-source sums, which a rebuild empties.
var sourceTables = []string{"rating_tables", "rating_pairs", "rating_sources", "rating_cells", "rating_source_counts",
	"rating_bot_sources"}

// convertSourceSums is the Go part of migration 16 (its rows as version 16 keys them, which
// migration 33 renumbers): the deal-source sums of every stored deal,
// replayed league by league (sources never span two leagues or rule sets, so that memory holds
// one league's cells at a time), with progress. A database whose sums are to be rebuilt whole
// (rating_state.stale) is left to that rebuild. On PostgreSQL a SHARE lock on deals holds off
// an older build's writers meanwhile.
func convertSourceSums(ctx context.Context, s *Store, tx *sql.Tx) error {
	var stale int
	if err := tx.QueryRowContext(ctx, `SELECT stale FROM rating_state WHERE id = 1`).Scan(&stale); err == nil && stale != 0 {
		return nil
	}
	if s.dialect == postgresDialect {
		if _, err := tx.ExecContext(ctx, `LOCK TABLE deals IN SHARE MODE`); err != nil {
			return err
		}
	}
	for _, t := range sourceTables {
		if _, err := tx.ExecContext(ctx, "DELETE FROM "+t); err != nil {
			return err
		}
	}
	ms, err := ratedMatches(ctx, s, tx)
	if err != nil {
		return err
	}
	const what = "matches whose deal-source rating sums are built"
	var acc *board.Accumulator
	var cur board.LeagueRules
	for i, m := range ms {
		s.report(what, i, len(ms))
		if lr := (board.LeagueRules{League: m.info.League, Rules: m.info.Rules}); acc == nil || lr != cur {
			if acc != nil {
				if err := s.writeAccumulatedSources(ctx, tx, acc, legacySourceRows); err != nil {
					return err
				}
			}
			acc, cur = board.NewAccumulator(), lr
		}
		deals, err := s.loadDealsFrom(ctx, tx, m.mi, m.info.ID, allDeals, false)
		if err != nil {
			return err
		}
		for d := range deals {
			if err := acc.AddDeal(m.info, &deals[d]); err != nil {
				return err
			}
		}
	}
	if acc != nil {
		if err := s.writeAccumulatedSources(ctx, tx, acc, legacySourceRows); err != nil {
			return err
		}
	}
	s.report(what, len(ms), len(ms))
	return nil
}

// ratedMatch is a match with rating sums, as the deal-source sums are built from it.
type ratedMatch struct {
	info board.MatchInfo
	mi   *matchInfo
}

// ratedMatches are the matches with rating sums, by league and rule set (compareLR), then id.
func ratedMatches(ctx context.Context, s *Store, tx *sql.Tx) ([]ratedMatch, error) {
	rows, err := tx.QueryContext(ctx, `SELECT id, duplicate FROM matches WHERE id IN (SELECT match_id FROM rating_matches) ORDER BY id`)
	if err != nil {
		return nil, err
	}
	var ms []ratedMatch
	dup := map[string]bool{}
	var ids []string
	for rows.Next() {
		var id string
		var d bool
		if err := rows.Scan(&id, &d); err != nil {
			rows.Close()
			return nil, err
		}
		ids, dup[id] = append(ids, id), d
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for _, id := range ids {
		mi, err := s.readMatchInfo(ctx, tx, id)
		if err != nil {
			return nil, err
		}
		ms = append(ms, ratedMatch{info: board.MatchInfo{ID: id, League: mi.league, Rules: formatRules(mi.rules), Duplicate: dup[id],
			Players: mi.rules.Players}, mi: mi})
	}
	slices.SortStableFunc(ms, func(a, b ratedMatch) int {
		return compareLR(board.LeagueRules{League: a.info.League, Rules: a.info.Rules}, board.LeagueRules{League: b.info.League, Rules: b.info.Rules})
	})
	return ms, nil
}
