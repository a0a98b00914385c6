package match

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"go.uber.org/zap"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/engine"
)

// Service runs matches in the background for the admin API and lets clients watch them.
type Service struct {
	Runner *Runner
	Log    *zap.Logger

	ctx      context.Context
	mu       sync.Mutex
	running  map[string]*watchers
	watching atomic.Int64 // watchers of all matches
	wg       sync.WaitGroup
}

type watchers struct {
	subs map[chan Seen]struct{}
	// In duplicate play, the deal numbers of each group not stored yet, and each deal's group:
	// a deal's events are shown only while it is the last of its group still in play, since
	// every public card of it is a hidden card of the group's other deals (nil without
	// duplicate: no two deals share their cards).
	pending map[int][]int
	groupOf map[int]int
	// held keeps the events of deals in play that may not be shown yet, while anyone watches:
	// a deal that becomes the last of its group in play is then shown from its start.
	held map[int][]Seen
}

// newWatchers makes the watchers of m, whose deals numbers are stored already.
func newWatchers(m *domain.Match, stored []int) *watchers {
	w := &watchers{subs: make(map[chan Seen]struct{})}
	tables, err := Plan(m.Spec)
	if err != nil || !m.Spec.Duplicate {
		return w // Run reports a plan that fails
	}
	done := make(map[int]bool, len(stored))
	for _, n := range stored {
		done[n] = true
	}
	w.pending, w.groupOf = make(map[int][]int), make(map[int]int, len(tables))
	for _, t := range tables {
		w.groupOf[t.Number] = t.Group
		if !done[t.Number] {
			w.pending[t.Group] = append(w.pending[t.Group], t.Number)
		}
	}
	return w
}

// shows reports whether deal number's events may be watched: no other deal of its group is
// still to be stored.
func (w *watchers) shows(number int) bool {
	if w.pending == nil {
		return true
	}
	for _, n := range w.pending[w.groupOf[number]] {
		if n != number {
			return false
		}
	}
	return true
}

// stored takes deal number off its group's pending deals and returns the events held for
// the deal this made showable, if any (it is the last of its group in play).
func (w *watchers) stored(number int) []Seen {
	if w.pending == nil {
		return nil
	}
	delete(w.held, number) // over: its replay shows it once the group is
	g := w.groupOf[number]
	w.pending[g] = slices.DeleteFunc(w.pending[g], func(n int) bool { return n == number })
	if left := w.pending[g]; len(left) == 1 {
		out := w.held[left[0]]
		delete(w.held, left[0])
		return out
	}
	return nil
}

// send hands msg to every watcher that keeps up.
func (w *watchers) send(msg Seen) {
	for ch := range w.subs {
		select {
		case ch <- msg:
		default:
		}
	}
}

// Seen is what a watcher of a running match sees: one public event of a deal (the
// settlement whole), or the match's end.
type Seen struct {
	GameID        string
	Number        int // the deal number
	Event         engine.Event
	MatchFinished bool // the match is over: nothing else is set
}

// NewService runs matches under ctx: when it ends, running matches stop (resumable).
func NewService(ctx context.Context, r *Runner, log *zap.Logger) *Service {
	if log == nil {
		log = zap.NewNop()
	}
	s := &Service{Runner: r, Log: log, ctx: ctx, running: make(map[string]*watchers)}
	r.Watch = s.publish
	r.Watching = func() bool { return s.watching.Load() > 0 }
	r.Stored = s.stored
	return s
}

// Wait waits for every background match to end.
func (s *Service) Wait() { s.wg.Wait() }

// StartMatch stores a match and plays it in the background.
func (s *Service) StartMatch(ctx context.Context, spec domain.MatchSpec) (string, error) {
	m, err := s.Runner.Create(ctx, spec)
	if err != nil {
		return "", err
	}
	s.play(m)
	return m.ID, nil
}

// ResumeRunning plays on, in the background, every stand-alone match the store says is
// running: an arena that died (kill -9, a crash, a power cut) left them so. Their finished
// deals are kept; the others are played again from the seed as bots reconnect (the clocks
// start afresh). League matches are left to their league, whose jobs are rescued instead.
func (s *Service) ResumeRunning(ctx context.Context) ([]string, error) {
	ms, err := s.Runner.Store.ListMatches(ctx, domain.MatchFilter{})
	if err != nil {
		return nil, err
	}
	var ids []string
	for i := range ms {
		m := &ms[i]
		if m.Status != domain.MatchRunning || m.Spec.LeagueID != "" {
			continue
		}
		s.Log.Info("resuming a match that was running when the arena stopped", zap.String("match", m.ID))
		s.play(m)
		ids = append(ids, m.ID)
	}
	return ids, nil
}

// play runs m in the background.
func (s *Service) play(m *domain.Match) {
	var stored []int
	if m.Spec.Duplicate {
		var err error
		if stored, err = s.Runner.Store.DealNumbers(s.ctx, m.ID); err != nil {
			s.Log.Warn("reading the stored deals of a match to resume", zap.String("match", m.ID), zap.Error(err))
		}
	}
	s.mu.Lock()
	s.running[m.ID] = newWatchers(m, stored)
	s.mu.Unlock()
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		_, err := s.Runner.Run(s.ctx, m)
		if err != nil {
			s.Log.Warn("match stopped", zap.String("match", m.ID), zap.Error(err))
		}
		s.finish(m.ID)
	}()
}

func (s *Service) finish(id string) {
	s.mu.Lock()
	w := s.running[id]
	delete(s.running, id)
	s.mu.Unlock()
	if w == nil {
		return
	}
	for ch := range w.subs {
		select {
		case ch <- Seen{MatchFinished: true}:
		default:
		}
		close(ch)
	}
}

// stored notes a stored deal of a running match (Runner.Stored).
func (s *Service) stored(matchID string, number int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if w := s.running[matchID]; w != nil {
		for _, msg := range w.stored(number) {
			w.send(msg)
		}
	}
}

// publish hands every public event of a running match to its watchers, but for a deal whose
// cards are still in play at another table of its duplicate group (see watchers). A watcher
// that does not keep up loses events rather than slowing the match.
func (s *Service) publish(matchID string, number int, ev engine.Event, public []engine.Event) {
	if s.watching.Load() == 0 { // the usual case: no lock for every event of every table
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.running[matchID]
	if w == nil || len(w.subs) == 0 {
		return
	}
	msg := Seen{GameID: matchID + "/" + fmt.Sprint(number), Number: number, Event: public[0]}
	if ev.Kind == engine.EvSettled {
		msg.Event = ev
	}
	if !w.shows(number) {
		if w.held == nil {
			w.held = make(map[int][]Seen)
		}
		w.held[number] = append(w.held[number], msg)
		return
	}
	w.send(msg)
}

// Watch streams a running match's public events until it ends or ctx ends.
func (s *Service) Watch(ctx context.Context, matchID string, send func(Seen) error) error {
	ch := make(chan Seen, 1024)
	s.mu.Lock()
	w := s.running[matchID]
	if w != nil {
		w.subs[ch] = struct{}{}
		s.watching.Add(1)
	}
	s.mu.Unlock()
	if w == nil {
		return domain.ErrNotFound
	}
	defer func() {
		s.mu.Lock()
		delete(w.subs, ch)
		s.watching.Add(-1)
		s.mu.Unlock()
	}()
	for {
		select {
		case msg, ok := <-ch:
			if !ok {
				return nil
			}
			if err := send(msg); err != nil {
				return err
			}
		case <-ctx.Done():
			return nil
		}
	}
}
