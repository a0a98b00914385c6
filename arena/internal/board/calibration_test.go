package board_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/tapparena/tapp/arena/internal/board"
	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/league/plan"
	"github.com/tapparena/tapp/arena/internal/match"
	"github.com/tapparena/tapp/arena/internal/rating"
	"github.com/tapparena/tapp/bots"
	"github.com/tapparena/tapp/bots/builtin"
	"github.com/tapparena/tapp/engine"
)

// The calibration plays leagues with the real engine and built-in bots, scheduled by the
// league's own planner (plan.Plan: its rounds, tables, deal seeds and the ladder's
// matchmaking) and dealt by the match planner (match.Plan: every seating of a duplicate
// group, the dealer passing round without), so that every table of a round plays the same
// deal sources, as a league does. Every built-in bot is a pure function of its seed and what
// it sees, so a deal played twice at the same seating plays out the same: the calibration
// plays each (deal, seating) once and reuses it, which changes nothing but the time.
//
// Its checks need no planted truth: identical bots (random bots of different seeds, or two
// names of the deterministic heuristic) are exchangeable, so their true headlines are equal
// (and 0 in a field of identical bots). It checks the share of 95% intervals covering 0 in
// such fields and the share of pairs of identical bots flagged at LOS ≥ 97.5%, on the current
// estimator and on the one before (additive, clustered by table unit, normal critical values),
// which must fail.

// calField is the bots of a league: name → built-in kind and seed.
type calField struct {
	names []string
	kinds []string
	seeds []uint64
	// same groups the names into classes of identical bots (the pairs whose LOS is checked);
	// zero says that every bot's true headline is 0 (a field of identical bots).
	same [][]string
	zero bool
}

func randomField(n int) calField {
	f := calField{zero: true}
	for i := range n {
		f.names = append(f.names, fmt.Sprintf("r%d", i+1))
		f.kinds = append(f.kinds, "random")
		f.seeds = append(f.seeds, uint64(100+i))
	}
	f.same = [][]string{f.names}
	return f
}

// copiesField is two heuristic bots under two names and n random bots.
func copiesField(n int) calField {
	f := calField{names: []string{"h1", "h2"}, kinds: []string{"heuristic", "heuristic"}, seeds: []uint64{1, 2}}
	var rs []string
	for i := range n {
		name := fmt.Sprintf("r%d", i+1)
		f.names, f.kinds, f.seeds = append(f.names, name), append(f.kinds, "random"), append(f.seeds, uint64(100+i))
		rs = append(rs, name)
	}
	f.same = [][]string{{"h1", "h2"}, rs}
	return f
}

// calCase is one kind of league of the calibration.
type calCase struct {
	name      string
	field     calField
	players   int
	format    string
	candidate string
	duplicate bool
	rounds    int
	deals     int // deal sources per match
	tables    int // a ladder's tables per round (0: the plan's default)
	leagues   int
}

// player plays deals with the engine and the field's bots, once per (rules, deal, seating).
type player struct {
	bots  map[string]bots.Bot
	mu    sync.Mutex
	cache map[string][]int
}

func newPlayer(t testing.TB, f calField) *player {
	p := &player{bots: map[string]bots.Bot{}, cache: map[string][]int{}}
	for i, n := range f.names {
		b, err := builtin.New(f.kinds[i], f.seeds[i])
		if err != nil {
			t.Fatal(err)
		}
		p.bots[n] = b
	}
	return p
}

func (p *player) play(t testing.TB, r engine.RuleSet, tb match.Table) []int {
	key := tb.Deal.Format(r) + "|" + strings.Join(tb.Seating, ",")
	p.mu.Lock()
	pay, ok := p.cache[key]
	p.mu.Unlock()
	if ok {
		return pay
	}
	s, err := engine.NewState(r, tb.Deal, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for !s.Terminal() {
		obs := s.Observe(s.ToMove())
		a, err := p.bots[tb.Seating[s.ToMove()]].Decide(context.Background(), &obs)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Apply(a); err != nil {
			t.Fatal(err)
		}
	}
	o := s.Outcome()
	pay = slices.Clone(o.Payoff[:len(tb.Seating)])
	p.mu.Lock()
	p.cache[key] = pay
	p.mu.Unlock()
	return pay
}

// calTally is what a case's leagues showed.
type calTally struct {
	intervals, covered     int // intervals of bots whose truth is 0, and those covering it
	pairs, flagged         int // pairs of identical bots, and those at LOS ≥ 97.5% either way
	btIntervals, btCovered int // the same of the Bradley–Terry Elo's intervals
	noInterval             int // bots without an interval
	// copyPairs, copyFlagged: the pairs of copies of the heuristic alone (among pairs)
	copyPairs, copyFlagged int
	// the same per league, for the intervals of the shares: a league's intervals and pairs
	// are not independent (they share bots and deal sources), its leagues are
	coverByLeague, flagsByLeague leagueShare
}

func (c calTally) coverage() float64 { return float64(c.covered) / float64(max(c.intervals, 1)) }
func (c calTally) flagRate() float64 { return float64(c.flagged) / float64(max(c.pairs, 1)) }
func (c calTally) btCoverage() float64 {
	return float64(c.btCovered) / float64(max(c.btIntervals, 1))
}

// leagueShare is a share counted league by league: hits of n in each.
type leagueShare struct{ hits, n []float64 }

func (s *leagueShare) add(hits, n int) {
	s.hits, s.n = append(s.hits, float64(hits)), append(s.n, float64(n))
}

// interval is the share's 95% interval with the leagues as clusters: Wilson's score interval
// on the effective sample n/D, D the design effect — the variance of the share as the
// leagues' spread measures it (the ratio estimator's, clustered by league) over the binomial
// variance of as many independent trials. One bot far from the others flags every pair it is
// in, so a league's pairs count for fewer (D ≈ 1.5–2 for the random fields).
func (s leagueShare) interval() (share, lo, hi float64) {
	var h, n float64
	for l := range s.n {
		h, n = h+s.hits[l], n+s.n[l]
	}
	if n == 0 {
		return 0, 0, 0
	}
	share = h / n
	leagues := float64(len(s.n))
	var ss float64
	for l := range s.n {
		r := s.hits[l] - share*s.n[l]
		ss += r * r
	}
	design := 1.0
	if binom := share * (1 - share) / n; binom > 0 && leagues > 1 {
		design = math.Max(1, leagues/(leagues-1)*ss/(n*n)/binom)
	}
	eff := n / design
	const z = 1.959964
	centre := (share + z*z/(2*eff)) / (1 + z*z/eff)
	half := z / (1 + z*z/eff) * math.Sqrt(share*(1-share)/eff+z*z/(4*eff*eff))
	return share, math.Max(0, centre-half), math.Min(1, centre+half)
}

// calibrate plays the case's leagues and scores the current and the legacy estimator.
func calibrate(t testing.TB, c calCase) (now, legacy calTally) {
	pl := newPlayer(t, c.field)
	for l := range c.leagues {
		seed := uint64(1000*l + 17)
		pl.cache = map[string][]int{} // a league's deals are its own: keep only those in memory
		now.add(c, score(t, playLeague(t, c, pl, seed, board.NewAccumulator()), nil))
		// The estimator before, on the same results (played again from the cache): every unit
		// its own cluster, additive, the skill s_i itself, normal critical values.
		unit := board.NewAccumulator()
		unit.UnitSources = true
		legacy.add(c, score(t, playLeague(t, c, pl, seed, unit), &rating.SkillOptions{Model: rating.Additive, Legacy: true}))
	}
	return now, legacy
}

// playLeague plays one league of the case, with the plan's seed, into acc.
func playLeague(t testing.TB, c calCase, pl *player, seed uint64, acc *board.Accumulator) *board.Accumulator {
	r := engine.DefaultRules(engine.Modern)
	r.Players = c.players
	p := &plan.Plan{League: "cal", Rules: r, Format: c.format, Bots: c.field.names, Candidate: c.candidate,
		Rounds: c.rounds, Deals: c.deals, Duplicate: c.duplicate, Seed: seed, MatchesPerRound: c.tables}
	if c.format == lopsided {
		p.Format = plan.RoundRobin // its rounds' tables are lopsidedTables'
	}
	var units, done []plan.Unit // done: the units of the rounds before the previous one (the ladder's)
	for round := range c.rounds {
		var tables [][]string
		switch c.format {
		case plan.Ladder:
			tables = p.LadderTables(round, done, nil)
		case lopsided:
			tables = lopsidedTables(c, seed, round)
		default:
			tables = p.FixedTables(round)
		}
		_, ms, _, err := p.Round(round, tables)
		if err != nil {
			t.Fatal(err)
		}
		done = slices.Clone(units)
		for _, m := range ms {
			tbs, err := match.Plan(m.Spec)
			if err != nil {
				t.Fatal(err)
			}
			info := board.InfoOf(m)
			byGroup := map[int]*plan.Unit{}
			for _, tb := range tbs {
				pay := pl.play(t, r, tb)
				d := &domain.DealRecord{MatchID: m.ID, Number: tb.Number, Group: tb.Group, Seating: tb.Seating, Deal: tb.Deal}
				u := byGroup[tb.Group]
				if u == nil {
					u = &plan.Unit{MatchID: m.ID, Group: tb.Group, Complete: true, Bots: m.Spec.Bots, Net: make([]int64, len(m.Spec.Bots))}
					byGroup[tb.Group] = u
				}
				for seat, b := range tb.Seating {
					d.Results = append(d.Results, domain.SeatResult{Bot: b, Seat: engine.Seat(seat), Payoff: pay[seat]})
					u.Net[slices.Index(m.Spec.Bots, b)] += int64(pay[seat])
				}
				u.Deals++
				if err := acc.AddDeal(info, d); err != nil {
					t.Fatal(err)
				}
			}
			for g := range len(byGroup) {
				units = append(units, *byGroup[g])
			}
		}
	}
	return acc
}

// lopsided is a schedule of the calibration's own, no league format: a field that meets in
// unequal proportions, as stand-alone matches of one's choosing do. Each round seats
// lopsidedTablesPerRound tables drawn without replacement from the compositions, each with a
// chance in proportion to the product of its bots' weights (lopsidedWeights, in the field's
// order): the first bot sits at most tables, the second at few, so that two copies of one
// program meet their opponents in very different shares.
const lopsided = "lopsided"

var lopsidedWeights = []float64{8, 1, 4, 2, 1}

const lopsidedTablesPerRound = 2

// lopsidedTables draws round r's tables of a lopsided league from its seed.
func lopsidedTables(c calCase, seed uint64, r int) [][]string {
	var comps [][]string
	var weights []float64
	var rec func(from int, cur []string, w float64)
	rec = func(from int, cur []string, w float64) {
		if len(cur) == c.players {
			comps, weights = append(comps, slices.Clone(cur)), append(weights, w)
			return
		}
		for i := from; i < len(c.field.names); i++ {
			rec(i+1, append(cur, c.field.names[i]), w*lopsidedWeights[i])
		}
	}
	rec(0, nil, 1)
	rng := rand.New(rand.NewPCG(seed, uint64(r)))
	var out [][]string
	for range min(lopsidedTablesPerRound, len(comps)) {
		var total float64
		for _, w := range weights {
			total += w
		}
		x := rng.Float64() * total
		k := 0
		for ; k < len(weights)-1 && x >= weights[k]; k++ {
			x -= weights[k]
		}
		out = append(out, comps[k])
		comps, weights = slices.Delete(comps, k, k+1), slices.Delete(weights, k, k+1)
	}
	return out
}

func score(t testing.TB, acc *board.Accumulator, o *rating.SkillOptions) *board.Leaderboard {
	lb, err := board.Compute(acc.Finish(nil), board.Options{Skill: o})
	if err != nil {
		t.Fatal(err)
	}
	return lb
}

func (c *calTally) add(cc calCase, lb *board.Leaderboard) {
	intervals, covered, pairs, flagged := c.intervals, c.covered, c.pairs, c.flagged
	defer func() {
		if cc.field.zero {
			c.coverByLeague.add(c.covered-covered, c.intervals-intervals)
		}
		c.flagsByLeague.add(c.flagged-flagged, c.pairs-pairs)
	}()
	idx := map[string]int{}
	for i, b := range lb.Bots {
		idx[b.Bot] = i
		if !b.Interval {
			c.noInterval++
			continue
		}
		if cc.field.zero {
			c.intervals++
			if b.RatingLo <= 0 && 0 <= b.RatingHi {
				c.covered++
			}
			if b.BTSE > 0 {
				c.btIntervals++
				if b.BTLo <= 0 && 0 <= b.BTHi {
					c.btCovered++
				}
			}
		}
	}
	for k, class := range cc.field.same {
		copies := k == 0 && !cc.field.zero // copiesField's first class: the heuristic's copies
		for x, a := range class {
			for _, b := range class[x+1:] {
				i, j := idx[a], idx[b]
				if !lb.Bots[i].Interval || !lb.Bots[j].Interval {
					continue
				}
				c.pairs++
				if copies {
					c.copyPairs++
				}
				if los := lb.LOS[i][j]; los >= 0.975 || los <= 0.025 {
					c.flagged++
					if copies {
						c.copyFlagged++
					}
				}
			}
		}
	}
}

// calMatrix is every standard format: round robin, gauntlet and ladder, at 3 and 4 seats,
// duplicate on and off, each for a field of identical random bots (4 at 3 seats, 5 at 4:
// coverage and flags) and for a non-additive field of two copies of the deterministic
// heuristic with random bots (flags: the copies must not be told apart, nor the random bots);
// and provisional fields (10 and 20 deal sources a league). Round robins and gauntlets play 4
// rounds of 10 deal sources, ladders 12 of 5 at as many tables a round as seats (matchmaking
// from the results so far, bots at several tables of a round).
func calMatrix() []calCase {
	var out []calCase
	for _, copies := range []bool{false, true} {
		for _, seats := range []int{3, 4} {
			for _, format := range []string{plan.RoundRobin, plan.Gauntlet, plan.Ladder, lopsided} {
				for _, dup := range []bool{true, false} {
					c := calCase{players: seats, format: format, duplicate: dup, rounds: 4, deals: 10, leagues: 300}
					field, what := randomField(seats+1), fmt.Sprintf("%d random", seats+1)
					if copies {
						field, what = copiesField(seats-1), fmt.Sprintf("2 heuristic copies + %d random", seats-1)
						c.leagues = 100
					}
					c.field = field
					if format == plan.Gauntlet {
						c.candidate = field.names[0]
					}
					switch format {
					case plan.Ladder: // as many tables a round as seats: they share the round's deal sources
						c.rounds, c.deals, c.tables = 12, 5, seats
					case lopsided: // lopsidedTablesPerRound tables a round
						c.rounds, c.deals = 12, 5
					}
					c.name = fmt.Sprintf("%s, %d seats, %s, %s", what, seats, formatName(format, c.candidate), dupName(dup))
					out = append(out, c)
				}
			}
		}
	}
	for _, sources := range []int{10, 20} {
		for _, seats := range []int{3, 4} {
			out = append(out, calCase{name: fmt.Sprintf("%d random, %d seats, round robin, duplicate, %d deal sources (provisional)",
				seats+1, seats, sources), field: randomField(seats + 1), players: seats, format: plan.RoundRobin,
				duplicate: true, rounds: sources / 5, deals: 5, leagues: 300})
		}
	}
	return out
}

func formatName(format, candidate string) string {
	switch format {
	case plan.Gauntlet:
		return "gauntlet of " + candidate
	case plan.Ladder:
		return "ladder"
	case lopsided:
		return "lopsided"
	}
	return "round robin"
}

func dupName(dup bool) string {
	if dup {
		return "duplicate"
	}
	return "no duplicate"
}

// quickCases are the leagues of `make test` (about 20 s of CPU in all on this machine): a few
// formats of the matrix, fewer leagues.
func quickCases() []calCase {
	pick := map[string]int{
		"4 random, 3 seats, round robin, duplicate":                                60,
		"5 random, 4 seats, round robin, duplicate":                                40,
		"4 random, 3 seats, round robin, no duplicate":                             60,
		"5 random, 4 seats, gauntlet of r1, no duplicate":                          40,
		"4 random, 3 seats, ladder, duplicate":                                     60,
		"4 random, 3 seats, round robin, duplicate, 10 deal sources (provisional)": 60,
		"2 heuristic copies + 2 random, 3 seats, gauntlet of h1, duplicate":        30,
		"2 heuristic copies + 3 random, 4 seats, round robin, duplicate":           20,
	}
	var out []calCase
	for _, c := range calMatrix() {
		if n, ok := pick[c.name]; ok {
			c.leagues = n
			out = append(out, c)
		}
	}
	return out
}

// The quick bands: the targets (coverage 93–97%, at most 5% of identical pairs
// flagged at LOS ≥ 97.5%) widened by the binomial noise of what the quick run scores, at
// z = 2.58 (1% two-sided) — n intervals or pairs, as if independent (a league's are not
// quite: the long run measures the rest). The leagues are seeded, so a run is deterministic:
// the bands say that this sample is consistent with the targets, not that a run may fail.
//
//	coverage ≥ 0.93 − 2.58·√(0.93·0.07/n),  coverage ≤ 0.97 + 2.58·√(0.97·0.03/n)
//	flagged  ≤ 0.05 + 2.58·√(0.05·0.95/n)
func quickBands(intervals, pairs int) (coverLo, coverHi, flags float64) {
	band := func(p float64, n int) float64 { return 2.58 * math.Sqrt(p*(1-p)/float64(max(n, 1))) }
	return 0.93 - band(0.93, intervals), 0.97 + band(0.97, intervals), 0.05 + band(0.05, pairs)
}

// TestCalibrationOnRealLeagues is the quick calibration: the current board's intervals (the
// headline's and the BT Elo's) cover identical bots' common truth and flag identical pairs at
// the rate a 95% board should, in every format it plays (quickCases), copies of one program
// included; the estimator before fails the same checks on the same leagues (the test's proof
// that it can fail).
func TestCalibrationOnRealLeagues(t *testing.T) {
	t.Parallel()
	for _, c := range quickCases() {
		now, legacy := calibrate(t, c)
		t.Logf("%s: coverage %.1f%% of %d (legacy %.1f%%), identical pairs flagged %.1f%% of %d (legacy %.1f%%), %d without interval; BT Elo coverage %.1f%% of %d (legacy %.1f%%)",
			c.name, 100*now.coverage(), now.intervals, 100*legacy.coverage(), 100*now.flagRate(), now.pairs, 100*legacy.flagRate(), now.noInterval,
			100*now.btCoverage(), now.btIntervals, 100*legacy.btCoverage())
		lo, hi, flags := quickBands(now.intervals, now.pairs)
		if c.field.zero && (now.coverage() < lo || now.coverage() > hi) {
			t.Errorf("%s: the 95%% intervals cover the truth in %.1f%% of %d, want %.1f–%.1f%% (93–97%% and the sample's noise)", c.name,
				100*now.coverage(), now.intervals, 100*lo, 100*hi)
		}
		if now.flagRate() > flags {
			t.Errorf("%s: %.1f%% of %d pairs of identical bots flagged at LOS ≥ 97.5%%, want ≤ %.1f%% (5%% and the sample's noise)", c.name,
				100*now.flagRate(), now.pairs, 100*flags)
		}
		if blo, bhi, _ := quickBands(now.btIntervals, 0); c.field.zero && (now.btCoverage() < blo || now.btCoverage() > bhi) {
			t.Errorf("%s: the BT Elo's 95%% intervals cover the truth in %.1f%% of %d, want %.1f–%.1f%%", c.name,
				100*now.btCoverage(), now.btIntervals, 100*blo, 100*bhi)
		}
		if now.pairs == 0 || c.field.zero && now.intervals == 0 {
			t.Errorf("%s: %d intervals and %d pairs scored: the case tests nothing", c.name, now.intervals, now.pairs)
		}
		llo, lhi, lflags := quickBands(legacy.intervals, legacy.pairs)
		legacyFails := legacy.flagRate() > lflags || c.field.zero && (legacy.coverage() < llo || legacy.coverage() > lhi)
		if !legacyFails {
			t.Errorf("%s: the estimator before passes too (coverage %.1f%%, flags %.1f%%): the check cannot tell them apart",
				c.name, 100*legacy.coverage(), 100*legacy.flagRate())
		}
		if os.Getenv("TAPP_CALIBRATION_TABLE") != "" {
			t.Log(calTable(c, now, legacy))
		}
	}
}

// calTable formats a case's line for docs/ratings.md: the current board's shares with their
// 95% intervals (leagues as clusters), the estimator before's beside them.
func calTable(c calCase, now, legacy calTally) string {
	cov := func(x calTally) string {
		if x.intervals == 0 || !c.field.zero {
			return "—"
		}
		return strconv.FormatFloat(100*x.coverage(), 'f', 1, 64) + "%"
	}
	withInterval := func(s leagueShare) string {
		share, lo, hi := s.interval()
		return fmt.Sprintf("%.1f%% (%.1f–%.1f)", 100*share, 100*lo, 100*hi)
	}
	covNow := cov(now)
	if covNow != "—" {
		covNow = withInterval(now.coverByLeague)
	}
	copies := "—"
	if now.copyPairs > 0 {
		copies = fmt.Sprintf("%d of %d", now.copyFlagged, now.copyPairs)
	}
	return fmt.Sprintf("| %s | %d | %s | %s | %s | %.1f%% | %s | %d |", c.name, c.leagues, covNow, cov(legacy),
		withInterval(now.flagsByLeague), 100*legacy.flagRate(), copies, now.noInterval)
}

// BenchmarkCalibration is the long calibration: every case of calMatrix, 300 leagues of each
// random field and 100 of each field of copies (TAPP_CALIBRATION_LEAGUES scales them: 0.1 for
// a tenth; TAPP_CALIBRATION_CASES=TEXT runs the cases whose names hold TEXT), reported per case
// as metrics (coverage and flagged share of the current estimator) and printed as the lines of
// the table in docs/ratings.md. Run it under nice, as docs/ratings.md says:
//
//	nice -n 10 go test ./arena/internal/board -run '^$' -bench Calibration -benchtime 1x -timeout 3h
func BenchmarkCalibration(b *testing.B) {
	scale := calScale(b)
	only := os.Getenv("TAPP_CALIBRATION_CASES") // a part of the names of the cases to run (all: empty)
	for range b.N {
		for i, c := range calMatrix() {
			if !strings.Contains(c.name, only) {
				continue
			}
			c.leagues = max(1, int(math.Round(scale*float64(c.leagues))))
			now, legacy := calibrate(b, c)
			fmt.Println(calTable(c, now, legacy)) // the benchmark's log keeps only 10 lines
			b.ReportMetric(100*now.flagRate(), fmt.Sprintf("flagged%%/case%d", i))
			if c.field.zero {
				b.ReportMetric(100*now.coverage(), fmt.Sprintf("coverage%%/case%d", i))
			}
		}
	}
}

// calScale is TAPP_CALIBRATION_LEAGUES, the factor of the long runs' leagues (1 when unset).
func calScale(b *testing.B) float64 {
	v := os.Getenv("TAPP_CALIBRATION_LEAGUES")
	if v == "" {
		return 1
	}
	scale, err := strconv.ParseFloat(v, 64)
	if err != nil || !(scale > 0) {
		b.Fatalf("TAPP_CALIBRATION_LEAGUES=%q: want a positive factor", v)
	}
	return scale
}
