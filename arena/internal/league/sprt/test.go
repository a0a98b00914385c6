package sprt

import (
	"context"
	"math"
	"slices"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/league/plan"
	"github.com/tapparena/tapp/arena/internal/match"
	"github.com/tapparena/tapp/arena/internal/rating"
)

// UnitSource is what a running test reads: the league's running totals per unit
// (leaguestore.Store has it).
type UnitSource interface {
	LeagueUnits(ctx context.Context, league string, from int) ([]domain.LeagueUnit, error)
}

// Test is a running SPRT: each Check adds the pairs completed since the last one, read from
// the store's running totals of the rounds from the first pair not yet counted on — a few
// rounds' units, however many deals are stored (the league schedules at most two rounds
// beyond the last complete one). It keeps running sums, not the pairs. A Test started on a
// league played before (a resumed run, another process after kill -9) counts the stored
// pairs at its first Check and goes on from there: its state needs no storing.
type Test struct {
	st       UnitSource
	p        *plan.Plan
	s        Settings
	groups   int // pairs per round
	seatings int // deals of a complete group
	log      *zap.Logger

	mu      sync.Mutex
	tally   *tally
	round   int // the first pair not yet counted: (round, group)
	group   int
	lastLog time.Time
}

// NewTest returns a test of the SPRT league p (see NewPlan) that reads st; log, when set,
// gets the test's state every 5 s and at its decision.
func NewTest(st UnitSource, p *plan.Plan, s Settings, log *zap.Logger) (*Test, error) {
	t, err := newTally(s)
	if err != nil {
		return nil, err
	}
	if log == nil {
		log = zap.NewNop()
	}
	seatings := len(match.Seatings(p.Rules.Players))
	return &Test{st: st, p: p, s: s, groups: p.TablesPerMatch() / seatings, seatings: seatings, log: log, tally: t}, nil
}

// Check counts the pairs completed since the last Check and reports whether the test is over
// (decided, or at its limit of pairs): the Runner's Goal.
func (t *Test) Check(ctx context.Context) (bool, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.tally.decided() {
		units, err := t.st.LeagueUnits(ctx, t.p.League, t.round)
		if err != nil {
			return false, err
		}
		if err := t.addComplete(units); err != nil {
			return false, err
		}
	}
	s := t.tally.summary()
	t.logState(s)
	return s.Over(t.s.MaxPairs), nil
}

// Summary returns the test's state as of the last Check.
func (t *Test) Summary() Summary {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.tally.summary()
}

type unitKey struct {
	match string
	group int
}

// addComplete adds the complete pairs that follow the last one counted, in schedule order,
// until a pair is incomplete or the test decides; units are those of the rounds from t.round.
func (t *Test) addComplete(units []domain.LeagueUnit) error {
	byKey := make(map[unitKey]*domain.LeagueUnit, len(units))
	for i := range units {
		byKey[unitKey{units[i].MatchID, units[i].Group}] = &units[i]
	}
	for !t.tally.decided() {
		pair, ok := t.nextPair(byKey)
		if !ok {
			return nil
		}
		if err := t.tally.add(pair); err != nil {
			return err
		}
		if t.group++; t.group == t.groups {
			t.round, t.group = t.round+1, 0
		}
	}
	return nil
}

// nextPair returns the pair (t.round, t.group) when both of its groups are complete.
func (t *Test) nextPair(units map[unitKey]*domain.LeagueUnit) (Pair, bool) {
	cu := units[unitKey{t.p.MatchID(t.round, 0), t.group}]
	bu := units[unitKey{t.p.MatchID(t.round, 1), t.group}]
	if cu == nil || bu == nil || cu.Deals < t.seatings || bu.Deals < t.seatings {
		return Pair{}, false
	}
	tables := t.p.FixedTables(t.round) // the candidate's table, then the baseline's
	return newPair(t.round, t.group, net(cu, tables[0], t.p.Candidate), net(bu, tables[1], t.p.Baseline), cu.Deals), true
}

// net is bot's total in a unit of the match whose bots are table.
func net(u *domain.LeagueUnit, table []string, bot string) int64 {
	if i := slices.Index(table, bot); i >= 0 && i < len(u.Net) {
		return u.Net[i]
	}
	return 0
}

// logState logs the test's state every 5 s, and at the decision.
func (t *Test) logState(s Summary) {
	if time.Since(t.lastLog) <= 5*time.Second && s.Report.Status == rating.SPRTContinue {
		return
	}
	t.lastLog = time.Now()
	t.log.Info("sprt", zap.Int("pairs", s.Pairs), zap.Float64("llr", round2(s.Report.LLR)),
		zap.Float64("lower", round2(s.Report.Lower)), zap.Float64("upper", round2(s.Report.Upper)),
		zap.String("status", s.Report.Status.String()))
}

func round2(x float64) float64 { return math.Round(x*100) / 100 }
