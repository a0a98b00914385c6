package storetest

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/board"
	"github.com/tapparena/tapp/arena/internal/domain"
)

// What the dashboard reads a page at a time: a match's deals by pages, its span and its net,
// and a bounded rating history.

// A match's deals come a page at a time, the pages together are its deal summaries, its span
// counts them, and its net is over all of them.
func testDealPages(t *testing.T, s Store) {
	ctx := context.Background()
	m := NewMatch(t, s, "", "a", "b", "c")
	want := map[string]int64{}
	stored := []int{0, 1, 2, 4, 5, 6, 9} // deal 3, 7 and 8 not (yet) stored
	for k, n := range stored {
		d := SampleDeal(t, m, n, 6, 32)
		d.Outcome.Payoff = [4]int{10 - k, k - 5, -5}
		for i := range d.Results {
			d.Results[i].Payoff = d.Outcome.Payoff[i]
			want[d.Results[i].Bot] += int64(d.Results[i].Payoff)
		}
		if err := s.SaveDeal(ctx, d); err != nil {
			t.Fatalf("SaveDeal(%d): %v", n, err)
		}
	}
	if n, first, last, err := s.DealSpan(ctx, m.ID); err != nil || n != len(stored) || first != 0 || last != 9 {
		t.Errorf("DealSpan = %d, %d, %d, %v; want %d deals from 0 to 9", n, first, last, err, len(stored))
	}
	all, err := s.DealSummaries(ctx, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range []int{1, 3, 7, 20} {
		var got []domain.DealRecord
		for from, pages := 0, 0; ; pages++ {
			page, more, err := s.DealSummaryPage(ctx, m.ID, from, size)
			if err != nil {
				t.Fatalf("DealSummaryPage(%d, %d): %v", from, size, err)
			}
			if len(page) > size || more != (len(got)+len(page) < len(stored)) || pages > len(stored) {
				t.Fatalf("DealSummaryPage(%d, %d): %d deals, more %v, after %d of %d", from, size, len(page), more, len(got), len(stored))
			}
			got = append(got, page...)
			if !more {
				break
			}
			from = page[len(page)-1].Number + 1
		}
		if fmt.Sprint(got) != fmt.Sprint(all) {
			t.Errorf("pages of %d: %v\nwant the deal summaries %v", size, numbers(got), numbers(all))
		}
	}
	if page, more, err := s.DealSummaryPage(ctx, m.ID, 10, 5); err != nil || len(page) != 0 || more {
		t.Errorf("DealSummaryPage after the last deal = %d deals, %v, %v; want none", len(page), more, err)
	}
	if _, _, err := s.DealSummaryPage(ctx, "nope", 0, 5); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("DealSummaryPage(unknown match) = %v, want ErrNotFound", err)
	}
	if got, err := s.MatchNets(ctx, m.ID); err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("MatchNets = %v, %v; want %v", got, err, want)
	}
	empty := NewMatch(t, s, "", "a", "b", "c")
	if n, first, last, err := s.DealSpan(ctx, empty.ID); err != nil || n != 0 || first != -1 || last != -1 {
		t.Errorf("DealSpan(match without deals) = %d, %d, %d, %v; want 0, -1, -1", n, first, last, err)
	}
	if got, err := s.MatchNets(ctx, empty.ID); err != nil || len(got) != 0 {
		t.Errorf("MatchNets(match without deals) = %v, %v; want none", got, err)
	}
}

func numbers(ds []domain.DealRecord) []int {
	var out []int
	for _, d := range ds {
		out = append(out, d.Number)
	}
	return out
}

// A rating history is the ledger's: every bot's rating after each of its matches, as a
// replay of the finished matches in order gives it, sampled to the points asked for with each
// bot's first and last match kept, best bot first.
func testEloHistory(t *testing.T, s Store) {
	ctx := context.Background()
	bots := []string{"a", "b", "c", "d"}
	start := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	var finished []*domain.Match
	for k := range 9 {
		m := NewMatch(t, s, "L", bots[k%4], bots[(k+1)%4], bots[(k+2)%4])
		d := SampleDeal(t, m, 0, 6, 32)
		d.Decisions[5].Strike, d.Decisions[5].Fallback = false, false // a clean match: rated
		d.Outcome.Payoff = [4]int{10, -5 - k%3, k%3 - 5}
		for i := range d.Results {
			d.Results[i].Payoff = d.Outcome.Payoff[i]
		}
		if err := s.SaveDeal(ctx, d); err != nil {
			t.Fatal(err)
		}
		m.Status, m.Finished, m.Decisions = domain.MatchFinished, start.Add(time.Duration(k)*time.Minute), len(d.Decisions)
		if err := s.UpdateMatch(ctx, m); err != nil {
			t.Fatal(err)
		}
		finished = append(finished, m)
	}
	// The ledger replayed from the results, the way the board recomputes it.
	sums, err := board.Load(ctx, s, domain.MatchFilter{LeagueID: "L"}, board.LoadOptions{Recompute: true, History: true})
	if err != nil {
		t.Fatal(err)
	}
	want := board.LedgerHistory(sums.Elo, 1000, func(id string) time.Time {
		for _, m := range finished {
			if m.ID == id {
				return m.Finished
			}
		}
		return time.Time{}
	})
	k := board.BoardEloKey(domain.MatchFilter{LeagueID: "L"}, false)
	got, err := s.EloHistory(ctx, k, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 4 || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("EloHistory =\n%v\nwant the replayed ledger's\n%v", got, want)
	}
	for _, h := range got {
		if len(h.Points) != h.Matches || h.Points[len(h.Points)-1].Rating != h.Rating {
			t.Errorf("%s: %d points of %d matches, the last %v; want every match, ending at its rating %v", h.Bot, len(h.Points), h.Matches, h.Points, h.Rating)
		}
	}
	few, err := s.EloHistory(ctx, k, 8) // 2 points a bot: the first and the last
	if err != nil {
		t.Fatal(err)
	}
	for i, h := range few {
		full := got[i]
		if h.Bot != full.Bot || len(h.Points) != 2 || h.Points[0] != full.Points[0] || h.Points[1] != full.Points[len(full.Points)-1] {
			t.Errorf("EloHistory(8 points), %s: %v; want its first and last of %v", full.Bot, h.Points, full.Points)
		}
	}
	if none, err := s.EloHistory(ctx, board.BoardEloKey(domain.MatchFilter{LeagueID: "other"}, false), 100); err != nil || len(none) != 0 {
		t.Errorf("EloHistory of a league without matches = %v, %v; want none", none, err)
	}
}

// The score before a deal is each bot's net over the stored deals numbered below it, however
// the deals were stored (one at a time, in batches, out of order, with gaps), and counts them.
func testScoreBefore(t *testing.T, s Store) {
	ctx := context.Background()
	m := NewMatch(t, s, "", "a", "b", "c")
	stored := []int{0, 1, 5, 63, 64, 65, 100, 127, 128, 200, 130, 129, 7}
	payoff := map[int][3]int{}
	var batch []*domain.DealRecord
	saveBatch := func() {
		t.Helper()
		bs, ok := s.(interface {
			SaveDeals(ctx context.Context, ds []*domain.DealRecord) error
		})
		for _, d := range batch {
			if !ok {
				if err := s.SaveDeal(ctx, d); err != nil {
					t.Fatalf("SaveDeal(%d): %v", d.Number, err)
				}
			}
		}
		if ok {
			if err := bs.SaveDeals(ctx, batch); err != nil {
				t.Fatalf("SaveDeals: %v", err)
			}
		}
		batch = nil
	}
	for k, n := range stored {
		d := SampleDeal(t, m, n, 6, 32)
		p := [3]int{20 - 3*k, 2*k - 10, k - 10}
		d.Outcome.Payoff = [4]int{p[0], p[1], p[2]}
		for i := range d.Results {
			d.Results[i].Payoff = d.Outcome.Payoff[i]
		}
		payoff[n] = p
		if k%3 == 0 { // some alone, the rest in batches that share blocks with them
			if err := s.SaveDeal(ctx, d); err != nil {
				t.Fatalf("SaveDeal(%d): %v", n, err)
			}
			continue
		}
		batch = append(batch, d)
		if len(batch) == 4 {
			saveBatch()
		}
	}
	saveBatch()
	for number := -1; number <= 260; number++ {
		want, count := map[string]int64{}, 0
		for n, p := range payoff {
			if n >= number {
				continue
			}
			count++
			for i, b := range m.Spec.Bots {
				want[b] += int64(p[i])
			}
		}
		got, n, err := s.ScoreBefore(ctx, m.ID, number)
		if err != nil {
			t.Fatalf("ScoreBefore(%d): %v", number, err)
		}
		if n != count || fmt.Sprint(nonZero(got)) != fmt.Sprint(nonZero(want)) {
			t.Fatalf("ScoreBefore(%d) = %v over %d deals; want %v over %d", number, got, n, want, count)
		}
	}
	if _, _, err := s.ScoreBefore(ctx, "nope", 5); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("ScoreBefore(unknown match) = %v, want ErrNotFound", err)
	}
}

// nonZero is a net without the bots at 0, which a store may list or leave out.
func nonZero(net map[string]int64) map[string]int64 {
	out := map[string]int64{}
	for b, v := range net {
		if v != 0 {
			out[b] = v
		}
	}
	return out
}
