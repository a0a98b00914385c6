package pimc

import (
	"sync"
	"time"

	"github.com/tapparena/tapp/bots/doubledummy"
)

// SolverPool hands out solvers (each with its transposition table, 8 MiB) so that a bot
// serving many tables at once makes one per decision in flight, not one per decision. The
// zero value is ready; it is safe for concurrent use.
type SolverPool struct {
	mu   sync.Mutex
	free []*doubledummy.Solver
}

// Get returns a free solver, or a new one.
func (p *SolverPool) Get() *doubledummy.Solver {
	p.mu.Lock()
	defer p.mu.Unlock()
	if n := len(p.free); n > 0 {
		s := p.free[n-1]
		p.free = p.free[:n-1]
		return s
	}
	return doubledummy.NewSolver(doubledummy.SolverOptions{})
}

// Put gives s back, its time limit cleared.
func (p *SolverPool) Put(s *doubledummy.Solver) {
	s.SetLimit(time.Time{}, nil)
	p.mu.Lock()
	p.free = append(p.free, s)
	p.mu.Unlock()
}
