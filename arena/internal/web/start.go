package web

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"strings"

	"go.uber.org/zap"
	"google.golang.org/grpc"
)

// Dashboard is what Start serves, where and to whom.
type Dashboard struct {
	Store        Store
	Leaderboards Leaderboards
	// Live is the local arena's running matches for the live view (nil: no live view, as
	// `tapp web` over a database has none).
	Live LiveSource
	// Admin registers the admin service (nil: a read-only dashboard).
	Admin       func(grpc.ServiceRegistrar)
	Addr        string // the address to listen on
	ViewerToken string // see Config.ViewerToken
	// TLS, when set, serves HTTPS (the arena's certificate): the viewer token, the admin
	// token and the bot tokens the admin API returns never cross a network in clear text.
	TLS *tls.Config
	Log *zap.Logger
	// Submissions takes hosted bots' versions (nil: none; see Config.Submissions).
	Submissions Submissions
}

// Start listens on d.Addr and serves the dashboard until ctx ends. It returns the
// dashboard's URL (without the viewer token, which is never logged: open URL?token=... once,
// and the page keeps it in a cookie) and a channel that reports a failure to serve.
func Start(ctx context.Context, d Dashboard) (url string, served <-chan error, err error) {
	if d.Log == nil {
		d.Log = zap.NewNop()
	}
	var lv *Live
	if d.Live != nil {
		lv = NewLive(ctx, d.Live)
	}
	h, err := Handler(Config{View: NewView(d.Store, d.Leaderboards, lv), Admin: d.Admin, ViewerToken: d.ViewerToken,
		Secure: d.TLS != nil, Log: d.Log, Submissions: d.Submissions})
	if err != nil {
		return "", nil, err
	}
	lis, err := net.Listen("tcp", d.Addr)
	if err != nil {
		return "", nil, fmt.Errorf("dashboard: listening on %s: %w", d.Addr, err)
	}
	url = "http://" + lis.Addr().String() + "/"
	if d.TLS != nil {
		lis = tls.NewListener(lis, d.TLS)
		url = "https://" + strings.TrimPrefix(url, "http://")
	}
	d.Log.Info("dashboard serving", zap.String("url", url), zap.Bool("tls", d.TLS != nil), zap.Bool("viewer_token", d.ViewerToken != ""))
	ch := make(chan error, 1)
	go func() { ch <- Serve(ctx, lis, h, d.Log) }()
	return url, ch, nil
}
