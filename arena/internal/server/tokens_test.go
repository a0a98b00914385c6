package server_test

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/tapparena/tapp/arena/internal/server"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// hello opens a bot stream with token, says hello as name and returns the stream once the
// arena welcomed it, or the error that refused it.
func (a *testArena) hello(token, name string) (tappv1.BotService_ConnectClient, error) {
	a.t.Helper()
	ctx, cancel := context.WithCancel(metadata.AppendToOutgoingContext(context.Background(), "authorization", "Bearer "+token))
	a.t.Cleanup(cancel)
	stream, err := tappv1.NewBotServiceClient(a.dial()).Connect(ctx)
	if err != nil {
		return nil, err
	}
	if err := stream.Send(&tappv1.ConnectRequest{Message: &tappv1.ConnectRequest_Hello{Hello: &tappv1.Hello{Name: name}}}); err != nil {
		if errors.Is(err, io.EOF) { // the server ended the stream first (a refused token): Recv has its status
			if _, rerr := stream.Recv(); rerr != nil {
				err = rerr
			}
		}
		return nil, err
	}
	first, err := stream.Recv()
	if err != nil {
		return nil, err
	}
	if first.GetWelcome() == nil {
		a.t.Fatalf("first message %v, want a welcome", first)
	}
	return stream, nil
}

func (a *testArena) admin(token string) (tappv1.AdminServiceClient, context.Context) {
	return tappv1.NewAdminServiceClient(a.dial()), metadata.AppendToOutgoingContext(context.Background(), "authorization", "Bearer "+token)
}

// recvUntilEnd reads a stream until it fails and returns the failure.
func recvUntilEnd(t *testing.T, stream tappv1.BotService_ConnectClient) error {
	t.Helper()
	errc := make(chan error, 1)
	go func() {
		for {
			if _, err := stream.Recv(); err != nil {
				errc <- err
				return
			}
		}
	}()
	select {
	case err := <-errc:
		return err
	case <-time.After(20 * time.Second):
		t.Fatal("the stream did not end within 20 s")
		return nil
	}
}

func wantCode(t *testing.T, what string, err error, code codes.Code, snippet string) {
	t.Helper()
	if status.Code(err) != code || !strings.Contains(status.Convert(err).Message(), snippet) {
		t.Errorf("%s: got %v, want %s saying %q", what, err, code, snippet)
	}
}

// Rotating a token through the admin service returns a new one, refuses the old one at once
// and closes the streams that connected with it, saying why.
func TestRotateTokenThroughTheAdminService(t *testing.T) {
	t.Parallel()
	a := newTestArena(t, time.Second)
	old := a.register("alice")
	stream, err := a.hello(old, "alice")
	if err != nil {
		t.Fatal(err)
	}
	admin, ctx := a.admin(testAdminToken)
	resp, err := admin.RotateBotToken(ctx, &tappv1.RotateBotTokenRequest{Name: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	if resp.GetToken() == "" || resp.GetToken() == old || resp.GetDisconnected() != 1 {
		t.Errorf("RotateBotToken = %v, want a new token and 1 stream disconnected", resp)
	}
	wantCode(t, "the stream of the old token", recvUntilEnd(t, stream), codes.Unauthenticated, "token was rotated or revoked")
	_, err = a.hello(old, "alice")
	wantCode(t, "a stream with the old token", err, codes.Unauthenticated, "unknown bot token")
	if _, err := a.hello(resp.GetToken(), "alice"); err != nil {
		t.Errorf("a stream with the new token: %v", err)
	}
	_, err = admin.RotateBotToken(ctx, &tappv1.RotateBotTokenRequest{Name: "nobody"})
	wantCode(t, "rotating an unknown bot", err, codes.NotFound, `no bot named "nobody"`)
}

// A revoked bot keeps its name, but no token connects as it until it gets a new one.
func TestRevokeToken(t *testing.T) {
	t.Parallel()
	a := newTestArena(t, time.Second)
	token := a.register("bob")
	stream, err := a.hello(token, "")
	if err != nil {
		t.Fatal(err)
	}
	admin, ctx := a.admin(testAdminToken)
	resp, err := admin.RevokeBotToken(ctx, &tappv1.RevokeBotTokenRequest{Name: "bob"})
	if err != nil || resp.GetDisconnected() != 1 {
		t.Fatalf("RevokeBotToken = %v, %v; want 1 stream disconnected", resp, err)
	}
	wantCode(t, "the stream of the revoked token", recvUntilEnd(t, stream), codes.Unauthenticated, "token was rotated or revoked")
	_, err = a.hello(token, "bob")
	wantCode(t, "a stream with the revoked token", err, codes.Unauthenticated, "unknown bot token")
	bots, err := admin.ListBots(ctx, &tappv1.ListBotsRequest{})
	if err != nil || len(bots.GetBots()) != 1 || bots.GetBots()[0].GetName() != "bob" {
		t.Errorf("ListBots after revoking = %v, %v; want bob still there", bots, err)
	}
	rotated, err := admin.RotateBotToken(ctx, &tappv1.RotateBotTokenRequest{Name: "bob"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.hello(rotated.GetToken(), "bob"); err != nil {
		t.Errorf("a stream with the token given after the revocation: %v", err)
	}
}

// A token rotated by another process on the same database (tapp bots rotate next to tapp
// serve) closes the running streams too, within the server's check interval.
func TestTokenRotatedInTheStoreClosesStreams(t *testing.T) {
	t.Parallel()
	a := newTestArena(t, time.Second)
	stream, err := a.hello(a.register("carol"), "carol")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := server.RotateBotToken(context.Background(), a.store, "carol"); err != nil {
		t.Fatal(err)
	}
	wantCode(t, "the stream of a token rotated in the store", recvUntilEnd(t, stream), codes.Unauthenticated, "token was rotated or revoked")
}

// A bot's token on the admin service is refused as such; no token is unauthenticated.
func TestBotTokenOnTheAdminService(t *testing.T) {
	t.Parallel()
	a := newTestArena(t, time.Second)
	admin, ctx := a.admin(a.register("dave"))
	_, err := admin.ListBots(ctx, &tappv1.ListBotsRequest{})
	wantCode(t, "a bot token on the admin service", err, codes.PermissionDenied, "a bot token cannot call the admin service")
	_, err = admin.ListBots(context.Background(), &tappv1.ListBotsRequest{})
	wantCode(t, "no token on the admin service", err, codes.Unauthenticated, "admin token missing")
}

// A registered token speaks for its bot only: a hello naming another bot is refused, saying
// which name to use. A launch token's program may call itself what it likes.
func TestHelloMustNameTheTokensBot(t *testing.T) {
	t.Parallel()
	a := newTestArena(t, time.Second)
	token := a.register("erin")
	_, err := a.hello(token, "frank")
	wantCode(t, "a hello naming another bot", err, codes.PermissionDenied, `hello names bot "frank" but the token is bot "erin"'s`)
	if _, err := a.hello(token, "erin"); err != nil {
		t.Errorf("a hello naming the token's bot: %v", err)
	}
	a.srv.AddLaunchToken("launch-x", "seat-bot")
	if _, err := a.hello("launch-x", "my-own-name"); err != nil {
		t.Errorf("a launch token's hello with another name: %v", err)
	}
}
