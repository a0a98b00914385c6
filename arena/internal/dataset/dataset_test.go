package dataset

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/notation"
	"github.com/tapparena/tapp/engine"
)

// fakeStore holds matches of random deals played with the engine.
type fakeStore struct {
	matches map[string]*domain.Match
	deals   map[string][]*domain.DealRecord
}

func (f *fakeStore) GetMatch(_ context.Context, id string) (*domain.Match, error) {
	if m := f.matches[id]; m != nil {
		return m, nil
	}
	return nil, domain.ErrNotFound
}

func (f *fakeStore) DealNumbers(_ context.Context, id string) ([]int, error) {
	var out []int
	for _, d := range f.deals[id] {
		out = append(out, d.Number)
	}
	return out, nil
}

func (f *fakeStore) Deal(_ context.Context, id string, n int) (*domain.DealRecord, error) {
	return f.deals[id][n], nil
}

// addMatch stores a finished match of random deals: every decision answered by its bot, one
// in seven a strike with the documented fallback.
func (f *fakeStore) addMatch(t *testing.T, id, rulesText string, deals int) {
	t.Helper()
	rules, err := engine.ParseRuleSet(rulesText)
	if err != nil {
		t.Fatal(err)
	}
	bots := []string{"north", "east", "south", "west"}[:rules.Players]
	f.matches[id] = &domain.Match{ID: id, Status: domain.MatchFinished, Commitment: "c0ffee", Nonce: "5eed",
		Spec: domain.MatchSpec{Rules: rules, Bots: bots, Deals: deals, Seed: 11, LeagueID: "night"}}
	rng := engine.NewRand(3, uint64(len(id)))
	pot := 0
	for k := 0; k < deals; k++ {
		dealer := k % rules.Players
		seating := make([]string, rules.Players)
		for s := range seating {
			seating[s] = bots[engine.TablePosition(engine.Seat(s), dealer, rules.Players)]
		}
		deal := engine.DealFromSeed(rules, 11, uint64(k))
		st, err := engine.NewState(rules, deal, engine.Options{Pot: pot})
		if err != nil {
			t.Fatal(err)
		}
		rec := &domain.DealRecord{MatchID: id, Number: k, Group: k, Seating: seating, Deal: deal, Options: st.Options(),
			Started: time.Date(2026, 11, 30, 22, 0, k, 0, time.UTC), Duration: time.Second}
		for i := 0; !st.Terminal(); i++ {
			legal := st.LegalActions(nil)
			a := legal[rng.IntN(len(legal))]
			strike := i%7 == 3
			if strike {
				a = legal[0]
			}
			rec.Decisions = append(rec.Decisions, domain.DecisionRecord{Index: i, Seat: st.ToMove(), Bot: seating[st.ToMove()],
				Decision: st.Decision(), Action: a, Latency: time.Duration(i) * time.Millisecond, Strike: strike, Fallback: strike})
			rec.Moves = append(rec.Moves, engine.Move{Seat: st.ToMove(), Action: a})
			if err := st.Apply(a); err != nil {
				t.Fatal(err)
			}
		}
		rec.Outcome = st.Outcome()
		pot = rec.Outcome.PotAfter
		f.deals[id] = append(f.deals[id], rec)
	}
}

func newFake(t *testing.T) *fakeStore {
	f := &fakeStore{matches: map[string]*domain.Match{}, deals: map[string][]*domain.DealRecord{}}
	f.addMatch(t, "m-modern", "modern players=4 pack=32 frage=on", 30)
	f.addMatch(t, "m-classic", "classic pot=on", 30)
	return f
}

func readAll[T any](t *testing.T, path string) []T {
	t.Helper()
	rows, err := parquet.ReadFile[T](path)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// Every deal and every decision is in the files, and a decision's observation is what the
// engine shows that seat at that moment (as the arena sent it): replayed independently here.
func TestExportWritesEveryDealAndDecision(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	dir := t.TempDir()
	done := 0
	sum, err := Export(context.Background(), f, []string{"m-modern", "m-classic"}, dir, Options{Progress: func(n int) { done = n }, Source: "league night"})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Deals != 60 || done != 60 || sum.Matches != 2 {
		t.Fatalf("summary %+v, progress %d", sum, done)
	}
	deals := readAll[DealRow](t, filepath.Join(dir, DealsFile))
	decisions := readAll[DecisionRow](t, filepath.Join(dir, DecisionsFile))
	if len(deals) != 60 || len(decisions) != sum.Decisions {
		t.Fatalf("%d deal rows, %d decision rows; want 60, %d", len(deals), len(decisions), sum.Decisions)
	}
	next := 0
	for _, d := range deals {
		rec := f.deals[d.Match][d.Deal]
		m := f.matches[d.Match]
		if d.Rules != m.Spec.Rules.String() || d.Seed != 11 || !d.Seeded || d.Commitment != "c0ffee" || d.Nonce != "5eed" || d.League != "night" {
			t.Fatalf("deal %s/%d: %+v", d.Match, d.Deal, d)
		}
		if !slices.Equal(d.Seating, rec.Seating) || d.Payoff[0] != int32(rec.Outcome.Payoff[0]) || len(d.Moves) != len(rec.Moves) {
			t.Fatalf("deal %s/%d differs from its record", d.Match, d.Deal)
		}
		if got := slices.Concat(d.Hand0, d.Hand1, d.Hand2, d.Hand3, d.Tapp); len(got) != m.Spec.Rules.Pack().Len() {
			t.Fatalf("deal %s/%d: %d cards dealt", d.Match, d.Deal, len(got))
		}
		st, _ := engine.NewState(m.Spec.Rules, rec.Deal, rec.Options)
		for k, mv := range rec.Moves {
			x := decisions[next]
			next++
			obs := st.Observe(mv.Seat)
			var legal, history []string
			for _, a := range obs.Legal {
				legal = append(legal, a.String())
			}
			for _, h := range obs.History {
				history = append(history, notation.MoveText(h))
			}
			if x.Match != d.Match || int(x.Deal) != rec.Number || int(x.Index) != k || x.Action != mv.Action.String() ||
				!slices.Equal(x.Legal, legal) || !slices.Equal(x.History, history) || !slices.Equal(x.Hand, cardNames(obs.Hand)) ||
				x.Payoff != int32(rec.Outcome.Payoff[mv.Seat]) || x.Strike != rec.Decisions[k].Strike || x.Bot != rec.Seating[mv.Seat] {
				t.Fatalf("%s deal %d decision %d: %+v", d.Match, d.Deal, k, x)
			}
			if err := st.Apply(mv.Action); err != nil {
				t.Fatal(err)
			}
		}
	}
	fh, err := os.Open(filepath.Join(dir, DealsFile))
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	info, _ := fh.Stat()
	pf, err := parquet.OpenFile(fh, info.Size())
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := pf.Lookup("tapp.dataset"); v != Version {
		t.Fatalf("metadata tapp.dataset = %q", v)
	}
}

// Anonymised: no bot name is left, and one bot keeps one pseudonym.
func TestExportAnonymises(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	dir := t.TempDir()
	if _, err := Export(context.Background(), f, []string{"m-modern", "m-classic"}, dir, Options{Anonymise: true}); err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{"north": true, "east": true, "south": true, "west": true}
	for _, d := range readAll[DealRow](t, filepath.Join(dir, DealsFile)) {
		for _, b := range append(slices.Clone(d.Bots), d.Seating...) {
			if names[b] {
				t.Fatalf("deal %d: bot name %q left in", d.Deal, b)
			}
		}
		if d.Bots[0] != "bot-1" {
			t.Fatalf("the first bot met is %q, want bot-1", d.Bots[0])
		}
	}
	for _, x := range readAll[DecisionRow](t, filepath.Join(dir, DecisionsFile)) {
		if names[x.Bot] {
			t.Fatalf("decision bot %q left in", x.Bot)
		}
	}
}

// An export that fails leaves no file behind (nor a half-written one).
func TestExportThatFailsLeavesNothing(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	dir := t.TempDir()
	_, err := Export(context.Background(), f, []string{"m-modern", "missing"}, dir, Options{})
	if !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("err %v, want not found", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 0 {
		t.Fatalf("files left: %v", entries)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Export(ctx, f, []string{"m-modern"}, dir, Options{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("files left: %v", entries)
	}
}
