package sdk_test

import (
	"context"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/test/bufconn"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/tapparena/tapp/bots"
	"github.com/tapparena/tapp/bots/sdk"
	"github.com/tapparena/tapp/engine"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// These tests run the SDK's public Run against a scripted arena over an in-memory gRPC
// connection inside a synctest bubble: the clock is the bubble's fake one, so every answer's
// time is exact and no test depends on the machine's speed.

// timedAnswer is an answer and when the arena received it.
type timedAnswer struct {
	answer *tappv1.Answer
	at     time.Time
}

// scriptedArena is a BotService that welcomes one bot, sends it what the test queues and
// hands back its answers.
type scriptedArena struct {
	tappv1.UnimplementedBotServiceServer
	toBot   chan *tappv1.ConnectResponse
	answers chan timedAnswer
}

func (a *scriptedArena) Connect(stream grpc.BidiStreamingServer[tappv1.ConnectRequest, tappv1.ConnectResponse]) error {
	if _, err := stream.Recv(); err != nil { // the hello
		return err
	}
	if err := stream.Send(&tappv1.ConnectResponse{Message: &tappv1.ConnectResponse_Welcome{Welcome: &tappv1.Welcome{SessionId: "s1"}}}); err != nil {
		return err
	}
	go func() {
		for {
			msg, err := stream.Recv()
			if err != nil {
				return
			}
			if ans := msg.GetAnswer(); ans != nil {
				a.answers <- timedAnswer{ans, time.Now()}
			}
		}
	}()
	for {
		select {
		case msg := <-a.toBot:
			if err := stream.Send(msg); err != nil {
				return err
			}
		case <-stream.Context().Done():
			return nil
		}
	}
}

// inBubble runs bot under Run with cfg against a scripted arena in the current bubble, and
// returns the arena and a stop function that ends Run and the arena.
func inBubble(t *testing.T, cfg sdk.Config, bot bots.Bot) (*scriptedArena, func()) {
	t.Helper()
	arena := &scriptedArena{toBot: make(chan *tappv1.ConnectResponse), answers: make(chan timedAnswer, 64)}
	lis := bufconn.Listen(1 << 20)
	srv := grpc.NewServer()
	tappv1.RegisterBotServiceServer(srv, arena)
	go func() { _ = srv.Serve(lis) }()
	cfg.Arena, cfg.Token = "in-memory", "t"
	cfg.Dial = func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- sdk.Run(ctx, cfg, bot) }()
	return arena, func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run = %v, want nil after its context ended", err)
		}
		srv.Stop()
	}
}

// request is a decision request of a real deal's first decision, due after perDecision.
func request(t *testing.T, id string, perDecision time.Duration) *tappv1.ConnectResponse {
	t.Helper()
	rules := engine.DefaultRules(engine.Modern)
	st, err := engine.NewState(rules, engine.DealFromSeed(rules, 1, 0), engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	obs := st.Observe(st.ToMove())
	legal := make([]string, len(obs.Legal))
	for i, a := range obs.Legal {
		legal[i] = a.String()
	}
	req := &tappv1.DecisionRequest{GameId: "g1", RequestId: id, Legal: legal, Deadline: timestamppb.New(time.Now().Add(perDecision)),
		Observation: &tappv1.Observation{Rules: rules.String(), Seat: int32(obs.Seat), ToMove: int32(obs.ToMove),
			Decision: tappv1.Decision(obs.Decision), Hand: strings.Fields(obs.Hand.String())}}
	return &tappv1.ConnectResponse{Message: &tappv1.ConnectResponse_DecisionRequest{DecisionRequest: req}}
}

// hangingBot never answers until release is closed, whatever its context says.
func hangingBot(release <-chan struct{}) bots.Bot {
	return bots.Func(func(_ context.Context, obs *engine.Observation) (engine.Action, error) {
		<-release
		return obs.Legal[len(obs.Legal)-1], nil
	})
}

// The SDK answers for a bot that does not answer the larger of 20 ms and a tenth of the time
// per decision before the deadline (or what the bot configured), with the first legal action.
func TestSDKAnswersForAHangingBotAtTheMargin(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name        string
		cfg         sdk.Config
		perDecision time.Duration
		want        time.Duration // from the request to the answer
	}{
		{"100 ms: 20 ms margin", sdk.Config{}, 100 * time.Millisecond, 80 * time.Millisecond},
		{"200 ms: 20 ms margin", sdk.Config{}, 200 * time.Millisecond, 180 * time.Millisecond},
		{"1 s: a tenth", sdk.Config{}, time.Second, 900 * time.Millisecond},
		{"10 s: a tenth", sdk.Config{}, 10 * time.Second, 9 * time.Second},
		{"configured fraction", sdk.Config{Margin: 50 * time.Millisecond, MarginFraction: 0.25}, time.Second, 750 * time.Millisecond},
		{"configured floor", sdk.Config{Margin: 50 * time.Millisecond, MarginFraction: 0.25}, 100 * time.Millisecond, 50 * time.Millisecond},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				release := make(chan struct{})
				defer close(release)
				arena, stop := inBubble(t, c.cfg, hangingBot(release))
				defer stop()
				req := request(t, "r1", c.perDecision)
				arena.toBot <- req
				sent := time.Now()
				got := <-arena.answers
				if elapsed := got.at.Sub(sent); elapsed != c.want {
					t.Errorf("answered %v after the request, want %v (deadline %v)", elapsed, c.want, c.perDecision)
				}
				if want := req.GetDecisionRequest().GetLegal()[0]; got.answer.GetAction() != want || got.answer.GetRequestId() != "r1" {
					t.Errorf("answer %s to %s, want the first legal action %s to r1", got.answer.GetAction(), got.answer.GetRequestId(), want)
				}
			})
		})
	}
}

// A bot that answers in time is answered for with its own choice, at once, with the time it
// thought; its context ends at the deadline less the margin.
func TestSDKSendsTheBotsAnswerWithItsThinkTime(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		var ctxDeadline time.Time
		bot := bots.Func(func(ctx context.Context, obs *engine.Observation) (engine.Action, error) {
			mu.Lock()
			ctxDeadline, _ = ctx.Deadline()
			mu.Unlock()
			time.Sleep(30 * time.Millisecond)
			return obs.Legal[len(obs.Legal)-1], nil
		})
		arena, stop := inBubble(t, sdk.Config{}, bot)
		defer stop()
		req := request(t, "r1", time.Second)
		arena.toBot <- req
		sent := time.Now()
		got := <-arena.answers
		legal := req.GetDecisionRequest().GetLegal()
		if elapsed := got.at.Sub(sent); elapsed != 30*time.Millisecond {
			t.Errorf("answered %v after the request, want 30ms (when the bot chose)", elapsed)
		}
		if got.answer.GetAction() != legal[len(legal)-1] {
			t.Errorf("answer %s, want the bot's %s", got.answer.GetAction(), legal[len(legal)-1])
		}
		if think := got.answer.GetThinkTime().AsDuration(); think != 30*time.Millisecond {
			t.Errorf("think time %v, want 30ms", think)
		}
		mu.Lock()
		defer mu.Unlock()
		if want := sent.Add(900 * time.Millisecond); !ctxDeadline.Equal(want) {
			t.Errorf("the bot's context ends %v after the request, want 900ms", ctxDeadline.Sub(sent))
		}
	})
}

// A bot whose first decisions never return holds them hanging, more of them than the SDK has
// slots (4 per game it plays at once): the SDK answers each of those at its margin itself and
// goes on asking the bot for the later ones.
func TestSDKKeepsAskingTheBotAfterDecisionsHang(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		const hanging = 6
		release := make(chan struct{})
		defer close(release)
		var mu sync.Mutex
		calls := 0
		bot := bots.Func(func(_ context.Context, obs *engine.Observation) (engine.Action, error) {
			mu.Lock()
			calls++
			n := calls
			mu.Unlock()
			if n <= hanging {
				<-release // ignores its context
			}
			return obs.Legal[len(obs.Legal)-1], nil
		})
		arena, stop := inBubble(t, sdk.Config{Capacity: 1}, bot)
		defer stop()
		for i := 1; i <= hanging+1; i++ {
			id := "r" + strconv.Itoa(i)
			req := request(t, id, 300*time.Millisecond)
			arena.toBot <- req
			sent := time.Now()
			got := <-arena.answers
			legal := req.GetDecisionRequest().GetLegal()
			want, after := legal[0], 270*time.Millisecond // the SDK's fallback at the margin
			if i > hanging {
				want, after = legal[len(legal)-1], 0 // the bot's own answer, at once
			}
			if got.answer.GetRequestId() != id || got.answer.GetAction() != want || got.at.Sub(sent) != after {
				t.Fatalf("request %s: answer %s to %s after %v, want %s after %v", id, got.answer.GetAction(), got.answer.GetRequestId(), got.at.Sub(sent), want, after)
			}
		}
	})
}
