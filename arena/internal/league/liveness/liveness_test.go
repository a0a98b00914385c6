package liveness

import (
	"fmt"
	"os"
	"slices"
	"testing"
)

// A worker takes over at once only the jobs of workers of this host whose process is gone.
func TestDeadOwnersAreGoneProcessesOfThisHost(t *testing.T) {
	t.Parallel()
	host, err := os.Hostname()
	if err != nil {
		t.Skip("no host name:", err)
	}
	const noSuchPid = 1 << 30 // above every platform's largest process id
	gone := fmt.Sprintf("%s/%d/aaaaaa", host, noSuchPid)
	parent := fmt.Sprintf("%s/%d/bbbbbb", host, os.Getppid()) // runs: it started this test
	self := fmt.Sprintf("%s/%d/cccccc", host, os.Getpid())
	elsewhere := fmt.Sprintf("another-%s/%d/dddddd", host, noSuchPid)
	malformed := host + "/not-a-pid"
	got := DeadOwners([]string{gone, parent, self, elsewhere, malformed}, "me")
	if want := []string{gone}; !slices.Equal(got, want) {
		t.Errorf("DeadOwners = %v, want %v", got, want)
	}
}
