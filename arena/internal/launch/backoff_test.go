package launch

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"go.uber.org/zap"
)

// The supervisor's restart schedule, in a synctest bubble with fake processes: each run lasts
// what the script says in the bubble's fake time, so the schedule is exact.

// fakeRuns runs as a process that lives for each of lives in turn and then exits with an
// error; it records when each run started, from the test's start.
type fakeRuns struct {
	mu     sync.Mutex
	t0     time.Time
	lives  []time.Duration
	starts []time.Duration
}

func (f *fakeRuns) run(ctx context.Context) error {
	f.mu.Lock()
	n := len(f.starts)
	f.starts = append(f.starts, time.Since(f.t0))
	f.mu.Unlock()
	life := time.Duration(0)
	if n < len(f.lives) {
		life = f.lives[n]
	}
	select {
	case <-time.After(life):
		return errors.New("exit status 1")
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (f *fakeRuns) started() []time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]time.Duration(nil), f.starts...)
}

func seconds(ss ...float64) []time.Duration {
	out := make([]time.Duration, len(ss))
	for i, s := range ss {
		out[i] = time.Duration(s * float64(time.Second))
	}
	return out
}

// A bot that crashes at once is restarted after 0.1, 0.2, 0.4 and 0.8 s, and given up at its
// fifth exit in a row.
func TestCrashingBotIsRestartedWithDoublingBackoffThenGivenUp(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		f := &fakeRuns{t0: time.Now()}
		p := supervised(context.Background(), Spec{Name: "crasher"}, zap.NewNop(), f.run)
		<-p.Done()
		if got, want := f.started(), seconds(0, 0.1, 0.3, 0.7, 1.5); !slices.Equal(got, want) {
			t.Errorf("runs started at %v, want %v", got, want)
		}
		if gaveUp := time.Since(f.t0); gaveUp != 1500*time.Millisecond {
			t.Errorf("given up after %v, want at the fifth exit, 1.5s", gaveUp)
		}
		if err := p.Err(); err == nil || !strings.Contains(err.Error(), "5 times in a row") {
			t.Errorf("Err() = %v, want the give-up after 5 exits", err)
		}
		if got := p.Restarts(); got != MaxQuickExits-1 {
			t.Errorf("restarts = %d, want %d", got, MaxQuickExits-1)
		}
	})
}

// A run that outlasts QuickExit starts the schedule over: a bot that crashed four times and
// then ran for a while is not given up at its next crash, and waits 0.1 s again.
func TestALongRunResetsTheBackoff(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		f := &fakeRuns{t0: time.Now(), lives: []time.Duration{0, 0, 0, 0, QuickExit + 10*time.Second}}
		p := supervised(context.Background(), Spec{Name: "flaky"}, zap.NewNop(), f.run)
		<-p.Done()
		long := 1.5 + (QuickExit + 10*time.Second).Seconds() // when the long run ended
		if got, want := f.started(), seconds(0, 0.1, 0.3, 0.7, 1.5, long+0.1, long+0.3, long+0.7, long+1.5, long+3.1); !slices.Equal(got, want) {
			t.Errorf("runs started at %v, want %v", got, want)
		}
		if got := p.Restarts(); got != 9 {
			t.Errorf("restarts = %d, want 9", got)
		}
	})
}

// Stopping a bot that waits for its restart ends the wait at once.
func TestStopDuringTheBackoffReturnsAtOnce(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		f := &fakeRuns{t0: time.Now()}
		p := supervised(context.Background(), Spec{Name: "crasher"}, zap.NewNop(), f.run)
		time.Sleep(50 * time.Millisecond) // within the first 100 ms backoff
		p.Stop()
		if took := time.Since(f.t0); took != 50*time.Millisecond || len(f.started()) != 1 {
			t.Errorf("stopped after %v with %d runs, want at 50ms with 1", took, len(f.started()))
		}
	})
}
