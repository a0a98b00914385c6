package server

import (
	"context"
	"errors"

	"go.uber.org/zap"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/match"
	"github.com/tapparena/tapp/arena/internal/protoconv"
	"github.com/tapparena/tapp/arena/internal/replay"
	"github.com/tapparena/tapp/engine"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// MatchStarter starts matches in the background (match.Service): StartMatch returns the new
// match's id, Running lists the matches it plays, Watch streams a running match's public
// events until it ends.
type MatchStarter interface {
	StartMatch(ctx context.Context, spec domain.MatchSpec) (string, error)
	Running() []string
	Watch(ctx context.Context, matchID string, send func(match.Seen) error) error
}

// MatchFeed is a match service as the admin API's WatchMatch and the dashboard's live view
// see it: events as WatchMatchResponse messages.
type MatchFeed struct{ Matches MatchStarter }

// Running lists the running matches.
func (f MatchFeed) Running() []string { return f.Matches.Running() }

// Watch streams a running match's public events until it ends or ctx ends.
func (f MatchFeed) Watch(ctx context.Context, matchID string, send func(*tappv1.WatchMatchResponse) error) error {
	return f.Matches.Watch(ctx, matchID, func(s match.Seen) error { return send(seenToProto(s)) })
}

func seenToProto(s match.Seen) *tappv1.WatchMatchResponse {
	if s.MatchFinished {
		return &tappv1.WatchMatchResponse{MatchFinished: true}
	}
	return &tappv1.WatchMatchResponse{GameId: s.GameID, DealNumber: int32(s.Number), Event: protoconv.EventToProto(&s.Event, -1, 0)}
}

// specFromProto reads an admin StartMatch request.
func specFromProto(req *tappv1.StartMatchRequest) (domain.MatchSpec, error) {
	text := req.GetRules()
	if text == "" {
		text = "modern"
	}
	rules, err := engine.ParseRuleSet(text)
	if err != nil {
		return domain.MatchSpec{}, err
	}
	spec := domain.MatchSpec{
		Rules: rules, Bots: req.GetBots(), Deals: int(req.GetDeals()), Seed: req.GetSeed(),
		Duplicate: req.GetDuplicate(), DealsText: req.GetDealsText(),
		TimeControl: protoconv.TimeControlFromProto(req.GetTimeControl()),
		Format:      req.GetFormat(), Rounds: int(req.GetRounds()),
	}
	if err := spec.TimeControl.Check(); err != nil {
		return spec, err
	}
	_, err = match.NewSchedule(spec)
	return spec, err
}

// The admin API's match calls read as the dashboard's do: a bounded page of deals, the kept
// sums, never every stored result of a match.
const (
	defaultListedMatches = 50
	maxListedMatches     = 500
	defaultDealPage      = 200
	maxDealPage          = 1000
)

// MatchStore is what the admin API's ListMatches and GetMatch read; both stores have it.
type MatchStore interface {
	GetMatch(ctx context.Context, id string) (*domain.Match, error)
	ListMatches(ctx context.Context, f domain.MatchFilter) ([]domain.Match, error)
	// DealSpan: the count of a match's stored deals, the first and last of their numbers.
	DealSpan(ctx context.Context, matchID string) (n, first, last int, err error)
	replay.GateStore
	replay.HeldStore
}

// matchSummary is a stored match with its deals stored and its net over those not in play
// (gate): kept sums, not its deals.
func matchSummary(ctx context.Context, store MatchStore, m *domain.Match, gate *replay.Gate) (*tappv1.MatchSummary, error) {
	sum := &tappv1.MatchSummary{
		MatchId: m.ID, Status: string(m.Status), Rules: m.Spec.Rules.String(), Bots: m.Spec.Bots,
		Started: protoconv.Timestamp(m.Started), Forfeited: m.Forfeited,
	}
	if !m.Finished.IsZero() {
		sum.Finished = protoconv.Timestamp(m.Finished)
	}
	if tables, err := match.NewSchedule(m.Spec); err == nil {
		sum.DealsPlanned = int32(tables.Len())
	}
	played, _, _, err := store.DealSpan(ctx, m.ID)
	if err != nil {
		return nil, err
	}
	net, err := replay.OpenNets(ctx, store, m, gate)
	if err != nil {
		return nil, err
	}
	sum.DealsPlayed = int32(played)
	for _, b := range m.Spec.Bots {
		sum.Net = append(sum.Net, net[b])
	}
	return sum, nil
}

// matchPage returns a stored match's summary and a page of its deals: limit of them (0 for
// defaultDealPage, at most maxDealPage) from deal number first on. A deal whose cards are
// still in play at another table is listed without them.
func matchPage(ctx context.Context, store MatchStore, matchID string, first, limit int) (*tappv1.GetMatchResponse, error) {
	switch {
	case first < 0:
		return nil, status.Errorf(codes.InvalidArgument, "first_deal %d: deals are numbered from 0", first)
	case limit < 0:
		return nil, status.Errorf(codes.InvalidArgument, "limit %d: want a positive number (or 0 for %d)", limit, defaultDealPage)
	case limit == 0:
		limit = defaultDealPage
	}
	m, err := store.GetMatch(ctx, matchID)
	if err != nil {
		return nil, err
	}
	gate, err := replay.NewGate(ctx, store, m)
	if err != nil {
		return nil, err
	}
	sum, err := matchSummary(ctx, store, m, gate)
	if err != nil {
		return nil, err
	}
	deals, more, err := store.DealSummaryPage(ctx, matchID, first, min(limit, maxDealPage))
	if err != nil {
		return nil, err
	}
	resp := &tappv1.GetMatchResponse{Match: sum, More: more}
	for i := range deals {
		d := &deals[i]
		line := &tappv1.DealSummary{DealNumber: int32(d.Number), Seating: d.Seating, Group: int32(d.Group)}
		resp.Deals = append(resp.Deals, line)
		if gate.Check(d.Number) != nil {
			line.InPlay = true
			continue
		}
		line.Deal = d.Deal.Format(m.Spec.Rules)
		line.Settlement = protoconv.SettlementForPlayers(protoconv.OutcomeToProto(d.Outcome), m.Spec.Rules.Players)
	}
	if more {
		resp.NextDeal = int32(deals[len(deals)-1].Number + 1)
	}
	return resp, nil
}

type adminService struct {
	tappv1.UnimplementedAdminServiceServer
	s     *Server
	start MatchStarter
}

func (a *adminService) RegisterBot(ctx context.Context, req *tappv1.RegisterBotRequest) (*tappv1.RegisterBotResponse, error) {
	if err := a.s.authAdmin(ctx); err != nil {
		return nil, err
	}
	bot, token, err := RegisterBot(ctx, a.s.cfg.Store, req.GetName())
	if err != nil {
		return nil, err
	}
	a.s.log.Info("bot registered", zap.String("bot", bot.Name))
	return &tappv1.RegisterBotResponse{BotId: bot.ID, Token: token}, nil
}

// RegisterBot creates a bot with a fresh token and stores only the token's hash.
func RegisterBot(ctx context.Context, store domain.Store, name string) (*domain.Bot, string, error) {
	if err := ValidBotName(name); err != nil {
		return nil, "", status.Error(codes.InvalidArgument, err.Error())
	}
	token := NewToken("tapp_")
	bot := &domain.Bot{Name: name, TokenHash: HashToken(token)}
	err := store.CreateBot(ctx, bot)
	if errors.Is(err, domain.ErrConflict) {
		return nil, "", status.Errorf(codes.AlreadyExists, "a bot named %q exists already", name)
	}
	if err != nil {
		return nil, "", status.Errorf(codes.Internal, "storing bot: %v", err)
	}
	return bot, token, nil
}

// ValidBotName is domain.ValidBotName: one rule for bot names everywhere.
func ValidBotName(name string) error { return domain.ValidBotName(name) }

func (a *adminService) ListBots(ctx context.Context, _ *tappv1.ListBotsRequest) (*tappv1.ListBotsResponse, error) {
	if err := a.s.authAdmin(ctx); err != nil {
		return nil, err
	}
	bots, err := a.s.cfg.Store.ListBots(ctx)
	if err != nil {
		return nil, status.Errorf(codes.Internal, "listing bots: %v", err)
	}
	live := a.s.connectedBots()
	resp := &tappv1.ListBotsResponse{}
	for _, b := range bots {
		resp.Bots = append(resp.Bots, &tappv1.BotInfo{BotId: b.ID, Name: b.Name, Created: timestamp(b.Created), Connected: live[b.Name] > 0})
	}
	return resp, nil
}

func (a *adminService) ListSessions(ctx context.Context, _ *tappv1.ListSessionsRequest) (*tappv1.ListSessionsResponse, error) {
	if err := a.s.authAdmin(ctx); err != nil {
		return nil, err
	}
	return &tappv1.ListSessionsResponse{Sessions: a.s.Sessions()}, nil
}

func (a *adminService) StartMatch(ctx context.Context, req *tappv1.StartMatchRequest) (*tappv1.StartMatchResponse, error) {
	if err := a.s.authAdmin(ctx); err != nil {
		return nil, err
	}
	if a.start == nil {
		return nil, status.Error(codes.Unimplemented, "this arena does not start matches")
	}
	spec, err := specFromProto(req)
	if err != nil {
		return nil, status.Error(codes.InvalidArgument, err.Error())
	}
	live := a.s.connectedBots()
	seats := map[string]int{}
	for _, b := range spec.Bots {
		seats[b]++
	}
	for _, b := range spec.Bots {
		switch {
		case live[b] == 0:
			return nil, status.Errorf(codes.FailedPrecondition, "bot %q is not connected: start it before the match", b)
		case live[b] < seats[b]:
			// A session never holds two seats of one deal (it would see both hands).
			return nil, status.Errorf(codes.FailedPrecondition,
				"bot %q has %d seats at each table but %d session(s) connected: one session plays one seat of a deal, so start %d more",
				b, seats[b], live[b], seats[b]-live[b])
		}
	}
	id, err := a.start.StartMatch(ctx, spec)
	if err != nil {
		return nil, status.Error(codes.FailedPrecondition, err.Error())
	}
	return &tappv1.StartMatchResponse{MatchId: id}, nil
}

func (a *adminService) ListMatches(ctx context.Context, req *tappv1.ListMatchesRequest) (*tappv1.ListMatchesResponse, error) {
	if err := a.s.authAdmin(ctx); err != nil {
		return nil, err
	}
	if a.start == nil {
		return nil, status.Error(codes.Unimplemented, "this arena keeps no matches")
	}
	store, err := a.matchStore()
	if err != nil {
		return nil, err
	}
	limit := int(req.GetLimit())
	if limit <= 0 {
		limit = defaultListedMatches
	}
	ms, err := store.ListMatches(ctx, domain.MatchFilter{Bot: req.GetBot(), Limit: min(limit, maxListedMatches)})
	if err != nil {
		return nil, status.Errorf(codes.Internal, "listing matches: %v", err)
	}
	resp := &tappv1.ListMatchesResponse{}
	for i := range ms {
		gate, err := replay.NewGate(ctx, store, &ms[i])
		if err != nil {
			return nil, status.Errorf(codes.Internal, "reading match %s: %v", ms[i].ID, err)
		}
		sum, err := matchSummary(ctx, store, &ms[i], gate)
		if err != nil {
			return nil, status.Errorf(codes.Internal, "reading match %s: %v", ms[i].ID, err)
		}
		resp.Matches = append(resp.Matches, sum)
	}
	return resp, nil
}

// matchStore is the arena's store as the match calls read it.
func (a *adminService) matchStore() (MatchStore, error) {
	store, ok := a.s.cfg.Store.(MatchStore)
	if !ok {
		return nil, status.Error(codes.Unimplemented, "this arena's store cannot list matches a page at a time")
	}
	return store, nil
}

func (a *adminService) GetMatch(ctx context.Context, req *tappv1.GetMatchRequest) (*tappv1.GetMatchResponse, error) {
	if err := a.s.authAdmin(ctx); err != nil {
		return nil, err
	}
	if a.start == nil {
		return nil, status.Error(codes.Unimplemented, "this arena keeps no matches")
	}
	store, err := a.matchStore()
	if err != nil {
		return nil, err
	}
	resp, err := matchPage(ctx, store, req.GetMatchId(), int(req.GetFirstDeal()), int(req.GetLimit()))
	if errors.Is(err, domain.ErrNotFound) {
		return nil, status.Errorf(codes.NotFound, "no match %q", req.GetMatchId())
	}
	if err != nil {
		if _, isStatus := status.FromError(err); isStatus { // a bad page asked for
			return nil, err
		}
		return nil, status.Errorf(codes.Internal, "reading match: %v", err)
	}
	return resp, nil
}

func (a *adminService) WatchMatch(req *tappv1.WatchMatchRequest, stream tappv1.AdminService_WatchMatchServer) error {
	if err := a.s.authAdmin(stream.Context()); err != nil {
		return err
	}
	if a.start == nil {
		return status.Error(codes.Unimplemented, "this arena runs no matches")
	}
	err := MatchFeed{a.start}.Watch(stream.Context(), req.GetMatchId(), stream.Send)
	if errors.Is(err, domain.ErrNotFound) {
		return status.Errorf(codes.NotFound, "no running match %q", req.GetMatchId())
	}
	return err
}

func (a *adminService) RotateBotToken(ctx context.Context, req *tappv1.RotateBotTokenRequest) (*tappv1.RotateBotTokenResponse, error) {
	if err := a.s.authAdmin(ctx); err != nil {
		return nil, err
	}
	token, n, err := a.s.RotateToken(ctx, req.GetName())
	if err != nil {
		return nil, err
	}
	return &tappv1.RotateBotTokenResponse{Token: token, Disconnected: int32(n)}, nil
}

func (a *adminService) RevokeBotToken(ctx context.Context, req *tappv1.RevokeBotTokenRequest) (*tappv1.RevokeBotTokenResponse, error) {
	if err := a.s.authAdmin(ctx); err != nil {
		return nil, err
	}
	n, err := a.s.RevokeToken(ctx, req.GetName())
	if err != nil {
		return nil, err
	}
	return &tappv1.RevokeBotTokenResponse{Disconnected: int32(n)}, nil
}
