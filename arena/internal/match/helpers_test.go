package match_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/match"
	"github.com/tapparena/tapp/arena/internal/referee"
	"github.com/tapparena/tapp/arena/internal/referee/refereetest"
	"github.com/tapparena/tapp/arena/internal/store/memstore"
	"github.com/tapparena/tapp/engine"
)

// answering answers every request after 100 ms with refereetest.Pick's action.
var answering = refereetest.Answer(100*time.Millisecond, "")

// seats seats every bot of a table at a fresh scripted seat: what script makes for the bot,
// or (when it makes none) one that answers every request after 100 ms. It keeps the seatings
// it was asked for and the most tables it had seated at once.
type seats struct {
	script func(bot string) *refereetest.Seat
	fail   error // SeatTable's error, when set

	mu      sync.Mutex
	tables  [][]string
	playing int
	most    int
}

// SeatTable implements match.Seats.
func (s *seats) SeatTable(_ context.Context, bots []string) ([]referee.Conn, func(), error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail != nil {
		return nil, nil, s.fail
	}
	s.tables = append(s.tables, append([]string(nil), bots...))
	conns := make([]referee.Conn, len(bots))
	for i, b := range bots {
		var seat *refereetest.Seat
		if s.script != nil {
			seat = s.script(b)
		}
		if seat == nil {
			seat = refereetest.NewSeat(answering)
		}
		conns[i] = seat
	}
	s.playing++
	s.most = max(s.most, s.playing)
	var once sync.Once
	return conns, func() {
		once.Do(func() {
			s.mu.Lock()
			s.playing--
			s.mu.Unlock()
		})
	}, nil
}

// store is a memory store that counts the transactions that stored each deal and can be
// made to fail one deal's.
type store struct {
	*memstore.Memory
	failDeal int // SaveDeal of this deal number fails (-1: none)

	mu      sync.Mutex
	stored  map[int]int // deal number → transactions that stored it
	batches []int       // the sizes of the batches stored together
}

func newStore() *store { return &store{Memory: memstore.New(), failDeal: -1, stored: map[int]int{}} }

var errDiskFull = errors.New("disk full")

// SaveDeal implements domain.Store.
func (s *store) SaveDeal(ctx context.Context, d *domain.DealRecord) error {
	if d.Number == s.failDeal {
		return errDiskFull
	}
	if err := s.Memory.SaveDeal(ctx, d); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stored[d.Number]++
	s.batches = append(s.batches, 1)
	return nil
}

// batching is a store that also stores several deals in one transaction (match.BatchSaver);
// with refuse, it refuses every batch of more than one.
type batching struct {
	*store
	refuse bool
}

// SaveDeals implements match.BatchSaver.
func (s *batching) SaveDeals(ctx context.Context, ds []*domain.DealRecord) error {
	if s.refuse && len(ds) > 1 {
		return errors.New("the batch is refused")
	}
	for _, d := range ds {
		if d.Number == s.failDeal {
			return errDiskFull
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, d := range ds {
		if err := s.Memory.SaveDeal(ctx, d); err != nil {
			return err
		}
		s.stored[d.Number]++
	}
	s.batches = append(s.batches, len(ds))
	return nil
}

func mustRules(t *testing.T, text string) engine.RuleSet {
	t.Helper()
	r, err := engine.ParseRuleSet(text)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// newMatch creates a match of spec with the runner.
func newMatch(t *testing.T, r *match.Runner, spec domain.MatchSpec) *domain.Match {
	t.Helper()
	if spec.TimeControl == (domain.TimeControl{}) {
		spec.TimeControl = domain.TimeControl{PerDecision: time.Second, Overage: 2 * time.Second, MaxStrikes: 3}
	}
	m, err := r.Create(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// playMatch creates a match of spec with the runner and plays it to its end.
func playMatch(t *testing.T, r *match.Runner, spec domain.MatchSpec) (*domain.Match, *match.Result) {
	t.Helper()
	m := newMatch(t, r, spec)
	res, err := r.Run(context.Background(), m)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return m, res
}

// dealsOf reads every stored deal of a match.
func dealsOf(t *testing.T, st domain.Store, matchID string) []domain.DealRecord {
	t.Helper()
	ds, err := st.Deals(context.Background(), matchID)
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

// moves is what decides a deal record: the deal, its options, its seating and its moves.
type moves struct {
	Number  int
	Deal    engine.Deal
	Options engine.Options
	Seating []string
	Moves   []engine.Move
}

func movesOf(ds []domain.DealRecord) []moves {
	var out []moves
	for _, d := range ds {
		out = append(out, moves{d.Number, d.Deal, d.Options, d.Seating, d.Moves})
	}
	return out
}
