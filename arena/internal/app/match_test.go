package app

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/store"
	"github.com/tapparena/tapp/arena/internal/store/memstore"
	"github.com/tapparena/tapp/engine"
)

// spec is a short match of built-in bots named as PlayMatch's callers name them.
func spec(t *testing.T, rules string, deals int, kinds ...string) domain.MatchSpec {
	t.Helper()
	r, err := engine.ParseRuleSet(rules)
	if err != nil {
		t.Fatal(err)
	}
	return domain.MatchSpec{Rules: r, Bots: SeatNames(kinds), Deals: deals, Seed: 3,
		TimeControl: domain.TimeControl{PerDecision: 5 * time.Second, Overage: time.Second, MaxStrikes: 3}}
}

// A match of built-in bots played in this process: every deal stored, the progress told from
// none to all, the lines those of the stored results, and the same lines again for the same
// seed (the built-in bots are seeded).
func TestPlayMatchInProcess(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	kinds := []string{"random", "heuristic", "random"}
	play := func() *PlayedMatch {
		st := memstore.New()
		var calls [][2]int
		p, err := PlayMatch(ctx, st, MatchPlay{Spec: spec(t, "modern", 5, kinds...), Kinds: kinds, InProcess: true, Parallel: 2,
			Progress: func(done, total int) { calls = append(calls, [2]int{done, total}) }})
		if err != nil {
			t.Fatal(err)
		}
		if len(calls) != 6 || calls[0] != [2]int{0, 5} || calls[5] != [2]int{5, 5} {
			t.Errorf("progress %v, want (0, 5) first and (5, 5) last, once per deal", calls)
		}
		nums, err := st.DealNumbers(ctx, p.Match.ID)
		if err != nil || len(nums) != 5 || p.Result.Deals != 5 {
			t.Fatalf("stored deals %v (%v), result %+v: want 5", nums, err, p.Result)
		}
		if p.Match.Decisions == 0 || p.Match.Fallbacks != 0 {
			t.Errorf("match %+v: want decisions counted and no fallbacks", p.Match)
		}
		return p
	}
	a, b := play(), play()
	if len(a.Lines) != 3 || a.Lines[0].Deals != 5 {
		t.Fatalf("lines %+v, want three bots of 5 deals each", a.Lines)
	}
	seats := map[string]bool{}
	for _, l := range a.Lines {
		seats[l.Bot] = true
	}
	if !seats["random"] || !seats["random#2"] || !seats["heuristic"] {
		t.Errorf("lines of %v, want random, heuristic and random#2", seats)
	}
	if !reflect.DeepEqual(a.Lines, b.Lines) {
		t.Errorf("the same seed gave\n%+v\nand\n%+v", a.Lines, b.Lines)
	}
}

func TestPlayMatchRefusesWhatItCannotSeat(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := spec(t, "modern", 1, "random", "random", "nosuchbot")
	if _, err := PlayMatch(ctx, memstore.New(), MatchPlay{Spec: s, Kinds: []string{"random", "random", "nosuchbot"}, InProcess: true}); err == nil {
		t.Error("an unknown built-in bot: no error")
	}
	if _, err := PlayMatch(ctx, memstore.New(), MatchPlay{Spec: s, Kinds: []string{"random"}, InProcess: true}); err == nil {
		t.Error("fewer kinds than seats: no error")
	}
}

func TestSeatNamesNumberTheCopies(t *testing.T) {
	t.Parallel()
	if got := SeatNames([]string{"random", "heuristic", "random", "random"}); !reflect.DeepEqual(got, []string{"random", "heuristic", "random#2", "random#3"}) {
		t.Errorf("SeatNames = %v", got)
	}
}

// A match played unrecorded (tapp match --in-process --no-records) is the same match, stored
// in SQLite alike, but its decisions keep no request and no answer; over gRPC it is refused.
func TestPlayMatchUnrecorded(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	kinds := []string{"random", "heuristic", "random"}
	play := func(unrecorded bool) (*PlayedMatch, []*domain.DealRecord) {
		st, err := store.Open(ctx, filepath.Join(t.TempDir(), "m.db"))
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		p, err := PlayMatch(ctx, st, MatchPlay{Spec: spec(t, "modern", 6, kinds...), Kinds: kinds, InProcess: true, Unrecorded: unrecorded, Parallel: 2})
		if err != nil {
			t.Fatal(err)
		}
		var deals []*domain.DealRecord
		for n := range 6 {
			d, err := st.Deal(ctx, p.Match.ID, n)
			if err != nil {
				t.Fatal(err)
			}
			deals = append(deals, d)
		}
		return p, deals
	}
	recorded, withRecords := play(false)
	unrecorded, without := play(true)
	if !reflect.DeepEqual(recorded.Lines, unrecorded.Lines) {
		t.Errorf("recorded\n%+v\nunrecorded\n%+v", recorded.Lines, unrecorded.Lines)
	}
	for n := range without {
		w, u := withRecords[n], without[n]
		if !reflect.DeepEqual(w.Moves, u.Moves) || len(w.Decisions) != len(u.Decisions) {
			t.Fatalf("deal %d: unrecorded, %d decisions and moves %v; recorded %d and %v", n, len(u.Decisions), u.Moves, len(w.Decisions), w.Moves)
		}
		for k, d := range u.Decisions {
			if len(d.Sent) != 0 || len(d.Attempts) != 0 || d.Action != w.Decisions[k].Action || d.Fallback {
				t.Fatalf("deal %d, decision %d: unrecorded %+v, recorded action %s", n, k, d, w.Decisions[k].Action)
			}
			if len(w.Decisions[k].Sent) == 0 || len(w.Decisions[k].Attempts) != 1 {
				t.Fatalf("deal %d, decision %d: the recorded match has no request or answer: %+v", n, k, w.Decisions[k])
			}
		}
	}
	s := spec(t, "modern", 1, kinds...)
	if _, err := PlayMatch(ctx, memstore.New(), MatchPlay{Spec: s, Kinds: kinds, Unrecorded: true}); err == nil {
		t.Error("unrecorded over gRPC: no error")
	}
}
