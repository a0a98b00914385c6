package match

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"go.uber.org/zap"

	"github.com/tapparena/tapp/arena"
	"github.com/tapparena/tapp/arena/wire"
	"github.com/tapparena/tapp/engine"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
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
	subs map[chan *tappv1.WatchMatchResponse]struct{}
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

// SpecFromProto reads an admin StartMatch request.
func (s *Service) SpecFromProto(req *tappv1.StartMatchRequest) (arena.MatchSpec, error) {
	text := req.GetRules()
	if text == "" {
		text = "modern"
	}
	rules, err := engine.ParseRuleSet(text)
	if err != nil {
		return arena.MatchSpec{}, err
	}
	spec := arena.MatchSpec{
		Rules: rules, Bots: req.GetBots(), Deals: int(req.GetDeals()), Seed: req.GetSeed(),
		Duplicate: req.GetDuplicate(), DealsText: req.GetDealsText(),
		TimeControl: wire.TimeControlFromProto(req.GetTimeControl()),
		Format:      req.GetFormat(), Rounds: int(req.GetRounds()),
	}
	_, err = Plan(spec)
	return spec, err
}

// StartMatch stores a match and plays it in the background.
func (s *Service) StartMatch(ctx context.Context, spec arena.MatchSpec) (string, error) {
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
	ms, err := s.Runner.Store.ListMatches(ctx, arena.MatchFilter{})
	if err != nil {
		return nil, err
	}
	var ids []string
	for i := range ms {
		m := &ms[i]
		if m.Status != arena.MatchRunning || m.Spec.LeagueID != "" {
			continue
		}
		s.Log.Info("resuming a match that was running when the arena stopped", zap.String("match", m.ID))
		s.play(m)
		ids = append(ids, m.ID)
	}
	return ids, nil
}

// play runs m in the background.
func (s *Service) play(m *arena.Match) {
	s.mu.Lock()
	s.running[m.ID] = &watchers{subs: make(map[chan *tappv1.WatchMatchResponse]struct{})}
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
		case ch <- &tappv1.WatchMatchResponse{MatchFinished: true}:
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
	msg := &tappv1.WatchMatchResponse{
		GameId: matchID + "/" + fmt.Sprint(number), DealNumber: int32(number),
		Event: wire.EventToProto(&public[0], -1, 0),
	}
	if ev.Kind == engine.EvSettled {
		msg.Event = wire.EventToProto(&ev, -1, 0)
	}
	for ch := range w.subs {
		select {
		case ch <- msg:
		default:
		}
	}
}

// Watch streams a running match's public events until it ends or ctx ends.
func (s *Service) Watch(ctx context.Context, matchID string, send func(*tappv1.WatchMatchResponse) error) error {
	ch := make(chan *tappv1.WatchMatchResponse, 1024)
	s.mu.Lock()
	w := s.running[matchID]
	if w != nil {
		w.subs[ch] = struct{}{}
		s.watching.Add(1)
	}
	s.mu.Unlock()
	if w == nil {
		return arena.ErrNotFound
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

// MatchSummary converts a stored match with its totals.
func (s *Service) MatchSummary(m *arena.Match) *tappv1.MatchSummary {
	sum := &tappv1.MatchSummary{
		MatchId: m.ID, Status: string(m.Status), Rules: m.Spec.Rules.String(), Bots: m.Spec.Bots,
		Started: wire.Timestamp(m.Started), Forfeited: m.Forfeited,
	}
	if !m.Finished.IsZero() {
		sum.Finished = wire.Timestamp(m.Finished)
	}
	if tables, err := Plan(m.Spec); err == nil {
		sum.DealsPlanned = int32(len(tables))
	}
	if res, err := Summarize(s.ctx, s.Runner.Store, m); err == nil {
		sum.DealsPlayed = int32(res.Deals)
		for _, b := range m.Spec.Bots {
			sum.Net = append(sum.Net, int64(res.Net[b]))
		}
	}
	return sum
}

// MatchDetails returns a stored match with every deal's summary.
func (s *Service) MatchDetails(ctx context.Context, matchID string) (*tappv1.GetMatchResponse, error) {
	m, err := s.Runner.Store.GetMatch(ctx, matchID)
	if err != nil {
		return nil, err
	}
	deals, err := s.Runner.Store.Deals(ctx, matchID)
	if err != nil {
		return nil, err
	}
	resp := &tappv1.GetMatchResponse{Match: s.MatchSummary(m)}
	for _, d := range deals {
		resp.Deals = append(resp.Deals, &tappv1.DealSummary{
			DealNumber: int32(d.Number), Seating: d.Seating, Deal: d.Deal.Format(m.Spec.Rules),
			Settlement: wire.SettlementForPlayers(wire.OutcomeToProto(d.Outcome), m.Spec.Rules.Players),
		})
	}
	return resp, nil
}
