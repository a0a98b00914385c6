// Package web is the arena's dashboard: a read-only view service over a store (leaderboard,
// rating history, league progress, matches, replays, live tables) and the HTTP handler that
// serves it to browsers beside the page itself.
//
// The browser speaks the same API as every other client: the services are registered on a
// gRPC server of their own and reach HTTP through Vanguard's transcoder, so a page calls
// POST /tapp.view.v1.ViewService/GetLeaderboard with protobuf JSON (the Connect protocol) and
// no JSON twin of the API is written by hand. The admin service rides along when the dashboard
// runs inside `tapp serve`; its calls keep needing the admin token.
//
// Files: web.go (the handler and its access rules), view.go (the view service), board.go
// (the leaderboard in view terms), replay.go (replays in view terms), live.go (running matches),
// assets/ (the pages: HTML, CSS and their scripts, embedded).
package web

import (
	"context"
	"crypto/subtle"
	"embed"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"strings"
	"time"

	"connectrpc.com/connect"
	"connectrpc.com/vanguard"
	"go.uber.org/zap"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/tapparena/tapp/arena/internal/loopback"
	viewv1 "github.com/tapparena/tapp/proto/tapp/view/v1"
)

//go:embed assets
var assets embed.FS

// pageJSON is the JSON the page speaks: unset fields are sent (the page reads zeros rather
// than missing keys) and unknown fields from a newer page are ignored rather than refused.
// The resolver finds the types of Any fields (nil: the global registry).
func pageJSON(res vanguard.TypeResolver) vanguard.Codec {
	return requestJSON{&vanguard.JSONCodec{
		MarshalOptions:   protojson.MarshalOptions{Resolver: res, EmitUnpopulated: true},
		UnmarshalOptions: protojson.UnmarshalOptions{Resolver: res, DiscardUnknown: true},
	}}
}

// requestJSON is the page's JSON codec, saying what a request that does not parse is: the
// client's mistake, invalid_argument (HTTP 400), not the server's.
type requestJSON struct{ *vanguard.JSONCodec }

// Unmarshal implements vanguard.Codec.
func (c requestJSON) Unmarshal(data []byte, msg proto.Message) error {
	if err := c.JSONCodec.Unmarshal(data, msg); err != nil {
		return connect.NewError(connect.CodeInvalidArgument, fmt.Errorf("the request is not a %s in protobuf JSON: %w", msg.ProtoReflect().Descriptor().Name(), err))
	}
	return nil
}

// Config is what the dashboard serves and to whom.
type Config struct {
	View *View
	// Admin registers the admin service on the dashboard's gRPC server (nil: read-only
	// dashboard, as `tapp web` serves it).
	Admin func(grpc.ServiceRegistrar)
	// ViewerToken, when set, is needed for every read (Bearer header, or ?token= on the page,
	// which the page then sends itself). Without it the pages are open to loopback clients only.
	ViewerToken string
	// AdminToken, when set with View.Pauser, serves LeagueAdminService (pausing and resuming
	// leagues) to the callers that send it.
	AdminToken string
	// Secure marks the viewer cookie for HTTPS only (the dashboard serves TLS).
	Secure bool
	Log    *zap.Logger
	// Submissions, when set, serves the SubmissionService: hosted bots' versions, for their
	// token holders (upload.go).
	Submissions Submissions
}

// Handler is the dashboard: the page at /, its assets, and the services under their gRPC
// paths (/tapp.view.v1.ViewService/..., /tapp.v1.AdminService/...).
func Handler(cfg Config) (http.Handler, error) {
	if cfg.Log == nil {
		cfg.Log = zap.NewNop()
	}
	// The services' gRPC server is reached only through the transcoder, which reads the
	// page's JSON itself: a body that is not the method's message is refused there as
	// invalid_argument (HTTP 400), where the gRPC server could only call it internal.
	if cfg.AdminToken == "" {
		cfg.View.Pauser = nil // nobody could call it: the page offers no pause button
	}
	g := grpc.NewServer(grpc.UnaryInterceptor(readAccess(cfg.ViewerToken, cfg.AdminToken)))
	viewv1.RegisterViewServiceServer(g, cfg.View)
	if cfg.View.Pauser != nil {
		viewv1.RegisterLeagueAdminServiceServer(g, &leagueAdmin{pauser: cfg.View.Pauser})
	}
	if cfg.Admin != nil {
		cfg.Admin(g)
	}
	var services []*vanguard.Service
	for name := range g.GetServiceInfo() {
		services = append(services, vanguard.NewService(name, g))
	}
	var uploads *grpc.Server // the SubmissionService, on a server of its own that takes an archive
	if cfg.Submissions != nil {
		uploads = registerSubmissions(cfg.Submissions, cfg.Log)
		for name := range uploads.GetServiceInfo() {
			services = append(services, vanguard.NewService(name, uploads))
		}
	}
	rpc, err := vanguard.NewTranscoder(services,
		vanguard.WithCodec(pageJSON),
		vanguard.WithDefaultServiceOptions(vanguard.WithTargetCodecs(vanguard.CodecProto), vanguard.WithTargetProtocols(vanguard.ProtocolGRPC)))
	if err != nil {
		return nil, fmt.Errorf("web: %w", err)
	}
	page, err := fs.Sub(assets, "assets")
	if err != nil {
		return nil, err
	}
	static := http.FileServerFS(page)
	mux := http.NewServeMux()
	for name := range g.GetServiceInfo() {
		mux.Handle("/"+name+"/", rpc)
	}
	if uploads != nil {
		for name := range uploads.GetServiceInfo() {
			mux.Handle("/"+name+"/", uploadGuard(rpc))
		}
	}
	mux.Handle("/", noStore(static))
	return guard(mux, cfg), nil
}

// viewerCookie holds the viewer token in the browser once a link with ?token= was opened:
// HttpOnly (no script reads it), SameSite=Strict (no other site's page sends it), Secure
// behind TLS.
const viewerCookie = "tapp_viewer"

// viewerCookieAge is how long a browser keeps the viewer cookie.
const viewerCookieAge = 30 * 24 * time.Hour

// guard adds the headers every response carries — no framing by other sites (clickjacking),
// no referrer leaving the page — and takes the viewer token out of the address: a request
// with ?token= gets the token as a cookie (if it is the right one) and is sent on to the
// same address without it, so that the token stays out of the address bar, the history,
// bookmarks and any log of addresses.
func guard(h http.Handler, cfg Config) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Frame-Options", "DENY")
		w.Header().Set("Referrer-Policy", "no-referrer")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		q := r.URL.Query()
		if !q.Has("token") || (r.Method != http.MethodGet && r.Method != http.MethodHead) {
			h.ServeHTTP(w, r)
			return
		}
		if cfg.ViewerToken != "" && subtle.ConstantTimeCompare([]byte(q.Get("token")), []byte(cfg.ViewerToken)) == 1 {
			http.SetCookie(w, &http.Cookie{Name: viewerCookie, Value: cfg.ViewerToken, Path: "/", HttpOnly: true,
				SameSite: http.SameSiteStrictMode, Secure: cfg.Secure, MaxAge: int(viewerCookieAge / time.Second)})
		}
		q.Del("token")
		to := *r.URL
		to.RawQuery = q.Encode()
		w.Header().Set("Cache-Control", "no-store")
		http.Redirect(w, r, to.RequestURI(), http.StatusSeeOther)
	})
}

// Serve serves the dashboard on lis until ctx ends.
func Serve(ctx context.Context, lis net.Listener, h http.Handler, log *zap.Logger) error {
	// The server's own complaints (a failed TLS handshake, say) go to the log, not to stderr.
	srv := &http.Server{Handler: h, ReadHeaderTimeout: httpHeaderTimeout, ErrorLog: zap.NewStdLog(log.Named("http"))}
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	err := srv.Serve(lis)
	if ctx.Err() != nil {
		return nil
	}
	return err
}

// RequiresViewerToken says whether a dashboard listening on addr must have a viewer token:
// anything beyond loopback is reachable by others.
func RequiresViewerToken(addr string) bool {
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return true
	}
	return !loopback.Listen(addr)
}

func noStore(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The page is small and changes with the binary: never serve a stale one.
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("Content-Security-Policy", "default-src 'self'; style-src 'self'; script-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
		h.ServeHTTP(w, r)
	})
}

// readAccess guards the view service: with a viewer token every call needs it, as a Bearer
// header or the page's cookie (the admin service checks the admin token itself); without one
// only loopback clients are served. The league admin service needs the admin token on every
// call.
func readAccess(viewerToken, adminToken string) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		if strings.HasPrefix(info.FullMethod, "/"+viewv1.LeagueAdminService_ServiceDesc.ServiceName+"/") {
			if adminToken == "" || subtle.ConstantTimeCompare([]byte(bearer(ctx)), []byte(adminToken)) != 1 {
				return nil, status.Error(codes.Unauthenticated, "pausing or resuming a league needs the arena's admin token (TAPP_ADMIN_TOKEN)")
			}
			return handler(ctx, req)
		}
		if !strings.HasPrefix(info.FullMethod, "/"+viewv1.ViewService_ServiceDesc.ServiceName+"/") {
			return handler(ctx, req) // the admin service checks the admin token itself
		}
		if viewerToken != "" {
			if subtle.ConstantTimeCompare([]byte(bearer(ctx)), []byte(viewerToken)) != 1 &&
				subtle.ConstantTimeCompare([]byte(cookie(ctx, viewerCookie)), []byte(viewerToken)) != 1 {
				return nil, status.Error(codes.Unauthenticated, "this dashboard needs its viewer token (open the page once with ?token=...)")
			}
			return handler(ctx, req)
		}
		// The transcoder hands the gRPC server the browser's request, so the peer is the browser.
		if p, ok := peer.FromContext(ctx); !ok || !loopbackPeer(p.Addr.String()) {
			return nil, status.Error(codes.PermissionDenied, "this dashboard serves loopback clients only (start it with --viewer-token to share it)")
		}
		return handler(ctx, req)
	}
}

func loopbackPeer(addr string) bool { return loopback.Peer(addr) }

// cookie returns the value of the named cookie the browser sent ("" without it).
func cookie(ctx context.Context, name string) string {
	md, _ := metadata.FromIncomingContext(ctx)
	for _, line := range md.Get("cookie") {
		cookies, err := http.ParseCookie(line)
		if err != nil {
			continue
		}
		for _, c := range cookies {
			if c.Name == name {
				return c.Value
			}
		}
	}
	return ""
}

func bearer(ctx context.Context) string {
	md, _ := metadata.FromIncomingContext(ctx)
	for _, v := range md.Get("authorization") {
		if t, ok := strings.CutPrefix(v, "Bearer "); ok {
			return t
		}
	}
	return ""
}
