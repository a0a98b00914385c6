package server_test

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/tapparena/tapp/arena/internal/server"
	"github.com/tapparena/tapp/arena/internal/store/memstore"
	"github.com/tapparena/tapp/arena/internal/testcert"
	"github.com/tapparena/tapp/bots/random"
	"github.com/tapparena/tapp/bots/sdk"
)

// startArena serves an arena on loopback (with TLS when cert is given) that knows token as
// bot "b".
func startArena(t *testing.T, cert *testcert.Files) (*server.Server, string) {
	t.Helper()
	cfg := server.Config{Store: memstore.New(), Grace: time.Second}
	if cert != nil {
		tlsCfg, err := server.LoadTLS(cert.Cert, cert.Key)
		if err != nil {
			t.Fatal(err)
		}
		cfg.TLS = tlsCfg
	}
	srv := server.New(cfg)
	srv.AddLaunchToken("token-b", "b")
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(func() { srv.Shutdown(context.Background()) })
	return srv, lis.Addr().String()
}

func waitSession(t *testing.T, srv *server.Server, done <-chan error) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for len(srv.Sessions()) == 0 {
		select {
		case err := <-done:
			t.Fatalf("Run returned before connecting: %v", err)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("the bot did not connect within 20 s")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A bot connects to a TLS arena with the CA that signed its certificate, and ends normally
// (ErrGoingAway) when the arena shuts down.
func TestTLSAndGoingAway(t *testing.T) {
	t.Parallel()
	cert := testcert.MustWrite(t)
	srv, addr := startArena(t, &cert)
	done := make(chan error, 1)
	go func() {
		done <- sdk.Run(context.Background(), sdk.Config{Arena: addr, Token: "token-b", CA: cert.Cert, MaxReconnect: 20 * time.Second}, random.New(1))
	}()
	waitSession(t, srv, done)
	srv.Shutdown(context.Background())
	select {
	case err := <-done:
		if !errors.Is(err, sdk.ErrGoingAway) {
			t.Errorf("Run after the arena shut down = %v, want ErrGoingAway", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Run did not return within 20 s of the arena's shutdown")
	}
}

// Plain text against a TLS arena, or TLS without the arena's CA, never gets a session.
func TestTLSRefusesWhatItCannotCheck(t *testing.T) {
	t.Parallel()
	cert := testcert.MustWrite(t)
	_, addr := startArena(t, &cert)
	for _, cfg := range []sdk.Config{
		{Arena: addr, Token: "token-b"},            // plain text
		{Arena: addr, Token: "token-b", TLS: true}, // system roots do not know the test CA
	} {
		cfg.MaxReconnect = 300 * time.Millisecond
		if err := sdk.Run(context.Background(), cfg, random.New(1)); err == nil || !strings.Contains(err.Error(), "cannot reach") {
			t.Errorf("Run with TLS %v and no CA against a TLS arena = %v, want cannot reach", cfg.TLS, err)
		}
	}
	if _, err := sdk.TransportCredentials(false, cert.Key+".missing"); err == nil {
		t.Error("TransportCredentials with a missing CA file: no error")
	}
}

// A refused token ends Run at once with the arena's reason and its address.
func TestRefusedTokenEndsRun(t *testing.T) {
	t.Parallel()
	_, addr := startArena(t, nil)
	err := sdk.Run(context.Background(), sdk.Config{Arena: addr, Token: "not-a-token", MaxReconnect: 20 * time.Second}, random.New(1))
	if status.Code(err) != codes.Unauthenticated || !strings.Contains(err.Error(), addr) {
		t.Errorf("Run with an unknown token = %v, want Unauthenticated naming %s", err, addr)
	}
}
