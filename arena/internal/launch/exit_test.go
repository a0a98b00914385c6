package launch

import (
	"strings"
	"sync"
	"testing"
)

// A process run once is not restarted: its exit status and output are kept for the caller.
func TestOnceProcessEndsWithItsExitStatusAndOutput(t *testing.T) {
	t.Parallel()
	var out lockedBuffer
	p, err := Start(t.Context(), Spec{Name: "once", Command: []string{"sh", "-c", "echo hello; echo oops >&2; exit 3"},
		Output: &out, Once: true, Group: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	<-p.Done()
	if err := p.Err(); err == nil || err.Error() != "exit status 3" {
		t.Errorf("Err = %v, want exit status 3", err)
	}
	if got := p.Restarts(); got != 0 {
		t.Errorf("Restarts = %d, want 0", got)
	}
	if got := out.String(); got != "hello\noops\n" {
		t.Errorf("output = %q, want both streams", got)
	}
}

type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
