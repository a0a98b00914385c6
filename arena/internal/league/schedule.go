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

// schedule stores the rounds that may be planned now and reports whether it stored any.
func (ru *run) schedule(ctx context.Context) (added bool, err error) {
	for {
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
		if err := ru.storeRound(ctx, n, tables); err != nil {
			return added, err
		}
		added = true
	}
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

// storeRound stores round n's matches and jobs, a part of about plan.RoundChunk jobs per
// transaction (each match with all its jobs: storing is idempotent, so a round left half
// stored is stored whole when it is scheduled again), and counts it scheduled.
func (ru *run) storeRound(ctx context.Context, n int, tables iter.Seq[[]string]) error {
	var names []string
	jobs := 0
	for part, err := range ru.p.RoundParts(n, tables, plan.RoundChunk) {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := ru.r.Store.ScheduleRound(ctx, part.Places, part.Matches, part.Jobs); err != nil {
			return storeErr(err)
		}
		jobs += len(part.Jobs)
		for _, m := range part.Matches {
			if len(names) < maxLoggedTables {
				names = append(names, strings.Join(m.Spec.Bots, "+"))
			}
		}
	}
	ru.mu.Lock()
	ru.scheduled = n + 1
	ru.mu.Unlock()
	fields := []zap.Field{zap.Int("round", n), zap.Strings("tables", names), zap.Int("jobs", jobs)}
	if m := ru.p.Matches(); m > len(names) {
		fields = append(fields, zap.Int("matches", m))
	}
	ru.log.Info("round scheduled", fields...)
	ru.progress()
	return nil
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

// roundsComplete reports whether a league that has scheduled rounds has played all of p's.
func roundsComplete(ctx context.Context, st leaguestore.Store, p *plan.Plan, scheduled int) (bool, error) {
	if p.Unbounded() || scheduled < p.Rounds {
		return false, nil
	}
	counts, err := st.RoundCounts(ctx, p.League)
	if err != nil {
		return false, storeErr(err)
	}
	for _, c := range counts {
		if !c.Complete() {
			return false, nil
		}
	}
	return true, nil
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
