// Package memstore is a league store (leaguestore.Store) that keeps everything in this
// process's memory and nothing on disk: for tests, and for measuring what the real store
// costs a league (`tapp league run --db memory:`).
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

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/league/leaguestore"
)

// Memory is a leaguestore.Store that keeps everything in this process's memory and nothing on disk: for
// tests, and for measuring what the real store costs a league (`tapp league run --db
// memory:`). It keeps deals and their results but drops the decision records (what was sent
// to the bots), which a long run could not hold in memory.
type Memory struct {
	mu       sync.Mutex
	bots     map[string]domain.Bot
	matches  map[string]*domain.Match
	order    []string // match ids in creation order
	deals    map[string]map[int]*domain.DealRecord
	results  []domain.ResultRow
	leagues  map[string]*domain.League
	places   map[string][]domain.LeagueMatch
	jobs     []*domain.Job
	jobByKey map[string]*domain.Job
	nextID   int
	rounds   map[string]int           // match id → round, for the matches of leagues' schedules
	totals   map[string]*memoryTotals // league id → running totals (totals.go)
	subs     submissions              // hosted bots' versions (submissions.go)
}

var _ leaguestore.Store = (*Memory)(nil)

// New returns an empty memory store.
func New() *Memory {
	return &Memory{
		bots: map[string]domain.Bot{}, matches: map[string]*domain.Match{}, deals: map[string]map[int]*domain.DealRecord{},
		leagues: map[string]*domain.League{}, places: map[string][]domain.LeagueMatch{}, jobByKey: map[string]*domain.Job{},
	}
}

// CreateBot implements domain.Store.
func (s *Memory) CreateBot(_ context.Context, b *domain.Bot) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.bots[b.Name]; ok {
		return fmt.Errorf("bot name %q is taken: %w", b.Name, domain.ErrConflict)
	}
	if b.ID == "" {
		s.nextID++
		b.ID = fmt.Sprintf("bot%d", s.nextID)
	}
	if b.Created.IsZero() {
		b.Created = time.Now().UTC()
	}
	s.bots[b.Name] = *b
	return nil
}

// BotByName implements domain.Store.
func (s *Memory) BotByName(_ context.Context, name string) (*domain.Bot, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.bots[name]
	if !ok {
		return nil, fmt.Errorf("bot %q: %w", name, domain.ErrNotFound)
	}
	return &b, nil
}

// BotByTokenHash implements domain.Store.
func (s *Memory) BotByTokenHash(_ context.Context, hash []byte) (*domain.Bot, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, b := range s.bots {
		if len(hash) > 0 && bytes.Equal(b.TokenHash, hash) {
			return &b, nil
		}
	}
	return nil, fmt.Errorf("bot with that token: %w", domain.ErrNotFound)
}

// ListBots implements domain.Store.
func (s *Memory) ListBots(context.Context) ([]domain.Bot, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []domain.Bot
	for _, name := range sortedKeys(s.bots) {
		out = append(out, s.bots[name])
	}
	return out, nil
}

func (s *Memory) createMatch(m *domain.Match) bool {
	if m.ID == "" {
		s.nextID++
		m.ID = fmt.Sprintf("m%d", s.nextID)
	}
	if _, ok := s.matches[m.ID]; ok {
		return false
	}
	if m.Started.IsZero() {
		m.Started = time.Now().UTC().Truncate(time.Microsecond)
	}
	if m.Status == "" {
		m.Status = domain.MatchRunning
	}
	c := *m
	c.Spec.Bots = slices.Clone(m.Spec.Bots)
	s.matches[m.ID] = &c
	s.order = append(s.order, m.ID)
	return true
}

// CreateMatch implements domain.Store.
func (s *Memory) CreateMatch(_ context.Context, m *domain.Match) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.createMatch(m) {
		return fmt.Errorf("match %s: %w", m.ID, domain.ErrConflict)
	}
	return nil
}

// UpdateMatch implements domain.Store.
func (s *Memory) UpdateMatch(_ context.Context, m *domain.Match) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.matches[m.ID]
	if !ok {
		return fmt.Errorf("match %s: %w", m.ID, domain.ErrNotFound)
	}
	c.Status, c.Finished, c.Forfeited = m.Status, m.Finished, slices.Clone(m.Forfeited)
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
	c := *m
	return &c, nil
}

func (s *Memory) selected(m *domain.Match, f domain.MatchFilter) bool {
	return (f.MatchID == "" || m.ID == f.MatchID) && (f.LeagueID == "" || m.Spec.LeagueID == f.LeagueID) &&
		(f.Bot == "" || slices.Contains(m.Spec.Bots, f.Bot)) && (f.Rules == "" || m.Spec.Rules.String() == f.Rules) &&
		(f.Since.IsZero() || !m.Started.Before(f.Since))
}

// ListMatches implements domain.Store: newest first.
func (s *Memory) ListMatches(_ context.Context, f domain.MatchFilter) ([]domain.Match, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []domain.Match
	for i := len(s.order) - 1; i >= 0; i-- {
		m := s.matches[s.order[i]]
		if s.selected(m, f) {
			out = append(out, *m)
		}
		if f.Limit > 0 && len(out) == f.Limit {
			break
		}
	}
	return out, nil
}

// SaveDeal implements domain.Store (decision records are dropped).
func (s *Memory) SaveDeal(_ context.Context, d *domain.DealRecord) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.saveDeal(d)
}

func (s *Memory) saveDeal(d *domain.DealRecord) error {
	m, ok := s.matches[d.MatchID]
	if !ok {
		return fmt.Errorf("match %s: %w", d.MatchID, domain.ErrNotFound)
	}
	if s.deals[d.MatchID] == nil {
		s.deals[d.MatchID] = map[int]*domain.DealRecord{}
	}
	if _, ok := s.deals[d.MatchID][d.Number]; ok {
		return fmt.Errorf("deal %d of match %s: %w", d.Number, d.MatchID, domain.ErrConflict)
	}
	c := *d
	c.Decisions = nil
	c.Results = slices.Clone(d.Results)
	s.deals[d.MatchID][d.Number] = &c
	for _, r := range d.Results {
		s.results = append(s.results, domain.ResultRow{MatchID: d.MatchID, LeagueID: m.Spec.LeagueID, Deal: d.Number,
			Group: d.Group, Rules: m.Spec.Rules.String(), SeatResult: r})
	}
	s.addToTotals(m, d)
	return nil
}

// Deal implements domain.Store.
func (s *Memory) Deal(_ context.Context, matchID string, number int) (*domain.DealRecord, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, ok := s.deals[matchID][number]
	if !ok {
		return nil, fmt.Errorf("deal %d of match %s: %w", number, matchID, domain.ErrNotFound)
	}
	c := *d
	return &c, nil
}

// Deals implements domain.Store.
func (s *Memory) Deals(_ context.Context, matchID string) ([]domain.DealRecord, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.matches[matchID]; !ok {
		return nil, fmt.Errorf("match %s: %w", matchID, domain.ErrNotFound)
	}
	var out []domain.DealRecord
	for _, n := range sortedKeys(s.deals[matchID]) {
		out = append(out, *s.deals[matchID][n])
	}
	return out, nil
}

// DealNumbers implements domain.Store.
func (s *Memory) DealNumbers(_ context.Context, matchID string) ([]int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return sortedKeys(s.deals[matchID]), nil
}

// DealNumbersBetween implements leaguestore.Store.
func (s *Memory) DealNumbersBetween(_ context.Context, matchID string, first, last int) ([]int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []int
	for _, n := range sortedKeys(s.deals[matchID]) {
		if n >= first && n <= last {
			out = append(out, n)
		}
	}
	return out, nil
}

// Results implements domain.Store.
func (s *Memory) Results(_ context.Context, f domain.MatchFilter) ([]domain.ResultRow, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []domain.ResultRow
	for _, r := range s.results {
		if s.selected(s.matches[r.MatchID], f) {
			out = append(out, r)
		}
	}
	slices.SortStableFunc(out, func(a, b domain.ResultRow) int {
		ma, mb := s.matches[a.MatchID], s.matches[b.MatchID]
		return cmp.Or(ma.Started.Compare(mb.Started), strings.Compare(a.MatchID, b.MatchID), cmp.Compare(a.Deal, b.Deal),
			cmp.Compare(a.Seat, b.Seat))
	})
	if f.Limit > 0 && len(out) > f.Limit {
		out = out[:f.Limit]
	}
	return out, nil
}

// Close implements domain.Store.
func (s *Memory) Close() error { return nil }

// EnsureLeague implements leaguestore.Store.
func (s *Memory) EnsureLeague(_ context.Context, l *domain.League) (*domain.League, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.leagues[l.ID]; !ok {
		c := *l
		if c.Status == "" {
			c.Status = domain.LeagueRunning
		}
		c.Created, c.Updated = time.Now().UTC(), time.Now().UTC()
		s.leagues[l.ID] = &c
	}
	c := *s.leagues[l.ID]
	return &c, nil
}

// GetLeague implements leaguestore.Store.
func (s *Memory) GetLeague(_ context.Context, id string) (*domain.League, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	l, ok := s.leagues[id]
	if !ok {
		return nil, fmt.Errorf("league %s: %w", id, domain.ErrNotFound)
	}
	c := *l
	return &c, nil
}

// SetLeagueStatus implements leaguestore.Store.
func (s *Memory) SetLeagueStatus(_ context.Context, id string, status domain.LeagueStatus) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	l, ok := s.leagues[id]
	if !ok {
		return fmt.Errorf("league %s: %w", id, domain.ErrNotFound)
	}
	l.Status, l.Updated = status, time.Now().UTC()
	return nil
}

func jobKey(matchID string, group int) string { return fmt.Sprintf("%s\x00%d", matchID, group) }

// ScheduleRound implements leaguestore.Store.
func (s *Memory) ScheduleRound(_ context.Context, places []domain.LeagueMatch, matches []*domain.Match, jobs []domain.Job) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, m := range matches {
		if s.createMatch(m) {
			p := places[i]
			s.places[p.LeagueID] = append(s.places[p.LeagueID], p)
			if s.rounds == nil {
				s.rounds = map[string]int{}
			}
			s.rounds[p.MatchID] = p.Round
		}
	}
	for _, j := range jobs {
		k := jobKey(j.MatchID, j.FirstGroup)
		if s.jobByKey[k] != nil {
			continue
		}
		c := j
		s.nextID++
		c.ID, c.State = int64(s.nextID), domain.JobAvailable
		s.jobs = append(s.jobs, &c)
		s.jobByKey[k] = &c
	}
	return nil
}

// LeagueMatches implements leaguestore.Store.
func (s *Memory) LeagueMatches(_ context.Context, league string) ([]domain.LeagueMatch, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := slices.Clone(s.places[league])
	slices.SortFunc(out, func(a, b domain.LeagueMatch) int { return a.Seq - b.Seq })
	return out, nil
}

// LeagueSeats implements leaguestore.Store.
func (s *Memory) LeagueSeats(_ context.Context, league string, from, to int) (map[string]int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]int{}
	for _, lm := range s.places[league] {
		if lm.Seq < from || lm.Seq >= to {
			continue
		}
		m, ok := s.matches[lm.MatchID]
		if !ok {
			return nil, fmt.Errorf("league %s: match %s of position %d is not stored", league, lm.MatchID, lm.Seq)
		}
		for _, b := range m.Spec.Bots {
			out[b]++
		}
	}
	return out, nil
}

// Claim implements leaguestore.Queue.
func (s *Memory) Claim(_ context.Context, league, owner string, max int, lease time.Duration) ([]domain.Job, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	var out []domain.Job
	for _, j := range s.jobs {
		if len(out) >= max {
			break
		}
		if j.LeagueID != league || !(j.State == domain.JobAvailable || j.State == domain.JobRunning && j.LeaseUntil.Before(now)) {
			continue
		}
		j.State, j.Owner, j.LeaseUntil = domain.JobRunning, owner, now.Add(lease)
		j.Attempts++
		j.Stored = s.stored(j)
		out = append(out, *j)
	}
	return out, nil
}

// stored counts the job's deals that are stored.
func (s *Memory) stored(j *domain.Job) int {
	n := 0
	for _, d := range s.deals[j.MatchID] {
		if d.Group >= j.FirstGroup && d.Group < j.FirstGroup+j.Groups {
			n++
		}
	}
	return n
}

func (s *Memory) job(id int64) *domain.Job {
	i, ok := slices.BinarySearchFunc(s.jobs, id, func(j *domain.Job, id int64) int { return int(j.ID - id) })
	if !ok {
		return nil
	}
	return s.jobs[i]
}

// Jobs lists the league's jobs by id, each with Stored set, as the SQL store does.
func (s *Memory) Jobs(_ context.Context, league string) ([]domain.Job, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []domain.Job
	for _, j := range s.jobs {
		if j.LeagueID == league {
			c := *j
			c.Stored = s.stored(j)
			out = append(out, c)
		}
	}
	return out, nil
}

// Extend implements leaguestore.Queue.
func (s *Memory) Extend(_ context.Context, owner string, ids []int64, lease time.Duration) ([]int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var lost []int64
	for _, id := range ids {
		j := s.job(id)
		if j != nil && j.State == domain.JobDone {
			continue // done meanwhile: not lost to another worker
		}
		if j == nil || j.Owner != owner || j.State != domain.JobRunning {
			lost = append(lost, id)
			continue
		}
		j.LeaseUntil = time.Now().Add(lease)
	}
	return lost, nil
}

// Release implements leaguestore.Queue.
func (s *Memory) Release(_ context.Context, owner string, ids []int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, id := range ids {
		if j := s.job(id); j != nil && j.Owner == owner && j.State == domain.JobRunning {
			j.State, j.Owner, j.LeaseUntil = domain.JobAvailable, "", time.Time{}
			j.Attempts = max(j.Attempts-1, 0)
		}
	}
	return nil
}

// Fail implements leaguestore.Queue.
func (s *Memory) Fail(_ context.Context, owner string, id int64, msg string, maxAttempts int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if j := s.job(id); j != nil && j.Owner == owner && j.State == domain.JobRunning {
		j.State, j.Owner, j.LeaseUntil, j.LastError = domain.JobAvailable, "", time.Time{}, msg
		if j.Attempts >= maxAttempts {
			j.State = domain.JobFailed
		}
	}
	return nil
}

// SaveJobDeal implements leaguestore.Queue.
func (s *Memory) SaveJobDeal(_ context.Context, d *domain.DealRecord, jobID int64) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.saveDeal(d); err != nil {
		return false, err
	}
	return s.completeJob(jobID)
}

// SaveJobDeals implements Queue: all or nothing.
func (s *Memory) SaveJobDeals(_ context.Context, items []domain.JobDeal) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, it := range items {
		if _, ok := s.deals[it.Deal.MatchID][it.Deal.Number]; ok {
			return fmt.Errorf("deal %d of match %s: %w", it.Deal.Number, it.Deal.MatchID, domain.ErrConflict)
		}
		if _, ok := s.matches[it.Deal.MatchID]; !ok {
			return fmt.Errorf("match %s: %w", it.Deal.MatchID, domain.ErrNotFound)
		}
	}
	for _, it := range items {
		if err := s.saveDeal(it.Deal); err != nil {
			return err
		}
	}
	for _, it := range items {
		if _, err := s.completeJob(it.JobID); err != nil {
			return err
		}
	}
	return nil
}

// CompleteJob implements leaguestore.Queue.
func (s *Memory) CompleteJob(_ context.Context, jobID int64) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.completeJob(jobID)
}

func (s *Memory) completeJob(jobID int64) (bool, error) {
	j := s.job(jobID)
	if j == nil {
		return false, fmt.Errorf("job %d: %w", jobID, domain.ErrNotFound)
	}
	if j.State == domain.JobDone {
		return true, nil
	}
	if s.stored(j) < j.Deals {
		return false, nil
	}
	j.State, j.Owner, j.LeaseUntil = domain.JobDone, "", time.Time{}
	for _, o := range s.jobs {
		if o.MatchID == j.MatchID && o.State != domain.JobDone {
			return true, nil
		}
	}
	if m := s.matches[j.MatchID]; m.Status != domain.MatchFinished {
		m.Status, m.Finished = domain.MatchFinished, time.Now().UTC()
	}
	return true, nil
}

// RoundCountsFrom implements leaguestore.Queue.
func (s *Memory) RoundCountsFrom(_ context.Context, league string, from int) ([]domain.RoundCounts, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	byRound := map[int]*domain.RoundCounts{}
	for _, j := range s.jobs {
		if j.LeagueID != league || j.Round < from {
			continue
		}
		c := byRound[j.Round]
		if c == nil {
			c = &domain.RoundCounts{Round: j.Round}
			byRound[j.Round] = c
		}
		c.DealsPlanned += j.Deals
		switch j.State {
		case domain.JobAvailable:
			c.Available++
		case domain.JobRunning:
			c.Running++
		case domain.JobDone:
			c.Done++
		case domain.JobFailed:
			c.Failed++
		}
	}
	var out []domain.RoundCounts
	for _, r := range sortedKeys(byRound) {
		out = append(out, *byRound[r])
	}
	return out, nil
}

// LeaseOwners implements leaguestore.Queue.
func (s *Memory) LeaseOwners(_ context.Context, league string) ([]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	set := map[string]bool{}
	for _, j := range s.jobs {
		if j.LeagueID == league && j.State == domain.JobRunning {
			set[j.Owner] = true
		}
	}
	return sortedKeys(set), nil
}

// Rescue implements leaguestore.Queue.
func (s *Memory) Rescue(_ context.Context, league string, owners []string) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, j := range s.jobs {
		if j.LeagueID == league && j.State == domain.JobRunning && slices.Contains(owners, j.Owner) {
			j.State, j.Owner, j.LeaseUntil = domain.JobAvailable, "", time.Time{}
			n++
		}
	}
	return n, nil
}

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
