package web

import (
	"context"
	"time"

	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/tapparena/tapp/arena/internal/protoconv"
	viewv1 "github.com/tapparena/tapp/proto/tapp/view/v1"
)

// GetLeagueProgress is a league's progress from its counters (deals stored, matches
// scheduled and finished, the deals planned, each bot's strikes, fallbacks and forfeits:
// running totals kept in the transactions that schedule and store), the jobs being played,
// its rate over the last minute and the ETA. Nothing scans the league's deals or jobs.
func (v *View) GetLeagueProgress(ctx context.Context, req *viewv1.GetLeagueProgressRequest) (*viewv1.GetLeagueProgressResponse, error) {
	l, err := v.Store.GetLeague(ctx, req.GetLeagueId())
	if err != nil {
		return nil, grpcError(err)
	}
	deals, err := v.Store.LeagueDeals(ctx, l.ID)
	if err != nil {
		return nil, grpcError(err)
	}
	jobs, err := v.Store.LeagueJobTotals(ctx, l.ID)
	if err != nil {
		return nil, grpcError(err)
	}
	bots, err := v.Store.LeagueBots(ctx, l.ID)
	if err != nil {
		return nil, grpcError(err)
	}
	resp := &viewv1.GetLeagueProgressResponse{LeagueId: l.ID, Status: string(l.Status), DealsStored: int32(deals), Updated: protoconv.Timestamp(l.Updated),
		MatchesScheduled: int32(l.Matches), MatchesFinished: int32(l.MatchesFinished), MatchesRunning: int32(max(l.Matches-l.MatchesFinished, 0)),
		Paused: l.Paused, Pausable: v.Pauser != nil}
	planned := jobs.DealsPlanned
	resp.JobsRunning = int32(jobs.JobsRunning)
	if planned >= deals {
		resp.DealsPlanned = int32(planned)
	}
	for _, b := range bots {
		resp.Bots = append(resp.Bots, &viewv1.BotProgress{Bot: b.Bot, Deals: int32(b.Deals), Decisions: int32(b.Decisions),
			Strikes: int32(b.Strikes), Fallbacks: int32(b.Fallbacks), Forfeited: int32(b.Forfeited)})
	}
	rate, window := v.rate(l.ID, deals)
	if window > 0 {
		resp.DealsPerSecond, resp.RateWindow = rate, durationpb.New(window.Round(time.Second))
	}
	if rate > 0 && planned > deals {
		resp.Eta = durationpb.New(time.Duration(float64(planned-deals) / rate * float64(time.Second)))
	}
	return resp, nil
}

// The rate of a league is measured over the samples its pages' polls leave: one kept at most
// every rateSampleEvery, the oldest within rateSpan used, once it is rateMinSpan old.
const (
	rateSpan        = time.Minute
	rateMinSpan     = 5 * time.Second
	rateSampleEvery = time.Second
)

// rateWindow is one league's recent (time, deals stored) samples, oldest first.
type rateWindow struct {
	at    []time.Time
	deals []int
}

// rate is the league's deals per second over the last minute of samples (as far as this
// dashboard has watched it: at least rateMinSpan, else 0 and a zero window). Deals are stored
// in batches, so a rate between two polls a few seconds apart jumps with each commit; over a
// minute it is steady.
func (v *View) rate(league string, deals int) (float64, time.Duration) {
	now := v.clock()
	v.mu.Lock()
	defer v.mu.Unlock()
	w := v.rates[league]
	if w == nil || (len(w.deals) > 0 && deals < w.deals[len(w.deals)-1]) { // new, or the league was started afresh
		w = &rateWindow{}
		if v.rates == nil {
			v.rates = make(map[string]*rateWindow)
		}
		v.rates[league] = w
	}
	if len(w.at) == 0 || now.Sub(w.at[len(w.at)-1]) >= rateSampleEvery {
		w.at, w.deals = append(w.at, now), append(w.deals, deals)
	}
	for len(w.at) > 1 && now.Sub(w.at[1]) >= rateSpan { // keep one sample at least rateSpan old
		w.at, w.deals = w.at[1:], w.deals[1:]
	}
	span := now.Sub(w.at[0])
	if span < rateMinSpan {
		return 0, 0
	}
	return float64(deals-w.deals[0]) / span.Seconds(), span
}
