package store

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"

	"github.com/tapparena/tapp/arena"
	"github.com/tapparena/tapp/arena/match"
	"github.com/tapparena/tapp/arena/rating"
	"github.com/tapparena/tapp/engine"
)

// A league's running totals (schema version 7): what scheduling a ladder round, progress and
// `tapp league status` need, kept up to date in the transaction that stores each deal, so
// that they read a few rows however many deals the league has stored.
//
//   - leagues.deals: the league's stored deals.
//   - league_units: the units (a match's deal source: one deal, or a duplicate group) with
//     some but not all of their deals stored: deals stored, net payoff per table position.
//   - league_pairs: per round and pair of bots, the pairwise results of the complete units
//     (the higher net wins, equal nets draw; see rating.PairwiseFromMatch).
//
// They are exact on every backend and with several workers: they change only with the deals
// of the same transaction, and a deal is stored once.

// unitKey names a unit: a match's deal source.
type unitKey struct {
	match string
	group int
}

// unitTotal is what a batch of deals adds to one unit.
type unitTotal struct {
	deals int
	net   [engine.MaxPlayers]int64 // by position in the match's bots
}

// leagueDelta is what a batch of deals adds to one league's totals.
type leagueDelta struct {
	deals int
}

// updateLeagueAggregates adds the deals of a batch, stored in tx, to their leagues' totals.
// Rows are written in key order (units, then pairs, then leagues) so that two transactions
// never wait for each other's rows in a circle.
func (s *Store) updateLeagueAggregates(ctx context.Context, tx *sql.Tx, ds []*arena.DealRecord) error {
	leagues := map[string]*leagueDelta{}
	units := map[unitKey]*unitTotal{}
	infos := map[string]*matchInfo{}
	for _, d := range ds {
		info, err := s.cachedMatchInfo(ctx, d.MatchID)
		if err != nil {
			return err
		}
		if info.league == "" {
			continue
		}
		infos[d.MatchID] = info
		l := leagues[info.league]
		if l == nil {
			l = &leagueDelta{}
			leagues[info.league] = l
		}
		l.deals++
		if info.round < 0 { // a league's match outside its schedule: counted, not rated
			continue
		}
		k := unitKey{d.MatchID, d.Group}
		u := units[k]
		if u == nil {
			u = &unitTotal{}
			units[k] = u
		}
		u.deals++
		for _, r := range d.Results {
			if i := slices.Index(info.bots, r.Bot); i >= 0 && i < engine.MaxPlayers {
				u.net[i] += int64(r.Payoff)
			}
		}
	}
	if len(leagues) == 0 {
		return nil
	}

	keys := make([]unitKey, 0, len(units))
	for k := range units {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b unitKey) int {
		return cmp.Or(strings.Compare(a.match, b.match), cmp.Compare(a.group, b.group))
	})
	// A unit whose every deal is in this batch completes without a row (the common case
	// without duplicate deals); the others go through league_units.
	pairs := pairTotals{}
	complete := func(k unitKey, net [engine.MaxPlayers]int64) {
		info := infos[k.match]
		pairs.addUnit(info.league, info.round, info.bots, net)
	}
	var unitArgs []any
	for _, k := range keys {
		u := units[k]
		if u.deals >= infos[k.match].want {
			complete(k, u.net)
			continue
		}
		unitArgs = append(unitArgs, k.match, k.group, u.deals, u.net[0], u.net[1], u.net[2], u.net[3])
	}
	for _, op := range s.rowOps(insertUnit, unitCols, unitArgs, upsertUnit) {
		rows, err := s.txQuery(ctx, tx, op.query, op.args...)
		if err != nil {
			return fmt.Errorf("league units: %w", err)
		}
		var done []unitKey
		var nets [][engine.MaxPlayers]int64
		for rows.Next() {
			var k unitKey
			var deals int
			var net [engine.MaxPlayers]int64
			if err := rows.Scan(&k.match, &k.group, &deals, &net[0], &net[1], &net[2], &net[3]); err != nil {
				rows.Close()
				return fmt.Errorf("league units: %w", err)
			}
			if deals >= infos[k.match].want {
				done = append(done, k)
				nets = append(nets, net)
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("league units: %w", err)
		}
		for i, k := range done {
			complete(k, nets[i])
			if _, err := s.txExec(ctx, tx, s.rebind(`DELETE FROM league_units WHERE match_id = ? AND deal_group = ?`),
				k.match, k.group); err != nil {
				return fmt.Errorf("league units: %w", err)
			}
		}
	}

	if err := s.writePairs(ctx, tx, pairs); err != nil {
		return err
	}

	names := make([]string, 0, len(leagues))
	for id := range leagues {
		names = append(names, id)
	}
	slices.Sort(names)
	for _, id := range names {
		if _, err := s.txExec(ctx, tx, s.rebind(`UPDATE leagues SET deals = deals + ? WHERE id = ?`),
			leagues[id].deals, id); err != nil {
			return fmt.Errorf("league totals: %w", err)
		}
	}
	return nil
}

// pairKey names a row of league_pairs.
type pairKey struct {
	league string
	round  int
	a, b   string // a < b
}

// pairTotals is what a batch adds to rows of league_pairs.
type pairTotals map[pairKey]*rating.WDL

// addUnit adds the pairwise results of a complete unit of a match of the league's round: its
// bots in table order and their nets. A match the ratings cannot use (a bot twice, say) adds
// nothing, as in the ratings.
func (t pairTotals) addUnit(league string, round int, bots []string, net [engine.MaxPlayers]int64) {
	m := rating.Match{Bots: bots, Cents: make([]int64, len(bots))}
	copy(m.Cents, net[:])
	ps, err := rating.PairwiseFromMatch(m)
	if err != nil {
		return
	}
	for _, p := range ps {
		k, r := pairKey{league, round, p.A, p.B}, p.WDL
		if p.B < p.A {
			k.a, k.b, r = p.B, p.A, r.Reverse()
		}
		w := t[k]
		if w == nil {
			w = &rating.WDL{}
			t[k] = w
		}
		*w = w.Add(r)
	}
}

// writePairs adds pair totals to league_pairs, in key order.
func (s *Store) writePairs(ctx context.Context, tx *sql.Tx, pairs pairTotals) error {
	keys := make([]pairKey, 0, len(pairs))
	for k := range pairs {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(x, y pairKey) int {
		return cmp.Or(strings.Compare(x.league, y.league), cmp.Compare(x.round, y.round),
			strings.Compare(x.a, y.a), strings.Compare(x.b, y.b))
	})
	var args []any
	for _, k := range keys {
		w := pairs[k]
		args = append(args, k.league, k.round, k.a, k.b, w.W, w.D, w.L)
	}
	for _, op := range s.rowOps(insertPair, pairCols, args, upsertPair) {
		if _, err := s.txExec(ctx, tx, op.query, op.args...); err != nil {
			return fmt.Errorf("league pairs: %w", err)
		}
	}
	return nil
}

// convertLeagueAggregates fills in the totals of the leagues stored before schema version 7
// (the Go part of migration 0007), from their deals and results, one match at a time.
func convertLeagueAggregates(ctx context.Context, s *Store, tx *sql.Tx) error {
	if _, err := tx.ExecContext(ctx, `UPDATE leagues SET deals = (SELECT count(*) FROM deals d
	JOIN matches m ON m.id = d.match_id WHERE m.league_id = leagues.id)`); err != nil {
		return err
	}
	type scheduled struct {
		league, id, rules, bots string
		round                   int
		duplicate               bool
	}
	rows, err := tx.QueryContext(ctx, `SELECT lm.league_id, lm.round, m.id, m.rules, m.bots, m.duplicate
FROM league_matches lm JOIN matches m ON m.id = lm.match_id ORDER BY m.id`)
	if err != nil {
		return err
	}
	var ms []scheduled
	for rows.Next() {
		var m scheduled
		if err := rows.Scan(&m.league, &m.round, &m.id, &m.rules, &m.bots, &m.duplicate); err != nil {
			rows.Close()
			return err
		}
		ms = append(ms, m)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	pairs := pairTotals{}
	for _, m := range ms {
		rules, err := parseRules(m.rules)
		if err != nil {
			return fmt.Errorf("match %s: %w", m.id, err)
		}
		bots, err := parseNames(m.bots)
		if err != nil {
			return fmt.Errorf("match %s: %w", m.id, err)
		}
		units := map[int]*unitTotal{}
		rows, err := tx.QueryContext(ctx, s.rebind(`SELECT deal_group, count(*) FROM deals WHERE match_id = ? GROUP BY deal_group`), m.id)
		if err != nil {
			return err
		}
		for rows.Next() {
			u := &unitTotal{}
			var g int
			if err := rows.Scan(&g, &u.deals); err != nil {
				rows.Close()
				return err
			}
			units[g] = u
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		rows, err = tx.QueryContext(ctx, s.rebind(`SELECT d.deal_group, r.bot, r.payoff FROM results r
JOIN deals d ON d.match_id = r.match_id AND d.number = r.deal_number WHERE r.match_id = ?`), m.id)
		if err != nil {
			return err
		}
		for rows.Next() {
			var g int
			var bot string
			var payoff int64
			if err := rows.Scan(&g, &bot, &payoff); err != nil {
				rows.Close()
				return err
			}
			if i := slices.Index(bots, bot); i >= 0 && i < engine.MaxPlayers && units[g] != nil {
				units[g].net[i] += payoff
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		want := unitsWanted(rules.Players, m.duplicate)
		for g, u := range units {
			if u.deals >= want {
				pairs.addUnit(m.league, m.round, bots, u.net)
				continue
			}
			if _, err := tx.ExecContext(ctx, s.rebind(insertUnit+`(?, ?, ?, ?, ?, ?, ?)`),
				m.id, g, u.deals, u.net[0], u.net[1], u.net[2], u.net[3]); err != nil {
				return err
			}
		}
	}
	return s.writePairs(ctx, tx, pairs)
}

// The upserts of updateLeagueAggregates.
const (
	insertUnit = `INSERT INTO league_units (match_id, deal_group, deals, net0, net1, net2, net3) VALUES `
	upsertUnit = ` ON CONFLICT (match_id, deal_group) DO UPDATE SET deals = league_units.deals + excluded.deals,
	net0 = league_units.net0 + excluded.net0, net1 = league_units.net1 + excluded.net1,
	net2 = league_units.net2 + excluded.net2, net3 = league_units.net3 + excluded.net3
	RETURNING match_id, deal_group, deals, net0, net1, net2, net3`
	unitCols   = 7
	insertPair = `INSERT INTO league_pairs (league_id, round, bot_a, bot_b, wins, draws, losses) VALUES `
	upsertPair = ` ON CONFLICT (league_id, round, bot_a, bot_b) DO UPDATE SET wins = league_pairs.wins + excluded.wins,
	draws = league_pairs.draws + excluded.draws, losses = league_pairs.losses + excluded.losses`
	pairCols = 7
)

// txQuery runs a query that returns rows in tx, through its prepared statement if it has one.
func (s *Store) txQuery(ctx context.Context, tx *sql.Tx, query string, args ...any) (*sql.Rows, error) {
	if v, ok := s.stmts.Load(query); ok {
		return tx.StmtContext(ctx, v.(*sql.Stmt)).QueryContext(ctx, args...)
	}
	return tx.QueryContext(ctx, query, args...)
}

// LadderPairs returns the pairwise results of the league's complete units in rounds from
// (inclusive) to to (exclusive), summed per pair of bots (A < B), sorted by (A, B): what a
// ladder's matchmaking fits Bradley–Terry to. It reads one row per round and pair.
func (s *Store) LadderPairs(ctx context.Context, league string, from, to int) ([]rating.PairResult, error) {
	op := "read the pairwise results of league " + league
	rows, err := s.r.QueryContext(ctx, s.rebind(`SELECT bot_a, bot_b, sum(wins), sum(draws), sum(losses)
FROM league_pairs WHERE league_id = ? AND round >= ? AND round < ? GROUP BY bot_a, bot_b ORDER BY bot_a, bot_b`),
		league, from, to)
	if err != nil {
		return nil, s.wrap(op, err)
	}
	defer rows.Close()
	var out []rating.PairResult
	for rows.Next() {
		var p rating.PairResult
		if err := rows.Scan(&p.A, &p.B, &p.W, &p.D, &p.L); err != nil {
			return nil, s.wrap(op, err)
		}
		out = append(out, p)
	}
	return out, s.wrap(op, rows.Err())
}

// unitsWanted is the number of deals of a unit of a match: every seating of a duplicate
// group, or the one deal of a deal source.
func unitsWanted(players int, duplicate bool) int {
	if duplicate {
		return len(match.Seatings(players))
	}
	return 1
}
