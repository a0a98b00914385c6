package app

import (
	"math"
	"testing"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/rating"
	"github.com/tapparena/tapp/engine"
)

// LOS(>0) in a match's result table: from the same t distribution as the interval; none
// (NaN, printed "—") where there is no interval: one unit, or units without spread.
func TestLikelihoodOfSuperiorityAboveZero(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		units []float64
		want  float64
	}{
		{[]float64{60, 60, 60}, math.NaN()},
		{[]float64{-5, -5}, math.NaN()},
		{[]float64{0, 0}, math.NaN()},
		{[]float64{60}, math.NaN()},
		{[]float64{-1, 1}, 0.5},
		{[]float64{-1.1, 37.1}, 0.7405650}, // t(1): the interval [−225, +261] straddles 0, far from 100%
	} {
		got := LOSAboveZero(rating.CentsPerDeal(c.units))
		if math.IsNaN(c.want) != math.IsNaN(got) || !math.IsNaN(got) && math.Abs(got-c.want) > 1e-6 {
			t.Errorf("units %v: LOS %v, want %v", c.units, got, c.want)
		}
	}
}

// ResultLines sums per bot, counts a duplicate group as one unit, and ranks by net.
func TestResultLinesSumPerBotAndUnit(t *testing.T) {
	t.Parallel()
	rules, err := engine.ParseRuleSet("modern")
	if err != nil {
		t.Fatal(err)
	}
	row := func(deal, group int, bot string, payoff, points int, declarer bool) domain.ResultRow {
		return domain.ResultRow{Deal: deal, Group: group, SeatResult: domain.SeatResult{Bot: bot, Payoff: payoff, Points: points, Declarer: declarer}}
	}
	rows := []domain.ResultRow{
		row(0, 0, "a", 40, 70, true), row(0, 0, "b", -20, 30, false), row(0, 0, "c", -20, 20, false),
		row(1, 0, "a", -20, 40, false), row(1, 0, "b", 40, 61, true), row(1, 0, "c", -20, 19, false),
	}
	spec := domain.MatchSpec{Rules: rules, Bots: []string{"a", "b", "c", "idle"}, Duplicate: true}
	lines := ResultLines(spec, rows)
	var bots []string
	for _, l := range lines {
		bots = append(bots, l.Bot)
	}
	if got := bots; len(got) != 4 || got[0] != "a" || got[1] != "b" || got[2] != "idle" || got[3] != "c" {
		t.Fatalf("order %v, want a, b (net 20, ties by name), idle (0), c (-40)", got)
	}
	a := lines[0]
	if a.Deals != 2 || a.Net != 20 || a.Units != 1 || a.PerDeal != 10 || a.Declared != 1 || a.DeclaredWon != 1 || a.AvgPoints != 55 {
		t.Errorf("a: %+v, want 2 deals in one duplicate unit, net 20, 10 per deal, declared once and won, 55 points", a)
	}
	if idle := lines[2]; idle.Deals != 0 || idle.Units != 0 {
		t.Errorf("a bot of the spec without rows: %+v, want an empty line", idle)
	}
	spec.Duplicate = false
	if a := ResultLines(spec, rows)[0]; a.Units != 2 {
		t.Errorf("without duplicate play: %d units, want one per deal", a.Units)
	}
}
