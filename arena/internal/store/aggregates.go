package store

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/match"
	"github.com/tapparena/tapp/arena/internal/rating"
	"github.com/tapparena/tapp/engine"
)

// A league's running totals (schema version 10): what scheduling a ladder round, progress and
// `tapp league status` need, kept up to date in the transaction that stores each deal, so
// that they read a few rows however many deals the league has stored.
//
//   - leagues.deals: the league's stored deals.
//   - league_units: per unit of the league's schedule (a match's deal source: one deal, or a
//     duplicate group), the deals stored and the net payoff of each table position; the
//     ladder's pairwise results are computed from the complete units of a round when it is
//     read (LadderPairs), a round once.
//
// They are exact on every backend and with several workers: they change only with the deals
// of the same transaction, and a deal is stored once.

// unitKey names a row of league_units.
type unitKey struct {
	league string
	round  int
	match  string
	group  int
}

// unitTotal is what a batch of deals adds to one unit.
type unitTotal struct {
	deals int
	net   [engine.MaxPlayers]int64 // by position in the match's bots
}

// aggregateOps returns the writes that add a batch of deals to their leagues' totals, for the
// transaction that stores them: upserts of league_units in key order, then one update per
// league in name order, so that two transactions never wait for each other's rows in a
// circle. Their queries are prepared before the transaction begins (stmt).
func (s *Store) aggregateOps(ctx context.Context, ds []*domain.DealRecord) ([]writeOp, error) {
	leagues := map[string]int{}
	boards := map[string]int{} // deals of a league's match that count on another league's board (a ladder's epochs)
	units := map[unitKey]*unitTotal{}
	bots := map[botKey]*domain.LeagueBot{}
	for _, d := range ds {
		info, err := s.cachedMatchInfo(ctx, d.MatchID)
		if err != nil {
			return nil, err
		}
		if info.league == "" {
			continue
		}
		leagues[info.league]++
		if s.schema >= boardDealsSchema {
			ri, err := s.ratingInfo(ctx, d.MatchID)
			if err != nil {
				return nil, err
			}
			if ri.League != info.league {
				boards[ri.League]++
			}
		}
		addLeagueBots(bots, info.league, d)
		if info.round < 0 { // a league's match outside its schedule: counted, not rated
			continue
		}
		k := unitKey{info.league, info.round, d.MatchID, d.Group}
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
		return nil, nil
	}
	keys := slices.SortedFunc(maps.Keys(units), func(a, b unitKey) int {
		return cmp.Or(strings.Compare(a.league, b.league), cmp.Compare(a.round, b.round),
			strings.Compare(a.match, b.match), cmp.Compare(a.group, b.group))
	})
	args := make([]any, 0, len(keys)*unitCols)
	for _, k := range keys {
		u := units[k]
		args = append(args, k.league, k.round, k.match, k.group, u.deals, u.net[0], u.net[1], u.net[2], u.net[3])
	}
	ops := s.rowOps(insertUnit, unitCols, args, upsertUnit)
	if s.keepsLeagueTotals() {
		ops = append(ops, s.leagueBotOps(bots)...)
	}
	names := slices.Sorted(maps.Keys(leagues))
	for id := range boards {
		if _, ok := leagues[id]; !ok {
			names = append(names, id)
		}
	}
	slices.Sort(names) // one order for every league row the batch updates, the boards' too
	for _, id := range names {
		if _, ok := boards[id]; ok {
			ops = append(ops, writeOp{query: s.rebind(`UPDATE leagues SET deals = deals + ?, board_deals = board_deals + ? WHERE id = ?`),
				args: []any{leagues[id], boards[id], id}})
			continue
		}
		ops = append(ops, writeOp{query: s.rebind(`UPDATE leagues SET deals = deals + ? WHERE id = ?`), args: []any{leagues[id], id}})
	}
	return ops, nil
}

// boardDealsSchema is the schema version that keeps leagues.board_deals.
const boardDealsSchema = 31

// The upsert of a batch's units.
const (
	insertUnit = `INSERT INTO league_units (league_id, round, match_id, deal_group, deals, net0, net1, net2, net3) VALUES `
	upsertUnit = ` ON CONFLICT (league_id, round, match_id, deal_group) DO UPDATE SET deals = league_units.deals + excluded.deals,
	net0 = league_units.net0 + excluded.net0, net1 = league_units.net1 + excluded.net1,
	net2 = league_units.net2 + excluded.net2, net3 = league_units.net3 + excluded.net3`
	unitCols = 9
)

// botKey names a row of league_bots.
type botKey struct{ league, bot string }

// addLeagueBots adds what deal d of a league's match adds to its bots' totals.
func addLeagueBots(bots map[botKey]*domain.LeagueBot, league string, d *domain.DealRecord) {
	for name, add := range domain.LeagueBotOf(d) {
		k := botKey{league, name}
		t := bots[k]
		if t == nil {
			t = &domain.LeagueBot{Bot: name}
			bots[k] = t
		}
		t.Deals += add.Deals
		t.Decisions += add.Decisions
		t.Strikes += add.Strikes
		t.Fallbacks += add.Fallbacks
		t.Forfeited += add.Forfeited
	}
}

// leagueBotOps are the upserts of league_bots for a batch's totals, in key order.
func (s *Store) leagueBotOps(bots map[botKey]*domain.LeagueBot) []writeOp {
	keys := slices.SortedFunc(maps.Keys(bots), func(a, b botKey) int {
		return cmp.Or(strings.Compare(a.league, b.league), strings.Compare(a.bot, b.bot))
	})
	args := make([]any, 0, len(keys)*botCols)
	for _, k := range keys {
		t := bots[k]
		args = append(args, k.league, k.bot, t.Deals, t.Decisions, t.Strikes, t.Fallbacks, t.Forfeited)
	}
	return s.rowOps(insertBot, botCols, args, upsertBot)
}

// The upsert of a batch's bot totals.
const (
	insertBot = `INSERT INTO league_bots (league_id, bot, deals, decisions, strikes, fallbacks, forfeited) VALUES `
	upsertBot = ` ON CONFLICT (league_id, bot) DO UPDATE SET deals = league_bots.deals + excluded.deals,
	decisions = league_bots.decisions + excluded.decisions, strikes = league_bots.strikes + excluded.strikes,
	fallbacks = league_bots.fallbacks + excluded.fallbacks, forfeited = league_bots.forfeited + excluded.forfeited`
	botCols = 7
)

// LeagueBots returns the league's running totals per bot, by name: one row per bot.
func (s *Store) LeagueBots(ctx context.Context, league string) ([]domain.LeagueBot, error) {
	op := "read the bot totals of league " + league
	rows, err := s.r.QueryContext(ctx, s.rebind(`SELECT bot, deals, decisions, strikes, fallbacks, forfeited
FROM league_bots WHERE league_id = ? ORDER BY bot`), league)
	if err != nil {
		return nil, s.wrap(op, err)
	}
	defer rows.Close()
	var out []domain.LeagueBot
	for rows.Next() {
		var b domain.LeagueBot
		if err := rows.Scan(&b.Bot, &b.Deals, &b.Decisions, &b.Strikes, &b.Fallbacks, &b.Forfeited); err != nil {
			return nil, s.wrap(op, err)
		}
		out = append(out, b)
	}
	return out, s.wrap(op, rows.Err())
}

// convertLeagueBots fills in the bots' totals of the leagues stored before schema version 17
// (the Go part of migration 0017) from their deals' decisions, one match at a time.
func convertLeagueBots(ctx context.Context, s *Store, tx *sql.Tx) error {
	rows, err := tx.QueryContext(ctx, `SELECT id, league_id FROM matches WHERE league_id <> '' ORDER BY id`)
	if err != nil {
		return err
	}
	type leagueMatch struct{ id, league string }
	var ms []leagueMatch
	for rows.Next() {
		var m leagueMatch
		if err := rows.Scan(&m.id, &m.league); err != nil {
			rows.Close()
			return err
		}
		ms = append(ms, m)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	if len(ms) == 0 {
		return nil
	}
	for i, m := range ms {
		s.report("league bot totals", i, len(ms))
		info, err := s.readMatchInfo(ctx, tx, m.id)
		if err != nil {
			return err
		}
		info.id = m.id
		deals, err := s.loadDealsFrom(ctx, tx, info, m.id, allDeals, false)
		if err != nil {
			return fmt.Errorf("match %s: %w", m.id, err)
		}
		bots := map[botKey]*domain.LeagueBot{}
		for j := range deals {
			addLeagueBots(bots, m.league, &deals[j])
		}
		for _, op := range s.leagueBotOps(bots) {
			if _, err := tx.ExecContext(ctx, op.query, op.args...); err != nil {
				return err
			}
		}
	}
	s.report("league bot totals", len(ms), len(ms))
	return nil
}

// LadderPairs returns the pairwise results of the league's complete units in rounds from
// (inclusive) to to (exclusive), summed per pair of bots (A < B), sorted by (A, B): what a
// ladder's matchmaking fits Bradley–Terry to. Within a unit the bot with the higher net beats
// the other and equal nets draw (rating.PairwiseFromMatch). It reads one row per unit of
// those rounds.
func (s *Store) LadderPairs(ctx context.Context, league string, from, to int) ([]rating.PairResult, error) {
	op := "read the pairwise results of league " + league
	// The match's bots and how many deals make a unit come with each unit: a run resuming a
	// long league reads every round once, and a lookup per match cost four times the scan.
	rows, err := s.r.QueryContext(ctx, s.rebind(`SELECT u.match_id, u.deals, u.net0, u.net1, u.net2, u.net3,
	m.bots, m.rules, m.duplicate
FROM league_units u JOIN matches m ON m.id = u.match_id
WHERE u.league_id = ? AND u.round >= ? AND u.round < ? ORDER BY u.round, u.match_id, u.deal_group`),
		league, from, to)
	if err != nil {
		return nil, s.wrap(op, err)
	}
	defer rows.Close()
	players := map[string]int{} // rule-set text → players
	var (
		pairs     []rating.PairResult
		lastBots  string
		bots      []string
		rulesText string
		duplicate bool
	)
	for rows.Next() {
		var u struct {
			match    string
			deals    int
			net      [engine.MaxPlayers]int64
			botsText string
		}
		if err := rows.Scan(&u.match, &u.deals, &u.net[0], &u.net[1], &u.net[2], &u.net[3], &u.botsText, &rulesText,
			&duplicate); err != nil {
			return nil, s.wrap(op, err)
		}
		if u.botsText != lastBots {
			if bots, err = parseNames(u.botsText); err != nil {
				return nil, fmt.Errorf("store: match %s: %w", u.match, err)
			}
			lastBots = u.botsText
		}
		n, ok := players[rulesText]
		if !ok {
			r, err := parseRules(rulesText)
			if err != nil {
				return nil, fmt.Errorf("store: match %s: %w", u.match, err)
			}
			n, players[rulesText] = r.Players, r.Players
		}
		if u.deals < unitsWanted(n, duplicate) {
			continue
		}
		m := rating.Match{ID: u.match, Bots: bots, Cents: make([]int64, len(bots))}
		copy(m.Cents, u.net[:])
		if ps, err := rating.PairwiseFromMatch(m); err == nil { // a match the ratings cannot use adds nothing
			pairs = append(pairs, ps...)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, s.wrap(op, err)
	}
	if len(pairs) == 0 {
		return nil, nil
	}
	return rating.MergePairs(pairs)
}

// convertLeagueAggregates fills in the totals of the leagues stored before schema version 10
// (the Go part of migration 0007) from their deals and results, one match at a time.
func convertLeagueAggregates(ctx context.Context, s *Store, tx *sql.Tx) error {
	if _, err := tx.ExecContext(ctx, `UPDATE leagues SET deals = (SELECT count(*) FROM deals d
	JOIN matches m ON m.id = d.match_id WHERE m.league_id = leagues.id)`); err != nil {
		return err
	}
	ms, err := scheduledMatches(ctx, tx)
	if err != nil {
		return err
	}
	for _, m := range ms {
		bots, err := parseNames(m.bots)
		if err != nil {
			return fmt.Errorf("match %s: %w", m.id, err)
		}
		units, err := unitsOf(ctx, s, tx, m.id, bots)
		if err != nil {
			return err
		}
		for g, u := range units {
			if _, err := tx.ExecContext(ctx, s.rebind(insertUnit+`(?, ?, ?, ?, ?, ?, ?, ?, ?)`),
				m.league, m.round, m.id, g, u.deals, u.net[0], u.net[1], u.net[2], u.net[3]); err != nil {
				return err
			}
		}
	}
	return nil
}

// scheduled is a league's match as convertLeagueAggregates reads it.
type scheduled struct {
	league, id, bots string
	round            int
}

// scheduledMatches are the matches of every league, by id.
func scheduledMatches(ctx context.Context, tx *sql.Tx) ([]scheduled, error) {
	rows, err := tx.QueryContext(ctx, `SELECT lm.league_id, lm.round, m.id, m.bots
FROM league_matches lm JOIN matches m ON m.id = lm.match_id ORDER BY m.id`)
	if err != nil {
		return nil, err
	}
	var ms []scheduled
	for rows.Next() {
		var m scheduled
		if err := rows.Scan(&m.league, &m.round, &m.id, &m.bots); err != nil {
			rows.Close()
			return nil, err
		}
		ms = append(ms, m)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return ms, nil
}

// unitsOf are the deal groups of a stored match, each with its deals and the net of each bot.
func unitsOf(ctx context.Context, s *Store, tx *sql.Tx, matchID string, bots []string) (map[int]*unitTotal, error) {
	units := map[int]*unitTotal{}
	rows, err := tx.QueryContext(ctx, s.rebind(`SELECT deal_group, count(*) FROM deals WHERE match_id = ? GROUP BY deal_group`), matchID)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		u := &unitTotal{}
		var g int
		if err := rows.Scan(&g, &u.deals); err != nil {
			rows.Close()
			return nil, err
		}
		units[g] = u
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows, err = tx.QueryContext(ctx, s.rebind(`SELECT d.deal_group, r.bot, r.payoff FROM results r
JOIN deals d ON d.match_id = r.match_id AND d.number = r.deal_number WHERE r.match_id = ?`), matchID)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var g int
		var bot string
		var payoff int64
		if err := rows.Scan(&g, &bot, &payoff); err != nil {
			rows.Close()
			return nil, err
		}
		if i := slices.Index(bots, bot); i >= 0 && i < engine.MaxPlayers && units[g] != nil {
			units[g].net[i] += payoff
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return units, nil
}

// unitsWanted is the number of deals of a unit of a match: every seating of a duplicate
// group, or the one deal of a deal source.
func unitsWanted(players int, duplicate bool) int {
	if duplicate {
		return len(match.Seatings(players))
	}
	return 1
}
