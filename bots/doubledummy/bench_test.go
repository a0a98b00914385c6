package doubledummy

import (
	"math/rand/v2"
	"sort"
	"testing"
	"time"

	"github.com/tapparena/tapp/engine"
)

// fullDeal deals a random full deal (3 players: 11 each and a tapp of 3; 4 players: 8 each and
// a tapp of 4) for a contract kind, forehand (seat 0) to lead, and gives the contract to the
// seat whose hand suits it best, as bidding would: for a point or every-trick goal the hand
// with the longest suit (then the highest cards), that suit trumps; for no trick the hand with
// the lowest cards. Ramsch has no declarer: the value is a random seat's points.
func fullDeal(rng *rand.Rand, players int, goal Goal) Position {
	p := Position{Players: players, Goal: goal, Trump: engine.NoSuit}
	per := 11
	if players == 4 {
		per = 8
	}
	pack := rng.Perm(engine.NumCards)
	for s := 0; s < players; s++ {
		for j := 0; j < per; j++ {
			p.Hands[s] = p.Hands[s].With(engine.Card(pack[s*per+j]))
		}
	}
	var tapp engine.CardSet
	for _, c := range pack[players*per:] {
		tapp = tapp.With(engine.Card(c))
	}
	p.Tapp = tapp.Points()
	rankSum := func(h engine.CardSet) int {
		t := 0
		for _, c := range h.Cards(nil) {
			t += int(c.Rank())
		}
		return t
	}
	switch goal {
	case GoalPoints, GoalAllTricks:
		best := -1
		for s := 0; s < players; s++ {
			for su := engine.Suit(0); su < engine.NumSuits; su++ {
				if v := 100*p.Hands[s].OfSuit(su).Len() + rankSum(p.Hands[s]); v > best {
					best, p.Declarer, p.Trump = v, s, su
				}
			}
		}
		if goal == GoalPoints {
			p.TappRule = TappDeclarer
		}
	case GoalNoTrick:
		best := 1 << 30
		for s := 0; s < players; s++ {
			if v := rankSum(p.Hands[s]); v < best {
				best, p.Declarer = v, s
			}
		}
	case GoalRamsch:
		p.Declarer = rng.IntN(players)
		p.TappRule = TappLastTrick
	}
	return p
}

type benchKind struct {
	name string
	goal Goal
	run  func(s *Solver, p *Position)
}

// The contract kinds of the solve-time benchmark: a point contract judged at 61 (modern) and
// to the exact point (classic, wuerttemberg), every trick, no trick (forehand leads, as in
// Bettel; the declarer leads, as in Ouvert) and Ramsch (exact points of one seat, paranoid).
var benchKinds = []benchKind{
	{"solo-61", GoalPoints, func(s *Solver, p *Position) { s.DeclarerWins(p) }},
	{"solo-exact", GoalPoints, func(s *Solver, p *Position) { s.Value(p) }},
	{"durch", GoalAllTricks, func(s *Solver, p *Position) { s.DeclarerWins(p) }},
	{"bettel", GoalNoTrick, func(s *Solver, p *Position) { s.DeclarerWins(p) }},
	{"ouvert", GoalNoTrick, func(s *Solver, p *Position) { p.Leader = p.Declarer; s.DeclarerWins(p) }},
	{"ramsch-exact", GoalRamsch, func(s *Solver, p *Position) { s.Value(p) }},
}

// BenchmarkSolve measures raw solver speed: 61-or-not on full 3-player Solo deals (a fresh
// deal each time, up to 2000; one solver whose table is kept), reported as nodes per second.
func BenchmarkSolve(b *testing.B) {
	rng := rand.New(rand.NewPCG(11, 12))
	deals := make([]Position, 2000)
	for i := range deals {
		deals[i] = fullDeal(rng, 3, GoalPoints)
	}
	s := NewSolver(SolverOptions{})
	b.ResetTimer()
	t0 := time.Now()
	for i := 0; i < b.N; i++ {
		p := deals[i%len(deals)]
		s.DeclarerWins(&p)
	}
	b.ReportMetric(float64(s.Nodes())/time.Since(t0).Seconds(), "nodes/s")
	b.ReportMetric(float64(s.Nodes())/float64(b.N), "nodes/op")
}

// BenchmarkSolveDeal solves full 11-card deals (3 players) of each contract kind, each with a
// fresh solver (an empty transposition table), and reports the median and 99th percentile
// time per deal over a fixed set of deals (-benchtime=Nx sets how many; default 200).
func BenchmarkSolveDeal(b *testing.B) {
	for _, k := range benchKinds {
		b.Run(k.name, func(b *testing.B) {
			rng := rand.New(rand.NewPCG(21, 22))
			s := NewSolver(SolverOptions{})
			var times []time.Duration
			var nodes uint64
			var total time.Duration
			for i := 0; i < b.N; i++ {
				p := fullDeal(rng, 3, k.goal)
				s.tt = newTable(defaultTTBits) // cold table: every deal from scratch
				n0 := s.Nodes()
				t0 := time.Now()
				k.run(s, &p)
				d := time.Since(t0)
				times = append(times, d)
				total += d
				nodes += s.Nodes() - n0
			}
			sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
			ms := func(d time.Duration) float64 { return float64(d) / 1e6 }
			b.ReportMetric(ms(times[len(times)/2]), "median-ms")
			b.ReportMetric(ms(times[(len(times)*99)/100]), "p99-ms")
			b.ReportMetric(ms(times[len(times)-1]), "max-ms")
			b.ReportMetric(float64(nodes)/total.Seconds(), "nodes/s")
		})
	}
}
