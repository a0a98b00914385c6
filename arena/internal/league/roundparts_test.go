package league_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/league"
	"github.com/tapparena/tapp/arena/internal/league/leaguestore"
	"github.com/tapparena/tapp/arena/internal/league/plan"
	"github.com/tapparena/tapp/arena/internal/referee"
)

// partsStore counts the parts of rounds stored, and notes how many were stored when the
// first job was claimed; then it ends the run.
type partsStore struct {
	leaguestore.Store
	stop func()

	mu                sync.Mutex
	parts             int
	partsAtFirstClaim int // -1 until a claim
}

func (s *partsStore) ScheduleRound(ctx context.Context, places []domain.LeagueMatch, matches []*domain.Match, jobs []domain.Job) error {
	err := s.Store.ScheduleRound(ctx, places, matches, jobs)
	s.mu.Lock()
	s.parts++
	s.mu.Unlock()
	return err
}

func (s *partsStore) Claim(ctx context.Context, leagueID, owner string, most int, lease time.Duration) ([]domain.Job, error) {
	s.mu.Lock()
	if s.partsAtFirstClaim < 0 {
		s.partsAtFirstClaim = s.parts
		s.stop()
	}
	s.mu.Unlock()
	return s.Store.Claim(ctx, leagueID, owner, most, lease)
}

// idleSeats seats no table: a table asked for waits until its job is stopped.
type idleSeats struct{}

func (idleSeats) SeatTable(ctx context.Context, _ []string) ([]referee.Conn, func(), error) {
	<-ctx.Done()
	return nil, nil, ctx.Err()
}

// A ladder round of more matches than one part holds is played as it is stored: the first
// jobs are claimed once the first part is stored, not after the whole round (10,000 matches a round took 8 s to store on a busy host, with nothing played and no
// progress meanwhile).
func TestLargeRoundIsPlayedAsItIsStored(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st := &partsStore{Store: openSQLite(t), stop: cancel, partsAtFirstClaim: -1}
	p := testPlan(t, "big-ladder", plan.Ladder, 1, 1)
	p.MatchesPerRound = plan.RoundChunk + 1 // a job per match: five parts (128, 256, 512, 1,024 and 129 jobs)
	r := &league.Runner{Store: st, Seats: idleSeats{}, Concurrency: 8, Lease: 5 * time.Second, Poll: 50 * time.Millisecond}
	out, err := r.Run(ctx, p, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.partsAtFirstClaim != 1 {
		t.Errorf("the first job was claimed with %d parts of the round stored, want 1 (of 5)", st.partsAtFirstClaim)
	}
	if out.Stopped != "interrupted" {
		t.Errorf("outcome %+v, want it interrupted", out)
	}
}
