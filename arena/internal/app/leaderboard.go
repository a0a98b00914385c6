package app

import (
	"context"
	"fmt"
	"maps"

	"github.com/tapparena/tapp/arena/internal/analysis"
	"github.com/tapparena/tapp/arena/internal/board"
	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/league/plan"
)

// LeagueReader reads stored leagues.
type LeagueReader interface {
	GetLeague(ctx context.Context, id string) (*domain.League, error)
}

// BoardStore is what a leaderboard reads: the results (and the rating sums, when the store
// keeps them: see board.Load) and the leagues, whose stored plans name their bots' families.
// The SQL store and the memory store have it all.
type BoardStore interface {
	domain.Store
	LeagueReader
}

// LeagueFamilies returns the families a league's file declared (family: on its bots), as the
// league's stored plan keeps them; none without a league (id "").
func LeagueFamilies(ctx context.Context, st LeagueReader, leagueID string) (map[string]string, error) {
	if leagueID == "" {
		return nil, nil
	}
	l, err := st.GetLeague(ctx, leagueID)
	if err != nil {
		return nil, fmt.Errorf("league %s: %w", leagueID, err)
	}
	p, err := plan.ParseStored(l.Plan)
	if err != nil {
		return nil, fmt.Errorf("league %s: %w", leagueID, err)
	}
	return p.Families, nil
}

// BoardQuery says which leaderboard to compute.
type BoardQuery struct {
	Filter domain.MatchFilter // the results: a league, a rule set, a bot's matches
	Load   board.LoadOptions
	// Families are families given by the user (bot → family); they override the league's.
	Families map[string]string
	// History puts the league's rating over time on the board (Leaderboard.History), as the
	// store keeps it: a few dozen points, never the deals.
	History bool
}

// Leaderboard computes the leaderboard of the results the query selects: the sums are loaded
// (board.Load) and the board derived from them (board.Compute), with the families of the
// filter's league. A recomputation from the raw results (Load.Recompute) also checks the
// store's kept sums against it (Leaderboard.Check).
func Leaderboard(ctx context.Context, st BoardStore, q BoardQuery) (*board.Leaderboard, error) {
	families, err := LeagueFamilies(ctx, st, q.Filter.LeagueID)
	if err != nil {
		return nil, err
	}
	if len(q.Families) > 0 {
		families = maps.Clone(families)
		if families == nil {
			families = map[string]string{}
		}
		maps.Copy(families, q.Families)
	}
	compute := func(lo board.LoadOptions) (*board.Leaderboard, error) {
		sums, err := board.Load(ctx, st, q.Filter, lo)
		if err != nil {
			return nil, err
		}
		lb, err := board.Compute(sums, board.Options{Families: families, Bot: q.Filter.Bot, TaintedIncluded: lo.IncludeTainted})
		if err != nil {
			return nil, err
		}
		lb.League = q.Filter.LeagueID
		return lb, nil
	}
	lb, err := compute(q.Load)
	if err != nil {
		return nil, err
	}
	if _, keeps := st.(board.Source); keeps && q.Load.Recompute && q.Filter.MatchID == "" && q.Filter.Since.IsZero() {
		// The recomputation checks the store's kept sums: their board must be this one.
		lo := q.Load
		lo.Recompute, lo.Progress = false, nil
		kept, err := compute(lo)
		if err != nil {
			return nil, err
		}
		if lb.Check, err = board.CheckKept(kept, lb); err != nil {
			return nil, err
		}
	}
	if q.History {
		if err := attachHistory(ctx, st, lb, q.Filter); err != nil {
			return nil, err
		}
	}
	return lb, nil
}

// attachHistory puts the rating history of the filter's league (under its one rule set) on
// its board, or says why there is none.
func attachHistory(ctx context.Context, st BoardStore, lb *board.Leaderboard, f domain.MatchFilter) error {
	hs, ok := st.(board.HistoryStore)
	switch {
	case !ok:
		lb.HistoryNote = "this store keeps no rating history"
	case f.LeagueID == "":
		lb.HistoryNote = "the rating over time is kept per league: choose one"
	case len(lb.RuleSets) > 1:
		lb.HistoryNote = "the rating over time is kept per rule set: choose one"
	case len(lb.RuleSets) == 1:
		var err error
		lb.History, err = hs.RatingHistory(ctx, board.LeagueRules{League: f.LeagueID, Rules: lb.RuleSets[0]})
		return err
	}
	return nil
}

// Leaderboards is the dashboard's leaderboard over st (web.Leaderboards): the board of the
// filter's results with its league's rating history (the headline over the league's time, a
// few dozen points) and families, the board `tapp ratings` prints but for the bots' figures by
// contract and seat, which the dashboard does not show (LoadOptions.RoleTotals). It reads no Elo history:
// the dashboard reads a bounded one from the store (board.EloHistorySource).
func Leaderboards(st BoardStore) func(ctx context.Context, f domain.MatchFilter) (*board.Leaderboard, error) {
	return func(ctx context.Context, f domain.MatchFilter) (*board.Leaderboard, error) {
		return Leaderboard(ctx, st, BoardQuery{Filter: f, History: true, Load: board.LoadOptions{RoleTotals: true}})
	}
}

// AnalysisStore is what reading stored analyses needs: the matches and their analyses
// (analysis.Store).
type AnalysisStore interface {
	analysis.Store
	ListMatches(ctx context.Context, f domain.MatchFilter) ([]domain.Match, error)
}

// AnalysedBots is what the stored double-dummy analyses say of the bots of some matches.
type AnalysedBots struct {
	Deals   int                            // deals with a stored analysis
	Bots    map[string]analysis.BotSummary // by bot: card-play error and bidding regret per deal
	Missing []string                       // the matches without a stored analysis (tapp analyze makes them)
}

// StoredAnalyses sums the stored analyses of the deals of the matches f selects (nothing is
// solved here).
func StoredAnalyses(ctx context.Context, st AnalysisStore, f domain.MatchFilter) (*AnalysedBots, error) {
	f.Limit = 0
	ms, err := st.ListMatches(ctx, f)
	if err != nil {
		return nil, err
	}
	var deals []*analysis.Deal
	out := &AnalysedBots{Bots: map[string]analysis.BotSummary{}}
	for _, mt := range ms {
		ds, err := analysis.StoredOnly(ctx, st, mt.ID, analysis.Options{})
		if err != nil {
			return nil, err
		}
		if len(ds) == 0 {
			out.Missing = append(out.Missing, mt.ID)
		}
		deals = append(deals, ds...)
	}
	out.Deals = len(deals)
	for _, b := range analysis.Summarize(deals) {
		out.Bots[b.Bot] = b
	}
	return out, nil
}
