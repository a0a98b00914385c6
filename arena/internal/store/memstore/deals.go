package memstore

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/tapparena/tapp/arena/internal/dealchain"
	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/engine"
)

// SaveDeal implements domain.Store: the deal, its decisions and its results are stored whole
// or not at all. A deal stored already is domain.ErrConflict, an unknown match
// domain.ErrNotFound; a deal that does not fit its match (its cards, the seats of its moves
// and results) or has two decisions with one index is refused. A zero d.Started is stored as
// the time of saving.
func (s *Memory) SaveDeal(ctx context.Context, d *domain.DealRecord) error {
	defer s.takeHistory(ctx) // after the unlock
	s.mu.Lock()
	defer s.mu.Unlock()
	c, err := s.prepareDeal(d, nil)
	if err != nil {
		return err
	}
	s.saveDeal(c)
	return nil
}

// prepareDeal checks a deal for storing (s.mu held) and returns the copy to store; batch holds
// the deals of the same transaction prepared before it.
func (s *Memory) prepareDeal(d *domain.DealRecord, batch []*domain.DealRecord) (*domain.DealRecord, error) {
	m, ok := s.matches[d.MatchID]
	if !ok {
		return nil, fmt.Errorf("match %s: %w", d.MatchID, domain.ErrNotFound)
	}
	_, stored := s.deals[d.MatchID][d.Number]
	if stored || slices.ContainsFunc(batch, func(o *domain.DealRecord) bool { return o.MatchID == d.MatchID && o.Number == d.Number }) {
		return nil, fmt.Errorf("deal %d of match %s: %w", d.Number, d.MatchID, domain.ErrConflict)
	}
	if err := check(d, m); err != nil {
		return nil, fmt.Errorf("memory store: saving deal %d of match %s: %w", d.Number, d.MatchID, err)
	}
	return keptCopy(d), nil
}

// check reports what keeps a deal from being stored with its match, as the SQL store does.
func check(d *domain.DealRecord, m *domain.Match) error {
	rules := m.Spec.Rules
	if err := d.Deal.Validate(rules); err != nil {
		return fmt.Errorf("the cards do not fit the rules: %w", err)
	}
	for i, mv := range d.Moves {
		if mv.Seat < 0 || int(mv.Seat) >= rules.Players {
			return fmt.Errorf("move %d is by seat %d", i, mv.Seat)
		}
	}
	seen := make(map[int]bool, len(d.Decisions))
	for _, x := range d.Decisions {
		if seen[x.Index] {
			return fmt.Errorf("two decisions with index %d", x.Index)
		}
		seen[x.Index] = true
	}
	var seats [engine.MaxPlayers]bool
	for _, r := range d.Results {
		if r.Seat < 0 || int(r.Seat) >= rules.Players || seats[r.Seat] {
			return fmt.Errorf("a result for seat %d, which is not one seat of the %d at the table", r.Seat, rules.Players)
		}
		seats[r.Seat] = true
	}
	return nil
}

// keptCopy is the copy of a deal the store keeps: nothing shared with the caller's, times as
// the SQL store keeps them (whole µs, the start in UTC; a zero start is now), its decisions
// in index order, none marked as built from the state (which is not stored).
func keptCopy(d *domain.DealRecord) *domain.DealRecord {
	c := *d
	c.Started = micros(d.Started)
	if c.Started.IsZero() {
		c.Started = now()
	}
	c.Duration = d.Duration.Truncate(time.Microsecond)
	c.Seating, c.Moves, c.Results, c.SentDigest = slices.Clone(d.Seating), slices.Clone(d.Moves), slices.Clone(d.Results), nil
	c.Decisions = make([]domain.DecisionRecord, len(d.Decisions))
	n := 0
	for i := range d.Decisions {
		n += len(d.Decisions[i].Attempts)
	}
	attempts := make([]domain.AnswerAttempt, 0, n) // every decision's, in one allocation
	for i, x := range d.Decisions {
		switch {
		case len(x.Sent) == 0 || x.Observed: // an observed decision's request is rebuilt when read
			x.Sent = nil
		default:
			x.Sent = bytes.Clone(x.Sent)
		}
		if x.Observed {
			x.Deadline = micros(x.Deadline)
		}
		x.Latency, x.Think, x.ArenaShare = x.Latency.Truncate(time.Microsecond), x.Think.Truncate(time.Microsecond), x.ArenaShare.Truncate(time.Microsecond)
		x.SentFromState = false
		if x.Attempts != nil {
			first := len(attempts)
			attempts = append(attempts, x.Attempts...)
			x.Attempts = attempts[first:len(attempts):len(attempts)]
			for j := range x.Attempts {
				x.Attempts[j].After = x.Attempts[j].After.Truncate(time.Microsecond)
			}
		}
		c.Decisions[i] = x
	}
	if !domain.InIndexOrder(c.Decisions) {
		slices.SortStableFunc(c.Decisions, func(a, b domain.DecisionRecord) int { return a.Index - b.Index })
	}
	if d.Decisions == nil {
		c.Decisions = nil
	}
	return &c
}

// saveDeal stores a prepared deal, its results and its league's totals (s.mu held).
func (s *Memory) saveDeal(d *domain.DealRecord) {
	m := s.matches[d.MatchID]
	if s.deals[d.MatchID] == nil {
		s.deals[d.MatchID] = map[int]*domain.DealRecord{}
	}
	s.deals[d.MatchID][d.Number] = d
	s.chain(m, d)
	rules := s.rulesText[d.MatchID]
	for _, r := range d.Results {
		s.results = append(s.results, domain.ResultRow{MatchID: d.MatchID, LeagueID: m.Spec.LeagueID, Deal: d.Number,
			Group: d.Group, Rules: rules, SeatResult: r})
	}
	s.addToTotals(m, d)
	s.addToRatings(m, d)
}

// dealCopy is a copy of a stored deal of a match played under rules that shares nothing with
// it; withSent false leaves out the requests as sent, and withSent rebuilds those its observed
// decisions stand for.
func dealCopy(d *domain.DealRecord, rules engine.RuleSet, withSent bool) domain.DealRecord {
	c := *d
	c.Seating, c.Moves, c.Results = slices.Clone(d.Seating), slices.Clone(d.Moves), slices.Clone(d.Results)
	c.Decisions = slices.Clone(d.Decisions)
	for i := range c.Decisions {
		x := &c.Decisions[i]
		x.Attempts = slices.Clone(x.Attempts)
		x.Sent = bytes.Clone(x.Sent)
		if !withSent {
			x.Sent = nil
		}
	}
	if withSent {
		rebuildObserved(&c, rules)
	}
	return c
}

// Deal implements domain.Store.
func (s *Memory) Deal(_ context.Context, matchID string, number int) (*domain.DealRecord, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, ok := s.deals[matchID][number]
	if !ok {
		return nil, fmt.Errorf("deal %d of match %s: %w", number, matchID, domain.ErrNotFound)
	}
	c := dealCopy(d, s.matches[matchID].Spec.Rules, true)
	return &c, nil
}

// Deals implements domain.Store.
func (s *Memory) Deals(_ context.Context, matchID string) ([]domain.DealRecord, error) {
	return s.dealsOf(matchID, true)
}

// DealSummaries returns every stored deal of a match in number order, like Deals, but
// without each decision's Sent (what a listing, an analysis and the dashboard read).
func (s *Memory) DealSummaries(_ context.Context, matchID string) ([]domain.DealRecord, error) {
	return s.dealsOf(matchID, false)
}

func (s *Memory) dealsOf(matchID string, withSent bool) ([]domain.DealRecord, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.matches[matchID]; !ok {
		return nil, fmt.Errorf("match %s: %w", matchID, domain.ErrNotFound)
	}
	var out []domain.DealRecord
	for _, n := range sortedKeys(s.deals[matchID]) {
		out = append(out, dealCopy(s.deals[matchID][n], s.matches[matchID].Spec.Rules, withSent))
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

// analysisKey names one deal's analysis under one method.
type analysisKey struct {
	match  string
	number int
	method string
}

// SaveAnalysis stores (or replaces) the analysis of one stored deal under method.
func (s *Memory) SaveAnalysis(_ context.Context, matchID string, number int, method string, body []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.deals[matchID][number]; !ok {
		return fmt.Errorf("saving the analysis of deal %d of match %s: %w", number, matchID, domain.ErrNotFound)
	}
	s.analyses[analysisKey{matchID, number, method}] = bytes.Clone(body)
	return nil
}

// DealAnalysis returns the stored analysis of one deal under method, or domain.ErrNotFound.
func (s *Memory) DealAnalysis(_ context.Context, matchID string, number int, method string) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	body, ok := s.analyses[analysisKey{matchID, number, method}]
	if !ok {
		return nil, fmt.Errorf("no analysis of deal %d of match %s (%s): %w", number, matchID, method, domain.ErrNotFound)
	}
	return bytes.Clone(body), nil
}

// Analyses returns the stored analyses of a match's deals under method, by deal number.
func (s *Memory) Analyses(_ context.Context, matchID, method string) (map[int][]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[int][]byte{}
	for n := range s.deals[matchID] {
		if body, ok := s.analyses[analysisKey{matchID, n, method}]; ok {
			out[n] = bytes.Clone(body)
		}
	}
	return out, nil
}

// chain links a stored deal into its match's chain, as the SQL store does (s.mu held).
func (s *Memory) chain(m *domain.Match, d *domain.DealRecord) {
	prev := dealchain.Anchor(m.ID, m.Commitment)
	if m.ChainLength > 0 {
		copy(prev[:], m.ChainHead)
	}
	link := dealchain.Next(prev, dealchain.RecordDigest(d, m.Spec.Rules.Players))
	if s.links == nil {
		s.links = map[string][]domain.ChainLink{}
	}
	s.links[m.ID] = append(s.links[m.ID], domain.ChainLink{Seq: m.ChainLength, Number: d.Number,
		Link: slices.Clone(link[:dealchain.StoredLinkSize])})
	m.ChainVersion, m.ChainLength, m.ChainHead = dealchain.Version, m.ChainLength+1, link[:]
}

// Chain implements what the SQL store's Chain does: the match's chain as it keeps it.
func (s *Memory) Chain(_ context.Context, matchID string) (*domain.Chain, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.matches[matchID]
	if !ok {
		return nil, fmt.Errorf("match %s: %w", matchID, domain.ErrNotFound)
	}
	c := &domain.Chain{Version: m.ChainVersion, Length: m.ChainLength, Head: bytes.Clone(m.ChainHead)}
	for _, l := range s.links[matchID] {
		c.Links = append(c.Links, domain.ChainLink{Seq: l.Seq, Number: l.Number, Link: bytes.Clone(l.Link)})
	}
	return c, nil
}
