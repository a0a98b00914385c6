package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/tapparena/tapp/arena/internal/analysis"
	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/replay"
	"github.com/tapparena/tapp/engine"
	viewv1 "github.com/tapparena/tapp/proto/tapp/view/v1"
)

// Analyses gives a stored deal's double-dummy analysis (package analysis, what `tapp analyze`
// prints with --json): the one `tapp analyze` stored, else one computed now and kept in this
// process — the dashboard writes nothing to the store. One deal is analysed at a time, each
// for at most Timeout; a deal that takes longer (a long Ramsch on a busy host) is left to
// `tapp analyze`, which the answer names.
type Analyses struct {
	store interface {
		DealAnalysis(context.Context, string, int, string) ([]byte, error)
	}
	opts    analysis.Options
	Timeout time.Duration

	one   chan struct{} // held while a deal is analysed
	mu    sync.Mutex
	cache map[analysisKey]*analysis.Deal
	order []analysisKey // oldest first, at most maxAnalyses
}

type analysisKey struct {
	match  string
	number int
}

const (
	maxAnalyses     = 64
	analysisTimeout = 30 * time.Second
)

// NewAnalyses reads stored analyses from st (the default method of `tapp analyze`: full
// information) and computes the others.
func NewAnalyses(st Store) *Analyses {
	return &Analyses{store: st, Timeout: analysisTimeout, one: make(chan struct{}, 1), cache: map[analysisKey]*analysis.Deal{}}
}

// errAnalysisTooLong is an analysis given up after Timeout.
var errAnalysisTooLong = errors.New("the analysis takes too long here")

// Deal returns the analysis of a stored deal and whether it was read from the store.
func (a *Analyses) Deal(ctx context.Context, r engine.RuleSet, rec *domain.DealRecord) (*analysis.Deal, bool, error) {
	method := a.opts.Key()
	body, err := a.store.DealAnalysis(ctx, rec.MatchID, rec.Number, method)
	switch {
	case err == nil:
		var d analysis.Deal
		if err := json.Unmarshal(body, &d); err == nil {
			return &d, true, nil
		}
	case !errors.Is(err, domain.ErrNotFound):
		return nil, false, err
	}
	k := analysisKey{rec.MatchID, rec.Number}
	if d := a.cached(k); d != nil {
		return d, false, nil
	}
	select {
	case a.one <- struct{}{}:
	case <-ctx.Done():
		return nil, false, ctx.Err()
	}
	defer func() { <-a.one }()
	if d := a.cached(k); d != nil { // analysed while this call waited
		return d, false, nil
	}
	actx, cancel := context.WithTimeout(ctx, a.Timeout)
	defer cancel()
	deals, err := analysis.Run{Options: a.opts, Workers: 1}.Deals(actx, r, []*domain.DealRecord{rec})
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
			return nil, false, errAnalysisTooLong
		}
		return nil, false, err
	}
	d := deals[0]
	d.Match = rec.MatchID
	a.mu.Lock()
	if _, ok := a.cache[k]; !ok {
		a.cache[k] = d
		a.order = append(a.order, k)
		if len(a.order) > maxAnalyses {
			delete(a.cache, a.order[0])
			a.order = a.order[1:]
		}
	}
	a.mu.Unlock()
	return d, false, nil
}

func (a *Analyses) cached(k analysisKey) *analysis.Deal {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.cache[k]
}

// GetReplayAnalysis is a deal's analysis as the view may see it, step by step (the steps of
// GetReplay): the analysis depends on every hand, so a step carries it only where the view
// sees every card (seesEverything): every step of the full view — its own decision —, and the
// end of the deal in the others — every decision.
func (v *View) GetReplayAnalysis(ctx context.Context, req *viewv1.GetReplayAnalysisRequest) (*viewv1.GetReplayAnalysisResponse, error) {
	_, rec, walk, err := v.walk(ctx, req.GetMatchId(), req.GetDealNumber(), req.GetView())
	if err != nil {
		return nil, err
	}
	resp := &viewv1.GetReplayAnalysisResponse{Unit: unitText(walk.Match.Rules), Method: analysis.Options{}.Key()}
	if v.Analyses == nil {
		resp.Note = "this dashboard analyses no deals"
		return resp, nil
	}
	d, stored, err := v.Analyses.Deal(ctx, walk.Match.Rules, rec)
	switch {
	case errors.Is(err, errAnalysisTooLong):
		resp.Note = fmt.Sprintf("%v (more than %s): `tapp analyze %s --deal %d` analyses and stores it, then reload",
			err, v.Analyses.Timeout, rec.MatchID, rec.Number)
		return resp, nil
	case err != nil:
		return nil, grpcError(err)
	}
	resp.Stored, resp.Method, resp.Unit = stored, v.Analyses.opts.Key(), d.Unit
	if walk.View.Full {
		resp.Contract, resp.Declarer, resp.Result = d.Contract, int32(d.Declarer), int32(d.Result)
	}
	var par *viewv1.DealPar
	if p := d.Par; p != nil {
		par = &viewv1.DealPar{Goal: p.Goal, Made: p.Made, Payoff: p.Payoff, HasCardPoints: p.CardPoints != nil,
			CardPointsLow: int32(p.CardPointsLow), CardPointsHigh: int32(p.CardPointsHigh)}
		if p.CardPoints != nil && p.CardPointsLow == 0 && p.CardPointsHigh == 0 {
			par.CardPointsLow, par.CardPointsHigh = int32(*p.CardPoints), int32(*p.CardPoints)
		}
	}
	decisions := make(map[int][]*viewv1.DecisionAnalysis)
	var all []*viewv1.DecisionAnalysis
	for _, x := range d.Decisions {
		da := &viewv1.DecisionAnalysis{Decision: int32(x.Index), Seat: int32(x.Seat), Kind: x.Kind, Action: x.Action,
			Loss: x.Loss, Unit: x.Unit, Best: x.Best, ParBefore: x.ParBefore, ParAfter: x.ParAfter}
		if da.Unit == "" {
			da.Unit = d.Unit
		}
		if x.LossPoints != nil {
			da.HasLossPoints, da.LossPoints = true, int32(*x.LossPoints)
		}
		decisions[x.Index] = append(decisions[x.Index], da)
		all = append(all, da)
	}
	for i := range walk.Steps {
		s := &walk.Steps[i]
		sa := &viewv1.StepAnalysis{Index: int32(s.Index)}
		if seesEverything(walk.View, s) {
			sa.Par = par
			if s.End {
				sa.Decisions = all
			} else {
				sa.Decisions = decisions[s.Index]
			}
		}
		resp.Steps = append(resp.Steps, sa)
	}
	if rules := walk.Match.Rules; d.Contract == "ramsch" {
		resp.Note = fmt.Sprintf("Ramsch: only the last %d of %d tricks are analysed (a paranoid search of the whole deal takes too long), losses in card points",
			analysis.RamschTricks, rules.HandSize())
	} else if d.Par == nil {
		resp.Note = "no par: the deal was thrown in"
	}
	return resp, nil
}

// unitText is the rule set's unit, as the analysis names it.
func unitText(r engine.RuleSet) string {
	if r.Variant == engine.Modern {
		return "cents"
	}
	return "game points"
}

// walk reads a stored deal and steps through it from the view the request names.
func (v *View) walk(ctx context.Context, matchID string, number int32, viewText string) (*domain.Match, *domain.DealRecord, *replay.Walk, error) {
	stored, err := v.Store.GetMatch(ctx, matchID)
	if err != nil {
		return nil, nil, nil, grpcError(err)
	}
	// A deal whose cards are still in play at another table is refused (replay.Gate), for
	// the replay and its analysis alike.
	rec, err := replay.ReadOpenDeal(ctx, v.Store, stored, int(number))
	if err != nil {
		return nil, nil, nil, grpcError(err)
	}
	m := replay.MatchOf(stored)
	view, err := parseView(viewText, m.Rules.Players)
	if err != nil {
		return nil, nil, nil, err
	}
	w, err := replay.NewWalk(m, rec, view)
	if err != nil {
		return nil, nil, nil, status.Error(codes.DataLoss, err.Error())
	}
	return stored, rec, w, nil
}
