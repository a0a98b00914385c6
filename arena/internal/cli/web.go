package cli

import (
	"context"
	"fmt"

	"github.com/tapparena/tapp/arena/internal/app"
	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/host"
	"github.com/tapparena/tapp/arena/internal/hosting"
	"github.com/tapparena/tapp/arena/internal/server"
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
	_, served, err := m.startDashboard(ctx, st, nil, *addr, *viewer)
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

// submissions is the hosting use case as the dashboard's port: an uploaded version stored
// for its bot's token holder.
func submissions(st hosting.Store) web.Submissions {
	return func(ctx context.Context, u web.Upload) (*domain.Submission, error) {
		return hosting.SubmitArchive(ctx, st, hosting.Request{Bot: u.Bot, Token: u.Token, Lang: u.Lang, Entry: u.Entry}, u.Archive, u.Format)
	}
}

// startDashboard serves the web dashboard over st on addr until ctx ends: read-only, or
// beside the arena a (with its live view and admin service) when a is set. It returns the
// dashboard's URL and a channel that reports a failure to serve.
func (m *Main) startDashboard(ctx context.Context, st *store.Store, a *host.Host, addr, viewerToken string) (string, <-chan error, error) {
	if viewerToken == "" && web.RequiresViewerToken(addr) {
		return "", nil, usagef("the dashboard on %s would be open to others: give --viewer-token (or listen on 127.0.0.1)", addr)
	}
	d := web.Dashboard{Store: st, Leaderboards: app.Leaderboards(st), Addr: addr, ViewerToken: viewerToken, Log: m.Log,
		Submissions: submissions(st)} // hosted bots' versions, for their token holders (upload.html)
	if a != nil {
		d.Live, d.Admin = server.MatchFeed{Matches: a.Service}, a.Server.RegisterAdmin
	}
	url, served, err := web.Start(ctx, d)
	if err != nil {
		return "", nil, err
	}
	fmt.Fprintf(m.Stderr, "dashboard: %s\n", url)
	return url, served, nil
}
