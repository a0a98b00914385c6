package store

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/engine"
)

func TestBots(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		alice := &domain.Bot{Name: "alice", TokenHash: []byte{1, 2, 3}}
		if err := s.CreateBot(ctx, alice); err != nil {
			t.Fatalf("CreateBot: %v", err)
		}
		if alice.ID == "" || alice.Created.IsZero() {
			t.Fatalf("CreateBot left ID %q, Created %v unset", alice.ID, alice.Created)
		}
		created := time.Date(2026, 1, 2, 3, 4, 5, 6000, time.UTC)
		bob := &domain.Bot{ID: "bob-id", Name: "bob", Created: created} // no token
		if err := s.CreateBot(ctx, bob); err != nil {
			t.Fatalf("CreateBot(bob): %v", err)
		}
		carol := &domain.Bot{Name: "carol"} // a second bot without token is fine
		if err := s.CreateBot(ctx, carol); err != nil {
			t.Fatalf("CreateBot(carol): %v", err)
		}

		got, err := s.BotByName(ctx, "alice")
		if err != nil {
			t.Fatalf("BotByName: %v", err)
		}
		if !reflect.DeepEqual(got, alice) {
			t.Errorf("BotByName(alice) = %+v, want %+v", got, alice)
		}
		got, err = s.BotByTokenHash(ctx, []byte{1, 2, 3})
		if err != nil || got.Name != "alice" {
			t.Errorf("BotByTokenHash = %+v, %v; want alice", got, err)
		}
		got, err = s.BotByName(ctx, "bob")
		if err != nil || !got.Created.Equal(created) || got.TokenHash != nil || got.ID != "bob-id" {
			t.Errorf("BotByName(bob) = %+v, %v; want created %v, no token, id bob-id", got, err, created)
		}

		for _, c := range []struct {
			name string
			bot  domain.Bot
		}{
			{"same name", domain.Bot{Name: "alice", TokenHash: []byte{9}}},
			{"same token", domain.Bot{Name: "alice2", TokenHash: []byte{1, 2, 3}}},
			{"same id", domain.Bot{ID: "bob-id", Name: "bob2"}},
		} {
			b := c.bot
			if err := s.CreateBot(ctx, &b); !errors.Is(err, domain.ErrConflict) {
				t.Errorf("CreateBot(%s) = %v, want ErrConflict", c.name, err)
			}
		}
		if err := s.CreateBot(ctx, &domain.Bot{Name: "alice", TokenHash: []byte{9}}); err == nil ||
			!strings.Contains(err.Error(), `bot name "alice" is taken`) {
			t.Errorf("CreateBot(taken name) = %v, want it to say the name is taken", err)
		}

		if _, err := s.BotByName(ctx, "nobody"); !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("BotByName(nobody) = %v, want ErrNotFound", err)
		}
		if _, err := s.BotByTokenHash(ctx, []byte{7}); !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("BotByTokenHash(unknown) = %v, want ErrNotFound", err)
		}
		if _, err := s.BotByTokenHash(ctx, nil); !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("BotByTokenHash(nil) = %v, want ErrNotFound", err)
		}

		bots, err := s.ListBots(ctx)
		if err != nil {
			t.Fatalf("ListBots: %v", err)
		}
		var names []string
		for _, b := range bots {
			names = append(names, b.Name)
		}
		if want := []string{"alice", "bob", "carol"}; !reflect.DeepEqual(names, want) {
			t.Errorf("ListBots names = %v, want %v", names, want)
		}
	})
}

func TestMatches(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		m := newMatch(t, s, "", "a", "b", "c")
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

		m.Status = domain.MatchFinished
		m.Finished = m.Started.Add(time.Hour)
		m.Forfeited = []string{"c"}
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
	})
}

func TestListMatches(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		base := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
		mk := func(id, league string, rules string, started time.Time, bots ...string) {
			m := &domain.Match{ID: id, Started: started, Spec: domain.MatchSpec{Rules: mustRules(t, rules), Bots: bots, Deals: 1, LeagueID: league}}
			if err := s.CreateMatch(ctx, m); err != nil {
				t.Fatalf("CreateMatch(%s): %v", id, err)
			}
		}
		mk("m1", "L1", "modern", base, "a", "b", "c")
		mk("m2", "L1", "modern", base.Add(time.Hour), "a", "b", "d")
		mk("m3", "L2", "modern players=4 pack=32", base.Add(2*time.Hour), "b", "c", "d", "e")
		mk("m4", "", "classic", base.Add(3*time.Hour), "c", "d", "e")

		for _, c := range []struct {
			f    domain.MatchFilter
			want []string
		}{
			{domain.MatchFilter{}, []string{"m4", "m3", "m2", "m1"}},
			{domain.MatchFilter{Bot: "a"}, []string{"m2", "m1"}},
			{domain.MatchFilter{Bot: "e"}, []string{"m4", "m3"}},
			{domain.MatchFilter{LeagueID: "L1"}, []string{"m2", "m1"}},
			{domain.MatchFilter{Rules: mustRules(t, "modern players=4 pack=32").String()}, []string{"m3"}},
			{domain.MatchFilter{Rules: mustRules(t, "modern").String()}, []string{"m2", "m1"}},
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
	})
}

func TestSaveDealRoundTrip(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		m := newMatch(t, s, "L", "a", "b", "c")
		var want []domain.DealRecord
		for _, n := range []int{2, 0, 1} { // stored out of order, read back in order
			d := sampleDeal(t, m, n, 40, 1024)
			if err := s.SaveDeal(ctx, d); err != nil {
				t.Fatalf("SaveDeal(%d): %v", n, err)
			}
		}
		for n := range 3 {
			want = append(want, *sampleDeal(t, m, n, 40, 1024))
		}
		got, err := s.Deal(ctx, m.ID, 1)
		if err != nil {
			t.Fatalf("Deal: %v", err)
		}
		if !reflect.DeepEqual(*got, want[1]) {
			diffDeal(t, got, &want[1])
		}
		all, err := s.Deals(ctx, m.ID)
		if err != nil {
			t.Fatalf("Deals: %v", err)
		}
		if len(all) != 3 {
			t.Fatalf("Deals returned %d deals, want 3", len(all))
		}
		for i := range all {
			if !reflect.DeepEqual(all[i], want[i]) {
				diffDeal(t, &all[i], &want[i])
			}
		}
		ns, err := s.DealNumbers(ctx, m.ID)
		if err != nil || !reflect.DeepEqual(ns, []int{0, 1, 2}) {
			t.Errorf("DealNumbers = %v, %v; want [0 1 2]", ns, err)
		}
		for _, r := range []struct {
			first, last int
			want        []int
		}{{1, 2, []int{1, 2}}, {2, 9, []int{2}}, {3, 9, nil}, {0, 0, []int{0}}} {
			if ns, err := s.DealNumbersBetween(ctx, m.ID, r.first, r.last); err != nil || !reflect.DeepEqual(ns, r.want) {
				t.Errorf("DealNumbersBetween(%d, %d) = %v, %v; want %v", r.first, r.last, ns, err, r.want)
			}
		}

		if _, err := s.Deal(ctx, m.ID, 7); !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("Deal(missing) = %v, want ErrNotFound", err)
		}
		if _, err := s.Deals(ctx, "nope"); !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("Deals(unknown match) = %v, want ErrNotFound", err)
		}
		empty := newMatch(t, s, "", "a", "b", "c")
		if ds, err := s.Deals(ctx, empty.ID); err != nil || len(ds) != 0 {
			t.Errorf("Deals(match without deals) = %v, %v; want none", ds, err)
		}
		if ns, err := s.DealNumbers(ctx, empty.ID); err != nil || len(ns) != 0 {
			t.Errorf("DealNumbers(match without deals) = %v, %v; want none", ns, err)
		}
		if err := s.SaveDeal(ctx, sampleDeal(t, &domain.Match{ID: "nope", Spec: m.Spec}, 0, 3, 10)); !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("SaveDeal(unknown match) = %v, want ErrNotFound", err)
		}
		bad := sampleDeal(t, m, 5, 3, 10)
		bad.Deal.Tapp = 0
		if err := s.SaveDeal(ctx, bad); err == nil || !strings.Contains(err.Error(), "do not fit the rules") {
			t.Errorf("SaveDeal(deal without tapp) = %v, want an error saying the cards do not fit", err)
		}
		bad = sampleDeal(t, m, 5, 3, 10)
		bad.Moves[1].Seat = 3
		if err := s.SaveDeal(ctx, bad); err == nil || !strings.Contains(err.Error(), "move 1 is by seat 3") {
			t.Errorf("SaveDeal(move by seat 3 at a 3-seat table) = %v, want an error naming the move", err)
		}
		if ns, _ := s.DealNumbers(ctx, m.ID); !reflect.DeepEqual(ns, []int{0, 1, 2}) {
			t.Errorf("DealNumbers after refused saves = %v, want [0 1 2]", ns)
		}
	})
}

// diffDeal reports which parts of two deal records differ.
// checkedDigest checks the digest of the requests a deal read back carries, if it carries one
// (a compact record), against the requests saved, and returns the deal without it, to compare
// with what was saved.
func checkedDigest(t *testing.T, got, saved *domain.DealRecord) *domain.DealRecord {
	t.Helper()
	if got == nil || got.SentDigest == nil {
		return got
	}
	if want := domain.SentDigest(saved.Decisions); !bytes.Equal(got.SentDigest, want[:]) {
		t.Errorf("deal %d: SentDigest %x, want %x (the requests saved)", saved.Number, got.SentDigest, want)
	}
	g := *got
	g.SentDigest = nil
	return &g
}

func diffDeal(t *testing.T, got, want *domain.DealRecord) {
	t.Helper()
	g, w := *got, *want
	g.Decisions, w.Decisions, g.Results, w.Results = nil, nil, nil, nil
	if !reflect.DeepEqual(g, w) {
		t.Errorf("deal %d:\n got %+v\nwant %+v", want.Number, g, w)
	}
	if len(got.Decisions) != len(want.Decisions) {
		t.Errorf("deal %d: %d decisions, want %d", want.Number, len(got.Decisions), len(want.Decisions))
	}
	for i := range min(len(got.Decisions), len(want.Decisions)) {
		if !reflect.DeepEqual(got.Decisions[i], want.Decisions[i]) {
			t.Errorf("deal %d decision %d:\n got %+v\nwant %+v", want.Number, i, got.Decisions[i], want.Decisions[i])
		}
	}
	if !reflect.DeepEqual(got.Results, want.Results) {
		t.Errorf("deal %d results:\n got %+v\nwant %+v", want.Number, got.Results, want.Results)
	}
}

func TestSaveDealTwiceIsConflict(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		m := newMatch(t, s, "", "a", "b", "c")
		first := sampleDeal(t, m, 0, 10, 100)
		if err := s.SaveDeal(ctx, first); err != nil {
			t.Fatalf("SaveDeal: %v", err)
		}
		second := sampleDeal(t, m, 0, 4, 50)
		second.Group = 9
		err := s.SaveDeal(ctx, second)
		if !errors.Is(err, domain.ErrConflict) {
			t.Fatalf("second SaveDeal = %v, want ErrConflict", err)
		}
		got, err := s.Deal(ctx, m.ID, 0)
		if err != nil {
			t.Fatalf("Deal: %v", err)
		}
		if got.Group != 0 || len(got.Decisions) != 10 {
			t.Errorf("after the refused save: group %d with %d decisions, want the first deal (group 0, 10 decisions)",
				got.Group, len(got.Decisions))
		}
		if n := count(t, s, "results", m.ID); n != 3 {
			t.Errorf("%d result rows, want 3", n)
		}
	})
}

// count returns the number of rows of a table that belong to a match.
func count(t *testing.T, s *Store, table, matchID string) int {
	t.Helper()
	var n int
	if err := s.r.QueryRow(s.rebind(`SELECT count(*) FROM `+table+` WHERE match_id = ?`), matchID).Scan(&n); err != nil {
		t.Fatalf("count %s: %v", table, err)
	}
	return n
}

func assertNothingStored(t *testing.T, s *Store, matchID string) {
	t.Helper()
	for _, table := range []string{"deals", "decisions", "results"} {
		if n := count(t, s, table, matchID); n != 0 {
			t.Errorf("%d rows in %s after a failed SaveDeal, want 0", n, table)
		}
	}
	if ns, err := s.DealNumbers(context.Background(), matchID); err != nil || len(ns) != 0 {
		t.Errorf("DealNumbers = %v, %v after a failed SaveDeal; want none", ns, err)
	}
}

// A write that fails inside the transaction, after the deal's row (here: two results for the
// same seat), must leave no deal row, no decision and no result behind.
func TestSaveDealFailureStoresNothing(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		m := newMatch(t, s, "", "a", "b", "c")
		bad := sampleDeal(t, m, 0, 250, 64)
		bad.Results[2].Seat = 1
		err := s.SaveDeal(ctx, bad)
		if err == nil {
			t.Fatal("SaveDeal with two results for seat 1 succeeded")
		}
		if want := fmt.Sprintf("saving deal 0 of match %s: nothing was stored", m.ID); !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
		if errors.Is(err, domain.ErrConflict) {
			t.Errorf("a repeated result seat is reported as the deal already existing: %v", err)
		}
		assertNothingStored(t, s, m.ID)

		// The same in a batch, in the last of its deals: none of the batch is stored.
		batch := []*domain.DealRecord{sampleDeal(t, m, 0, 20, 64), sampleDeal(t, m, 1, 20, 64), bad}
		bad.Number = 2
		if err := s.SaveDeals(ctx, batch); err == nil || !strings.Contains(err.Error(), "nothing was stored") {
			t.Errorf("SaveDeals with a bad last deal = %v, want nothing stored", err)
		}
		assertNothingStored(t, s, m.ID)

		// Two decisions with the same index are refused before anything is written.
		twice := sampleDeal(t, m, 0, 250, 64)
		twice.Decisions[180].Index = 20
		if err := s.SaveDeal(ctx, twice); err == nil || !strings.Contains(err.Error(), "two decisions with index 20") {
			t.Errorf("SaveDeal with a repeated decision index = %v, want an error naming it", err)
		}
		assertNothingStored(t, s, m.ID)

		// The store is still usable, and the corrected deal is stored whole.
		good := sampleDeal(t, m, 0, 250, 64)
		if err := s.SaveDeal(ctx, good); err != nil {
			t.Fatalf("SaveDeal after the failures: %v", err)
		}
		got, err := s.Deal(ctx, m.ID, 0)
		if err != nil {
			t.Fatalf("Deal: %v", err)
		}
		if !reflect.DeepEqual(got, good) {
			diffDeal(t, got, good)
		}
	})
}

func TestResults(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		m1 := newMatch(t, s, "L1", "a", "b", "c")
		m2 := newMatch(t, s, "L2", "b", "c", "d")
		save := func(m *domain.Match, n int) {
			if err := s.SaveDeal(ctx, sampleDeal(t, m, n, 2, 10)); err != nil {
				t.Fatalf("SaveDeal: %v", err)
			}
		}
		save(m1, 6)
		save(m2, 0)
		save(m1, 0)
		// Real deals are stored as compact records, whose results are rebuilt on reading; deal 1
		// is given results of its own, which it keeps as rows.
		m3, real := realDeals(t, s)
		real[1].Results = slices.Clone(real[1].Results)
		real[1].Results[0].Payoff++
		for _, d := range real[:3] {
			if err := s.SaveDeal(ctx, d); err != nil {
				t.Fatalf("SaveDeal: %v", err)
			}
		}

		all, err := s.Results(ctx, domain.MatchFilter{})
		if err != nil {
			t.Fatalf("Results: %v", err)
		}
		type key struct {
			match string
			deal  int
			seat  engine.Seat
		}
		var got []key
		for _, r := range all {
			got = append(got, key{r.MatchID, r.Deal, r.Seat})
		}
		// By match as they started (then by id), deal and seat.
		var ms []*domain.Match
		for _, m := range []*domain.Match{m1, m2, m3} {
			stored, err := s.GetMatch(ctx, m.ID)
			if err != nil {
				t.Fatal(err)
			}
			ms = append(ms, stored)
		}
		slices.SortFunc(ms, func(a, b *domain.Match) int {
			return cmp.Or(a.Started.Compare(b.Started), strings.Compare(a.ID, b.ID))
		})
		var want []key
		for _, m := range ms {
			deals := map[string][]int{m1.ID: {0, 6}, m2.ID: {0}, m3.ID: {0, 1, 2}}[m.ID]
			for _, n := range deals {
				for seat := range engine.Seat(m.Spec.Rules.Players) {
					want = append(want, key{m.ID, n, seat})
				}
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("Results order = %v, want by match, deal and seat %v", got, want)
		}
		wantRow := domain.ResultRow{MatchID: m1.ID, LeagueID: "L1", Deal: 6, Group: 1, Rules: m1.Spec.Rules.String(),
			SeatResult: domain.SeatResult{Bot: "b", Seat: 1, Payoff: -5, Points: 30, Tricks: 3}}
		if i := slices.Index(got, key{m1.ID, 6, 1}); i < 0 || !reflect.DeepEqual(all[i], wantRow) {
			t.Errorf("Results has %+v at %d, want %+v", all[max(i, 0)], i, wantRow)
		}
		// The real deals' results are those they were stored with, rows or rebuilt.
		for _, d := range real[:3] {
			var rows []domain.SeatResult
			for _, r := range all {
				if r.MatchID == m3.ID && r.Deal == d.Number {
					rows = append(rows, r.SeatResult)
				}
			}
			if !reflect.DeepEqual(rows, d.Results) {
				t.Errorf("results of real deal %d = %+v, want %+v", d.Number, rows, d.Results)
			}
		}
		var kept int
		if err := s.r.QueryRowContext(ctx, s.rebind(`SELECT count(*) FROM results WHERE match_id = ?`), m3.ID).Scan(&kept); err != nil {
			t.Fatal(err)
		}
		if want := m3.Spec.Rules.Players; kept != want {
			t.Errorf("%d rows of results for the real deals, want %d: only deal 1's, whose results are its own", kept, want)
		}
		for _, limit := range []int{1, 4, 11, len(all)} {
			part, err := s.Results(ctx, domain.MatchFilter{Limit: limit})
			if err != nil || !reflect.DeepEqual(part, all[:limit]) {
				t.Errorf("Results with limit %d = %d rows, %v; want the first %d", limit, len(part), err, limit)
			}
		}

		for _, c := range []struct {
			f    domain.MatchFilter
			want int
		}{
			{domain.MatchFilter{LeagueID: "L1"}, 6},
			{domain.MatchFilter{LeagueID: "L2"}, 3},
			{domain.MatchFilter{Bot: "a"}, 6}, // every seat of the matches a played in
			{domain.MatchFilter{Bot: "d"}, 3},
			{domain.MatchFilter{Bot: "b"}, 9},
			{domain.MatchFilter{Rules: mustRules(t, "classic").String()}, 0},
			{domain.MatchFilter{Rules: mustRules(t, "modern").String()}, 18}, // and the real deals' 9
			{domain.MatchFilter{Limit: 4}, 4},
			{domain.MatchFilter{MatchID: m2.ID}, 3},
			{domain.MatchFilter{MatchID: m1.ID, Bot: "a"}, 6},
		} {
			rows, err := s.Results(ctx, c.f)
			if err != nil {
				t.Fatalf("Results(%+v): %v", c.f, err)
			}
			if len(rows) != c.want {
				t.Errorf("Results(%+v) = %d rows, want %d", c.f, len(rows), c.want)
			}
		}
	})
}

// Many goroutines writing and reading at once: no SQLITE_BUSY, nothing lost.
func TestConcurrentWriters(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		const writers, deals = 8, 6
		var wg sync.WaitGroup
		errs := make(chan error, writers*(deals+2))
		ids := make([]string, writers)
		for w := range writers {
			wg.Add(2)
			go func() {
				defer wg.Done()
				m := &domain.Match{Spec: domain.MatchSpec{Rules: testRules(t), Bots: []string{"a", "b", "c"}, LeagueID: "L"}}
				if err := s.CreateMatch(ctx, m); err != nil {
					errs <- err
					return
				}
				ids[w] = m.ID
				for n := range deals {
					if err := s.SaveDeal(ctx, sampleDeal(t, m, n, 40, 1024)); err != nil {
						errs <- err
					}
				}
				if err := s.CreateBot(ctx, &domain.Bot{Name: fmt.Sprintf("bot%d", w)}); err != nil {
					errs <- err
				}
			}()
			go func() { // a reader beside each writer
				defer wg.Done()
				for range deals {
					if _, err := s.Results(ctx, domain.MatchFilter{LeagueID: "L"}); err != nil {
						errs <- err
					}
					if _, err := s.ListMatches(ctx, domain.MatchFilter{}); err != nil {
						errs <- err
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Errorf("concurrent use: %v", err)
		}
		rows, err := s.Results(ctx, domain.MatchFilter{LeagueID: "L"})
		if err != nil || len(rows) != writers*deals*3 {
			t.Errorf("Results = %d rows, %v; want %d", len(rows), err, writers*deals*3)
		}
	})
}

func TestSaveDealsStoresABatchWholeOrNotAtAll(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		m := newMatch(t, s, "", "a", "b", "c")
		batch := []*domain.DealRecord{sampleDeal(t, m, 0, 5, 80), sampleDeal(t, m, 1, 6, 80), sampleDeal(t, m, 2, 7, 80)}
		if err := s.SaveDeals(ctx, batch); err != nil {
			t.Fatalf("SaveDeals: %v", err)
		}
		if ns, err := s.DealNumbers(ctx, m.ID); err != nil || len(ns) != 3 {
			t.Fatalf("DealNumbers = %v, %v; want 0, 1, 2", ns, err)
		}
		got, err := s.Deal(ctx, m.ID, 2)
		if err != nil || len(got.Decisions) != 7 {
			t.Fatalf("deal 2: %v decisions, %v; want 7", got, err)
		}
		// A batch with one deal stored already is refused whole: the new deal is not stored.
		again := []*domain.DealRecord{sampleDeal(t, m, 3, 4, 80), sampleDeal(t, m, 1, 4, 80)}
		if err := s.SaveDeals(ctx, again); !errors.Is(err, domain.ErrConflict) {
			t.Fatalf("SaveDeals with a stored deal = %v, want ErrConflict", err)
		}
		if _, err := s.Deal(ctx, m.ID, 3); !errors.Is(err, domain.ErrNotFound) {
			t.Fatalf("deal 3 after the refused batch: %v, want not found", err)
		}
		// So is a batch that holds the same deal twice.
		twice := []*domain.DealRecord{sampleDeal(t, m, 4, 4, 80), sampleDeal(t, m, 5, 4, 80), sampleDeal(t, m, 4, 5, 80)}
		err = s.SaveDeals(ctx, twice)
		if !errors.Is(err, domain.ErrConflict) || !strings.Contains(err.Error(), "1 of 3 deals") {
			t.Fatalf("SaveDeals with deal 4 twice = %v, want ErrConflict for 1 of 3 deals", err)
		}
		if ns, err := s.DealNumbers(ctx, m.ID); err != nil || len(ns) != 3 {
			t.Fatalf("DealNumbers after the refused batches = %v, %v; want 0, 1, 2", ns, err)
		}
	})
}
