// Package memstore is a store (domain.Store and the league's leaguestore.Store) that keeps
// everything in this process's memory and nothing on disk: for tests, and for measuring
// what the real store costs a league (`tapp league run --db memory:`). It keeps the stores'
// contract (arena/internal/store/storetest), decision records included, so that what a
// replay, a verification, an analysis or the dashboard reads works on it within the process.
package memstore

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/tapparena/tapp/arena/internal/board"
	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/league/leaguestore"
)

// Memory is a store in this process's memory. It keeps what the SQL store keeps and reads
// it back as the SQL store does: times to the microsecond, every decision record with the
// request as sent, or for an observed decision (a bot in process) its clock, the request it
// stands for rebuilt when read (observed.go). A deal costs its records' size (docs/BENCHMARKS.md:
// a request sent over a wire is most of it), so a league of millions of deals belongs in a
// database.
type Memory struct {
	mu      sync.Mutex
	bots    map[string]domain.Bot // by name
	matches map[string]*domain.Match
	// rulesText spells each match's rules once, for its result rows (a spelling costs more
	// than the rest of storing a deal in memory).
	rulesText  map[string]string
	deals      map[string]map[int]*domain.DealRecord
	results    []domain.ResultRow
	analyses   map[analysisKey][]byte
	leagues    map[string]*domain.League
	places     map[string][]domain.LeagueMatch
	jobs       []*domain.Job
	jobByKey   map[string]*domain.Job
	nextID     int
	rounds     map[string]int                // match id → round, for the matches of leagues' schedules
	links      map[string][]domain.ChainLink // match id → its deals' places in its chain, by place
	totals     map[string]*memoryTotals      // league id → running totals (totals.go)
	boardDeals map[string]int                // board (a ladder's row) → deals of other leagues' matches on it
	ratings    *board.Accumulator            // the leaderboard's sums (ratings.go)
	infos      map[string]board.MatchInfo    // match id → what the sums need of it, made once (ratings.go)
	// The rating history (ratings.go): its points by league and rule set, the clocks the deals
	// stored since the last look made due, and the writer taking points.
	history    map[board.LeagueRules][]board.HistoryPoint
	historyDue map[board.LeagueRules]int64
	historyMu  sync.Mutex
	subs       submissions // hosted bots' versions (submissions.go)
}

var _ leaguestore.Store = (*Memory)(nil)

// New returns an empty memory store.
func New() *Memory {
	return &Memory{
		bots: map[string]domain.Bot{}, matches: map[string]*domain.Match{}, rulesText: map[string]string{}, deals: map[string]map[int]*domain.DealRecord{},
		analyses: map[analysisKey][]byte{}, leagues: map[string]*domain.League{}, places: map[string][]domain.LeagueMatch{},
		jobByKey: map[string]*domain.Job{},
	}
}

// now is the time as the store keeps it: UTC, in whole µs.
func now() time.Time { return micros(time.Now()) }

// micros is t as the store keeps it: UTC, in whole µs (the zero time stays zero).
func micros(t time.Time) time.Time {
	if t.IsZero() {
		return t
	}
	return t.UTC().Truncate(time.Microsecond)
}

// CreateBot implements domain.Store: a name, an id or a token hash taken already is
// domain.ErrConflict.
func (s *Memory) CreateBot(_ context.Context, b *domain.Bot) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.bots[b.Name]; ok {
		return fmt.Errorf("bot name %q is taken: %w", b.Name, domain.ErrConflict)
	}
	for _, o := range s.bots {
		if b.ID != "" && o.ID == b.ID {
			return fmt.Errorf("bot id %q is taken: %w", b.ID, domain.ErrConflict)
		}
		if len(b.TokenHash) > 0 && bytes.Equal(o.TokenHash, b.TokenHash) {
			return fmt.Errorf("bot %q: its token is another bot's: %w", b.Name, domain.ErrConflict)
		}
	}
	if b.ID == "" {
		s.nextID++
		b.ID = fmt.Sprintf("bot%d", s.nextID)
	}
	if b.Created.IsZero() {
		b.Created = now()
	}
	b.Created = micros(b.Created)
	c := *b
	c.TokenHash = bytes.Clone(b.TokenHash)
	s.bots[b.Name] = c
	return nil
}

// bot returns a copy of a stored bot.
func bot(b domain.Bot) *domain.Bot {
	b.TokenHash = bytes.Clone(b.TokenHash)
	return &b
}

// BotByName implements domain.Store.
func (s *Memory) BotByName(_ context.Context, name string) (*domain.Bot, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.bots[name]
	if !ok {
		return nil, fmt.Errorf("bot %q: %w", name, domain.ErrNotFound)
	}
	return bot(b), nil
}

// BotByTokenHash implements domain.Store.
func (s *Memory) BotByTokenHash(_ context.Context, hash []byte) (*domain.Bot, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, b := range s.bots {
		if len(hash) > 0 && bytes.Equal(b.TokenHash, hash) {
			return bot(b), nil
		}
	}
	return nil, fmt.Errorf("bot with that token: %w", domain.ErrNotFound)
}

// ListBots implements domain.Store: by name.
func (s *Memory) ListBots(context.Context) ([]domain.Bot, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []domain.Bot
	for _, name := range sortedKeys(s.bots) {
		out = append(out, *bot(s.bots[name]))
	}
	return out, nil
}

// matchCopy is a copy of a match that shares nothing with it.
func matchCopy(m *domain.Match) *domain.Match {
	c := *m
	c.Spec.Bots, c.Forfeited, c.ChainHead = slices.Clone(m.Spec.Bots), slices.Clone(m.Forfeited), bytes.Clone(m.ChainHead)
	return &c
}

// createMatch stores m, completing it as CreateMatch says; false if its id is taken.
func (s *Memory) createMatch(m *domain.Match) bool {
	if m.ID == "" {
		s.nextID++
		m.ID = fmt.Sprintf("m%d", s.nextID)
	}
	if _, ok := s.matches[m.ID]; ok {
		return false
	}
	if m.Started.IsZero() {
		m.Started = now()
	}
	m.Started = micros(m.Started)
	if m.Status == "" {
		m.Status = domain.MatchRunning
	}
	c := matchCopy(m)
	c.Finished = micros(c.Finished)
	tc := &c.Spec.TimeControl
	tc.PerDecision, tc.Overage = tc.PerDecision.Truncate(time.Microsecond), tc.Overage.Truncate(time.Microsecond)
	if c.Spec.Format == domain.FormatDeals {
		c.Spec.Format = "" // the zero value is the default format
	}
	if len(c.Forfeited) == 0 {
		c.Forfeited = nil
	}
	s.matches[m.ID] = c
	s.rulesText[m.ID] = c.Spec.Rules.String()
	return true
}

// CreateMatch implements domain.Store: it assigns m.ID when empty, m.Started when zero and
// m.Status (running) when empty; an ID already used is domain.ErrConflict.
func (s *Memory) CreateMatch(_ context.Context, m *domain.Match) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.createMatch(m) {
		return fmt.Errorf("match %s: %w", m.ID, domain.ErrConflict)
	}
	return nil
}

// UpdateMatch implements domain.Store: the status, the finish, the forfeits and, when the
// match has decisions, their counts.
func (s *Memory) UpdateMatch(_ context.Context, m *domain.Match) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.matches[m.ID]
	if !ok {
		return fmt.Errorf("match %s: %w", m.ID, domain.ErrNotFound)
	}
	c.Status, c.Finished, c.Forfeited = m.Status, micros(m.Finished), slices.Clone(m.Forfeited)
	if len(c.Forfeited) == 0 {
		c.Forfeited = nil
	}
	if m.Decisions > 0 {
		c.Decisions, c.Fallbacks = m.Decisions, m.Fallbacks
	}
	return nil
}

// GetMatch implements domain.Store.
func (s *Memory) GetMatch(_ context.Context, id string) (*domain.Match, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.matches[id]
	if !ok {
		return nil, fmt.Errorf("match %s: %w", id, domain.ErrNotFound)
	}
	return matchCopy(m), nil
}

func (s *Memory) selected(m *domain.Match, f domain.MatchFilter) bool {
	return (f.MatchID == "" || m.ID == f.MatchID) && (f.LeagueID == "" || m.Spec.LeagueID == f.LeagueID || m.Spec.Board == f.LeagueID) &&
		(f.Bot == "" || slices.Contains(m.Spec.Bots, f.Bot)) && (f.Rules == "" || m.Spec.Rules.String() == f.Rules) &&
		(f.Since.IsZero() || !m.Started.Before(f.Since))
}

// ListMatches implements domain.Store: newest first (by start, then by id).
func (s *Memory) ListMatches(_ context.Context, f domain.MatchFilter) ([]domain.Match, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []domain.Match
	for _, m := range s.matches {
		if s.selected(m, f) {
			out = append(out, *matchCopy(m))
		}
	}
	slices.SortFunc(out, func(a, b domain.Match) int {
		return cmp.Or(b.Started.Compare(a.Started), strings.Compare(b.ID, a.ID))
	})
	if f.Limit > 0 && len(out) > f.Limit {
		out = out[:f.Limit]
	}
	return out, nil
}

// Close implements domain.Store.
func (s *Memory) Close() error { return nil }

// String describes the store for logs.
func (s *Memory) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return fmt.Sprintf("memory (%d matches, %d results)", len(s.matches), len(s.results))
}

// sortedKeys returns a map's keys in order.
func sortedKeys[K cmp.Ordered, V any](m map[K]V) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
