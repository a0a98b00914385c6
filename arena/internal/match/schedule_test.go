package match

import (
	"crypto/sha256"
	"encoding/hex"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/engine"
)

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// A schedule makes its tables as they are played: a match of the most deals costs what a
// match of ten does until its deals are played, and one more deal is refused at once.
func TestScheduleMemoryDoesNotGrowWithDeals(t *testing.T) {
	spec := func(deals int) domain.MatchSpec {
		return domain.MatchSpec{Rules: engine.DefaultRules(engine.Modern), Bots: []string{"a", "b", "c"}, Deals: deals, Seed: 1, Duplicate: true}
	}
	first := func(deals int) func() {
		return func() {
			s, err := NewSchedule(spec(deals))
			if err != nil {
				t.Fatal(err)
			}
			for tb := range s.All() {
				if tb.Number == 100 {
					break
				}
			}
		}
	}
	small, huge := allocated(first(10)), allocated(first(MaxDeals))
	if huge > 2*small+64<<10 {
		t.Errorf("a schedule of %d deals allocated %d bytes for its first 100 tables, one of 10 deals %d", MaxDeals, huge, small)
	}
	for _, deals := range []int{MaxDeals + 1, 999_999_999, 2147483648, -1} {
		if _, err := NewSchedule(spec(deals)); err == nil {
			t.Errorf("a match of %d deals was planned", deals)
		} else if deals > 0 && !strings.Contains(err.Error(), "at most 1000000 deals") {
			t.Errorf("%d deals: %v", deals, err)
		}
	}
}

// Table(i), All and GroupTables agree, and every table's deal is its group's.
func TestScheduleTablesAgree(t *testing.T) {
	t.Parallel()
	for _, dup := range []bool{false, true} {
		spec := domain.MatchSpec{Rules: engine.DefaultRules(engine.Modern), Bots: []string{"a", "b", "c"}, Deals: 7, Seed: 3, Duplicate: dup}
		s, err := NewSchedule(spec)
		if err != nil {
			t.Fatal(err)
		}
		all := slices.Collect(s.All())
		if len(all) != s.Len() || s.Len() != 7*s.PerGroup() {
			t.Fatalf("duplicate %v: %d tables, Len %d", dup, len(all), s.Len())
		}
		for i, tb := range all {
			if tb.Number != i || !slices.Equal(s.Table(i).Seating, tb.Seating) || tb.Deal != engine.DealFromSeed(spec.Rules, 3, uint64(tb.Group)) {
				t.Fatalf("duplicate %v: table %d is %+v", dup, i, tb)
			}
		}
		got := s.GroupTables(2, 3)
		if len(got) != 3*s.PerGroup() || got[0].Group != 2 || got[len(got)-1].Group != 4 {
			t.Errorf("duplicate %v: groups 2..4 are %d tables from group %d to %d", dup, len(got), got[0].Group, got[len(got)-1].Group)
		}
	}
}

// A deal file plays what it holds: all of it when no count is given, the first N of it when
// N is, and asking for more than it holds (or a file of none) is an error.
func TestScheduleFromADealFile(t *testing.T) {
	t.Parallel()
	rules := engine.DefaultRules(engine.Modern)
	var lines []string
	for i := range 3 {
		lines = append(lines, engine.DealFromSeed(rules, 9, uint64(i)).Format(rules))
	}
	file := strings.Join(lines, "\r\n") + "\r\n"
	spec := domain.MatchSpec{Rules: rules, Bots: []string{"a", "b", "c"}, DealsText: file}
	for _, c := range []struct {
		deals, tables int
		err           string
	}{
		{0, 3, ""}, {2, 2, ""}, {3, 3, ""}, {4, 0, "holds 3 deals, fewer than the 4 asked for"},
	} {
		spec.Deals = c.deals
		s, err := NewSchedule(spec)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("deals %d of a file of 3: %v, want %q", c.deals, err, c.err)
		case c.err == "" && (err != nil || s.Len() != c.tables):
			t.Errorf("deals %d of a file of 3: %v", c.deals, err)
		}
	}
	spec.Deals, spec.DealsText = 0, "# nothing here\n\n"
	if _, err := NewSchedule(spec); err == nil || !strings.Contains(err.Error(), "no deals") {
		t.Errorf("an empty deal file: %v", err)
	}
}

// The commitment is hashed as it is written: the same as hashing CommitmentText.
func TestCommitmentHashesItsText(t *testing.T) {
	t.Parallel()
	spec := domain.MatchSpec{Rules: engine.DefaultRules(engine.Modern), Bots: []string{"a", "b", "c"}, Deals: 5, Seed: 2, Duplicate: true}
	text, err := CommitmentText(spec, "00ff")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(text, "\ntable ") != 30 {
		t.Fatalf("commitment text with %d tables, want 30:\n%s", strings.Count(text, "\ntable "), text)
	}
	got, err := Commitment(spec, "00ff")
	if err != nil {
		t.Fatal(err)
	}
	if want := sha256Hex(text); got != want {
		t.Errorf("commitment %s, want the hash of its text %s", got, want)
	}
}

func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}
