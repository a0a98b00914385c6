package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/tapparena/tapp/arena/internal/analysis"
	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/replay"
)

// SourceStore is what reading a stored match's deals needs: the replay viewer's reads, every
// deal (with the requests as sent, or without them) and the stored analyses. The SQL store
// has it all.
type SourceStore interface {
	replay.Store
	analysis.Store
	Deals(ctx context.Context, matchID string) ([]domain.DealRecord, error)
}

// RecordedDeal is a recorded deal with the match it belongs to.
type RecordedDeal struct {
	Match replay.Match
	Deal  *domain.DealRecord
	Line  int // its line in an export file; 0 for a stored deal
}

// Source is where the recorded deals of one match come from: a store, or the lines of a JSON
// Lines export (tapp replay export).
type Source struct {
	Name    string      // the match id, or the file's name
	Store   SourceStore // nil for an export
	MatchID string
	Lines   []RecordedDeal // an export's deals, in file order
}

// ReadExport reads an export's deals (JSON Lines or TPN); name names it in errors. Every
// record must be a deal this build reads, and there must be one at least.
func ReadExport(name string, r io.Reader) (*Source, error) {
	src := &Source{Name: name}
	err := replay.ReadDeals(r, func(line int, mt replay.Match, rec *domain.DealRecord, err error) error {
		if err != nil {
			return fmt.Errorf("%s: line %d: %w", name, line, err)
		}
		src.Lines = append(src.Lines, RecordedDeal{Match: mt, Deal: rec, Line: line})
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(src.Lines) == 0 {
		return nil, fmt.Errorf("%s: no deals in it", name)
	}
	return src, nil
}

// StoredMatch is the source of a stored match's deals (an error wrapping domain.ErrNotFound
// when there is no such match).
func StoredMatch(ctx context.Context, st SourceStore, id string) (*Source, error) {
	if _, err := st.GetMatch(ctx, id); err != nil {
		return nil, err
	}
	return &Source{Name: id, Store: st, MatchID: id}, nil
}

// Deal returns deal n with its match.
func (s *Source) Deal(ctx context.Context, n int) (replay.Match, *domain.DealRecord, error) {
	if s.Store != nil {
		return replay.LoadDeal(ctx, s.Store, s.MatchID, n)
	}
	var have []int
	for _, d := range s.Lines {
		if d.Deal.Number == n {
			return d.Match, d.Deal, nil
		}
		have = append(have, d.Deal.Number)
	}
	return replay.Match{}, nil, fmt.Errorf("%s has no deal %d (it has deals %v)", s.Name, n, have)
}

// Summaries returns the match and every deal that may be shown (from a store without the
// requests as sent), for a listing, and the numbers of the stored deals withheld because their
// cards are still in play (replay.Gate).
func (s *Source) Summaries(ctx context.Context) (replay.Match, []domain.DealRecord, []int, error) {
	if s.Store != nil {
		am, err := s.Store.GetMatch(ctx, s.MatchID)
		if err != nil {
			return replay.Match{}, nil, nil, err
		}
		deals, err := s.Store.DealSummaries(ctx, s.MatchID)
		if err != nil {
			return replay.Match{}, nil, nil, err
		}
		open, withheld, err := openDeals(ctx, s.Store, am, deals)
		return replay.MatchOf(am), open, withheld, err
	}
	out := make([]domain.DealRecord, len(s.Lines))
	for i, d := range s.Lines {
		out[i] = *d.Deal
	}
	return s.Lines[0].Match, out, nil, nil
}

// Recorded returns every deal with its match, requests as sent included, but for those whose
// cards are still in play, which it counts.
func (s *Source) Recorded(ctx context.Context) ([]RecordedDeal, int, error) {
	if s.Store == nil {
		return s.Lines, 0, nil
	}
	return matchDeals(ctx, s.Store, s.MatchID)
}

// openDeals keeps the deals of m that may be shown now (replay.Gate) and returns the numbers
// of the others.
func openDeals(ctx context.Context, st replay.GateStore, m *domain.Match, deals []domain.DealRecord) ([]domain.DealRecord, []int, error) {
	gate, err := replay.NewGate(ctx, st, m)
	if err != nil || gate.AllOpen() {
		return deals, nil, err
	}
	var withheld []int
	open := deals[:0:0]
	for _, d := range deals {
		if gate.Check(d.Number) != nil {
			withheld = append(withheld, d.Number)
			continue
		}
		open = append(open, d)
	}
	return open, withheld, nil
}

// matchDeals reads every deal of a stored match that may be shown, and counts the others.
func matchDeals(ctx context.Context, st interface {
	replay.GateStore
	GetMatch(ctx context.Context, id string) (*domain.Match, error)
	Deals(ctx context.Context, matchID string) ([]domain.DealRecord, error)
}, id string) ([]RecordedDeal, int, error) {
	am, err := st.GetMatch(ctx, id)
	if err != nil {
		return nil, 0, err
	}
	recs, err := st.Deals(ctx, id)
	if err != nil {
		return nil, 0, err
	}
	recs, withheld, err := openDeals(ctx, st, am, recs)
	if err != nil {
		return nil, 0, err
	}
	m := replay.MatchOf(am)
	out := make([]RecordedDeal, len(recs))
	for i := range recs {
		out[i] = RecordedDeal{Match: m, Deal: &recs[i]}
	}
	return out, len(withheld), nil
}

// openStore is a source's store that lists only the deals whose cards are out of play (what
// an analysis reads: it shows every hand).
type openStore struct{ SourceStore }

func (s openStore) DealSummaries(ctx context.Context, matchID string) ([]domain.DealRecord, error) {
	m, err := s.GetMatch(ctx, matchID)
	if err != nil {
		return nil, err
	}
	deals, err := s.SourceStore.DealSummaries(ctx, matchID)
	if err != nil {
		return nil, err
	}
	deals, _, err = openDeals(ctx, s.SourceStore, m, deals)
	return deals, err
}

// RecordStore is what reading the deals of a match or of a league needs.
type RecordStore interface {
	domain.Store
	LeagueReader
	replay.GateStore
}

// MatchOrLeagueDeals returns every deal of the stored match id or, when there is no such
// match, of every match of the league id, but for the deals whose cards are still in play,
// which it counts; an error wrapping domain.ErrNotFound when id names neither.
func MatchOrLeagueDeals(ctx context.Context, st RecordStore, id string) ([]RecordedDeal, int, error) {
	deals, withheld, err := matchDeals(ctx, st, id)
	if !errors.Is(err, domain.ErrNotFound) {
		return deals, withheld, err
	}
	if _, err := st.GetLeague(ctx, id); errors.Is(err, domain.ErrNotFound) {
		return nil, 0, fmt.Errorf("no match or league %q: %w", id, domain.ErrNotFound)
	} else if err != nil {
		return nil, 0, err
	}
	ms, err := st.ListMatches(ctx, domain.MatchFilter{LeagueID: id})
	if err != nil {
		return nil, 0, err
	}
	deals = nil
	for _, mt := range ms {
		ds, n, err := matchDeals(ctx, st, mt.ID)
		if err != nil {
			return nil, 0, err
		}
		deals, withheld = append(deals, ds...), withheld+n
	}
	return deals, withheld, nil
}

// StoredAnalysis is the stored double-dummy analysis of deal number of the source (tapp
// analyze stores it); nil when the deal has not been analysed, or the source is an export.
func StoredAnalysis(ctx context.Context, src *Source, number int) (*analysis.Deal, error) {
	if src.Store == nil {
		return nil, nil
	}
	stored, err := src.Store.Analyses(ctx, src.MatchID, analysis.Options{}.Key())
	if err != nil {
		return nil, err
	}
	body, ok := stored[number]
	if !ok {
		return nil, nil
	}
	var d analysis.Deal
	if err := json.Unmarshal(body, &d); err != nil {
		return nil, fmt.Errorf("the stored analysis of deal %d of match %s cannot be read: %w (tapp analyze %s analyses it again)", number, src.MatchID, err, src.MatchID)
	}
	return &d, nil
}
