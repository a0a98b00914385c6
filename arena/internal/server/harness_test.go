package server_test

import (
	"context"
	"errors"
	"io"
	"net"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/match"
	"github.com/tapparena/tapp/arena/internal/server"
	"github.com/tapparena/tapp/arena/internal/store"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// testArena is a real server on a loopback port with a SQLite store in a temp dir.
type testArena struct {
	t      *testing.T
	store  *store.Store
	srv    *server.Server
	runner *match.Runner
	addr   string
}

const testAdminToken = "admin-secret"

func newTestArena(t *testing.T, grace time.Duration) *testArena {
	t.Helper()
	return newTestArenaLog(t, grace, nil)
}

// newTestArenaLog is newTestArena with the server logging to log.
func newTestArenaLog(t *testing.T, grace time.Duration, log *zap.Logger) *testArena {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "arena.db"))
	if err != nil {
		t.Fatal(err)
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := server.New(server.Config{Store: st, AdminToken: testAdminToken, Grace: grace, Log: log})
	go func() { _ = srv.Serve(lis) }()
	a := &testArena{t: t, store: st, srv: srv, addr: lis.Addr().String(),
		runner: &match.Runner{Store: st, Seats: srv, Parallel: 4}}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
		_ = st.Close()
	})
	return a
}

// register stores a bot and returns its token.
func (a *testArena) register(name string) string {
	a.t.Helper()
	_, token, err := server.RegisterBot(context.Background(), a.store, name)
	if err != nil {
		a.t.Fatal(err)
	}
	return token
}

func (a *testArena) dial() *grpc.ClientConn {
	a.t.Helper()
	conn, err := grpc.NewClient(a.addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		a.t.Fatal(err)
	}
	a.t.Cleanup(func() { conn.Close() })
	return conn
}

// play creates and runs a match to its end.
func (a *testArena) play(ctx context.Context, spec domain.MatchSpec) *match.Result {
	a.t.Helper()
	m, err := a.runner.Create(ctx, spec)
	if err != nil {
		a.t.Fatal(err)
	}
	res, err := a.runner.Run(ctx, m)
	if err != nil {
		a.t.Fatal(err)
	}
	return res
}

// rawBot is a test bot speaking the protocol by hand: it records every message it receives
// and answers each request with answer(req) (nil: no answer at all).
type rawBot struct {
	name   string
	stream tappv1.BotService_ConnectClient
	answer func(req *tappv1.DecisionRequest) *string

	mu       sync.Mutex
	received []*tappv1.ConnectResponse
	welcome  chan *tappv1.Welcome
	done     chan error
	sendMu   sync.Mutex
}

func (a *testArena) connectRaw(ctx context.Context, name, token string, hello *tappv1.Hello, answer func(*tappv1.DecisionRequest) *string) (*rawBot, error) {
	conn := a.dial()
	ctx = metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+token)
	stream, err := tappv1.NewBotServiceClient(conn).Connect(ctx)
	if err != nil {
		return nil, err
	}
	if hello == nil {
		hello = &tappv1.Hello{Name: name, Version: "test", Capacity: 8}
	}
	if err := stream.Send(&tappv1.ConnectRequest{Message: &tappv1.ConnectRequest_Hello{Hello: hello}}); err != nil {
		if errors.Is(err, io.EOF) { // the server ended the stream first (a refused token): its status comes from Recv
			_, err = stream.Recv()
		}
		return nil, err
	}
	b := &rawBot{name: name, stream: stream, answer: answer, welcome: make(chan *tappv1.Welcome, 1), done: make(chan error, 1)}
	go b.loop()
	select {
	case w := <-b.welcome:
		_ = w
		return b, nil
	case err := <-b.done:
		return nil, err
	case <-time.After(5 * time.Second):
		return nil, context.DeadlineExceeded
	}
}

func (b *rawBot) loop() {
	for {
		msg, err := b.stream.Recv()
		if err != nil {
			b.done <- err
			return
		}
		b.mu.Lock()
		b.received = append(b.received, msg)
		b.mu.Unlock()
		switch m := msg.GetMessage().(type) {
		case *tappv1.ConnectResponse_Welcome:
			b.welcome <- m.Welcome
		case *tappv1.ConnectResponse_DecisionRequest:
			b.decide(m.DecisionRequest)
		case *tappv1.ConnectResponse_Snapshot:
			for _, g := range m.Snapshot.GetGames() {
				if g.GetPending() != nil {
					b.decide(g.GetPending())
				}
			}
		}
	}
}

func (b *rawBot) decide(req *tappv1.DecisionRequest) {
	if b.answer == nil {
		return
	}
	if text := b.answer(req); text != nil {
		b.send(req.GetGameId(), req.GetRequestId(), *text)
	}
}

func (b *rawBot) send(game, req, action string) {
	b.sendMu.Lock()
	defer b.sendMu.Unlock()
	_ = b.stream.Send(&tappv1.ConnectRequest{Message: &tappv1.ConnectRequest_Answer{Answer: &tappv1.Answer{GameId: game, RequestId: req, Action: action}}})
}

func (b *rawBot) messages() []*tappv1.ConnectResponse {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]*tappv1.ConnectResponse(nil), b.received...)
}

// firstLegal answers every request with its first legal action.
func firstLegal(req *tappv1.DecisionRequest) *string { return &req.Legal[0] }
