package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/tapparena/tapp/arena/internal/domain"
)

// Leagues and their job queue (arena/internal/league/leaguestore). A league's units of work are rows of
// league_jobs, leased to one worker at a time:
//
//   - Claim takes the oldest jobs that are available or whose lease has expired (the rescue
//     of a dead worker's jobs) and leases them to the caller until now + lease. On PostgreSQL
//     the candidates are locked with FOR UPDATE SKIP LOCKED, so workers on many hosts claim
//     different jobs without waiting for each other, and lease times come from the database's
//     clock; on SQLite the one writer connection serialises claims.
//   - Extend (the heartbeat) renews leases and reports those the caller no longer holds.
//   - SaveJobDeal stores a deal and, in the same transaction, marks its job done when all the
//     job's deals are stored, and the match finished when all its jobs are done: a result is
//     stored exactly once, and a job is done exactly when its results are.
//   - Release gives jobs back unfinished (a clean stop); Fail records an error and makes the
//     job available again, or failed after too many attempts.

// EnsureLeague stores l unless a league with its ID exists, and returns the stored league
// (the caller compares its Plan with its own).
func (s *Store) EnsureLeague(ctx context.Context, l *domain.League) (*domain.League, error) {
	if l.ID == "" {
		return nil, errors.New("store: a league needs an id")
	}
	t := now()
	status := l.Status
	if status == "" {
		status = domain.LeagueRunning
	}
	if _, err := s.w.ExecContext(ctx, s.rebind(`INSERT INTO leagues (id, plan, status, created, updated)
VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`), l.ID, l.Plan, string(status), s.timeArg(t), s.timeArg(t)); err != nil {
		return nil, s.wrap("create league "+l.ID, err)
	}
	return s.GetLeague(ctx, l.ID)
}

// GetLeague returns the league, or domain.ErrNotFound.
func (s *Store) GetLeague(ctx context.Context, id string) (*domain.League, error) {
	var l domain.League
	err := s.scanLeague(s.r.QueryRowContext(ctx, s.rebind(`SELECT `+s.leagueColumns()+` FROM leagues WHERE id = ?`), id), &l)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("league %s: %w", id, domain.ErrNotFound)
	}
	if err != nil {
		return nil, s.wrap("read league "+id, err)
	}
	if err := checkPlan(l.Plan); err != nil {
		return nil, s.damaged("read league "+id, err)
	}
	return &l, nil
}

// checkPlan refuses a stored league plan that is not the JSON the store wrote (a damaged
// page read without an error): compared with a league file's, it would read as another plan.
func checkPlan(plan string) error {
	if !utf8.ValidString(plan) || !json.Valid([]byte(plan)) {
		return fmt.Errorf("the stored plan %q is not valid JSON text", plan)
	}
	return nil
}

// leagueColumns are the columns scanLeague reads.
func (s *Store) leagueColumns() string {
	if !s.keepsLeagueTotals() {
		return `id, plan, status, created, updated`
	}
	return `id, plan, status, created, updated, paused, matches, matches_finished`
}

// scanLeague reads a row of leagueColumns.
func (s *Store) scanLeague(row interface{ Scan(...any) error }, l *domain.League) error {
	var status string
	var created, updated dbTime
	var paused int
	dest := []any{&l.ID, &l.Plan, &status, &created, &updated, &paused, &l.Matches, &l.MatchesFinished}
	if !s.keepsLeagueTotals() {
		dest = dest[:5]
	}
	if err := row.Scan(dest...); err != nil {
		return err
	}
	l.Status, l.Created, l.Updated, l.Paused = domain.LeagueStatus(status), created.T, updated.T, paused != 0
	return nil
}

// ListLeagues returns every league, newest first.
func (s *Store) ListLeagues(ctx context.Context) ([]domain.League, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+s.leagueColumns()+` FROM leagues ORDER BY created DESC, id`)
	if err != nil {
		return nil, s.wrap("list leagues", err)
	}
	defer rows.Close()
	var out []domain.League
	for rows.Next() {
		var l domain.League
		if err := s.scanLeague(rows, &l); err != nil {
			return nil, s.wrap("list leagues", err)
		}
		out = append(out, l)
	}
	return out, s.wrap("list leagues", rows.Err())
}

// SetLeagueStatus records where a league stands; domain.ErrNotFound for an unknown league.
func (s *Store) SetLeagueStatus(ctx context.Context, id string, status domain.LeagueStatus) error {
	res, err := s.w.ExecContext(ctx, s.rebind(`UPDATE leagues SET status = ?, updated = ? WHERE id = ?`),
		string(status), s.timeArg(now()), id)
	if err != nil {
		return s.wrap("update league "+id, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return s.wrap("update league "+id, err)
	} else if n == 0 {
		return fmt.Errorf("league %s: %w", id, domain.ErrNotFound)
	}
	return nil
}

// SetLeaguePaused pauses a league (its workers claim no new jobs, finish what they play and
// wait) or resumes it; domain.ErrNotFound for an unknown league.
func (s *Store) SetLeaguePaused(ctx context.Context, id string, paused bool) error {
	flag := 0
	if paused {
		flag = 1
	}
	res, err := s.w.ExecContext(ctx, s.rebind(`UPDATE leagues SET paused = ?, updated = ? WHERE id = ?`), flag, s.timeArg(now()), id)
	if err != nil {
		return s.wrap("pause league "+id, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return s.wrap("pause league "+id, err)
	} else if n == 0 {
		return fmt.Errorf("league %s: %w", id, domain.ErrNotFound)
	}
	return nil
}

// ScheduleRound stores a round of a league in one transaction: its matches, their places in
// the schedule and their jobs (available). It is idempotent: matches, places and jobs that
// exist already are left as they are, so every host of a shared league may schedule the same
// round. Matches get their Started and Status set like CreateMatch does.
func (s *Store) ScheduleRound(ctx context.Context, places []domain.LeagueMatch, matches []*domain.Match, jobs []domain.Job) error {
	if len(places) != len(matches) {
		return fmt.Errorf("store: schedule round: %d places for %d matches", len(places), len(matches))
	}
	op := "schedule a league round"
	if len(places) > 0 {
		op = fmt.Sprintf("schedule round %d of league %s", places[0].Round, places[0].LeagueID)
	}
	t := now()
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return s.wrap(op, err)
	}
	defer tx.Rollback()
	for i, m := range matches {
		if m.ID == "" {
			return fmt.Errorf("store: %s: a scheduled match needs an id", op)
		}
		if m.Started.IsZero() {
			m.Started = t
		}
		m.Started = m.Started.UTC().Truncate(time.Microsecond)
		if m.Status == "" {
			m.Status = domain.MatchRunning
		}
		if _, err := s.insertMatch(ctx, tx, m); err != nil {
			return s.wrap(op, err)
		}
		p := places[i]
		res, err := tx.ExecContext(ctx, s.rebind(`INSERT INTO league_matches (league_id, seq, round, match_id)
VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`), p.LeagueID, p.Seq, p.Round, m.ID)
		if err != nil {
			return s.wrap(op, err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return s.wrap(op, err)
		} else if n > 0 && s.keepsLeagueTotals() { // the league's count of scheduled matches (a round scheduled again adds none)
			if _, err := tx.ExecContext(ctx, s.rebind(`UPDATE leagues SET matches = matches + 1 WHERE id = ?`), p.LeagueID); err != nil {
				return s.wrap(op, err)
			}
		}
	}
	args := make([]any, 0, len(jobs)*9)
	for _, j := range jobs {
		args = append(args, j.LeagueID, j.Round, j.MatchID, j.FirstGroup, j.Groups, j.Deals,
			string(domain.JobAvailable), s.timeArg(t), "")
	}
	head := `INSERT INTO league_jobs (league_id, round, match_id, first_group, n_groups, deals,
	state, created, owner) VALUES `
	if s.schema < plannedDealsSchema {
		if err := s.insertRows(ctx, tx, head, 9, args, ` ON CONFLICT DO NOTHING`); err != nil {
			return s.wrap(op, err)
		}
		return s.wrap(op, tx.Commit())
	}
	// The deals of the jobs inserted (not of those another host scheduled first) are added to
	// their leagues' planned_deals.
	planned := map[string]int{}
	for _, w := range s.rowOps(head, 9, args, ` ON CONFLICT DO NOTHING RETURNING league_id, deals`) {
		if err := sumReturned(ctx, tx, w, planned); err != nil {
			return s.wrap(op, err)
		}
	}
	for _, league := range slices.Sorted(maps.Keys(planned)) {
		if _, err := tx.ExecContext(ctx, s.rebind(`UPDATE leagues SET planned_deals = planned_deals + ? WHERE id = ?`),
			planned[league], league); err != nil {
			return s.wrap(op, err)
		}
	}
	return s.wrap(op, tx.Commit())
}

// plannedDealsSchema is the schema version that keeps leagues.planned_deals.
const plannedDealsSchema = 34

// sumReturned runs an insert that returns (league, deals) of each row it inserted and adds
// the deals to sums by league.
func sumReturned(ctx context.Context, tx *sql.Tx, w writeOp, sums map[string]int) error {
	rows, err := tx.QueryContext(ctx, w.query, w.args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var league string
		var deals int
		if err := rows.Scan(&league, &deals); err != nil {
			return err
		}
		sums[league] += deals
	}
	return rows.Err()
}

// LeagueMatches returns the league's schedule, in order.
func (s *Store) LeagueMatches(ctx context.Context, league string) ([]domain.LeagueMatch, error) {
	rows, err := s.r.QueryContext(ctx, s.rebind(`SELECT league_id, seq, round, match_id FROM league_matches
WHERE league_id = ? ORDER BY seq`), league)
	if err != nil {
		return nil, s.wrap("read the matches of league "+league, err)
	}
	defer rows.Close()
	var out []domain.LeagueMatch
	for rows.Next() {
		var lm domain.LeagueMatch
		if err := rows.Scan(&lm.LeagueID, &lm.Seq, &lm.Round, &lm.MatchID); err != nil {
			return nil, s.wrap("read the matches of league "+league, err)
		}
		out = append(out, lm)
	}
	return out, s.wrap("read the matches of league "+league, rows.Err())
}

// LeagueSeats implements leaguestore.Store: one range of league_matches' primary key, joined
// with each match's positions.
func (s *Store) LeagueSeats(ctx context.Context, league string, from, to int) (map[string]int, error) {
	what := "count the seats of league " + league
	rows, err := s.r.QueryContext(ctx, s.rebind(`SELECT mb.bot, count(*) FROM league_matches lm
JOIN match_bots mb ON mb.match_id = lm.match_id
WHERE lm.league_id = ? AND lm.seq >= ? AND lm.seq < ? GROUP BY mb.bot`), league, from, to)
	if err != nil {
		return nil, s.wrap(what, err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var bot string
		var n int
		if err := rows.Scan(&bot, &n); err != nil {
			return nil, s.wrap(what, err)
		}
		out[bot] = n
	}
	return out, s.wrap(what, rows.Err())
}

// RoundCounts counts the league's jobs by round and state, rounds ascending.
func (s *Store) RoundCounts(ctx context.Context, league string) ([]domain.RoundCounts, error) {
	return s.RoundCountsFrom(ctx, league, 0)
}

// RoundCountsFrom is RoundCounts for the rounds from round from on: what a running league
// asks of the rounds it does not know to be complete (one range of league_jobs_round).
func (s *Store) RoundCountsFrom(ctx context.Context, league string, from int) ([]domain.RoundCounts, error) {
	rows, err := s.r.QueryContext(ctx, s.rebind(`SELECT round, state, count(*), sum(deals) FROM league_jobs
WHERE league_id = ? AND round >= ? GROUP BY round, state ORDER BY round`), league, from)
	if err != nil {
		return nil, s.wrap("count the jobs of league "+league, err)
	}
	defer rows.Close()
	var out []domain.RoundCounts
	for rows.Next() {
		var round, n, deals int
		var state string
		if err := rows.Scan(&round, &state, &n, &deals); err != nil {
			return nil, s.wrap("count the jobs of league "+league, err)
		}
		if len(out) == 0 || out[len(out)-1].Round != round {
			out = append(out, domain.RoundCounts{Round: round})
		}
		c := &out[len(out)-1]
		c.DealsPlanned += deals
		switch domain.JobState(state) {
		case domain.JobAvailable:
			c.Available += n
		case domain.JobRunning:
			c.Running += n
		case domain.JobDone:
			c.Done += n
		case domain.JobFailed:
			c.Failed += n
		}
	}
	return out, s.wrap("count the jobs of league "+league, rows.Err())
}

// LeagueJobTotals implements leaguestore.Queue: the league's planned deals (one row:
// leagues.planned_deals, schema version 34), its running jobs and whether a job waits (the
// claim index's ranges of those states: rows in proportion to the jobs in hand, not to the
// league). Zero for an unknown league. A store at an older schema sums the league's jobs.
func (s *Store) LeagueJobTotals(ctx context.Context, league string) (domain.LeagueJobTotals, error) {
	what := "read the job totals of league " + league
	planned := `planned_deals`
	if s.schema < plannedDealsSchema {
		planned = `(SELECT coalesce(sum(deals), 0) FROM league_jobs WHERE league_id = leagues.id)`
	}
	var t domain.LeagueJobTotals
	err := s.r.QueryRowContext(ctx, s.rebind(`SELECT `+planned+`,
	(SELECT count(*) FROM league_jobs WHERE league_id = leagues.id AND state = 'running'),
	EXISTS (SELECT 1 FROM league_jobs WHERE league_id = leagues.id AND state = 'available')
FROM leagues WHERE id = ?`), league).Scan(&t.DealsPlanned, &t.JobsRunning, &t.Waiting)
	if errors.Is(err, sql.ErrNoRows) {
		return domain.LeagueJobTotals{}, nil
	}
	return t, s.wrap(what, err)
}

// LeagueDeals counts the deals stored for the league's matches: its running total (see
// aggregates.go), 0 for an unknown league.
func (s *Store) LeagueDeals(ctx context.Context, league string) (int, error) {
	var n int
	err := s.r.QueryRowContext(ctx, s.rebind(`SELECT deals FROM leagues WHERE id = ?`), league).Scan(&n)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return n, s.wrap("count the deals of league "+league, err)
}

// BoardDeals counts the deals on the league's board: its own, and those of other leagues'
// matches that count on it (a standing ladder's epochs on the ladder's row) — what a list of
// leagues shows. One row read (leagues.board_deals, schema version 31).
func (s *Store) BoardDeals(ctx context.Context, league string) (int, error) {
	if s.schema < boardDealsSchema {
		return s.LeagueDeals(ctx, league)
	}
	var n int
	err := s.r.QueryRowContext(ctx, s.rebind(`SELECT deals + board_deals FROM leagues WHERE id = ?`), league).Scan(&n)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return n, s.wrap("count the deals on the board of league "+league, err)
}

const jobColumns = `id, league_id, round, match_id, first_group, n_groups, deals, state, owner, lease_until, attempts,
	last_error, ` + jobStored

// jobStored is the column of Job.Stored: the job's deals stored, counted along
// deals_group (match, deal source).
const jobStored = `(SELECT count(*) FROM deals d WHERE d.match_id = league_jobs.match_id
	AND d.deal_group >= league_jobs.first_group AND d.deal_group < league_jobs.first_group + league_jobs.n_groups)`

// jobStoredAsJ is jobStored for league_jobs named j (PostgreSQL's claim).
var jobStoredAsJ = strings.ReplaceAll(jobStored, "league_jobs.", "j.")

func scanJobs(rows *sql.Rows) ([]domain.Job, error) {
	defer rows.Close()
	var out []domain.Job
	for rows.Next() {
		var j domain.Job
		var state string
		var lease dbTime
		if err := rows.Scan(&j.ID, &j.LeagueID, &j.Round, &j.MatchID, &j.FirstGroup, &j.Groups, &j.Deals, &state,
			&j.Owner, &lease, &j.Attempts, &j.LastError, &j.Stored); err != nil {
			return nil, err
		}
		j.State, j.LeaseUntil = domain.JobState(state), lease.T
		out = append(out, j)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	sort.Slice(out, func(a, b int) bool { return out[a].ID < out[b].ID })
	return out, nil
}

// leaseUntil returns the SQL expression for "lease from now" and its argument: the database's
// clock on PostgreSQL (hosts may disagree about the time), this process's on SQLite.
func (s *Store) leaseUntil(lease time.Duration) (string, any) {
	if s.dialect == postgresDialect {
		return `clock_timestamp() + ?::bigint * interval '1 microsecond'`, lease.Microseconds()
	}
	return `?`, now().Add(lease).UnixMicro()
}

// nowExpr returns the SQL expression for the current time and its argument (nil for none).
func (s *Store) nowExpr() (string, []any) {
	if s.dialect == postgresDialect {
		return `clock_timestamp()`, nil
	}
	return `?`, []any{now().UnixMicro()}
}

// Claim leases up to max jobs of the league to owner for lease: the oldest that are available
// or whose lease has expired (those of a worker that died or stalled: the rescue). Each claim
// counts an attempt. It returns the claimed jobs by id, each with the number of its deals
// stored already (Job.Stored); none when there is nothing to do.
func (s *Store) Claim(ctx context.Context, league, owner string, max int, lease time.Duration) ([]domain.Job, error) {
	if max <= 0 {
		return nil, nil
	}
	op := "claim jobs of league " + league
	until, untilArg := s.leaseUntil(lease)
	nowSQL, nowArgs := s.nowExpr()
	// The candidates are read as two ranges of league_jobs_claim (league, state, id), each in
	// id order and cut at max, and merged: a condition with OR made both backends read and
	// sort every job of the league for each claim, which grows with the league. On
	// PostgreSQL each range locks its rows as it reads them, skipping those another worker's
	// claim holds, so that the limits count only rows this claim can take.
	lock := ""
	if s.dialect == postgresDialect {
		lock = " FOR UPDATE SKIP LOCKED"
	}
	available := `SELECT id FROM league_jobs WHERE league_id = ? AND state = 'available' ORDER BY id LIMIT ?` + lock
	expired := `SELECT id FROM league_jobs WHERE league_id = ? AND state = 'running' AND lease_until < ` + nowSQL +
		` ORDER BY id LIMIT ?` + lock
	args := append(append([]any{league, max, league}, nowArgs...), max)
	var q string
	if s.dialect == postgresDialect {
		q = `WITH a AS (` + available + `), e AS (` + expired + `),
c AS (SELECT id FROM (SELECT id FROM a UNION ALL SELECT id FROM e) u ORDER BY id LIMIT ?)
UPDATE league_jobs j SET state = 'running', owner = ?, lease_until = ` + until + `, attempts = j.attempts + 1
FROM c WHERE j.id = c.id RETURNING j.id, j.league_id, j.round, j.match_id, j.first_group, j.n_groups, j.deals,
	j.state, j.owner, j.lease_until, j.attempts, j.last_error, ` + jobStoredAsJ
		args = append(args, max, owner, untilArg)
	} else {
		q = `UPDATE league_jobs SET state = 'running', owner = ?, lease_until = ` + until + `, attempts = attempts + 1
WHERE id IN (SELECT id FROM (SELECT id FROM (` + available + `) a UNION ALL SELECT id FROM (` + expired + `) e)
	ORDER BY id LIMIT ?) RETURNING ` + jobColumns
		args = append(append([]any{owner, untilArg}, args...), max)
	}
	st, err := s.stmt(ctx, s.rebind(q)) // a claim per few jobs: prepared once
	if err != nil {
		return nil, s.wrap(op, err)
	}
	rows, err := st.QueryContext(ctx, args...)
	if err != nil {
		return nil, s.wrap(op, err)
	}
	jobs, err := scanJobs(rows)
	return jobs, s.wrap(op, err)
}

// Extend renews owner's leases on the jobs ids for lease (the heartbeat) and returns the ids
// owner no longer holds: taken over after the lease expired, or done by another worker.
func (s *Store) Extend(ctx context.Context, owner string, ids []int64, lease time.Duration) ([]int64, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	until, untilArg := s.leaseUntil(lease)
	args := []any{untilArg, owner}
	for _, id := range ids {
		args = append(args, id)
	}
	in := placeholders(len(ids))
	if s.dialect == postgresDialect { // lock in id order, as SaveJobDeals does
		in = `SELECT id FROM league_jobs WHERE id IN (` + in + `) ORDER BY id FOR NO KEY UPDATE`
	}
	rows, err := s.w.QueryContext(ctx, s.rebind(`UPDATE league_jobs SET lease_until = `+until+`
WHERE owner = ? AND state = 'running' AND id IN (`+in+`) RETURNING id`), args...)
	if err != nil {
		return nil, s.wrap("renew job leases", err)
	}
	defer rows.Close()
	held := make(map[int64]bool, len(ids))
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, s.wrap("renew job leases", err)
		}
		held[id] = true
	}
	if err := rows.Err(); err != nil {
		return nil, s.wrap("renew job leases", err)
	}
	var lost []int64
	for _, id := range ids {
		if !held[id] {
			lost = append(lost, id)
		}
	}
	if len(lost) == 0 {
		return nil, nil
	}
	// A job done meanwhile (its last deal stored by this worker a moment ago) is not lost:
	// only one that is running or waiting under another claim is.
	done, err := s.doneJobs(ctx, lost)
	if err != nil {
		return nil, s.wrap("renew job leases", err)
	}
	return slices.DeleteFunc(lost, func(id int64) bool { return done[id] }), nil
}

// doneJobs reports which of ids are done.
func (s *Store) doneJobs(ctx context.Context, ids []int64) (map[int64]bool, error) {
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	rows, err := s.w.QueryContext(ctx, s.rebind(`SELECT id FROM league_jobs WHERE state = 'done' AND id IN (`+placeholders(len(ids))+`)`), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	done := make(map[int64]bool)
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		done[id] = true
	}
	return done, rows.Err()
}

// Release gives owner's jobs back unfinished (a clean stop): they become available at once,
// and the claim does not count as an attempt. Jobs owner no longer holds are left alone.
func (s *Store) Release(ctx context.Context, owner string, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	args := []any{owner}
	for _, id := range ids {
		args = append(args, id)
	}
	_, err := s.w.ExecContext(ctx, s.rebind(`UPDATE league_jobs SET state = 'available', owner = '', lease_until = NULL,
	attempts = CASE WHEN attempts > 0 THEN attempts - 1 ELSE 0 END
WHERE owner = ? AND state = 'running' AND id IN (`+placeholders(len(ids))+`)`), args...)
	return s.wrap("release jobs", err)
}

// Fail records that owner's job id failed with msg: it becomes available again, or failed
// for good once it has been attempted maxAttempts times.
func (s *Store) Fail(ctx context.Context, owner string, id int64, msg string, maxAttempts int) error {
	_, err := s.w.ExecContext(ctx, s.rebind(`UPDATE league_jobs SET
	state = CASE WHEN attempts >= ? THEN 'failed' ELSE 'available' END, owner = '', lease_until = NULL, last_error = ?
WHERE id = ? AND owner = ? AND state = 'running'`), maxAttempts, msg, id, owner)
	return s.wrap(fmt.Sprintf("record the failure of job %d", id), err)
}

// LeaseOwners lists the owners holding leases on the league's jobs.
func (s *Store) LeaseOwners(ctx context.Context, league string) ([]string, error) {
	rows, err := s.r.QueryContext(ctx, s.rebind(`SELECT DISTINCT owner FROM league_jobs
WHERE league_id = ? AND state = 'running' ORDER BY owner`), league)
	if err != nil {
		return nil, s.wrap("list the workers of league "+league, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var o string
		if err := rows.Scan(&o); err != nil {
			return nil, s.wrap("list the workers of league "+league, err)
		}
		out = append(out, o)
	}
	return out, s.wrap("list the workers of league "+league, rows.Err())
}

// Rescue makes the league's jobs leased to owners available at once (the caller knows those
// workers are dead, e.g. processes of this host that no longer exist) and returns how many.
func (s *Store) Rescue(ctx context.Context, league string, owners []string) (int, error) {
	if len(owners) == 0 {
		return 0, nil
	}
	args := []any{league}
	for _, o := range owners {
		args = append(args, o)
	}
	res, err := s.w.ExecContext(ctx, s.rebind(`UPDATE league_jobs SET state = 'available', owner = '', lease_until = NULL
WHERE league_id = ? AND state = 'running' AND owner IN (`+placeholders(len(owners))+`)`), args...)
	if err != nil {
		return 0, s.wrap("rescue jobs of league "+league, err)
	}
	n, err := res.RowsAffected()
	return int(n), s.wrap("rescue jobs of league "+league, err)
}

// Jobs lists the league's jobs by id (for status displays and tests).
func (s *Store) Jobs(ctx context.Context, league string) ([]domain.Job, error) {
	rows, err := s.r.QueryContext(ctx, s.rebind(`SELECT `+jobColumns+` FROM league_jobs WHERE league_id = ? ORDER BY id`), league)
	if err != nil {
		return nil, s.wrap("list the jobs of league "+league, err)
	}
	jobs, err := scanJobs(rows)
	return jobs, s.wrap("list the jobs of league "+league, err)
}

// RoundJobs returns the jobs of the league round a match belongs to, by id: every match of
// a round deals the same deal sources, so a deal's cards are in play until every job of its
// group in the round is done (what the replays and the dashboard ask before they show a deal).
// A stand-alone match has none. One index range of league_jobs_round.
func (s *Store) RoundJobs(ctx context.Context, matchID string) ([]domain.Job, error) {
	what := "list the jobs of the round of match " + matchID
	// Without Stored (0): counting each job's deals would read the whole round's.
	rows, err := s.r.QueryContext(ctx, s.rebind(`SELECT j.id, j.league_id, j.round, j.match_id, j.first_group,
	j.n_groups, j.deals, j.state, j.owner, j.lease_until, j.attempts, j.last_error, 0 FROM league_matches lm
JOIN league_jobs j ON j.league_id = lm.league_id AND j.round = lm.round
WHERE lm.match_id = ? ORDER BY j.id`), matchID)
	if err != nil {
		return nil, s.wrap(what, err)
	}
	jobs, err := scanJobs(rows)
	return jobs, s.wrap(what, err)
}

// JobsIn returns the league's jobs in the given states, by id (two index ranges per state:
// what `tapp league status` lists, without reading the done jobs of a long league).
func (s *Store) JobsIn(ctx context.Context, league string, states ...domain.JobState) ([]domain.Job, error) {
	if len(states) == 0 {
		return nil, nil
	}
	args := []any{league}
	for _, st := range states {
		args = append(args, string(st))
	}
	rows, err := s.r.QueryContext(ctx, s.rebind(`SELECT `+jobColumns+` FROM league_jobs WHERE league_id = ? AND state IN (`+
		placeholders(len(states))+`) ORDER BY id`), args...)
	if err != nil {
		return nil, s.wrap("list the jobs of league "+league, err)
	}
	jobs, err := scanJobs(rows)
	return jobs, s.wrap("list the jobs of league "+league, err)
}

// OpenRounds returns the first round of the league with a job still to play (available or
// running; -1 if none) and the last round scheduled (-1 if none), from indexes alone.
func (s *Store) OpenRounds(ctx context.Context, league string) (first, last int, err error) {
	var f, l sql.NullInt64
	err = s.r.QueryRowContext(ctx, s.rebind(`SELECT (SELECT min(round) FROM league_jobs WHERE league_id = ?
	AND state IN ('available', 'running')), (SELECT max(round) FROM league_jobs WHERE league_id = ?)`), league, league).
		Scan(&f, &l)
	if err != nil {
		return -1, -1, s.wrap("read the rounds of league "+league, err)
	}
	first, last = -1, -1
	if f.Valid {
		first = int(f.Int64)
	}
	if l.Valid {
		last = int(l.Int64)
	}
	return first, last, nil
}

// SaveJobDeal stores a finished deal of job jobID like SaveDeal and, in the same transaction,
// marks the job done if all its deals are now stored (and then the match finished if all its
// jobs are done). It reports whether the job is done. Failures store nothing, as SaveDeal's.
func (s *Store) SaveJobDeal(ctx context.Context, d *domain.DealRecord, jobID int64) (bool, error) {
	if err := s.readyQueries(ctx, s.completeJobQueries()); err != nil {
		return false, s.wrapSave(d.MatchID, d.Number, err)
	}
	var done bool
	err := s.saveDeal(ctx, d, saveHooks{
		before: func(tx *sql.Tx) error { return s.lockJobs(ctx, tx, []int64{jobID}) },
		then: func(tx *sql.Tx) error {
			var err error
			done, err = s.completeJob(ctx, tx, jobID)
			return err
		}})
	return done, err
}

// SaveJobDeals stores several finished deals of jobs in one transaction (group commit: one
// commit, one fsync for all of them) and completes the jobs whose last deals they are, like
// SaveJobDeal. Each deal is stored whole or not at all; so is the batch: if any deal cannot
// be stored (domain.ErrConflict for one stored already, a full disk, a lock), none is.
func (s *Store) SaveJobDeals(ctx context.Context, items []domain.JobDeal) error {
	for attempt := 1; ; attempt++ {
		err := s.saveJobDeals(ctx, items)
		// PostgreSQL may still pick this transaction as a deadlock victim (or fail it for
		// serialization); it was rolled back whole, so it is simply tried again.
		if code := pgCode(err); (code == pgDeadlock || code == pgSerialization) && attempt < 5 {
			continue
		}
		return err
	}
}

func (s *Store) saveJobDeals(ctx context.Context, items []domain.JobDeal) error {
	if len(items) == 0 {
		return nil
	}
	deals := make([]*domain.DealRecord, len(items))
	for i, it := range items {
		deals[i] = it.Deal
	}
	first := items[0].Deal
	if err := s.readyQueries(ctx, s.completeJobQueries()); err != nil {
		return s.wrapSave(first.MatchID, first.Number, err)
	}
	var jobs []int64
	seen := map[int64]bool{}
	for _, it := range items {
		if !seen[it.JobID] {
			seen[it.JobID] = true
			jobs = append(jobs, it.JobID)
		}
	}
	sort.Slice(jobs, func(a, b int) bool { return jobs[a] < jobs[b] })
	return s.saveBatch(ctx, deals, saveHooks{
		// Jobs, then matches (chainDeals locks those), each in ascending order: every
		// transaction that stores deals or completes jobs takes its locks in this order, so two
		// of them never wait for each other in a circle.
		before: func(tx *sql.Tx) error { return s.lockJobs(ctx, tx, jobs) },
		then: func(tx *sql.Tx) error {
			for _, id := range jobs {
				if _, err := s.completeJob(ctx, tx, id); err != nil {
					return s.wrapSave(first.MatchID, first.Number, err)
				}
			}
			return nil
		}})
}

// lockJobs locks the rows of jobs (ascending ids) on PostgreSQL, FOR NO KEY UPDATE, as the
// first locks of a transaction that stores their deals; SQLite's one writer needs none.
func (s *Store) lockJobs(ctx context.Context, tx *sql.Tx, jobs []int64) error {
	if s.dialect != postgresDialect || len(jobs) == 0 {
		return nil
	}
	args := make([]any, len(jobs))
	for i, id := range jobs {
		args[i] = id
	}
	_, err := tx.ExecContext(ctx, s.rebind(`SELECT id FROM league_jobs WHERE id IN (`+placeholders(len(jobs))+
		`) ORDER BY id FOR NO KEY UPDATE`), args...)
	return err
}

// CompleteJob marks job jobID done if all its deals are stored (for a job found complete when
// claimed) and reports whether it is done.
func (s *Store) CompleteJob(ctx context.Context, jobID int64) (bool, error) {
	op := fmt.Sprintf("complete job %d", jobID)
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return false, s.wrap(op, err)
	}
	defer tx.Rollback()
	done, err := s.completeJob(ctx, tx, jobID)
	if err != nil {
		return false, s.wrap(op, err)
	}
	return done, s.wrap(op, tx.Commit())
}

// completeJob marks the job done in tx when all its deals are stored. On PostgreSQL the job's
// row and then the match's are locked first, so that of two transactions storing a job's (or
// a match's) last deals at once, the later one sees the earlier one's rows and completes it.
// The locks are FOR NO KEY UPDATE: they must not wait for the key-share locks that inserting
// a deal takes on its match (the foreign key), or two savers would wait for each other.
func (s *Store) completeJob(ctx context.Context, tx *sql.Tx, jobID int64) (bool, error) {
	q := s.completeJobQueries()
	var matchID, state string
	err := s.txQueryRow(ctx, tx, q[0], jobID).Scan(&matchID, &state)
	if errors.Is(err, sql.ErrNoRows) {
		return false, fmt.Errorf("job %d: %w", jobID, domain.ErrNotFound)
	}
	if err != nil {
		return false, err
	}
	if domain.JobState(state) == domain.JobDone {
		return true, nil
	}
	t := s.timeArg(now())
	res, err := s.txExec(ctx, tx, q[1], t, jobID)
	if err != nil {
		return false, err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return false, err
	}
	if s.dialect == postgresDialect {
		if _, err := s.txExec(ctx, tx, q[2], matchID); err != nil {
			return false, err
		}
	}
	res, err = s.txExec(ctx, tx, q[3], string(domain.MatchFinished), t, matchID, string(domain.MatchFinished))
	if err != nil {
		return true, err
	}
	if n, err := res.RowsAffected(); err == nil && n > 0 {
		// The match is finished now: its league counts it, and the running Elo rates it
		// (ratingstats.go).
		if s.keepsLeagueTotals() {
			if _, err := s.txExec(ctx, tx, q[4], matchID); err != nil {
				return true, err
			}
		}
		return true, s.rateFinished(ctx, tx, matchID)
	}
	return true, err
}

// completeJobQueries are the queries of completeJob, for the dialect. They run for every batch
// of deals a league stores, so they are prepared (readyQueries) before its transaction.
func (s *Store) completeJobQueries() []string {
	if s.dialect == postgresDialect {
		return pgCompleteJobQueries
	}
	return sqliteCompleteJobQueries
}

var (
	completeJobQueries = []string{
		`SELECT match_id, state FROM league_jobs WHERE id = ?`,
		`UPDATE league_jobs SET state = 'done', owner = '', lease_until = NULL, finished = ?
WHERE id = ? AND deals <= (SELECT count(*) FROM deals d WHERE d.match_id = league_jobs.match_id
	AND d.deal_group >= league_jobs.first_group AND d.deal_group < league_jobs.first_group + league_jobs.n_groups)`,
		`SELECT id FROM matches WHERE id = ? FOR NO KEY UPDATE`, // PostgreSQL only
		`UPDATE matches SET status = ?, finished = ? WHERE id = ? AND status <> ?
	AND NOT EXISTS (SELECT 1 FROM league_jobs j WHERE j.match_id = matches.id AND j.state <> 'done')`,
		`UPDATE leagues SET matches_finished = matches_finished + 1
WHERE id = (SELECT league_id FROM league_matches WHERE match_id = ?)`,
	}
	sqliteCompleteJobQueries = []string{completeJobQueries[0], completeJobQueries[1], "", completeJobQueries[3], completeJobQueries[4]}
	pgCompleteJobQueries     = func() []string {
		pg := &Store{dialect: postgresDialect}
		qs := make([]string, len(completeJobQueries))
		for i, q := range completeJobQueries {
			qs[i] = pg.rebind(q)
		}
		qs[0] += " FOR NO KEY UPDATE"
		return qs
	}()
)

func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}
