package board

import (
	"bytes"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/rating"
	"github.com/tapparena/tapp/engine"
)

// deal is a deal of a 3-bot match in which seat declarer (−1: nobody) played contract c and
// the payoffs by seat are pay.
func deal(match string, n int, seating []string, declarer int, c engine.Contract, won bool, pay ...int) *domain.DealRecord {
	d := &domain.DealRecord{MatchID: match, Number: n, Group: n, Seating: seating,
		Outcome: engine.Outcome{Declarer: engine.NoSeat, Contract: engine.Ramsch}}
	if declarer >= 0 {
		d.Outcome = engine.Outcome{Declarer: engine.Seat(declarer), Contract: c, DeclarerWon: won}
	}
	for s, b := range seating {
		d.Results = append(d.Results, domain.SeatResult{Bot: b, Seat: engine.Seat(s), Payoff: pay[s], Declarer: s == declarer})
	}
	return d
}

func compute(t *testing.T, a *Accumulator, o Options) *Leaderboard {
	t.Helper()
	lb, err := Compute(a.Finish(nil), o)
	if err != nil {
		t.Fatal(err)
	}
	return lb
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestRoles(t *testing.T) {
	t.Parallel()
	a := NewAccumulator()
	info := MatchInfo{ID: "m", Rules: "modern", Players: 3}
	seating := []string{"a", "b", "c"}
	deals := []*domain.DealRecord{
		deal("m", 0, seating, 0, engine.Solo, true, 20, -10, -10),   // a declares solo, makes it
		deal("m", 1, seating, 0, engine.Solo, false, -40, 20, 20),   // a declares solo, fails
		deal("m", 2, seating, 0, engine.Bettel, true, 30, -15, -15), // a declares bettel, makes it
		deal("m", 3, seating, 1, engine.Solo, true, -10, 20, -10),   // b declares
		deal("m", 4, seating, -1, 0, false, 5, 5, -10),              // Ramsch
	}
	for _, d := range deals {
		if err := a.AddDeal(info, d); err != nil {
			t.Fatal(err)
		}
	}
	lb := compute(t, a, Options{})
	var r *Roles
	for _, b := range lb.Bots {
		if b.Bot == "a" {
			r = b.Roles
		}
	}
	if r == nil {
		t.Fatal("no roles for a")
	}
	if r.Declarer.Deals != 3 || !near(r.Declarer.PerDeal, 10.0/3) || !near(r.Declarer.MadeShare, 2.0/3) {
		t.Errorf("a as declarer %+v, want 3 deals, %+.3f per deal, 2/3 made", r.Declarer, 10.0/3)
	}
	if r.Defender.Deals != 1 || r.Defender.PerDeal != -10 || r.NoDeclarer.Deals != 1 || r.NoDeclarer.PerDeal != 5 {
		t.Errorf("a as defender %+v and without declarer %+v, want 1 deal at −10 and 1 at +5", r.Defender, r.NoDeclarer)
	}
	if !near(r.DeclareShare, 3.0/5) {
		t.Errorf("a declares %.3f of its deals, want 0.6", r.DeclareShare)
	}
	if len(r.Contracts) != 2 || r.Contracts[0].Contract != "solo" || r.Contracts[0].Deals != 2 || r.Contracts[0].MadeShare != 0.5 ||
		r.Contracts[1].Contract != "bettel" || r.Contracts[1].PerDeal != 30 {
		t.Errorf("a's contracts %+v, want solo 2× half made, bettel 1× +30", r.Contracts)
	}
	if len(r.Seats) != 1 || r.Seats[0].Name != "forehand" || r.Seats[0].Deals != 5 {
		t.Errorf("a's seats %+v, want forehand only, 5 deals", r.Seats)
	}
}

// Two versions of one bot that let each other win when they defend together: the family split
// shows it, and the board warns.
func TestFamilySplitAndWarning(t *testing.T) {
	t.Parallel()
	a := NewAccumulator()
	n := 0
	add := func(id string, seating []string, declarer int, pay ...int) {
		if err := a.AddDeal(MatchInfo{ID: id, Rules: "modern", Players: 3}, deal(id, n, seating, declarer, engine.Solo, pay[declarer] > 0, pay...)); err != nil {
			t.Fatal(err)
		}
		n++
	}
	for i := range 60 {
		// v1 and v2 at one table, x declaring: the clones always beat it.
		add("together", []string{"v1", "v2", "x"}, 2, 10, 10, -20)
		// v1 with strangers: defends and loses or wins alike.
		sign := 1 - 2*(i%2)
		add("apart", []string{"v1", "y", "x"}, 2, -10*sign, -10*sign, 20*sign)
	}
	lb := compute(t, a, Options{Families: map[string]string{"v1": "v", "v2": "v"}})
	var f *Family
	for _, b := range lb.Bots {
		if b.Bot == "v1" {
			f = b.Family
		}
		if b.Bot == "x" && b.Family != nil {
			t.Errorf("x has no family but got %+v", b.Family)
		}
	}
	if f == nil || f.Name != "v" {
		t.Fatalf("v1's family split %+v", f)
	}
	if f.With.Deals != 60 || f.With.PerDeal != 10 || f.Without.Deals != 60 || f.Without.PerDeal != 0 {
		t.Errorf("with family %+v, without %+v; want 60 deals at +10 and 60 at 0", f.With, f.Without)
	}
	if f.DefendTogether.Deals != 60 || f.DefendApart.Deals != 60 {
		t.Errorf("defending together %+v, apart %+v; want 60 deals each", f.DefendTogether, f.DefendApart)
	}
	if !slices.ContainsFunc(lb.Warnings, func(w string) bool { return strings.Contains(w, "family v: v1 defending beside its family") }) {
		t.Errorf("warnings %q, want one about family v", lb.Warnings)
	}
}

// Below the minimum sample the board marks figures provisional instead of printing a LOS; with
// enough units it prints the LOS.
func TestProvisionalFigures(t *testing.T) {
	t.Parallel()
	for _, units := range []int{2, 40} {
		a := NewAccumulator()
		for i := range units {
			pay := []int{15, -5, -10}
			if i%2 == 1 {
				pay = []int{0, 5, -5}
			}
			if err := a.AddDeal(MatchInfo{ID: "m", Rules: "modern", Players: 3}, deal("m", i, []string{"a", "b", "c"}, 0, engine.Solo, pay[0] > 0, pay...)); err != nil {
				t.Fatal(err)
			}
		}
		lb := compute(t, a, Options{})
		var out bytes.Buffer
		Render(&out, lb, RenderOptions{})
		text := out.String()
		prov := strings.Contains(text, "(prov.)")
		if got := lb.Bots[0].Provisional; got != (units < rating.MinUnitsForLOS) || prov != got {
			t.Errorf("%d units: provisional %v, board says prov. %v; want %v\n%s", units, got, prov, units < rating.MinUnitsForLOS, text)
		}
		if units < rating.MinUnitsForLOS && strings.Contains(text, "99.9%") {
			t.Errorf("%d units: the board quotes a LOS of 99.9%%:\n%s", units, text)
		}
		if units >= rating.MinUnitsForLOS && !strings.Contains(text, "%") {
			t.Errorf("%d units: no LOS on the board:\n%s", units, text)
		}
	}
}

// The rating over time prints as at most 12 rows, evenly spaced, the last point always: each
// bot's headline with its interval, — without one, (prov.) while provisional; the CSV has
// every point of every bot.
func TestHistoryTable(t *testing.T) {
	t.Parallel()
	lb := &Leaderboard{Unit: "cents", Bots: []Standing{{Bot: "a"}, {Bot: "b"}}}
	for c := int64(1); c <= 30; c++ {
		p := HistoryPoint{Clock: c, Sources: int(c), Deals: 6 * int(c), At: time.Unix(c, 0)}
		for _, b := range []string{"a", "b"} {
			hb := HistoryBot{Bot: b, Rating: float64(c) / 10, Lo: float64(c)/10 - 1, Hi: float64(c)/10 + 1, Interval: c >= 5, Provisional: c < 30}
			if b == "b" {
				hb.Rating, hb.Lo, hb.Hi = -hb.Rating, -hb.Hi, -hb.Lo
			}
			if !hb.Interval {
				hb.Lo, hb.Hi = hb.Rating, hb.Rating
			}
			p.Bots = append(p.Bots, hb)
		}
		lb.History = append(lb.History, p)
	}
	var out bytes.Buffer
	RenderHistory(&out, lb, 12)
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2+12 || !strings.HasPrefix(strings.TrimSpace(lines[len(lines)-1]), "30 ") ||
		!strings.Contains(lines[len(lines)-1], "+3.00 [+2.00, +4.00]") || !strings.Contains(lines[2], "— (prov.)") {
		t.Errorf("history table of %d lines, want a title, a header and 12 rows ending at 30 deal sources, bands where there are:\n%s", len(lines), out.String())
	}
	var csv bytes.Buffer
	if err := WriteHistoryCSV(&csv, lb); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(csv.String(), "\n"); n != 61 || !strings.Contains(csv.String(), "30,30,180,1970-01-01T00:00:30Z,a,3.0000,2.0000,4.0000,false") {
		t.Errorf("history CSV has %d lines, want a header and 60 rows:\n%s", n, csv.String())
	}
}

// CheckKept finds every figure in which two boards differ, by its place in the JSON.
func TestCheckKeptNamesTheDifferences(t *testing.T) {
	t.Parallel()
	a := &Leaderboard{Unit: "cents", Units: 10, Bots: []Standing{{Bot: "x", Rating: 1.5}, {Bot: "y", Rating: -1.5}}}
	b := &Leaderboard{Unit: "cents", Units: 10, Bots: []Standing{{Bot: "x", Rating: 1.5}, {Bot: "y", Rating: -1.5}}}
	c, err := CheckKept(a, b)
	if err != nil || !c.Identical || len(c.Differences) != 0 {
		t.Fatalf("identical boards: %+v, %v", c, err)
	}
	b.Units, b.Bots[1].Rating = 11, -1.25
	c, err = CheckKept(a, b)
	want := []string{".bots[1].rating: kept -1.5, raw -1.25", ".units: kept 10, raw 11"}
	if err != nil || c.Identical || !slices.Equal(c.Differences, want) {
		t.Errorf("boards apart: %+v, %v; want %q", c, err, want)
	}
}
