package match

import (
	"context"
	"fmt"
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
	s.mu.Lock()
	s.running[m.ID] = &watchers{subs: make(map[chan Seen]struct{})}
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

// publish hands every public event of a running match to its watchers. A watcher that does
// not keep up loses events rather than slowing the match.
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
	for ch := range w.subs {
		select {
		case ch <- msg:
		default:
		}
	}
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
