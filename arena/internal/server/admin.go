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

// matchSummary converts a stored match with its totals.
func matchSummary(ctx context.Context, store domain.Store, m *domain.Match) *tappv1.MatchSummary {
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
	if res, err := match.Summarize(ctx, store, m); err == nil {
		sum.DealsPlayed = int32(res.Deals)
		for _, b := range m.Spec.Bots {
			sum.Net = append(sum.Net, int64(res.Net[b]))
		}
	}
	return sum
}

// matchDetails returns a stored match with every deal's summary.
func matchDetails(ctx context.Context, store domain.Store, matchID string) (*tappv1.GetMatchResponse, error) {
	m, err := store.GetMatch(ctx, matchID)
	if err != nil {
		return nil, err
	}
	deals, err := store.Deals(ctx, matchID)
	if err != nil {
		return nil, err
	}
	resp := &tappv1.GetMatchResponse{Match: matchSummary(ctx, store, m)}
	for _, d := range deals {
		resp.Deals = append(resp.Deals, &tappv1.DealSummary{
			DealNumber: int32(d.Number), Seating: d.Seating, Deal: d.Deal.Format(m.Spec.Rules),
			Settlement: protoconv.SettlementForPlayers(protoconv.OutcomeToProto(d.Outcome), m.Spec.Rules.Players),
		})
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
	ms, err := a.s.cfg.Store.ListMatches(ctx, domain.MatchFilter{Bot: req.GetBot(), Limit: int(req.GetLimit())})
	if err != nil {
		return nil, status.Errorf(codes.Internal, "listing matches: %v", err)
	}
	resp := &tappv1.ListMatchesResponse{}
	for i := range ms {
		resp.Matches = append(resp.Matches, matchSummary(ctx, a.s.cfg.Store, &ms[i]))
	}
	return resp, nil
}

func (a *adminService) GetMatch(ctx context.Context, req *tappv1.GetMatchRequest) (*tappv1.GetMatchResponse, error) {
	if err := a.s.authAdmin(ctx); err != nil {
		return nil, err
	}
	if a.start == nil {
		return nil, status.Error(codes.Unimplemented, "this arena keeps no matches")
	}
	resp, err := matchDetails(ctx, a.s.cfg.Store, req.GetMatchId())
	if errors.Is(err, domain.ErrNotFound) {
		return nil, status.Errorf(codes.NotFound, "no match %q", req.GetMatchId())
	}
	if err != nil {
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
