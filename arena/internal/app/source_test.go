package app

import (
	"bytes"
	"context"
	"errors"
	"maps"
	"strings"
	"sync"
	"testing"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/replay"
	"github.com/tapparena/tapp/arena/internal/store/memstore"
)

// recordStore is the memory store with what a SourceStore reads beyond it: deals without the
// requests as sent (the memory store keeps none) and stored analyses.
type recordStore struct {
	*memstore.Memory
	mu       sync.Mutex
	analyses map[string]map[int][]byte // by match and key, then deal
}

func newRecordStore() *recordStore {
	return &recordStore{Memory: memstore.New(), analyses: map[string]map[int][]byte{}}
}

func (s *recordStore) DealSummaries(ctx context.Context, matchID string) ([]domain.DealRecord, error) {
	return s.Deals(ctx, matchID)
}

func (s *recordStore) Analyses(_ context.Context, matchID, key string) (map[int][]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.analyses[matchID+" "+key]), nil
}

func (s *recordStore) SaveAnalysis(_ context.Context, matchID string, number int, key string, body []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := matchID + " " + key
	if s.analyses[k] == nil {
		s.analyses[k] = map[int][]byte{}
	}
	s.analyses[k][number] = append([]byte(nil), body...)
	return nil
}

// played is a match of built-in bots played in this process into a fresh record store.
func played(t *testing.T, deals int, kinds ...string) (*recordStore, *domain.Match) {
	t.Helper()
	st := newRecordStore()
	p, err := PlayMatch(context.Background(), st, MatchPlay{Spec: spec(t, "modern", deals, kinds...), Kinds: kinds, InProcess: true})
	if err != nil {
		t.Fatal(err)
	}
	return st, p.Match
}

// playedSource is played's match as a source of recorded deals.
func playedSource(t *testing.T, deals int, kinds ...string) (*recordStore, *domain.Match, *Source) {
	t.Helper()
	st, m := played(t, deals, kinds...)
	src, err := StoredMatch(context.Background(), st, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	return st, m, src
}

// export writes a stored match as an export and reads it back as a source.
func export(t *testing.T, st *recordStore, id string) *Source {
	t.Helper()
	var buf bytes.Buffer
	if _, _, err := replay.ExportStored(context.Background(), st, id, nil, &buf, replay.ExportOptions{}); err != nil {
		t.Fatal(err)
	}
	src, err := ReadExport("m.jsonl", &buf)
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// A stored match and its export are the same deals to every reader: one deal, the listing,
// every deal with its match.
func TestSourcesOfAStoreAndOfAnExportAgree(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, m, stored := playedSource(t, 3, "random", "heuristic", "random")
	file := export(t, st, m.ID)
	for _, src := range []*Source{stored, file} {
		mt, rec, err := src.Deal(ctx, 2)
		if err != nil || mt.ID != m.ID || rec.Number != 2 {
			t.Fatalf("%s: deal 2 = %v, %v, %v", src.Name, mt.ID, rec, err)
		}
		if _, _, err := src.Deal(ctx, 7); err == nil || !strings.Contains(err.Error(), "0-2") && !strings.Contains(err.Error(), "[0 1 2]") {
			t.Errorf("%s: deal 7: %v, want an error naming the deals there are", src.Name, err)
		}
		_, list, _, err := src.Summaries(ctx)
		if err != nil || len(list) != 3 {
			t.Errorf("%s: summaries %d, %v", src.Name, len(list), err)
		}
		all, _, err := src.Recorded(ctx)
		if err != nil || len(all) != 3 || len(all[0].Deal.Moves) == 0 || all[0].Match.ID != m.ID {
			t.Fatalf("%s: recorded %d deals (%v), want 3 with their moves and match", src.Name, len(all), err)
		}
	}
	if file.Lines[1].Line != 2 {
		t.Errorf("export line numbers %+v", file.Lines[1])
	}
	if _, err := StoredMatch(ctx, st, "nosuch"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("StoredMatch(nosuch) = %v, want ErrNotFound", err)
	}
	if _, err := ReadExport("empty.jsonl", strings.NewReader("\n")); err == nil || !strings.Contains(err.Error(), "no deals") {
		t.Errorf("an empty export: %v", err)
	}
	if _, err := ReadExport("bad.jsonl", strings.NewReader("{}\n")); err == nil || !strings.Contains(err.Error(), "bad.jsonl: line 1") {
		t.Errorf("a broken export: %v, want the file and the line", err)
	}
}

// The deals of a league are those of all its matches; an id that is neither a match nor a
// league is ErrNotFound.
func TestMatchOrLeagueDeals(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := leagueWithMatch(t, nil)
	league, _, err := MatchOrLeagueDeals(ctx, st, "L")
	if err != nil || len(league) != 6 {
		t.Fatalf("league deals: %d, %v; want its match's 6", len(league), err)
	}
	one, _, err := MatchOrLeagueDeals(ctx, st, league[0].Match.ID)
	if err != nil || len(one) != 6 || one[0].Match.LeagueID != "L" {
		t.Fatalf("match deals: %d, %v", len(one), err)
	}
	if _, _, err := MatchOrLeagueDeals(ctx, st, "nosuch"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("nosuch: %v, want ErrNotFound", err)
	}
}
