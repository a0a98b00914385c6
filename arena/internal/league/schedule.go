package league

import (
	"context"
	"errors"
	"iter"
	"strings"

	"go.uber.org/zap"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/league/leaguestore"
	"github.com/tapparena/tapp/arena/internal/league/plan"
	"github.com/tapparena/tapp/arena/internal/rating"
)

// schedule stores the next part of the rounds that may be planned now (a round is stored a
// part at a time, plan.RoundParts: see storeNextPart) and reports whether it stored any. It
// stores at most one part per call, so that the main loop claims and plays the jobs stored
// so far between the parts of a large round (a ladder of 10,000 matches a round took 8 s to
// store whole on a busy host, with no deal played meanwhile); roundPending reports whether a
// round is still being stored, so that the loop calls again at once.
func (ru *run) schedule(ctx context.Context) (added bool, err error) {
	for {
		if ru.partial == nil {
			n := ru.scheduled
			if !ru.p.Unbounded() && n >= ru.p.Rounds {
				return added, nil
			}
			if ok, err := ru.mayPlan(ctx, n); !ok || err != nil {
				return added, err
			}
			tables, err := ru.tables(ctx, n)
			if err != nil {
				return added, err
			}
			next, stop := iter.Pull2(ru.p.RoundParts(n, tables, plan.RoundChunk))
			ru.partial = &roundStoring{n: n, next: next, stop: stop}
		}
		stored, err := ru.storeNextPart(ctx)
		if err != nil {
			ru.stopStoring()
			return added, err
		}
		if stored {
			return true, nil
		}
		// The round is stored whole: go on with the next, if it may be planned.
		added = true
	}
}

// roundStoring is a round being stored, a part at a time.
type roundStoring struct {
	n     int
	next  func() (plan.RoundPart, error, bool) // the round's next part
	stop  func()
	jobs  int
	names []string
}

// roundPending reports whether a round is being stored: schedule has more to do at once.
func (ru *run) roundPending() bool { return ru.partial != nil }

// stopStoring abandons the round being stored, if any (a round left half stored is stored
// whole when it is scheduled again: storing is idempotent).
func (ru *run) stopStoring() {
	if ru.partial != nil {
		ru.partial.stop()
		ru.partial = nil
	}
}

// storeNextPart stores the next part of the round being stored (each match with all its
// jobs, in one transaction) and reports true; once the round has no more parts it counts
// the round scheduled and reports false.
func (ru *run) storeNextPart(ctx context.Context) (bool, error) {
	rs := ru.partial
	part, err, ok := rs.next()
	if !ok {
		ru.partial = nil
		rs.stop()
		ru.mu.Lock()
		ru.scheduled = rs.n + 1
		ru.mu.Unlock()
		fields := []zap.Field{zap.Int("round", rs.n), zap.Strings("tables", rs.names), zap.Int("jobs", rs.jobs)}
		if m := ru.p.Matches(); m > len(rs.names) {
			fields = append(fields, zap.Int("matches", m))
		}
		ru.log.Info("round scheduled", fields...)
		ru.progress()
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if err := ctx.Err(); err != nil {
		return false, err
	}
	if err := ru.r.Store.ScheduleRound(ctx, part.Places, part.Matches, part.Jobs); err != nil {
		return false, storeErr(err)
	}
	rs.jobs += len(part.Jobs)
	for _, m := range part.Matches {
		if len(rs.names) < maxLoggedTables {
			rs.names = append(rs.names, strings.Join(m.Spec.Bots, "+"))
		}
	}
	return true, nil
}

// mayPlan reports whether round n may be scheduled: every round more than Ahead rounds
// before it is complete (so the ladder's choice depends only on finished rounds). A round
// is complete when all its jobs are stored (a host that died while it stored a round left
// only some: the round is stored whole again before it counts) and none is waiting or
// running.
func (ru *run) mayPlan(ctx context.Context, n int) (bool, error) {
	need := n - ru.p.Ahead() + 1 // the rounds before need must be complete
	if need <= ru.completeTo {
		return true, nil
	}
	// Only the rounds not yet seen complete are counted: a complete round stays so.
	counts, err := ru.r.Store.RoundCountsFrom(ctx, ru.p.League, ru.completeTo)
	if err != nil {
		return false, storeErr(err)
	}
	for _, c := range counts {
		if c.Round < need && (!c.Complete() || c.Jobs() < ru.jobsPerRound) {
			return false, nil
		}
	}
	ru.completeTo = need
	return true, nil
}

// tables returns the tables of round n, one at a time: fixed by the format, or chosen by the
// ladder's matchmaking from the complete rounds' results and every bot's matches so far.
func (ru *run) tables(ctx context.Context, n int) (iter.Seq[[]string], error) {
	p := ru.p
	if p.Format != plan.Ladder {
		return p.FixedTableSeq(n), nil
	}
	pairs, err := ru.pairsBefore(ctx, n-p.Ahead()+1)
	if err != nil {
		return nil, err
	}
	scheduled, err := ru.matchesBefore(ctx, n)
	if err != nil {
		return nil, err
	}
	return p.LadderTableSeq(n, pairs, scheduled), nil
}

// maxLoggedTables bounds the tables a "round scheduled" line names.
const maxLoggedTables = 32

// pairsBefore returns the pairwise results of the league's rounds before round, summed per
// pair of bots. The rounds before round are complete when it is asked (schedule waits for
// them), so their totals are final: each call reads only the rounds the last one did not.
func (ru *run) pairsBefore(ctx context.Context, round int) ([]rating.PairResult, error) {
	if round <= ru.pairsTo {
		return ru.pairs, nil
	}
	more, err := ru.r.Store.LadderPairs(ctx, ru.p.League, ru.pairsTo, round)
	if err != nil {
		return nil, storeErr(err)
	}
	if ru.pairs, err = rating.MergePairs(append(ru.pairs, more...)); err != nil {
		return nil, err
	}
	ru.pairsTo = round
	return ru.pairs, nil
}

// finished reports whether every planned round is scheduled and played.
func (ru *run) finished(ctx context.Context) (bool, error) {
	return roundsComplete(ctx, ru.r.Store, ru.p, ru.scheduled)
}

// roundsComplete reports whether a league that has scheduled rounds has played all of p's:
// every round is scheduled whole and no job waits or runs. It is asked whenever the worker
// has no job in hand — at each poll while other workers hold the last jobs — so it reads the
// queue's totals (the jobs in hand), not every job of the league.
func roundsComplete(ctx context.Context, st leaguestore.Store, p *plan.Plan, scheduled int) (bool, error) {
	if p.Unbounded() || scheduled < p.Rounds {
		return false, nil
	}
	t, err := st.LeagueJobTotals(ctx, p.League)
	if err != nil {
		return false, storeErr(err)
	}
	return !t.Open(), nil
}

// Finished reports whether the league p names is stored with this plan and has played every
// round p plans: running it would play nothing (so its bots need not be started).
func Finished(ctx context.Context, st leaguestore.Store, p *plan.Plan) (bool, error) {
	l, err := st.GetLeague(ctx, p.League)
	if errors.Is(err, domain.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, storeErr(err)
	}
	if l.Plan != p.Fingerprint() { // Run says how the plans differ
		return false, nil
	}
	scheduled, err := scheduledRounds(ctx, st, p)
	if err != nil {
		return false, err
	}
	return roundsComplete(ctx, st, p, scheduled)
}

// scheduledRounds counts the rounds of the league that are scheduled whole: the last round
// stored, when it has fewer matches than p plans (a host died while it stored it), counts as
// not scheduled, so that it is stored whole again.
func scheduledRounds(ctx context.Context, st leaguestore.Store, p *plan.Plan) (int, error) {
	lms, err := st.LeagueMatches(ctx, p.League)
	if err != nil {
		return 0, storeErr(err)
	}
	scheduled, inLast := 0, 0
	for _, lm := range lms {
		switch {
		case lm.Round+1 > scheduled:
			scheduled, inLast = lm.Round+1, 1
		case lm.Round+1 == scheduled:
			inLast++
		}
	}
	if scheduled > 0 && inLast < p.Matches() {
		scheduled--
	}
	return scheduled, nil
}
