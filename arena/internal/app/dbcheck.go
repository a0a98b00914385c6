package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/tapparena/tapp/arena/internal/board"
	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/replay"
)

// CheckedStore is what checking a store reads: every match with its chain and its deals'
// summaries, the leagues' running totals and jobs, the leaderboard's kept sums, and the
// database engine's own check. The SQL store has it all.
type CheckedStore interface {
	replay.SummaryStore
	domain.Store
	ListLeagues(ctx context.Context) ([]domain.League, error)
	LeagueUnits(ctx context.Context, league string, from int) ([]domain.LeagueUnit, error)
	LeagueDeals(ctx context.Context, league string) (int, error)
	LeagueJobTotals(ctx context.Context, league string) (domain.LeagueJobTotals, error)
	JobsIn(ctx context.Context, league string, states ...domain.JobState) ([]domain.Job, error)
	IntegrityCheck(ctx context.Context) (*domain.Integrity, error)
}

// StoreCheck is what tapp db check found.
type StoreCheck struct {
	Integrity *domain.Integrity
	// Matches counts the matches checked; Complete those proven to hold every planned deal,
	// Unfinished those still running or stopped (checked as far as they go).
	Matches, Complete, Unfinished int
	Deals                         int // deals read
	Leagues                       int
	Problems                      []string // each names its match, league or table
	Notes                         []string // what could not be checked, and why

	// damaged are the matches some of whose deals cannot be read: their leagues' totals are
	// not compared with a recomputation that would miss those deals.
	damaged map[string]bool
}

// OK reports whether nothing is wrong.
func (c *StoreCheck) OK() bool {
	return len(c.Problems) == 0 && (c.Integrity == nil || len(c.Integrity.Problems) == 0)
}

// CheckStore checks a whole store: the database engine's check of its pages, every match
// against its commitment, its manifest and the chain of its deals (replay.CheckComplete,
// without re-simulating the deals), and the aggregates the arena keeps up to date as deals
// are stored against a recomputation from the deals: each league's running totals (units,
// deals, jobs done, deals planned) and the leaderboard's sums. It reads every deal twice (their summaries:
// no request is rebuilt) and reports progress as it goes (what, done of total). A damaged
// part is a problem, and the check goes on with the rest.
func CheckStore(ctx context.Context, st CheckedStore, progress func(what string, done, total int)) (*StoreCheck, error) {
	if progress == nil {
		progress = func(string, int, int) {}
	}
	c := &StoreCheck{}
	integrity, err := st.IntegrityCheck(ctx)
	if err != nil {
		return nil, err
	}
	c.Integrity = integrity
	ms, err := st.ListMatches(ctx, domain.MatchFilter{})
	if err != nil {
		c.Problems = append(c.Problems, fmt.Sprintf("the matches cannot be listed: %v", err))
		return c, nil
	}
	units := map[unitKey]*domain.LeagueUnit{}
	leagueDeals := map[string]int{}
	for i := range ms {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		c.checkMatch(ctx, st, &ms[i], units, leagueDeals)
		progress("matches", i+1, len(ms))
	}
	if err := c.checkLeagues(ctx, st, ms, units, leagueDeals); err != nil {
		return nil, err
	}
	if err := c.checkBoard(ctx, st, func(done, total int) { progress("leaderboard", done, total) }); err != nil {
		return nil, err
	}
	return c, nil
}

// unitKey names a league unit: a match's deal source.
type unitKey struct {
	match string
	group int
}

// checkMatch checks one match and adds its deals to the league units recomputed.
func (c *StoreCheck) checkMatch(ctx context.Context, st CheckedStore, m *domain.Match, units map[unitKey]*domain.LeagueUnit, leagueDeals map[string]int) {
	c.Matches++
	decisions, fallbacks := 0, 0
	rep, err := replay.CheckComplete(ctx, st, m.ID, func(rec *domain.DealRecord) {
		decisions += len(rec.Decisions)
		for _, x := range rec.Decisions {
			if x.Fallback {
				fallbacks++
			}
		}
		if m.Spec.LeagueID == "" {
			return
		}
		leagueDeals[m.Spec.LeagueID]++
		k := unitKey{m.ID, rec.Group}
		u := units[k]
		if u == nil {
			u = &domain.LeagueUnit{MatchID: m.ID, Group: rec.Group, Net: make([]int64, len(m.Spec.Bots))}
			units[k] = u
		}
		u.Deals++
		for _, r := range rec.Results {
			if i := slices.Index(m.Spec.Bots, r.Bot); i >= 0 {
				u.Net[i] += int64(r.Payoff)
			}
		}
	})
	if err != nil && !errors.Is(err, context.Canceled) {
		// A deal that cannot be read stops the match's listing: check the match deal by deal
		// instead (re-simulating them, as tapp replay verify does), so that the damaged deals
		// are named (REC-UNREADABLE) and the others checked.
		if c.damaged == nil {
			c.damaged = make(map[string]bool)
		}
		c.damaged[m.ID] = true
		rep, err = replay.VerifyStored(ctx, st, m.ID)
	}
	if err != nil {
		c.Problems = append(c.Problems, fmt.Sprintf("match %s cannot be checked: %v", m.ID, err))
		return
	}
	c.Deals += rep.Deals
	for _, p := range rep.Problems {
		c.Problems = append(c.Problems, "match "+m.ID+": "+p.String())
	}
	for _, u := range rep.Unchecked {
		if m.Status == domain.MatchFinished {
			c.Notes = append(c.Notes, u)
		}
	}
	switch {
	case m.Status != domain.MatchFinished:
		c.Unfinished++
	case len(rep.Complete) > 0:
		c.Complete++
	}
	// A stand-alone match counts its decisions and fallbacks when it ends (league matches
	// keep theirs in the leaderboard's sums, checked with it).
	if m.Spec.LeagueID == "" && m.Status == domain.MatchFinished && m.Decisions > 0 && rep.OK() &&
		(m.Decisions != decisions || m.Fallbacks != fallbacks) {
		c.Problems = append(c.Problems, fmt.Sprintf("match %s: it counts %d decisions and %d fallbacks, its stored deals %d and %d",
			m.ID, m.Decisions, m.Fallbacks, decisions, fallbacks))
	}
}

// checkLeagues compares every league's running totals with its stored deals.
func (c *StoreCheck) checkLeagues(ctx context.Context, st CheckedStore, ms []domain.Match, units map[unitKey]*domain.LeagueUnit, leagueDeals map[string]int) error {
	leagueOf := make(map[string]string, len(ms))
	damaged := map[string][]string{} // league → its matches with deals that cannot be read
	for _, m := range ms {
		leagueOf[m.ID] = m.Spec.LeagueID
		if c.damaged[m.ID] {
			damaged[m.Spec.LeagueID] = append(damaged[m.Spec.LeagueID], m.ID)
		}
	}
	ls, err := st.ListLeagues(ctx)
	if err != nil {
		c.Problems = append(c.Problems, fmt.Sprintf("the leagues cannot be listed: %v", err))
		return nil
	}
	for _, l := range ls {
		if err := ctx.Err(); err != nil {
			return err
		}
		c.Leagues++
		kept, err := st.LeagueUnits(ctx, l.ID, 0)
		if err != nil {
			c.Problems = append(c.Problems, fmt.Sprintf("league %s: its totals cannot be read: %v", l.ID, err))
			continue
		}
		if len(damaged[l.ID]) > 0 {
			c.Notes = append(c.Notes, fmt.Sprintf("league %s: the totals of match(es) %s and the league's count of deals were not "+
				"compared with its stored deals: some of them cannot be read (the problems above name them)", l.ID, strings.Join(damaged[l.ID], ", ")))
		}
		seen := map[unitKey]bool{}
		for _, u := range kept {
			k := unitKey{u.MatchID, u.Group}
			seen[k] = true
			if c.damaged[u.MatchID] {
				continue
			}
			got := units[k]
			switch {
			case got == nil && u.Deals != 0:
				c.Problems = append(c.Problems, fmt.Sprintf("league %s: its totals count %d deal(s) of match %s, group %d, but none is stored",
					l.ID, u.Deals, u.MatchID, u.Group))
			case got != nil && (got.Deals != u.Deals || !slices.Equal(got.Net, u.Net)):
				c.Problems = append(c.Problems, fmt.Sprintf("league %s: its totals of match %s, group %d say %d deal(s), net %v; its stored deals %d, net %v",
					l.ID, u.MatchID, u.Group, u.Deals, u.Net, got.Deals, got.Net))
			}
		}
		for k, u := range units {
			if !seen[k] && leagueOf[k.match] == l.ID {
				c.Problems = append(c.Problems, fmt.Sprintf("league %s: %d stored deal(s) of match %s, group %d are in none of its totals",
					l.ID, u.Deals, u.MatchID, u.Group))
			}
		}
		if n, err := st.LeagueDeals(ctx, l.ID); err == nil && n != leagueDeals[l.ID] && len(damaged[l.ID]) == 0 {
			c.Problems = append(c.Problems, fmt.Sprintf("league %s: it counts %d deals stored, %d are", l.ID, n, leagueDeals[l.ID]))
		}
		jobs, err := st.JobsIn(ctx, l.ID, domain.JobAvailable, domain.JobRunning, domain.JobDone, domain.JobFailed)
		if err != nil {
			c.Problems = append(c.Problems, fmt.Sprintf("league %s: its jobs cannot be read: %v", l.ID, err))
			continue
		}
		c.checkPlannedDeals(ctx, st, l.ID, jobs)
		for _, j := range jobs {
			if j.State == domain.JobDone && j.Stored != j.Deals {
				c.Problems = append(c.Problems, fmt.Sprintf("league %s: job %d (match %s, groups %d-%d) is done with %d of its %d deals stored",
					l.ID, j.ID, j.MatchID, j.FirstGroup, j.FirstGroup+j.Groups-1, j.Stored, j.Deals))
			}
		}
	}
	return nil
}

// checkPlannedDeals compares the league's kept count of planned deals (what its progress
// shows as the whole) with its jobs' deals.
func (c *StoreCheck) checkPlannedDeals(ctx context.Context, st CheckedStore, league string, jobs []domain.Job) {
	totals, err := st.LeagueJobTotals(ctx, league)
	if err != nil {
		c.Problems = append(c.Problems, fmt.Sprintf("league %s: its planned deals cannot be read: %v", league, err))
		return
	}
	planned := 0
	for _, j := range jobs {
		planned += j.Deals
	}
	if totals.DealsPlanned != planned {
		c.Problems = append(c.Problems, fmt.Sprintf("league %s: it counts %d deals planned, its jobs have %d", league, totals.DealsPlanned, planned))
	}
}

// checkBoard compares the leaderboard of every stored result from the kept sums with the one
// a recomputation from the stored deals gives: they are the same board, or the sums are wrong.
func (c *StoreCheck) checkBoard(ctx context.Context, st CheckedStore, progress func(done, total int)) error {
	boardOf := func(o board.LoadOptions) ([]byte, error) {
		sums, err := board.Load(ctx, st, domain.MatchFilter{}, o)
		if err != nil {
			return nil, err
		}
		lb, err := board.Compute(sums, board.Options{})
		if err != nil {
			return nil, err
		}
		return json.Marshal(lb)
	}
	kept, err := boardOf(board.LoadOptions{})
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return err
		}
		c.Problems = append(c.Problems, fmt.Sprintf("the leaderboard's kept sums cannot be read: %v", err))
		return nil
	}
	again, err := boardOf(board.LoadOptions{Recompute: true, Progress: progress})
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return err
		}
		c.Problems = append(c.Problems, fmt.Sprintf("the leaderboard cannot be recomputed from the stored deals: %v", err))
		return nil
	}
	if !bytes.Equal(kept, again) {
		c.Problems = append(c.Problems, "the leaderboard's kept sums give another board than a recomputation from the stored deals "+
			"(tapp ratings --recompute shows the recomputed one)")
	}
	return nil
}
