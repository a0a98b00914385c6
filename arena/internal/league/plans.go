package league

import "sync"

// matchPlans keeps the plan of each match that jobs are playing, read once for the jobs that
// play it at the same time, and drops it when the last of them ends: a run holds the matches
// in play only, however many a night's league plays. (A cache cleared when full grew and fell
// by megabytes, which the arena's heap target multiplies into its memory.)
type matchPlans struct {
	mu   sync.Mutex
	held map[string]*heldPlan
}

type heldPlan struct {
	info *matchInfo
	jobs int // the jobs that acquired it and have not released it
}

// acquire returns the plan of match id for a job, loading it (outside the lock) when no job
// holds it; every successful acquire is paired with a release.
func (p *matchPlans) acquire(id string, load func() (*matchInfo, error)) (*matchInfo, error) {
	p.mu.Lock()
	if h := p.held[id]; h != nil {
		h.jobs++
		p.mu.Unlock()
		return h.info, nil
	}
	p.mu.Unlock()
	info, err := load()
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if h := p.held[id]; h != nil { // another job loaded it meanwhile
		h.jobs++
		return h.info, nil
	}
	if p.held == nil {
		p.held = map[string]*heldPlan{}
	}
	p.held[id] = &heldPlan{info: info, jobs: 1}
	return info, nil
}

// release gives back a job's plan of match id.
func (p *matchPlans) release(id string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if h := p.held[id]; h != nil {
		if h.jobs--; h.jobs <= 0 {
			delete(p.held, id)
		}
	}
}

// len is the number of matches whose plan is held.
func (p *matchPlans) len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.held)
}
