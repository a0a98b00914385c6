package plan

import (
	"reflect"
	"testing"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/engine"
)

func plan(t *testing.T, format string, bots ...string) *Plan {
	t.Helper()
	rules, err := engine.ParseRuleSet("modern")
	if err != nil {
		t.Fatal(err)
	}
	return &Plan{League: "L", Rules: rules, Format: format, Bots: bots, Rounds: 2, Deals: 3, Duplicate: true, Seed: 1,
		TimeControl: domain.DefaultTimeControl}
}

func TestFixedTables(t *testing.T) {
	t.Parallel()
	rr := plan(t, RoundRobin, "a", "b", "c", "d")
	want := [][]string{{"a", "b", "c"}, {"a", "b", "d"}, {"a", "c", "d"}, {"b", "c", "d"}}
	if got := rr.FixedTables(0); !reflect.DeepEqual(got, want) {
		t.Errorf("round robin tables %v, want %v", got, want)
	}
	g := plan(t, Gauntlet, "a", "b", "c", "d")
	g.Candidate = "c"
	want = [][]string{{"c", "a", "b"}, {"c", "a", "d"}, {"c", "b", "d"}}
	if got := g.FixedTables(1); !reflect.DeepEqual(got, want) {
		t.Errorf("gauntlet tables %v, want %v", got, want)
	}
	s, err := NewSPRT("S", *plan(t, ""), "new", "old", []string{"x", "y", "z"})
	if err != nil {
		t.Fatal(err)
	}
	want = [][]string{{"new", "x", "z"}, {"old", "x", "z"}}
	if got := s.FixedTables(1); !reflect.DeepEqual(got, want) {
		t.Errorf("sprt round 1 tables %v, want %v", got, want)
	}
}

func TestRoundMatchesAndJobs(t *testing.T) {
	t.Parallel()
	p := plan(t, RoundRobin, "a", "b", "c", "d")
	places, ms, jobs, err := p.Round(1, p.FixedTables(1))
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 4 || ms[2].ID != "L-r0001-m002" || places[2].Seq != 6 || places[2].Round != 1 {
		t.Errorf("matches %v, places %v", ms, places)
	}
	if ms[0].Spec.Seed != ms[3].Spec.Seed || ms[0].Spec.Seed == p.roundSeed(0) {
		t.Errorf("the matches of a round share deals, rounds differ: seeds %d %d (round 0: %d)", ms[0].Spec.Seed, ms[3].Spec.Seed, p.roundSeed(0))
	}
	if len(jobs) != 12 || jobs[5].MatchID != ms[1].ID || jobs[5].FirstGroup != 2 || jobs[5].Groups != 1 || jobs[5].Deals != 6 {
		t.Errorf("%d jobs, jobs[5] = %+v", len(jobs), jobs[5])
	}
	// Without duplicate a job is a round of dealers; the last one may be short.
	p.Duplicate, p.Deals = false, 7
	_, _, jobs, _ = p.Round(0, p.FixedTables(0))
	var firsts []int
	for _, j := range jobs[:3] {
		firsts = append(firsts, j.FirstGroup*10+j.Deals)
	}
	if len(jobs) != 12 || !reflect.DeepEqual(firsts, []int{3, 33, 61}) {
		t.Errorf("%d jobs, first/deals %v", len(jobs), firsts)
	}
}

func TestFingerprint(t *testing.T) {
	t.Parallel()
	a, b := plan(t, RoundRobin, "a", "b", "c"), plan(t, RoundRobin, "a", "b", "c")
	b.Rounds = 9
	if a.Fingerprint() != b.Fingerprint() {
		t.Errorf("rounds changed the fingerprint")
	}
	b.Seed = 2
	if d := DiffFingerprints(a.Fingerprint(), b.Fingerprint()); d != "seed was 1, is now 2" {
		t.Errorf("diff %q", d)
	}
}

// A league's stored fingerprint reads back as the plan that made it: the families its
// leaderboard splits by, its bots and its rules; a text that is no plan is an error.
func TestParseStored(t *testing.T) {
	t.Parallel()
	p := plan(t, Ladder, "a1", "a2", "b")
	p.Families, p.FamilyCap = map[string]string{"a1": "a", "a2": "a"}, 1
	s, err := ParseStored(p.Fingerprint())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(s.Families, p.Families) || s.FamilyCap != 1 || !reflect.DeepEqual(s.Bots, p.Bots) || s.Rules != p.Rules.String() || s.Seed != 1 {
		t.Errorf("ParseStored = %+v, want the plan's families, bots, rules and seed", s)
	}
	if _, err := ParseStored("not json"); err == nil {
		t.Error("ParseStored(not json): no error")
	}
}

// The ladder seats the bots it knows least about first.
func TestLadderFavoursUncertainRatings(t *testing.T) {
	t.Parallel()
	p := plan(t, Ladder, "a", "b", "c", "d", "new")
	p.MatchesPerRound = 1
	// a, b, c, d have played a lot; "new" has never played.
	var units []Unit
	for i := range 40 {
		bots := []string{"a", "b", "c", "d"}[i%4:]
		bots = append(bots, []string{"a", "b", "c", "d"}[:i%4]...)
		units = append(units, Unit{MatchID: "m", Group: i, Complete: true, Bots: bots[:3], Net: []int64{int64(i%3 - 1), 0, int64(1 - i%3)}})
	}
	tables := p.LadderTables(5, units, nil)
	if len(tables) != 1 || tables[0][0] != "new" {
		t.Errorf("tables %v: want the unrated bot first", tables)
	}
	if again := p.LadderTables(5, units, nil); !reflect.DeepEqual(again, tables) {
		t.Errorf("not deterministic: %v then %v", tables, again)
	}
	// With no results at all every bot is as uncertain as the others: the round still seats
	// every bot before seating one twice.
	p.MatchesPerRound = 2
	seen := map[string]int{}
	for _, tb := range p.LadderTables(0, nil, nil) {
		for _, b := range tb {
			seen[b]++
		}
	}
	if len(seen) != 5 {
		t.Errorf("first round seats %v, want all five bots", seen)
	}
}

// Units group results by duplicate group (or deal), and a group counts as complete only with
// every seating stored.
func TestUnits(t *testing.T) {
	t.Parallel()
	rules, _ := engine.ParseRuleSet("modern")
	dup := domain.Match{ID: "m1", Status: domain.MatchFinished, Spec: domain.MatchSpec{Rules: rules, Bots: []string{"a", "b", "c"}, Duplicate: true}}
	single := domain.Match{ID: "m2", Status: domain.MatchRunning, Spec: domain.MatchSpec{Rules: rules, Bots: []string{"a", "b", "c"}}}
	var rows []domain.ResultRow
	add := func(m string, deal, group int, pay ...int) {
		for seat, bot := range []string{"a", "b", "c"} {
			rows = append(rows, domain.ResultRow{MatchID: m, Deal: deal, Group: group,
				SeatResult: domain.SeatResult{Bot: bot, Seat: engine.Seat(seat), Payoff: pay[seat]}})
		}
	}
	for d := range 6 { // group 0 complete: a wins
		add("m1", d, 0, 10, -5, -5)
	}
	for d := 6; d < 9; d++ { // group 1 half played: left out
		add("m1", d, 1, -30, 15, 15)
	}
	add("m2", 0, 0, -10, 20, -10)
	add("m2", 1, 1, 4, -2, -2)
	units := Units(map[string]*domain.Match{"m1": &dup, "m2": &single}, rows)
	if len(units) != 4 || units[1].Complete || units[1].Deals != 3 || !units[2].Complete || units[0].Net[0] != 60 {
		t.Fatalf("units %+v", units)
	}
}
