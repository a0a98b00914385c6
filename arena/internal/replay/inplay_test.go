package replay

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/engine"
)

// gateStore is the part of a store a gate reads, as a table.
type gateStore struct {
	stored []int
	jobs   []domain.Job
}

func (s gateStore) DealNumbers(context.Context, string) ([]int, error)      { return s.stored, nil }
func (s gateStore) RoundJobs(context.Context, string) ([]domain.Job, error) { return s.jobs, nil }

// A deal opens when every deal dealt its cards is stored: the other seatings of its duplicate
// group, or in a league the same deal source at every table of the round.
func TestGateOpensADealWhenEveryDealWithItsCardsIsFinished(t *testing.T) {
	t.Parallel()
	rules := engine.DefaultRules(engine.Modern)
	spec := func(duplicate bool, league string) domain.MatchSpec {
		return domain.MatchSpec{Rules: rules, Bots: []string{"a", "b", "c"}, Deals: 2, Seed: 3, Duplicate: duplicate, LeagueID: league}
	}
	job := func(match string, group int, state domain.JobState) domain.Job {
		return domain.Job{LeagueID: "L", Round: 2, MatchID: match, FirstGroup: group, Groups: 1, State: state}
	}
	tests := []struct {
		name   string
		match  domain.Match
		store  gateStore
		open   []int
		closed map[int]string // deal → what its error names
	}{
		{
			name:  "a running duplicate match: the finished group is open, the other closed",
			match: domain.Match{ID: "m", Spec: spec(true, ""), Status: domain.MatchRunning},
			store: gateStore{stored: []int{0, 1, 2, 3, 4, 5, 6, 8}},
			open:  []int{0, 3, 5}, closed: map[int]string{6: "deal(s) 7, 9-11", 8: "deal(s) 7, 9-11"},
		},
		{
			name:   "an aborted duplicate match may still be resumed: closed",
			match:  domain.Match{ID: "m", Spec: spec(true, ""), Status: domain.MatchAborted},
			store:  gateStore{stored: []int{0, 1}},
			closed: map[int]string{0: "deal(s) 2-5", 1: "deal(s) 2-5"},
		},
		{
			name:  "a finished match is open",
			match: domain.Match{ID: "m", Spec: spec(true, ""), Status: domain.MatchFinished},
			open:  []int{0, 7, 11},
		},
		{
			name:  "without duplicate each deal has cards of its own",
			match: domain.Match{ID: "m", Spec: spec(false, ""), Status: domain.MatchRunning},
			store: gateStore{stored: []int{1}},
			open:  []int{1},
		},
		{
			name:  "a league match waits for its group at every table of the round",
			match: domain.Match{ID: "A", Spec: spec(true, "L"), Status: domain.MatchFinished},
			store: gateStore{jobs: []domain.Job{job("A", 0, domain.JobDone), job("A", 1, domain.JobDone),
				job("B", 0, domain.JobDone), job("B", 1, domain.JobRunning)}},
			open:   []int{0, 5},
			closed: map[int]string{6: "deal source 1 is still being played at a table of round 2 of league L", 11: "round 2"},
		},
		{
			name:  "a league round all done is open",
			match: domain.Match{ID: "A", Spec: spec(true, "L"), Status: domain.MatchFinished},
			store: gateStore{jobs: []domain.Job{job("A", 0, domain.JobDone), job("B", 0, domain.JobDone)}},
			open:  []int{0, 6},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			g, err := NewGate(context.Background(), tc.store, &tc.match)
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range tc.open {
				if err := g.Check(n); err != nil {
					t.Errorf("deal %d: %v; want it open", n, err)
				}
			}
			for n, names := range tc.closed {
				err := g.Check(n)
				if !errors.Is(err, ErrInPlay) || !strings.Contains(err.Error(), names) {
					t.Errorf("deal %d: %v; want ErrInPlay naming %q", n, err, names)
				}
			}
			if len(tc.closed) > 0 && g.AllOpen() {
				t.Errorf("AllOpen with closed deals %v", tc.closed)
			}
		})
	}
}
