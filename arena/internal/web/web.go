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
// assets/ (the page: HTML, CSS and one script, embedded).
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

	"connectrpc.com/vanguard"
	"connectrpc.com/vanguard/vanguardgrpc"
	"go.uber.org/zap"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"

	viewv1 "github.com/tapparena/tapp/proto/tapp/view/v1"
)

//go:embed assets
var assets embed.FS

// pageJSON is the JSON the page speaks: unset fields are sent (the page reads zeros rather
// than missing keys) and unknown fields from a newer page are ignored rather than refused.
// The resolver finds the types of Any fields (nil: the global registry).
func pageJSON(res vanguard.TypeResolver) vanguard.Codec {
	return &vanguard.JSONCodec{
		MarshalOptions:   protojson.MarshalOptions{Resolver: res, EmitUnpopulated: true},
		UnmarshalOptions: protojson.UnmarshalOptions{Resolver: res, DiscardUnknown: true},
	}
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
	Log         *zap.Logger
	// Submissions, when set, takes hosted bots' versions at /api/submissions (upload.go).
	Submissions Submissions
}

// Handler is the dashboard: the page at /, its assets, and the services under their gRPC
// paths (/tapp.view.v1.ViewService/..., /tapp.v1.AdminService/...).
func Handler(cfg Config) (http.Handler, error) {
	if cfg.Log == nil {
		cfg.Log = zap.NewNop()
	}
	// The services' gRPC server is reached only through the transcoder, and speaks the page's
	// JSON itself: a page's request passes through to it without a second conversion. The
	// codec is this server's own, not one registered for the whole process.
	g := grpc.NewServer(grpc.UnaryInterceptor(readAccess(cfg.ViewerToken)), grpc.ForceServerCodec(vanguardgrpc.NewCodec(pageJSON(nil))))
	viewv1.RegisterViewServiceServer(g, cfg.View)
	if cfg.Admin != nil {
		cfg.Admin(g)
	}
	var services []*vanguard.Service
	for name := range g.GetServiceInfo() {
		services = append(services, vanguard.NewService(name, g))
	}
	rpc, err := vanguard.NewTranscoder(services,
		vanguard.WithCodec(pageJSON),
		vanguard.WithDefaultServiceOptions(vanguard.WithTargetCodecs(vanguard.CodecJSON), vanguard.WithTargetProtocols(vanguard.ProtocolGRPC)))
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
	if cfg.Submissions != nil {
		mux.Handle("/api/submissions", uploadHandler(cfg.Submissions, cfg.Log))
	}
	mux.Handle("/", noStore(static))
	return mux, nil
}

// Serve serves the dashboard on lis until ctx ends.
func Serve(ctx context.Context, lis net.Listener, h http.Handler, log *zap.Logger) error {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: httpHeaderTimeout}
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
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return true
	}
	if host == "localhost" {
		return false
	}
	ip := net.ParseIP(host)
	return ip == nil || !ip.IsLoopback()
}

func noStore(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The page is small and changes with the binary: never serve a stale one.
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Content-Security-Policy", "default-src 'self'; style-src 'self'; script-src 'self'; img-src 'self' data:")
		h.ServeHTTP(w, r)
	})
}

// readAccess guards the view service: with a viewer token every call needs it (or the admin
// token, which the admin service checks itself); without one only loopback clients are served.
func readAccess(viewerToken string) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		if !strings.HasPrefix(info.FullMethod, "/"+viewv1.ViewService_ServiceDesc.ServiceName+"/") {
			return handler(ctx, req) // the admin service checks the admin token itself
		}
		if viewerToken != "" {
			if subtle.ConstantTimeCompare([]byte(bearer(ctx)), []byte(viewerToken)) != 1 {
				return nil, status.Error(codes.Unauthenticated, "this dashboard needs its viewer token (open the page with ?token=...)")
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

func loopbackPeer(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
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
