package web

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/tapparena/tapp/arena/internal/board"
	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/match"
	"github.com/tapparena/tapp/arena/internal/protoconv"
	"github.com/tapparena/tapp/arena/internal/replay"
	"github.com/tapparena/tapp/engine"
	viewv1 "github.com/tapparena/tapp/proto/tapp/view/v1"
)

const (
	httpHeaderTimeout = 10 * time.Second
	// maxListedMatches bounds one ListMatches answer, whatever the page asks.
	maxListedMatches = 500
	defaultListed    = 50
	// A match page lists defaultDealPage deals unless it asks for more, at most maxDealPage:
	// a 10,000-deal match is a few hundred kilobytes a page, not megabytes at once.
	defaultDealPage = 200
	maxDealPage     = 1000
	// A rating history has defaultHistoryPoints points of multiplayer Elo in all unless the
	// page asks for others, at most maxHistoryPoints: a few hundred matches per bot draw the
	// curve. Of the headline's points it keeps at most maxRatingPoints. At 12 bots all of it
	// is about 200 KB at most in JSON (a point of each is about 120 and 320 bytes).
	defaultHistoryPoints = 800
	maxHistoryPoints     = 1000
	maxRatingPoints      = 24
	// replayNeighbours is how many deal numbers on either side of a replayed deal its
	// navigation lists.
	replayNeighbours = 100
)

// Store is what the dashboard reads; the SQL store (arena/internal/store) has all of it. Every method reads a
// bounded number of rows (one match, one deal, one league's counters), never all results.
type Store interface {
	GetMatch(ctx context.Context, id string) (*domain.Match, error)
	ListMatches(ctx context.Context, f domain.MatchFilter) ([]domain.Match, error)
	Deal(ctx context.Context, matchID string, number int) (*domain.DealRecord, error)
	// DealSpan: the count of a match's stored deals, the first and last of their numbers.
	DealSpan(ctx context.Context, matchID string) (n, first, last int, err error)
	replay.GateStore // which deals are in play (DealNumbers also when a deal is missing)
	replay.HeldStore // the kept nets, and a page of deals
	// ScoreBefore: each bot's net over the match's stored deals numbered below a number, and
	// how many they are, from kept sums and fewer than a block of deals (the replay's and the
	// live view's running score).
	ScoreBefore(ctx context.Context, matchID string, number int) (map[string]int64, int, error)
	board.EloHistorySource
	ListLeagues(ctx context.Context) ([]domain.League, error)
	GetLeague(ctx context.Context, id string) (*domain.League, error)
	// LeagueJobTotals: a league's planned deals (a running total) and the jobs being played.
	LeagueJobTotals(ctx context.Context, league string) (domain.LeagueJobTotals, error)
	LeagueDeals(ctx context.Context, league string) (int, error)
	// BoardDeals is LeagueDeals with the deals other leagues play onto the league's board (a
	// standing ladder's epochs onto the ladder's row): what the league list shows.
	BoardDeals(ctx context.Context, league string) (int, error)
	// LeagueBots: a league's running totals per bot (strikes, fallbacks, forfeits).
	LeagueBots(ctx context.Context, league string) ([]domain.LeagueBot, error)
	// DealAnalysis: a deal's stored double-dummy analysis (tapp analyze), domain.ErrNotFound
	// when it has none.
	DealAnalysis(ctx context.Context, matchID string, number int, method string) ([]byte, error)
}

// Pauser pauses and resumes leagues (the SQL store has it): what LeagueAdminService changes.
type Pauser interface {
	SetLeaguePaused(ctx context.Context, id string, paused bool) error
}

// Leaderboards computes the board of the results a filter selects (the same the CLI prints).
type Leaderboards func(ctx context.Context, f domain.MatchFilter) (*board.Leaderboard, error)

// View implements the view service over a store.
type View struct {
	viewv1.UnimplementedViewServiceServer
	Store       Store
	Leaderboard Leaderboards
	// Live is the arena's running matches; nil where no arena runs (`tapp web`).
	Live *Live
	// Pauser, when set, lets the admin pause and resume leagues (LeagueAdminService, served
	// when the dashboard has the admin token).
	Pauser Pauser
	// Analyses gives the double-dummy analysis of a deal (GetReplayAnalysis); nil: none.
	Analyses *Analyses
	now      func() time.Time

	boards singleflight.Group // by filter: the boards being computed (board)

	mu    sync.Mutex
	rates map[string]*rateWindow     // by league: the deals stored at earlier calls (progress.go)
	plans map[string]*match.Schedule // by running match
	live  map[string]*liveTotal      // by running match: its score as the live view follows it
}

// NewView is a view service over st.
func NewView(st Store, boards Leaderboards, live *Live) *View {
	return &View{Store: st, Leaderboard: boards, Live: live, now: time.Now, rates: make(map[string]*rateWindow),
		plans: make(map[string]*match.Schedule), live: make(map[string]*liveTotal)}
}

// clock is the time now (tests set now; a View made without NewView reads the wall clock).
func (v *View) clock() time.Time {
	if v.now == nil {
		return time.Now()
	}
	return v.now()
}

// grpcError turns a store error into a status the page can show.
func grpcError(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, domain.ErrNotFound):
		return status.Error(codes.NotFound, err.Error())
	case errors.Is(err, replay.ErrInPlay):
		return status.Error(codes.FailedPrecondition, err.Error())
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return status.FromContextError(err).Err()
	}
	if _, ok := status.FromError(err); ok {
		return err
	}
	return status.Error(codes.Internal, err.Error())
}

func filterRules(text string) (string, error) {
	if text == "" {
		return "", nil
	}
	r, err := engine.ParseRuleSet(text)
	if err != nil {
		return "", status.Errorf(codes.InvalidArgument, "rules: %v", err)
	}
	return r.String(), nil
}

// ListLeagues lists the stored leagues with their sizes: counters kept as they are played.
func (v *View) ListLeagues(ctx context.Context, _ *viewv1.ListLeaguesRequest) (*viewv1.ListLeaguesResponse, error) {
	ls, err := v.Store.ListLeagues(ctx)
	if err != nil {
		return nil, grpcError(err)
	}
	resp := &viewv1.ListLeaguesResponse{}
	for _, l := range ls {
		info := &viewv1.LeagueInfo{LeagueId: l.ID, Status: string(l.Status), Created: protoconv.Timestamp(l.Created), Updated: protoconv.Timestamp(l.Updated),
			Matches: int32(l.Matches), MatchesFinished: int32(l.MatchesFinished), Paused: l.Paused}
		n, err := v.Store.BoardDeals(ctx, l.ID) // a standing ladder's row: the deals of its board
		if err != nil {
			return nil, grpcError(err)
		}
		info.Deals = int32(n)
		resp.Leagues = append(resp.Leagues, info)
	}
	return resp, nil
}

// GetLeaderboard is the board of a league or of every stored result.
func (v *View) GetLeaderboard(ctx context.Context, req *viewv1.GetLeaderboardRequest) (*viewv1.GetLeaderboardResponse, error) {
	rules, err := filterRules(req.GetRules())
	if err != nil {
		return nil, err
	}
	if id := req.GetLeagueId(); id != "" {
		if _, err := v.Store.GetLeague(ctx, id); err != nil {
			return nil, grpcError(err)
		}
	}
	lb, err := v.board(ctx, domain.MatchFilter{LeagueID: req.GetLeagueId(), Rules: rules})
	if err != nil {
		return nil, grpcError(err)
	}
	return boardToProto(lb), nil
}

// GetRatingHistory is a league's headline rating over its time, with each bot's interval (the
// board's history, a few dozen points the store kept), and beneath each bot its multiplayer
// Elo after its matches, as the board's ledger keeps it (clean matches only), sampled to a
// bounded number of points: its cost and size follow the points shown, not the matches rated.
func (v *View) GetRatingHistory(ctx context.Context, req *viewv1.GetRatingHistoryRequest) (*viewv1.GetRatingHistoryResponse, error) {
	rules, err := filterRules(req.GetRules())
	if err != nil {
		return nil, err
	}
	points := int(req.GetMaxPoints())
	switch {
	case points < 0:
		return nil, status.Errorf(codes.InvalidArgument, "max_points %d: want a positive number (or 0 for %d)", points, defaultHistoryPoints)
	case points == 0:
		points = defaultHistoryPoints
	}
	k := board.BoardEloKey(domain.MatchFilter{LeagueID: req.GetLeagueId(), Rules: rules}, false)
	hs, err := v.Store.EloHistory(ctx, k, min(points, maxHistoryPoints))
	if err != nil {
		return nil, grpcError(err)
	}
	lb, err := v.board(ctx, domain.MatchFilter{LeagueID: req.GetLeagueId(), Rules: rules})
	if err != nil {
		return nil, grpcError(err)
	}
	return historyToProto(lb, hs), nil
}

// board is the leaderboard of f's results. Calls for the same board at the same time share
// one computation: the leaderboard page asks for the board and the rating history at once,
// and both need it. The board is shared: it is read, never changed.
func (v *View) board(ctx context.Context, f domain.MatchFilter) (*board.Leaderboard, error) {
	key := f.LeagueID + "\x00" + f.Rules
	ch := v.boards.DoChan(key, func() (any, error) {
		lb, err := v.Leaderboard(context.WithoutCancel(ctx), f)
		if err == nil {
			lb.League = f.LeagueID
		}
		return lb, err
	})
	select {
	case r := <-ch:
		if r.Err != nil {
			return nil, r.Err
		}
		return r.Val.(*board.Leaderboard), nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func matchInfo(m *domain.Match, played int) *viewv1.MatchInfo {
	info := &viewv1.MatchInfo{
		MatchId: m.ID, Status: string(m.Status), Rules: m.Spec.Rules.String(), Bots: m.Spec.Bots,
		Started: protoconv.Timestamp(m.Started), Forfeited: m.Forfeited, LeagueId: m.Spec.LeagueID,
		Duplicate: m.Spec.Duplicate, Format: m.Spec.Format, DealsPlayed: int32(played),
	}
	if info.Format == "" {
		info.Format = domain.FormatDeals
	}
	if !m.Finished.IsZero() {
		info.Finished = protoconv.Timestamp(m.Finished)
	}
	if tables, err := match.NewSchedule(m.Spec); err == nil {
		info.DealsPlanned = int32(tables.Len())
	}
	return info
}

// ListMatches lists stored matches, newest first.
func (v *View) ListMatches(ctx context.Context, req *viewv1.ListMatchesRequest) (*viewv1.ListMatchesResponse, error) {
	rules, err := filterRules(req.GetRules())
	if err != nil {
		return nil, err
	}
	limit := int(req.GetLimit())
	if limit <= 0 {
		limit = defaultListed
	}
	f := domain.MatchFilter{Bot: req.GetBot(), LeagueID: req.GetLeagueId(), Rules: rules, Limit: min(limit, maxListedMatches)}
	if req.GetSince() != nil {
		f.Since = req.GetSince().AsTime()
	}
	ms, err := v.Store.ListMatches(ctx, f)
	if err != nil {
		return nil, grpcError(err)
	}
	resp := &viewv1.ListMatchesResponse{}
	for i := range ms {
		n, _, _, err := v.Store.DealSpan(ctx, ms[i].ID)
		if err != nil {
			return nil, grpcError(err)
		}
		resp.Matches = append(resp.Matches, matchInfo(&ms[i], n))
	}
	return resp, nil
}

// GetMatch is a match, with its net over every stored deal, and a page of its stored deals
// with each one's contract, declarer, result and payoffs.
func (v *View) GetMatch(ctx context.Context, req *viewv1.GetMatchRequest) (*viewv1.GetMatchResponse, error) {
	first, limit := int(req.GetFirstDeal()), int(req.GetLimit())
	switch {
	case first < 0:
		return nil, status.Errorf(codes.InvalidArgument, "first_deal %d: deals are numbered from 0", first)
	case limit < 0:
		return nil, status.Errorf(codes.InvalidArgument, "limit %d: want a positive number (or 0 for %d)", limit, defaultDealPage)
	case limit == 0:
		limit = defaultDealPage
	}
	m, err := v.Store.GetMatch(ctx, req.GetMatchId())
	if err != nil {
		return nil, grpcError(err)
	}
	deals, more, err := v.Store.DealSummaryPage(ctx, m.ID, first, min(limit, maxDealPage))
	if err != nil {
		return nil, grpcError(err)
	}
	played, _, _, err := v.Store.DealSpan(ctx, m.ID)
	if err != nil {
		return nil, grpcError(err)
	}
	gate, err := replay.NewGate(ctx, v.Store, m)
	if err != nil {
		return nil, grpcError(err)
	}
	net, err := replay.OpenNets(ctx, v.Store, m, gate)
	if err != nil {
		return nil, grpcError(err)
	}
	info := matchInfo(m, played)
	resp := &viewv1.GetMatchResponse{Match: info, More: more}
	for i := range deals {
		d := &deals[i]
		line := &viewv1.DealLine{DealNumber: int32(d.Number), Group: int32(d.Group), Seating: d.Seating}
		resp.Deals = append(resp.Deals, line)
		if gate.Check(d.Number) != nil {
			// Its settlement (the contract, who made it, the points) tells of cards still in
			// play at another table: only that it is stored is shown, and it is not in the net.
			line.InPlay = true
			continue
		}
		line.Settlement = protoconv.SettlementForPlayers(protoconv.OutcomeToProto(d.Outcome), m.Spec.Rules.Players)
	}
	if more {
		resp.NextDeal = int32(deals[len(deals)-1].Number + 1)
	}
	for _, b := range m.Spec.Bots {
		info.Net = append(info.Net, net[b])
	}
	return resp, nil
}

// GetLive is the public state of the arena's running matches.
func (v *View) GetLive(ctx context.Context, req *viewv1.GetLiveRequest) (*viewv1.GetLiveResponse, error) {
	if v.Live == nil {
		return &viewv1.GetLiveResponse{}, nil
	}
	resp := &viewv1.GetLiveResponse{}
	for _, id := range v.Live.Running() {
		if m, err := v.Store.GetMatch(ctx, id); err == nil {
			resp.Running = append(resp.Running, matchInfo(m, 0))
		}
	}
	if req.GetMatchId() == "" {
		return resp, nil
	}
	settled, err := v.Live.fill(ctx, req.GetMatchId(), req.GetAfterSeq(), resp)
	if err != nil {
		return nil, grpcError(fmt.Errorf("match %s: %w", req.GetMatchId(), err))
	}
	m, err := v.Store.GetMatch(ctx, req.GetMatchId())
	if err != nil {
		return nil, grpcError(err)
	}
	tables, err := v.schedule(ctx, req.GetMatchId())
	if err != nil {
		return nil, grpcError(err)
	}
	for _, d := range resp.Deals {
		if n := int(d.DealNumber); n >= 0 && n < tables.Len() {
			d.Seating = tables.Table(n).Seating
		}
	}
	played, net, err := v.liveScore(ctx, m, tables, settled)
	if err != nil {
		return nil, grpcError(err)
	}
	resp.Match = matchInfo(m, played)
	for _, b := range m.Spec.Bots {
		resp.Match.Net = append(resp.Match.Net, net[b])
	}
	return resp, nil
}

// schedule is a running match's schedule, which gives each deal's seating (kept: a poll
// should not read the match and its deal file again).
func (v *View) schedule(ctx context.Context, matchID string) (*match.Schedule, error) {
	v.mu.Lock()
	s, ok := v.plans[matchID]
	v.mu.Unlock()
	if ok {
		return s, nil
	}
	m, err := v.Store.GetMatch(ctx, matchID)
	if err != nil {
		return nil, err
	}
	s, err = match.NewSchedule(m.Spec)
	if err != nil {
		return nil, err
	}
	v.mu.Lock()
	if v.plans == nil || len(v.plans) > 64 {
		v.plans = make(map[string]*match.Schedule)
	}
	v.plans[matchID] = s
	v.mu.Unlock()
	return s, nil
}
