package memstore

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
)

// A league's records and its job queue (leaguestore.Store and leaguestore.Queue).

// EnsureLeague implements leaguestore.Store.
func (s *Memory) EnsureLeague(_ context.Context, l *domain.League) (*domain.League, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.leagues[l.ID]; !ok {
		c := *l
		if c.Status == "" {
			c.Status = domain.LeagueRunning
		}
		c.Created, c.Updated = now(), now()
		s.leagues[l.ID] = &c
	}
	c := *s.leagues[l.ID]
	return &c, nil
}

// ListLeagues lists every league, the newest first.
func (s *Memory) ListLeagues(context.Context) ([]domain.League, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []domain.League
	for _, l := range s.leagues {
		out = append(out, *l)
	}
	slices.SortFunc(out, func(a, b domain.League) int { return cmp.Or(b.Created.Compare(a.Created), strings.Compare(a.ID, b.ID)) })
	return out, nil
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

// SetLeaguePaused pauses or resumes a league.
func (s *Memory) SetLeaguePaused(_ context.Context, id string, paused bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	l, ok := s.leagues[id]
	if !ok {
		return fmt.Errorf("league %s: %w", id, domain.ErrNotFound)
	}
	l.Paused, l.Updated = paused, now()
	return nil
}

// SetLeagueStatus implements leaguestore.Store.
func (s *Memory) SetLeagueStatus(_ context.Context, id string, status domain.LeagueStatus) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	l, ok := s.leagues[id]
	if !ok {
		return fmt.Errorf("league %s: %w", id, domain.ErrNotFound)
	}
	l.Status, l.Updated = status, now()
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
			if l := s.leagues[p.LeagueID]; l != nil {
				l.Matches++
			}
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
func (s *Memory) SaveJobDeal(ctx context.Context, d *domain.DealRecord, jobID int64) (bool, error) {
	defer s.takeHistory(ctx) // after the unlock
	s.mu.Lock()
	defer s.mu.Unlock()
	c, err := s.prepareDeal(d, nil)
	if err != nil {
		return false, err
	}
	if s.job(jobID) == nil {
		return false, fmt.Errorf("job %d: %w", jobID, domain.ErrNotFound)
	}
	s.saveDeal(c)
	return s.completeJob(jobID)
}

// SaveJobDeals implements leaguestore.Queue: all or nothing.
func (s *Memory) SaveJobDeals(ctx context.Context, items []domain.JobDeal) error {
	defer s.takeHistory(ctx) // after the unlock
	s.mu.Lock()
	defer s.mu.Unlock()
	batch := make([]*domain.DealRecord, 0, len(items))
	for _, it := range items {
		c, err := s.prepareDeal(it.Deal, batch)
		if err != nil {
			return err
		}
		batch = append(batch, c)
	}
	for _, it := range items {
		if s.job(it.JobID) == nil {
			return fmt.Errorf("job %d: %w", it.JobID, domain.ErrNotFound)
		}
	}
	for _, c := range batch {
		s.saveDeal(c)
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
		m.Status, m.Finished = domain.MatchFinished, now()
		if l := s.leagues[j.LeagueID]; l != nil {
			l.MatchesFinished++
		}
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

// LeagueJobTotals implements leaguestore.Queue, from the league's jobs (a memory store holds
// a run's jobs only; the SQL store keeps the planned deals on the league's row).
func (s *Memory) LeagueJobTotals(_ context.Context, league string) (domain.LeagueJobTotals, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var t domain.LeagueJobTotals
	for _, j := range s.jobs {
		if j.LeagueID != league {
			continue
		}
		t.DealsPlanned += j.Deals
		switch j.State {
		case domain.JobAvailable:
			t.Waiting = true
		case domain.JobRunning:
			t.JobsRunning++
		}
	}
	return t, nil
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

// RoundJobs returns the jobs of the league round the match belongs to, by id (none for a
// stand-alone match), without Stored, as the SQL store does.
func (s *Memory) RoundJobs(_ context.Context, matchID string) ([]domain.Job, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.matches[matchID]
	round, placed := s.rounds[matchID]
	if !ok || !placed {
		return nil, nil
	}
	var out []domain.Job
	for _, j := range s.jobs {
		if j.LeagueID == m.Spec.LeagueID && j.Round == round {
			c := *j
			c.Stored = 0
			out = append(out, c)
		}
	}
	return out, nil
}
