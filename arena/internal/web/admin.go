package web

import (
	"context"
	"errors"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/tapparena/tapp/arena/internal/domain"
	viewv1 "github.com/tapparena/tapp/proto/tapp/view/v1"
)

// leagueAdmin is the LeagueAdminService: pausing and resuming a league in the store, which
// its workers read every poll (arena/internal/league). The admin token is checked by the
// handler's interceptor (readAccess) before a call reaches it.
type leagueAdmin struct {
	viewv1.UnimplementedLeagueAdminServiceServer
	pauser Pauser
}

// SetLeaguePaused pauses or resumes a league.
func (a *leagueAdmin) SetLeaguePaused(ctx context.Context, req *viewv1.SetLeaguePausedRequest) (*viewv1.SetLeaguePausedResponse, error) {
	if req.GetLeagueId() == "" {
		return nil, status.Error(codes.InvalidArgument, "league_id: which league?")
	}
	if err := a.pauser.SetLeaguePaused(ctx, req.GetLeagueId(), req.GetPaused()); err != nil {
		if errors.Is(err, domain.ErrNotFound) {
			return nil, status.Errorf(codes.NotFound, "no league %q", req.GetLeagueId())
		}
		return nil, grpcError(err)
	}
	return &viewv1.SetLeaguePausedResponse{Paused: req.GetPaused()}, nil
}
