package analysis

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/engine"
)

// Store is what a stored analysis needs: the match and its deals (domain.Store has it
// all), and the analyses themselves, kept per deal under Options.Key.
type Store interface {
	GetMatch(ctx context.Context, id string) (*domain.Match, error)
	// DealSummaries: every deal of the match without the requests as sent (an analysis needs
	// only the deal, the seating and the moves).
	DealSummaries(ctx context.Context, matchID string) ([]domain.DealRecord, error)
	// Analyses returns the stored analyses of a match under key, by deal number.
	Analyses(ctx context.Context, matchID, key string) (map[int][]byte, error)
	// SaveAnalysis stores (or replaces) one deal's analysis under key.
	SaveAnalysis(ctx context.Context, matchID string, number int, key string, body []byte) error
}

// JSONFormat is the version of Report's JSON, which `tapp analyze --json` prints and
// scripts read (docs/analysis.md, "JSON"): 2 since its intervals are rating.Interval
// (`lo`, `hi` and the t interval's `sd`, `se`, `crit`, `half`); 1 had `{mean, low, high, n}`.
const JSONFormat = 2

// Report is the analysis of a match (or of a file's deals).
type Report struct {
	Format   int          `json:"format"` // JSONFormat
	Match    string       `json:"match"`
	Rules    string       `json:"rules"`
	Unit     string       `json:"unit"`
	Method   string       `json:"method"` // Options.Key
	Deals    []*Deal      `json:"deals"`
	Bots     []BotSummary `json:"bots"`
	Computed int          `json:"computed"` // deals analysed by this call
	Stored   int          `json:"stored"`   // deals whose stored analysis was used
}

// Run analyses many deals in parallel.
type Run struct {
	Options Options
	Workers int // goroutines, one solver each; 0: GOMAXPROCS
	// Progress, when set, is called with the number of deals done after each one (and with 0
	// first), from one goroutine at a time.
	Progress func(done, total int)
	// Done, when set, is called with each deal's analysis as it is finished, from one
	// goroutine at a time; an error stops the run.
	Done func(d *Deal) error
}

// Deals analyses recs (deals of rule set r) and returns their analyses in the same order.
// Cancelling ctx stops the run (within a few thousand search nodes) with ctx's error.
func (run Run) Deals(ctx context.Context, r engine.RuleSet, recs []*domain.DealRecord) ([]*Deal, error) {
	workers := run.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(workers, len(recs)))
	var stop atomic.Bool
	stopWatch := context.AfterFunc(ctx, func() { stop.Store(true) })
	defer stopWatch()
	type result struct {
		i   int
		d   *Deal
		err error
	}
	jobs := make(chan int)
	results := make(chan result)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a := NewAnalyzer(run.Options)
			a.solver.SetLimit(time.Time{}, &stop)
			for i := range jobs {
				d, err := a.Analyze(r, recs[i])
				if a.solver.Aborted() {
					d, err = nil, context.Cause(ctx)
					if err == nil {
						err = context.Canceled
					}
				}
				results <- result{i, d, err}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for i := range recs {
			if stop.Load() {
				return
			}
			jobs <- i
		}
	}()
	go func() { wg.Wait(); close(results) }()
	out := make([]*Deal, len(recs))
	var first error
	done := 0
	if run.Progress != nil {
		run.Progress(0, len(recs))
	}
	for res := range results {
		if res.err != nil {
			if first == nil {
				first = res.err
				stop.Store(true)
			}
			continue
		}
		if first != nil {
			continue
		}
		out[res.i] = res.d
		if run.Done != nil {
			if err := run.Done(res.d); err != nil {
				first = err
				stop.Store(true)
				continue
			}
		}
		done++
		if run.Progress != nil {
			run.Progress(done, len(recs))
		}
	}
	if first == nil && ctx.Err() != nil {
		first = ctx.Err()
	}
	if first != nil {
		return nil, first
	}
	return out, nil
}

// Report analyses recs and summarises them.
func (run Run) Report(ctx context.Context, name string, r engine.RuleSet, recs []*domain.DealRecord) (*Report, error) {
	deals, err := run.Deals(ctx, r, recs)
	if err != nil {
		return nil, err
	}
	return &Report{Format: JSONFormat, Match: name, Rules: r.String(), Unit: unitOf(r), Method: run.Options.Key(),
		Deals: deals, Bots: Summarize(deals), Computed: len(deals)}, nil
}

// Stored analyses the stored deals of a match (only deal *only when only is set), using the
// analyses already stored under run.Options.Key and storing every new one as soon as it is
// made, so that an interrupted run keeps its work and a second run is instant.
func (run Run) Stored(ctx context.Context, st Store, matchID string, only *int) (*Report, error) {
	m, err := st.GetMatch(ctx, matchID)
	if err != nil {
		return nil, err
	}
	key := run.Options.Key()
	stored, err := st.Analyses(ctx, matchID, key)
	if err != nil {
		return nil, err
	}
	recs, err := st.DealSummaries(ctx, matchID)
	if err != nil {
		return nil, err
	}
	var deals []*Deal
	var todo []*domain.DealRecord
	found := false
	for i := range recs {
		rec := &recs[i]
		if only != nil && rec.Number != *only {
			continue
		}
		found = true
		if body, ok := stored[rec.Number]; ok {
			var d Deal
			if err := json.Unmarshal(body, &d); err == nil {
				deals = append(deals, &d)
				continue
			}
		}
		todo = append(todo, rec)
	}
	if only != nil && !found {
		return nil, fmt.Errorf("match %s has no deal %d: %w", matchID, *only, domain.ErrNotFound)
	}
	cached := len(deals)
	inner := run
	inner.Done = func(d *Deal) error {
		body, err := json.Marshal(d)
		if err != nil {
			return err
		}
		if err := st.SaveAnalysis(ctx, matchID, d.Number, key, body); err != nil {
			return err
		}
		if run.Done != nil {
			return run.Done(d)
		}
		return nil
	}
	fresh, err := inner.Deals(ctx, m.Spec.Rules, todo)
	if err != nil {
		return nil, err
	}
	deals = append(deals, fresh...)
	sort.Slice(deals, func(i, j int) bool { return deals[i].Number < deals[j].Number })
	return &Report{Format: JSONFormat, Match: matchID, Rules: m.Spec.Rules.String(), Unit: unitOf(m.Spec.Rules), Method: key,
		Deals: deals, Bots: Summarize(deals), Computed: len(fresh), Stored: cached}, nil
}

// StoredOnly reads the analyses already stored for a match, computing nothing: what a
// leaderboard shows beside the ratings. Deals not analysed yet are left out.
func StoredOnly(ctx context.Context, st Store, matchID string, o Options) ([]*Deal, error) {
	stored, err := st.Analyses(ctx, matchID, o.Key())
	if err != nil {
		return nil, err
	}
	deals := make([]*Deal, 0, len(stored))
	for _, body := range stored {
		var d Deal
		if err := json.Unmarshal(body, &d); err != nil {
			return nil, fmt.Errorf("stored analysis of match %s: %w", matchID, err)
		}
		deals = append(deals, &d)
	}
	sort.Slice(deals, func(i, j int) bool { return deals[i].Number < deals[j].Number })
	return deals, nil
}
