package storetest

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
)

// A match is stored with an id, a start and a status, read back as stored, updated (status,
// finish, forfeits, the counts of decisions and fallbacks) and never stored twice.
func testMatches(t *testing.T, s Store) {
	ctx := context.Background()
	m := NewMatch(t, s, "", "a", "b", "c")
	if m.ID == "" || m.Status != domain.MatchRunning || m.Started.IsZero() {
		t.Fatalf("CreateMatch left ID %q, Status %q, Started %v", m.ID, m.Status, m.Started)
	}
	got, err := s.GetMatch(ctx, m.ID)
	if err != nil {
		t.Fatalf("GetMatch: %v", err)
	}
	if !reflect.DeepEqual(got, m) {
		t.Errorf("GetMatch = %+v\nwant %+v", got, m)
	}
	got.Spec.Bots[0], got.Forfeited = "changed", append(got.Forfeited, "changed")
	if again, _ := s.GetMatch(ctx, m.ID); !reflect.DeepEqual(again, m) {
		t.Errorf("changing a match read back changed the stored one: %+v", again)
	}

	m.Status = domain.MatchFinished
	m.Finished = m.Started.Add(time.Hour)
	m.Forfeited = []string{"c"}
	m.Decisions, m.Fallbacks = 40, 3
	if err := s.UpdateMatch(ctx, m); err != nil {
		t.Fatalf("UpdateMatch: %v", err)
	}
	got, err = s.GetMatch(ctx, m.ID)
	if err != nil {
		t.Fatalf("GetMatch: %v", err)
	}
	if !reflect.DeepEqual(got, m) {
		t.Errorf("GetMatch after update = %+v\nwant %+v", got, m)
	}

	if err := s.UpdateMatch(ctx, &domain.Match{ID: "nope", Status: domain.MatchAborted}); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("UpdateMatch(unknown) = %v, want ErrNotFound", err)
	}
	if _, err := s.GetMatch(ctx, "nope"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("GetMatch(unknown) = %v, want ErrNotFound", err)
	}
	dup := *m
	if err := s.CreateMatch(ctx, &dup); !errors.Is(err, domain.ErrConflict) {
		t.Errorf("CreateMatch(same id) = %v, want ErrConflict", err)
	}

	// The whole spec reads back: a session's format and rounds, a deal file, the clock to
	// the µs, the commitment; the default format reads back as the zero value.
	spec := domain.MatchSpec{Rules: Rules(t, "modern players=4"), Bots: []string{"a", "b", "c", "d"}, Seed: 1<<64 - 1,
		Format: domain.FormatSession, Rounds: 2, DealsText: "# a deal file\n",
		TimeControl: domain.TimeControl{PerDecision: 1500 * time.Microsecond, Overage: time.Minute, MaxStrikes: 7}}
	started := time.Date(2026, 5, 6, 7, 8, 9, 123456789, time.FixedZone("CEST", 2*3600))
	full := &domain.Match{ID: "full", Spec: spec, Started: started, Commitment: "c0ffee", Nonce: "beef"}
	if err := s.CreateMatch(ctx, full); err != nil {
		t.Fatal(err)
	}
	want := *full
	want.Started, want.Status = started.UTC().Truncate(time.Microsecond), domain.MatchRunning
	if got, err := s.GetMatch(ctx, "full"); err != nil || !reflect.DeepEqual(got, &want) {
		t.Errorf("GetMatch(full) = %+v, %v\nwant %+v", got, err, &want)
	}
	plain := &domain.Match{ID: "plain", Spec: domain.MatchSpec{Rules: Rules(t, "modern"), Bots: []string{"a", "b", "c"}, Deals: 1, Format: domain.FormatDeals}}
	if err := s.CreateMatch(ctx, plain); err != nil {
		t.Fatal(err)
	}
	if got, err := s.GetMatch(ctx, "plain"); err != nil || got.Spec.Format != "" {
		t.Errorf("GetMatch(plain) format %q, %v; want the default format as the zero value", got.Spec.Format, err)
	}
}

// ListMatches selects by match, bot, league (or the board a match counts on), rule set and
// start, newest first, at most Limit.
func testListMatches(t *testing.T, s Store) {
	ctx := context.Background()
	base := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	mk := func(id, league string, rules string, started time.Time, bots ...string) {
		m := &domain.Match{ID: id, Started: started, Spec: domain.MatchSpec{Rules: Rules(t, rules), Bots: bots, Deals: 1, LeagueID: league}}
		if league == "E1" { // an epoch of the standing ladder L1: it counts on L1's board
			m.Spec.Board = "L1"
		}
		if err := s.CreateMatch(ctx, m); err != nil {
			t.Fatalf("CreateMatch(%s): %v", id, err)
		}
	}
	// Created out of the order they started in: the list is by start.
	mk("m3", "L2", "modern players=4 pack=32", base.Add(2*time.Hour), "b", "c", "d", "e")
	mk("m1", "L1", "modern", base, "a", "b", "c")
	mk("m4", "", "classic", base.Add(3*time.Hour), "c", "d", "e")
	mk("m2", "L1", "modern", base.Add(time.Hour), "a", "b", "d")
	mk("m5", "E1", "modern", base.Add(30*time.Minute), "a", "c", "e")

	for _, c := range []struct {
		f    domain.MatchFilter
		want []string
	}{
		{domain.MatchFilter{}, []string{"m4", "m3", "m2", "m5", "m1"}},
		{domain.MatchFilter{Bot: "a"}, []string{"m2", "m5", "m1"}},
		{domain.MatchFilter{Bot: "e"}, []string{"m4", "m3", "m5"}},
		{domain.MatchFilter{LeagueID: "L1"}, []string{"m2", "m5", "m1"}},
		{domain.MatchFilter{LeagueID: "E1"}, []string{"m5"}},
		// The newest of a league and its board's, at most Limit, also with another filter.
		{domain.MatchFilter{LeagueID: "L1", Limit: 2}, []string{"m2", "m5"}},
		{domain.MatchFilter{LeagueID: "L1", Limit: 1}, []string{"m2"}},
		{domain.MatchFilter{LeagueID: "L1", Bot: "c", Limit: 1}, []string{"m5"}},
		{domain.MatchFilter{LeagueID: "L1", Bot: "b", Limit: 5}, []string{"m2", "m1"}},
		{domain.MatchFilter{Rules: Rules(t, "modern players=4 pack=32").String()}, []string{"m3"}},
		{domain.MatchFilter{Rules: Rules(t, "modern").String()}, []string{"m2", "m5", "m1"}},
		{domain.MatchFilter{Since: base.Add(time.Hour)}, []string{"m4", "m3", "m2"}},
		{domain.MatchFilter{Limit: 2}, []string{"m4", "m3"}},
		{domain.MatchFilter{Bot: "d", LeagueID: "L1"}, []string{"m2"}},
		{domain.MatchFilter{Bot: "nobody"}, nil},
		{domain.MatchFilter{MatchID: "m3"}, []string{"m3"}},
		{domain.MatchFilter{MatchID: "m3", LeagueID: "L1"}, nil},
	} {
		ms, err := s.ListMatches(ctx, c.f)
		if err != nil {
			t.Fatalf("ListMatches(%+v): %v", c.f, err)
		}
		var ids []string
		for _, m := range ms {
			ids = append(ids, m.ID)
		}
		if !reflect.DeepEqual(ids, c.want) {
			t.Errorf("ListMatches(%+v) = %v, want %v", c.f, ids, c.want)
		}
	}
}
