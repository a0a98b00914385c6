package server_test

import (
	"context"
	"net"
	"slices"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/test/bufconn"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/match"
	"github.com/tapparena/tapp/arena/internal/server"
	"github.com/tapparena/tapp/arena/internal/store/memstore"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// The timing tests run a real server and real gRPC streams over an in-memory listener
// (bufconn) inside a testing/synctest bubble: time is the bubble's fake clock, which moves
// only when every goroutine of the test waits, so latencies, banks, grace periods and
// keepalives are exact and no verdict depends on the machine's speed. Each test calls
// newBubbleArena inside synctest.Test and stop() before it returns.

// bubbleArena is a server on an in-memory listener with a memory store that keeps the
// decision records.
type bubbleArena struct {
	t      *testing.T
	srv    *server.Server
	store  *keepingStore
	runner *match.Runner
	lis    *bufconn.Listener
	stops  []func()
}

func newBubbleArena(t *testing.T, grace time.Duration) *bubbleArena {
	t.Helper()
	st := &keepingStore{Memory: memstore.New()}
	srv := server.New(server.Config{Store: st, Grace: grace})
	lis := bufconn.Listen(1 << 20)
	go func() { _ = srv.Serve(lis) }()
	return &bubbleArena{t: t, srv: srv, store: st, lis: lis, runner: &match.Runner{Store: st, Seats: srv, Parallel: 1}}
}

// stop ends every bot and the server, so that the bubble's goroutines all end.
func (a *bubbleArena) stop() {
	for _, f := range slices.Backward(a.stops) {
		f()
	}
	a.srv.Shutdown(context.Background())
}

func (a *bubbleArena) dialer() func(ctx context.Context, _ string) (net.Conn, error) {
	return func(ctx context.Context, _ string) (net.Conn, error) { return a.lis.DialContext(ctx) }
}

// play creates and runs a match to its end.
func (a *bubbleArena) play(spec domain.MatchSpec) *match.Result {
	a.t.Helper()
	m, err := a.runner.Create(context.Background(), spec)
	if err != nil {
		a.t.Fatal(err)
	}
	res, err := a.runner.Run(context.Background(), m)
	if err != nil {
		a.t.Fatal(err)
	}
	return res
}

// waitSessions waits (in fake time) until n sessions are connected.
func (a *bubbleArena) waitSessions(n int) {
	a.t.Helper()
	for start := time.Now(); len(a.srv.Sessions()) < n; time.Sleep(time.Millisecond) {
		if time.Since(start) > time.Minute {
			a.t.Fatalf("%d of %d sessions after a minute", len(a.srv.Sessions()), n)
		}
	}
}

// timedBot speaks the protocol by hand and answers each request after the delay its policy
// gives (in the bubble's time); a nil action sends nothing.
type timedBot struct {
	stream tappv1.BotService_ConnectClient
	cancel context.CancelFunc
	policy func(n int, req *tappv1.DecisionRequest) (action *string, after time.Duration)

	mu       sync.Mutex
	requests []*tappv1.DecisionRequest // in the order received
	received []*tappv1.ConnectResponse
	sendMu   sync.Mutex
	done     chan struct{}
}

// connect opens a stream for bot name with hello (nil: capacity 8) and starts answering.
func (a *bubbleArena) connect(name string, hello *tappv1.Hello, policy func(int, *tappv1.DecisionRequest) (*string, time.Duration)) *timedBot {
	a.t.Helper()
	a.srv.AddLaunchToken("token-"+name, name)
	conn, err := grpc.NewClient("passthrough:///bufconn", grpc.WithContextDialer(a.dialer()),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		a.t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(metadata.AppendToOutgoingContext(context.Background(), "authorization", "Bearer token-"+name))
	stream, err := tappv1.NewBotServiceClient(conn).Connect(ctx)
	if err != nil {
		a.t.Fatal(err)
	}
	if hello == nil {
		hello = &tappv1.Hello{Name: name, Capacity: 8}
	}
	if err := stream.Send(&tappv1.ConnectRequest{Message: &tappv1.ConnectRequest_Hello{Hello: hello}}); err != nil {
		a.t.Fatal(err)
	}
	b := &timedBot{stream: stream, cancel: cancel, policy: policy, done: make(chan struct{})}
	go b.loop()
	a.stops = append(a.stops, func() { b.hangUp(); conn.Close() })
	return b
}

// hangUp ends the bot's stream and waits until its reader has stopped.
func (b *timedBot) hangUp() {
	b.cancel()
	<-b.done
}

func (b *timedBot) loop() {
	defer close(b.done)
	for {
		msg, err := b.stream.Recv()
		if err != nil {
			return
		}
		b.mu.Lock()
		b.received = append(b.received, msg)
		b.mu.Unlock()
		if req := msg.GetDecisionRequest(); req != nil {
			b.decide(req)
		}
		for _, g := range msg.GetSnapshot().GetGames() {
			if g.GetPending() != nil {
				b.decide(g.GetPending())
			}
		}
	}
}

func (b *timedBot) decide(req *tappv1.DecisionRequest) {
	b.mu.Lock()
	b.requests = append(b.requests, req)
	n := len(b.requests)
	b.mu.Unlock()
	action, after := b.policy(n, req)
	if action == nil {
		return
	}
	answer := func() {
		b.sendMu.Lock()
		defer b.sendMu.Unlock()
		_ = b.stream.Send(&tappv1.ConnectRequest{Message: &tappv1.ConnectRequest_Answer{Answer: &tappv1.Answer{
			GameId: req.GetGameId(), RequestId: req.GetRequestId(), Action: *action}}})
	}
	if after == 0 {
		answer()
		return
	}
	go func() {
		select {
		case <-time.After(after):
			answer()
		case <-b.stream.Context().Done():
		}
	}()
}

func (b *timedBot) messages() []*tappv1.ConnectResponse {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.received)
}

func (b *timedBot) seen() []*tappv1.DecisionRequest {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.requests)
}

// atOnce answers every request with its first legal action at once.
func atOnce(_ int, req *tappv1.DecisionRequest) (*string, time.Duration) { return &req.Legal[0], 0 }

// never answers nothing.
func never(int, *tappv1.DecisionRequest) (*string, time.Duration) { return nil, 0 }

// keepingStore is the memory store keeping every decision record (the memory store itself
// drops them).
type keepingStore struct {
	*memstore.Memory
	mu    sync.Mutex
	deals []domain.DealRecord
}

func (s *keepingStore) SaveDeal(ctx context.Context, d *domain.DealRecord) error {
	s.mu.Lock()
	s.deals = append(s.deals, *d)
	s.mu.Unlock()
	return s.Memory.SaveDeal(ctx, d)
}

// decisionsOf returns the decisions of bot in deal order.
func (s *keepingStore) decisionsOf(bot string) []domain.DecisionRecord {
	s.mu.Lock()
	defer s.mu.Unlock()
	deals := slices.Clone(s.deals)
	slices.SortFunc(deals, func(a, b domain.DealRecord) int { return a.Number - b.Number })
	var out []domain.DecisionRecord
	for _, d := range deals {
		for _, x := range d.Decisions {
			if x.Bot == bot {
				out = append(out, x)
			}
		}
	}
	return out
}
