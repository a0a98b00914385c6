package cli

import (
	"context"
	"crypto/tls"
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
	certFile := fs.String("tls-cert", m.Getenv("TAPP_TLS_CERT"), "serve HTTPS with this certificate (PEM; env TAPP_TLS_CERT)")
	keyFile := fs.String("tls-key", m.Getenv("TAPP_TLS_KEY"), "the certificate's private key (PEM; env TAPP_TLS_KEY)")
	plain := fs.Bool("insecure", false, "allow plain HTTP on an address beyond loopback (the viewer token in clear: only behind a TLS proxy)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("tapp web takes no arguments")
	}
	tlsCfg, err := server.LoadTLS(*certFile, *keyFile)
	if err != nil {
		return usagef("%v", err)
	}
	if err := server.CheckPlainText(*addr, tlsCfg != nil, *plain); err != nil {
		return usagef("%v", err)
	}
	// Read-only, unless the admin token lets the page pause and resume leagues: that writes.
	open := m.openExistingStore
	if m.Getenv("TAPP_ADMIN_TOKEN") != "" {
		open = m.openExistingStoreToWrite
	}
	st, err := open(ctx, *dsn)
	if err != nil {
		return err
	}
	defer st.Close()
	_, served, err := m.startDashboard(ctx, st, nil, dashboardAt{addr: *addr, viewerToken: *viewer, tls: tlsCfg, insecure: *plain})
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

// dashboardAt is where and how the dashboard listens.
type dashboardAt struct {
	addr, viewerToken string
	tls               *tls.Config // HTTPS (nil: plain HTTP, refused beyond loopback unless insecure)
	insecure          bool
}

// startDashboard serves the web dashboard over st until ctx ends: read-only, or beside the
// arena a (with its live view and admin service) when a is set. Beyond loopback it needs a
// viewer token, and TLS or an explicit insecure: the viewer token, the admin token and the
// bot tokens the admin API returns travel on it. It returns the dashboard's URL and a
// channel that reports a failure to serve.
func (m *Main) startDashboard(ctx context.Context, st *store.Store, a *host.Host, at dashboardAt) (string, <-chan error, error) {
	if at.viewerToken == "" && web.RequiresViewerToken(at.addr) {
		return "", nil, usagef("the dashboard on %s would be open to others: give --viewer-token (or listen on 127.0.0.1)", at.addr)
	}
	if err := server.CheckPlainText(at.addr, at.tls != nil, at.insecure); err != nil {
		return "", nil, usagef("dashboard: %v", err)
	}
	// With the admin token the admin may pause and resume leagues from the page.
	adminToken := m.Getenv("TAPP_ADMIN_TOKEN")
	if err := server.CheckToken("TAPP_ADMIN_TOKEN", adminToken); err != nil {
		return "", nil, usagef("%v", err)
	}
	d := web.Dashboard{Store: st, Leaderboards: app.Leaderboards(st), Addr: at.addr, ViewerToken: at.viewerToken, TLS: at.tls, Log: m.Log,
		Pauser: st, AdminToken: adminToken,
		Submissions: submissions(st)} // hosted bots' versions, for their token holders (upload.html)
	if a != nil {
		d.Live, d.Admin = server.MatchFeed{Matches: a.Service}, a.Server.RegisterAdmin
	}
	url, served, err := web.Start(ctx, d)
	if err != nil {
		return "", nil, err
	}
	// The link with the token is for the person at the terminal only; it never goes to a
	// log (stderr that is not a terminal is one).
	switch {
	case at.viewerToken != "" && m.Terminal:
		fmt.Fprintf(m.Stderr, "dashboard: %s?token=%s (opened once, the page keeps the token in a cookie)\n", url, at.viewerToken)
	case at.viewerToken != "":
		fmt.Fprintf(m.Stderr, "dashboard: %s (open it once as %s?token=THE-VIEWER-TOKEN)\n", url, url)
	default:
		fmt.Fprintf(m.Stderr, "dashboard: %s\n", url)
	}
	return url, served, nil
}
