package cli

import (
	"context"
	"fmt"
	"net"

	"go.uber.org/zap"
	"google.golang.org/grpc"

	"github.com/tapparena/tapp/arena"
	"github.com/tapparena/tapp/arena/internal/board"
	"github.com/tapparena/tapp/arena/internal/store"
	"github.com/tapparena/tapp/arena/internal/web"
)

// defaultHTTP is where the dashboard listens unless --http says otherwise.
const defaultHTTP = "127.0.0.1:8080"

func (m *Main) web(ctx context.Context, args []string) error {
	fs := m.flags("web", "[flags]")
	dsn := fs.String("db", m.env("TAPP_DB", defaultDB), "store: a SQLite file or a postgres:// URL (env TAPP_DB)")
	addr := fs.String("http", defaultHTTP, "address the dashboard listens on")
	viewer := fs.String("viewer-token", m.env("TAPP_VIEWER_TOKEN", ""), "token the pages need (required beyond loopback; env TAPP_VIEWER_TOKEN)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("tapp web takes no arguments")
	}
	st, err := m.openExistingStore(ctx, *dsn)
	if err != nil {
		return err
	}
	defer st.Close()
	_, served, err := m.startDashboard(ctx, st, nil, nil, *addr, *viewer)
	if err != nil {
		return err
	}
	select {
	case <-ctx.Done():
		return nil
	case err := <-served:
		return err
	}
}

// startDashboard serves the web dashboard over st on addr until ctx ends: read-only, with
// the live view of a local arena's matches when live is set and its admin service when admin
// is. It returns the dashboard's URL and a channel that reports a failure to serve.
func (m *Main) startDashboard(ctx context.Context, st *store.Store, live web.LiveSource, admin func(grpc.ServiceRegistrar), addr, viewerToken string) (string, <-chan error, error) {
	if viewerToken == "" && web.RequiresViewerToken(addr) {
		return "", nil, usagef("the dashboard on %s would be open to others: give --viewer-token (or listen on 127.0.0.1)", addr)
	}
	var lv *web.Live
	if live != nil {
		lv = web.NewLive(ctx, live)
	}
	boards := func(ctx context.Context, f arena.MatchFilter) (*board.Leaderboard, error) {
		return leaderboard(ctx, st, f, board.LoadOptions{History: true}, board.Options{Families: leagueFamilies(ctx, st, f.LeagueID)})
	}
	h, err := web.Handler(web.Config{View: web.NewView(st, boards, lv), Admin: admin, ViewerToken: viewerToken, Log: m.Log})
	if err != nil {
		return "", nil, err
	}
	lis, err := net.Listen("tcp", addr)
	if err != nil {
		return "", nil, fmt.Errorf("dashboard: listening on %s: %w", addr, err)
	}
	url := "http://" + lis.Addr().String() + "/"
	if viewerToken != "" {
		url += "?token=" + viewerToken
	}
	m.Log.Info("dashboard serving", zap.String("url", url))
	fmt.Fprintf(m.Stderr, "dashboard: %s\n", url)
	served := make(chan error, 1)
	go func() { served <- web.Serve(ctx, lis, h, m.Log) }()
	return url, served, nil
}
