package doubledummy

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/tapparena/tapp/engine"
)

// minimax is the plain reference: every legal card, no pruning, no table, played to the end.
func minimax(p Position) int {
	if p.Done() {
		return p.Value()
	}
	me := p.ToMove()
	var maximise bool
	switch p.Goal {
	case GoalPoints, GoalAllTricks:
		maximise = me == p.Declarer
	case GoalNoTrick, GoalRamsch:
		maximise = me != p.Declarer
	}
	best := 0
	first := true
	for l := p.Legal(); l != 0; l &= l - 1 {
		q := p
		q.Play(l.Lowest())
		v := minimax(q)
		if first || (maximise && v > best) || (!maximise && v < best) {
			best, first = v, false
		}
	}
	return best
}

var allGoals = []Goal{GoalPoints, GoalAllTricks, GoalNoTrick, GoalRamsch}

// randomPosition deals k cards a hand (plus one to each seat that has already played to the
// current trick) from a 36-card pack and plays a random legal start of a trick.
func randomPosition(rng *rand.Rand, goal Goal, k int) Position {
	var p Position
	p.Players = 3 + rng.IntN(2)
	p.Goal = goal
	p.Declarer = rng.IntN(p.Players)
	p.Leader = rng.IntN(p.Players)
	nt := rng.IntN(p.Players)
	switch goal {
	case GoalNoTrick, GoalRamsch:
		p.Trump = engine.NoSuit
	default:
		p.Trump = engine.Suit(rng.IntN(4))
		if rng.IntN(5) == 0 {
			p.Trump = engine.NoSuit
		}
	}
	pack := rng.Perm(engine.NumCards)
	next := 0
	for i := 0; i < p.Players; i++ {
		seat := (p.Leader + i) % p.Players
		for j := 0; j < k; j++ {
			p.Hands[seat] = p.Hands[seat].With(engine.Card(pack[next]))
			next++
		}
	}
	for i := 0; i < nt; i++ {
		legal := p.Legal().Cards(nil)
		p.Play(legal[rng.IntN(len(legal))])
	}
	switch goal {
	case GoalPoints:
		p.TappRule = TappDeclarer
		p.Tapp = rng.IntN(25)
		p.Taken[p.Declarer] = rng.IntN(40)
	case GoalRamsch:
		p.TappRule = TappLastTrick
		p.Tapp = rng.IntN(25)
		for s := 0; s < p.Players; s++ {
			p.Taken[s] = rng.IntN(20)
		}
	case GoalNoTrick:
		p.TappRule = TappNobody
		if rng.IntN(4) == 0 {
			p.Tricks[p.Declarer] = 1
		}
	case GoalAllTricks:
		p.TappRule = TappNobody
		p.Tricks[p.Declarer] = rng.IntN(3)
		if rng.IntN(4) == 0 {
			p.Tricks[(p.Declarer+1)%p.Players] = 1
		}
	}
	return p
}

// refWins is the declarer's goal judged from the reference's exact value.
func refWins(p Position, v int) bool {
	switch p.Goal {
	case GoalPoints:
		return v >= 61
	case GoalAllTricks:
		total := p.RemainingTricks()
		for s := 0; s < p.Players; s++ {
			total += p.Tricks[s]
		}
		return v == total
	case GoalNoTrick:
		return v == 0
	}
	return v <= 40
}

func TestSolverMatchesMinimax(t *testing.T) {
	solvers := map[string]*Solver{
		"full":    NewSolver(SolverOptions{TTBits: 12}), // a small shared table: entries of many positions collide
		"noTT":    NewSolver(SolverOptions{NoTT: true}),
		"noEquiv": NewSolver(SolverOptions{NoEquiv: true, TTBits: 12}),
	}
	for _, goal := range allGoals {
		t.Run(goal.String(), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(goal)+1, 7))
			for i := 0; i < 1200; i++ {
				k := 1 + rng.IntN(4)
				p := randomPosition(rng, goal, k)
				if err := p.Validate(); err != nil {
					t.Fatalf("bad test position %v: %v", &p, err)
				}
				want := minimax(p)
				for name, s := range solvers {
					q := p
					if got := s.Value(&q); got != want {
						t.Fatalf("%s: Value = %d, minimax %d, position %v", name, got, want, &p)
					}
					if q != p {
						t.Fatalf("%s: Value changed the position", name)
					}
					th := want - 3 + rng.IntN(7)
					if got := s.AtLeast(&p, th); got != (want >= th) {
						t.Fatalf("%s: AtLeast(%d) = %v, minimax value %d, position %v", name, th, got, want, &p)
					}
					if got := s.DeclarerWins(&p); got != refWins(p, want) {
						t.Fatalf("%s: DeclarerWins = %v, minimax value %d, position %v", name, got, want, &p)
					}
				}
				// estimates within a tolerance
				tol := rng.IntN(12)
				if lo, hi := solvers["full"].Approx(&p, tol, want-2+rng.IntN(5)); lo > want || hi < want || hi-lo > tol {
					t.Fatalf("Approx(tol %d) = [%d, %d], minimax %d, position %v", tol, lo, hi, want, &p)
				}
				// every move, exact and at a threshold
				legal := p.Legal()
				s := solvers["full"]
				exact := s.MoveValues(&p, -1, 1000, nil)
				th := want - 1 + rng.IntN(3)
				null := s.MoveValues(&p, th-1, th, nil)
				if len(exact) != legal.Len() || len(null) != legal.Len() {
					t.Fatalf("MoveValues gave %d and %d values for %d legal cards", len(exact), len(null), legal.Len())
				}
				est := s.MoveEstimates(&p, tol, want, nil)
				for j, mv := range exact {
					if d := est[j].Value - mv.Value; est[j].Card != mv.Card || d > (tol+1)/2 || -d > tol/2 {
						t.Fatalf("MoveEstimates(tol %d) %v = %d, exact %d, position %v", tol, est[j].Card, est[j].Value, mv.Value, &p)
					}
					q := p
					q.Play(mv.Card)
					ref := minimax(q)
					if mv.Value != ref {
						t.Fatalf("MoveValues %v = %d, minimax %d, position %v", mv.Card, mv.Value, ref, &p)
					}
					if nv := null[j]; nv.Card != mv.Card || (nv.Value >= th) != (ref >= th) {
						t.Fatalf("MoveValues(%d) %v = %d, minimax %d, position %v", th, nv.Card, nv.Value, ref, &p)
					}
				}
			}
		})
	}
}

// Bigger positions than minimax can take: the options must not change any result.
func TestSolverOptionsAgree(t *testing.T) {
	full := NewSolver(SolverOptions{})
	noTT := NewSolver(SolverOptions{NoTT: true})
	noEq := NewSolver(SolverOptions{NoEquiv: true})
	for _, goal := range allGoals {
		t.Run(goal.String(), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(goal)+100, 9))
			n := 150
			if testing.Short() {
				n = 30
			}
			for i := 0; i < n; i++ {
				p := randomPosition(rng, goal, 5+rng.IntN(2))
				a, b, c := full.Value(&p), noTT.Value(&p), noEq.Value(&p)
				if a != b || a != c {
					t.Fatalf("full %d, noTT %d, noEquiv %d, position %v", a, b, c, &p)
				}
				if w1, w2 := full.DeclarerWins(&p), noTT.DeclarerWins(&p); w1 != w2 {
					t.Fatalf("DeclarerWins full %v, noTT %v, position %v", w1, w2, &p)
				}
			}
		})
	}
}

func TestEquivalentCards(t *testing.T) {
	// Seat 0 holds C9 C8 C6 with C7 already played: one move in a point goal (all worth 0);
	// CK CQ are adjacent but worth 4 and 3: two moves in a point goal, one in a trick goal.
	p := Position{Players: 3, Trump: engine.Hearts, Goal: GoalPoints, TappRule: TappDeclarer}
	p.Hands[0], _ = engine.ParseCardSet("C9 C8 C6 CK CQ")
	p.Hands[1], _ = engine.ParseCardSet("CA ST S9 S8 S7")
	p.Hands[2], _ = engine.ParseCardSet("CT HA H9 H8 H7")
	s := NewSolver(SolverOptions{})
	s.load(&p)
	moves := s.genMoves(0, p.Legal(), engine.NoCard, nil)
	if got := fmt.Sprint(moves); len(moves) != 3 { //nolint:staticcheck // QF1010: engine.Card prints itself; string(moves) would not
		t.Fatalf("point goal: moves %s, want 3 (C9, CK, CQ)", got)
	}
	p.Goal = GoalAllTricks
	s.load(&p)
	moves = s.genMoves(0, p.Legal(), engine.NoCard, nil)
	if len(moves) != 1 {
		t.Fatalf("trick goal: moves %v, want 1 (C6 to CK is one run: C7, CJ are out of play)", moves)
	}
	// a card in the current trick separates runs
	p.Goal = GoalPoints
	p.Leader = 1
	p.Hands[2] = p.Hands[2].Without(engine.NewCard(engine.Clubs, engine.Ten))
	p.Hands[2] = p.Hands[2].With(engine.NewCard(engine.Clubs, engine.Seven))
	p.Play(engine.NewCard(engine.Clubs, engine.Ace))
	p.Play(engine.NewCard(engine.Clubs, engine.Seven))
	s.load(&p)
	moves = s.genMoves(0, p.Legal(), engine.NoCard, nil)
	if len(moves) != 4 {
		t.Fatalf("C7 in the trick splits C8/C6: moves %v, want 4", moves)
	}
}

// After ClearTable a solve takes the same nodes whatever the table held, so a node limit
// stops it at the same point; its value never depends on the table.
func TestClearTableAndNodeLimit(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 6))
	warm := NewSolver(SolverOptions{})
	fresh := NewSolver(SolverOptions{})
	for i := 0; i < 40; i++ {
		p := randomPosition(rng, allGoals[i%len(allGoals)], 6)
		q := randomPosition(rng, allGoals[i%len(allGoals)], 6)
		warm.Value(&q) // fills the table with another position
		warm.ClearTable()
		n0 := warm.Nodes()
		v := warm.Value(&p)
		spent := warm.Nodes() - n0
		fresh.ClearTable()
		m0 := fresh.Nodes()
		if w := fresh.Value(&p); w != v || fresh.Nodes()-m0 != spent {
			t.Fatalf("position %v: %d in %d nodes after another solve, %d in %d on a cleared table", &p, v, spent, w, fresh.Nodes()-m0)
		}
		if spent > 8192 {
			fresh.ClearTable()
			fresh.SetNodeLimit(fresh.Nodes() + 4096)
			fresh.Value(&p)
			if !fresh.Aborted() {
				t.Fatalf("a solve of %d nodes was not stopped at 4,096", spent)
			}
			fresh.SetLimit(time.Time{}, nil)
		}
	}
}
