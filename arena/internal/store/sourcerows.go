package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/tapparena/tapp/arena/internal/board"
)

// How the deal sources' rows (rating_sources, rating_cells; sourcesums.go) name their league
// and rule set. From schema version 33 (migration 0033_source_scopes) by its number in
// rating_scopes: a row then holds a number where it held the rule set's text, about 150
// bytes, in the row and in its key. Versions 16 to 32 kept the text, and a store whose
// schema is at one of them (migration 16's conversion, which runs before 33; tests that
// build older databases) writes and reads their rows as they were.

// sourceRows are the statements of one layout of the deal sources' rows.
type sourceRows struct {
	scoped bool // keyed by rating_scopes.id, else by league_id and rules
	// The multi-row statements of writeSourceUnits (rowOps): the sources' rows, added to
	// (with their runs' compositions to lock them and learn their cells, returningCells; then,
	// where that was not the count of cells added, with the difference), and the cells set.
	insertSources, addSources, returningCells string
	sourceCols                                int
	insertCells, setCells                     string
	cellCols                                  int
	// The one-row statements: a source's row and a cell set (a rebuild's), and a source's
	// cells read by league_id, rules and source in either layout.
	insertSource, setCell, readCells string
}

const setCellValues = ` DO UPDATE SET deals = excluded.deals,
	net0 = excluded.net0, net1 = excluded.net1, net2 = excluded.net2, net3 = excluded.net3`

// legacySourceRows are versions 16 to 32's: every row keyed by the league's id and the rule
// set's text.
var legacySourceRows = &sourceRows{
	insertSources:  `INSERT INTO rating_sources (league_id, rules, source, cells) VALUES `,
	addSources:     "\nON CONFLICT (league_id, rules, source) DO UPDATE SET cells = rating_sources.cells + excluded.cells",
	returningCells: ` RETURNING league_id, rules, source, cells`,
	sourceCols:     4,
	insertCells:    `INSERT INTO rating_cells (league_id, rules, source, bots, deals, net0, net1, net2, net3) VALUES `,
	setCells:       "\nON CONFLICT (league_id, rules, source, bots)" + setCellValues,
	cellCols:       9,
	insertSource:   `INSERT INTO rating_sources (league_id, rules, source, cells) VALUES (?, ?, ?, ?)`,
	setCell: `INSERT INTO rating_cells (league_id, rules, source, bots, deals, net0, net1, net2, net3)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (league_id, rules, source, bots)` + setCellValues,
	readCells: `SELECT bots, deals, net0, net1, net2, net3 FROM rating_cells WHERE league_id = ? AND rules = ? AND source = ?`,
}

// scopeOf is the number of a league and rule set in rating_scopes, as a subquery of its two
// arguments.
const scopeOf = `(SELECT id FROM rating_scopes WHERE league_id = ? AND rules = ?)`

// scopedSourceRows are version 33's: every row keyed by its scope's number.
var scopedSourceRows = &sourceRows{
	scoped:         true,
	insertSources:  `INSERT INTO rating_sources (scope, source, cells) VALUES `,
	addSources:     "\nON CONFLICT (scope, source) DO UPDATE SET cells = rating_sources.cells + excluded.cells",
	returningCells: ` RETURNING scope, source, cells`,
	sourceCols:     3,
	insertCells:    `INSERT INTO rating_cells (scope, source, bots, deals, net0, net1, net2, net3) VALUES `,
	setCells:       "\nON CONFLICT (scope, source, bots)" + setCellValues,
	cellCols:       8,
	insertSource:   `INSERT INTO rating_sources (scope, source, cells) VALUES (?, ?, ?)`,
	setCell: `INSERT INTO rating_cells (scope, source, bots, deals, net0, net1, net2, net3)
VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (scope, source, bots)` + setCellValues,
	readCells: `SELECT bots, deals, net0, net1, net2, net3 FROM rating_cells WHERE scope = ` + scopeOf + ` AND source = ?`,
}

// scopedSources reports whether the schema keys the deal sources' rows by rating_scopes
// (version 33 on).
func (s *Store) scopedSources() bool { return s.schema >= 33 }

// sourceRows are the statements of the deal sources' rows as the schema keeps them.
func (s *Store) sourceRows() *sourceRows {
	if s.scopedSources() {
		return scopedSourceRows
	}
	return legacySourceRows
}

// sourceKeys are the key columns of the deal sources' rows for the leagues and rule sets of
// one transaction: their scopes' numbers, or (legacy) their league and rules.
type sourceKeys struct {
	rows *sourceRows
	ids  map[board.LeagueRules]int64
	lrs  map[int64]board.LeagueRules
}

// args appends lr's key columns to args.
func (k *sourceKeys) args(args []any, lr board.LeagueRules) []any {
	if k.rows.scoped {
		return append(args, k.ids[lr])
	}
	return append(args, lr.League, lr.Rules)
}

// scanKey scans a row's key columns and source, then rest, and returns its league and rules.
func (k *sourceKeys) scanKey(scan func(...any) error, source *string, rest ...any) (board.LeagueRules, error) {
	var lr board.LeagueRules
	if !k.rows.scoped {
		err := scan(append([]any{&lr.League, &lr.Rules, source}, rest...)...)
		return lr, err
	}
	var id int64
	if err := scan(append([]any{&id, source}, rest...)...); err != nil {
		return lr, err
	}
	lr, ok := k.lrs[id]
	if !ok {
		return lr, fmt.Errorf("deal source %s: a scope (%d) this transaction did not write", *source, id)
	}
	return lr, nil
}

// sourceKeysFor returns the key columns of the leagues and rule sets given in tx, numbering
// those rating_scopes lacks.
func (s *Store) sourceKeysFor(ctx context.Context, tx *sql.Tx, lrs []board.LeagueRules) (*sourceKeys, error) {
	k := &sourceKeys{rows: s.sourceRows()}
	if !k.rows.scoped {
		return k, nil
	}
	k.ids, k.lrs = make(map[board.LeagueRules]int64, len(lrs)), make(map[int64]board.LeagueRules, len(lrs))
	for _, lr := range lrs {
		if _, ok := k.ids[lr]; ok {
			continue
		}
		id, err := s.scopeID(ctx, tx, lr)
		if err != nil {
			return nil, fmt.Errorf("the number of league %q's rule set %q: %w", lr.League, lr.Rules, err)
		}
		k.ids[lr], k.lrs[id] = id, lr
	}
	return k, nil
}

const selectScope = `SELECT id FROM rating_scopes WHERE league_id = ? AND rules = ?`

// scopeID returns the number of lr in rating_scopes, adding it in tx if it has none. A number
// is kept in this process only when tx found it without adding it (another transaction
// committed it): one added in a transaction that then rolls back is never kept, since
// another league could be given it. (A transaction looks each league and rule set up once:
// sourceKeysFor's and writeAccumulatedSources' callers make one call per transaction.) It
// reads through tx, not another connection: on PostgreSQL the pool's connections may all be
// held by writers waiting for one more.
func (s *Store) scopeID(ctx context.Context, tx *sql.Tx, lr board.LeagueRules) (int64, error) {
	if v, ok := s.scopes.Load(lr); ok {
		return v.(int64), nil
	}
	var id int64
	err := tx.QueryRowContext(ctx, s.rebind(selectScope), lr.League, lr.Rules).Scan(&id)
	if err == nil {
		s.scopes.Store(lr, id)
		return id, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return 0, err
	}
	// Another writer may be adding it too: DO NOTHING waits for it (PostgreSQL), and the
	// statement after sees the row, whoever added it.
	if _, err := tx.ExecContext(ctx, s.rebind(`INSERT INTO rating_scopes (league_id, rules) VALUES (?, ?)
ON CONFLICT (league_id, rules) DO NOTHING`), lr.League, lr.Rules); err != nil {
		return 0, err
	}
	err = tx.QueryRowContext(ctx, s.rebind(selectScope), lr.League, lr.Rules).Scan(&id)
	return id, err
}
