package server

import (
	"context"
	"errors"

	"go.uber.org/zap"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/tapparena/tapp/arena"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// MatchStarter starts a match in the background and returns its id; watch, when a client
// watches the match, receives its events.
type MatchStarter interface {
	StartMatch(ctx context.Context, spec arena.MatchSpec) (string, error)
	Watch(ctx context.Context, matchID string, send func(*tappv1.WatchMatchResponse) error) error
	MatchDetails(ctx context.Context, matchID string) (*tappv1.GetMatchResponse, error)
	MatchSummary(m *arena.Match) *tappv1.MatchSummary
	SpecFromProto(req *tappv1.StartMatchRequest) (arena.MatchSpec, error)
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
func RegisterBot(ctx context.Context, store arena.Store, name string) (*arena.Bot, string, error) {
	if err := ValidBotName(name); err != nil {
		return nil, "", status.Error(codes.InvalidArgument, err.Error())
	}
	token := NewToken("tapp_")
	bot := &arena.Bot{Name: name, TokenHash: HashToken(token)}
	err := store.CreateBot(ctx, bot)
	if errors.Is(err, arena.ErrConflict) {
		return nil, "", status.Errorf(codes.AlreadyExists, "a bot named %q exists already", name)
	}
	if err != nil {
		return nil, "", status.Errorf(codes.Internal, "storing bot: %v", err)
	}
	return bot, token, nil
}

// ValidBotName is arena.ValidBotName: one rule for bot names everywhere.
func ValidBotName(name string) error { return arena.ValidBotName(name) }

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
	spec, err := a.start.SpecFromProto(req)
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
	ms, err := a.s.cfg.Store.ListMatches(ctx, arena.MatchFilter{Bot: req.GetBot(), Limit: int(req.GetLimit())})
	if err != nil {
		return nil, status.Errorf(codes.Internal, "listing matches: %v", err)
	}
	resp := &tappv1.ListMatchesResponse{}
	for i := range ms {
		resp.Matches = append(resp.Matches, a.start.MatchSummary(&ms[i]))
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
	resp, err := a.start.MatchDetails(ctx, req.GetMatchId())
	if errors.Is(err, arena.ErrNotFound) {
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
	err := a.start.Watch(stream.Context(), req.GetMatchId(), stream.Send)
	if errors.Is(err, arena.ErrNotFound) {
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
