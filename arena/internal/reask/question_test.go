package reask

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/protoconv"
	"github.com/tapparena/tapp/arena/internal/replay"
	"github.com/tapparena/tapp/arena/internal/replay/replaytest"
	"github.com/tapparena/tapp/bots/builtin"
	"github.com/tapparena/tapp/engine"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

func startArena(t *testing.T) *LocalArena {
	t.Helper()
	a, err := StartArena(ArenaConfig{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	return a
}

func question(t *testing.T, m replay.Match, rec *domain.DealRecord, k int) *Question {
	t.Helper()
	q, err := NewQuestion(m, rec, k)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// askable is question with time for a busy machine: the matches are recorded under the fast
// testClock, but a bot re-asked here must not miss its answer because a core was taken.
func askable(t *testing.T, m replay.Match, rec *domain.DealRecord, k int) *Question {
	t.Helper()
	m.TimeControl.PerDecision = 10 * time.Second
	return question(t, m, rec, k)
}

// TestAskTheSameBotGetsTheSameAnswers re-asks every decision of deals the heuristic bot played
// (through the Go SDK over the ephemeral arena): a deterministic bot asked exactly the recorded
// question must answer exactly as in the match, every time.
func TestAskTheSameBotGetsTheSameAnswers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h, err := builtin.New("heuristic", 0)
	if err != nil {
		t.Fatal(err)
	}
	hb := replaytest.BotChooser(h)
	for _, text := range []string{"modern frage=on", "classic", "modern players=4"} {
		m, recs := play(t, text, 2, hb, hb, hb, hb)
		a := startArena(t)
		a.RunBuiltin(ctx, "builtin/heuristic", h)
		if err := a.WaitBot(ctx, 5*time.Second); err != nil {
			t.Fatal(err)
		}
		for i := range recs {
			rec := &recs[i]
			for k := range rec.Moves {
				q := askable(t, m, rec, k)
				ans, err := a.Ask(ctx, q)
				if err != nil {
					t.Fatal(err)
				}
				if !ans.Same(q) || len(ans.Attempts) != 1 {
					t.Fatalf("%s deal %d decision %d: the heuristic now answers %+v, in the match %s", text, rec.Number, k, ans, q.Recorded.Action)
				}
			}
		}
		if name, version := a.Bot(); name != "replay-bot" || version != "builtin/heuristic" {
			t.Errorf("bot = %s %s, want replay-bot builtin/heuristic", name, version)
		}
	}
}

// TestAskABotProgramThatNowDecidesDifferently launches a bot program (this test binary playing
// "the last legal action") against the ephemeral arena and re-asks decisions made by "the
// first legal action": the answers differ wherever there was a choice.
func TestAskABotProgramThatNowDecidesDifferently(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	m, recs := play(t, "modern", 1, replaytest.FirstLegal, replaytest.FirstLegal, replaytest.FirstLegal)
	a := startArena(t)
	var out strings.Builder
	if err := a.RunCommand(fmt.Sprintf("%s=last %s", botEnv, os.Args[0]), &lockedWriter{b: &out}); err != nil {
		t.Fatal(err)
	}
	if err := a.WaitBot(ctx, 20*time.Second); err != nil {
		t.Fatal(err)
	}
	rec := &recs[0]
	differ := 0
	for k := range rec.Moves {
		q := askable(t, m, rec, k)
		ans, err := a.Ask(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		legal := q.Legal()
		if ans.Action != legal[len(legal)-1] || ans.Same(q) != (len(legal) == 1) {
			t.Fatalf("decision %d: answer %+v (same: %v), want the last legal action %s, different from %s",
				k, ans, ans.Same(q), legal[len(legal)-1], q.Recorded.Action)
		}
		if !ans.Same(q) {
			differ++
		}
	}
	if differ == 0 {
		t.Fatal("no decision differs")
	}
	if _, version := a.Bot(); version != "test/last" {
		t.Errorf("version %q, want test/last", version)
	}
}

type lockedWriter struct {
	mu sync.Mutex
	b  *strings.Builder
}

func (w *lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

// rawBot speaks the protocol by hand, records what it receives, and answers each request
// with answers(req) (nothing: no answer).
type rawBot struct {
	mu       sync.Mutex
	received []*tappv1.ConnectResponse
}

func (b *rawBot) messages() []*tappv1.ConnectResponse {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]*tappv1.ConnectResponse(nil), b.received...)
}

func connectRaw(t *testing.T, a *LocalArena, answers func(req *tappv1.DecisionRequest) []string) *rawBot {
	t.Helper()
	conn, err := grpc.NewClient(a.Addr(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	ctx, cancel := context.WithCancel(metadata.AppendToOutgoingContext(context.Background(), "authorization", "Bearer "+a.Token()))
	t.Cleanup(cancel)
	stream, err := tappv1.NewBotServiceClient(conn).Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := stream.Send(&tappv1.ConnectRequest{Message: &tappv1.ConnectRequest_Hello{Hello: &tappv1.Hello{Name: "raw", Version: "raw/1", Capacity: 1}}}); err != nil {
		t.Fatal(err)
	}
	b := &rawBot{}
	go func() {
		for {
			msg, err := stream.Recv()
			if err != nil {
				return
			}
			b.mu.Lock()
			b.received = append(b.received, msg)
			b.mu.Unlock()
			if req := msg.GetDecisionRequest(); req != nil {
				for _, text := range answers(req) {
					_ = stream.Send(&tappv1.ConnectRequest{Message: &tappv1.ConnectRequest_Answer{Answer: &tappv1.Answer{
						GameId: req.GetGameId(), RequestId: req.GetRequestId(), Action: text}}})
				}
			}
		}
	}()
	if err := a.WaitBot(context.Background(), 5*time.Second); err != nil {
		t.Fatal(err)
	}
	return b
}

// TestAskSendsTheRecordedQuestion checks what the bot receives when asked again: the game's
// start and every event it had been told before, then the request exactly as recorded (only
// the deadline moved), a refusal naming the rule for an illegal answer, and the game's end.
func TestAskSendsTheRecordedQuestion(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	m, recs := play(t, "modern", 1)
	rec := &recs[0]
	k := len(rec.Moves) - 1 // the last card: many events before it
	q := askable(t, m, rec, k)
	a := startArena(t)
	b := connectRaw(t, a, func(req *tappv1.DecisionRequest) []string { return []string{"pass", req.Legal[0]} })
	ans, err := a.Ask(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if !ans.Answered || ans.Action != q.Legal()[0] || len(ans.Attempts) != 2 || !strings.HasPrefix(ans.Attempts[0].Rejected, "R-PLAY-2") {
		t.Fatalf("answer %+v, want a refused pass (R-PLAY-2) and then %s", ans, q.Legal()[0])
	}
	time.Sleep(50 * time.Millisecond) // let the game's end arrive
	var kinds []string
	var events []*tappv1.GameEvent
	var got *tappv1.DecisionRequest
	for _, msg := range b.messages() {
		switch x := msg.GetMessage().(type) {
		case *tappv1.ConnectResponse_Welcome:
			kinds = append(kinds, "welcome")
		case *tappv1.ConnectResponse_GameStarted:
			kinds = append(kinds, "started")
			if gs := x.GameStarted; gs.GetSeat() != int32(q.Seat) || len(gs.GetHand()) != m.Rules.HandSize() || len(gs.GetPlayers()) != 3 {
				t.Errorf("GameStarted %v, want seat %d with its hand and the players", gs, q.Seat)
			}
		case *tappv1.ConnectResponse_Event:
			kinds = append(kinds, "events")
			events = append(events, x.Event.GetEvents()...)
		case *tappv1.ConnectResponse_DecisionRequest:
			kinds = append(kinds, "request")
			got = x.DecisionRequest
			events = append(events, got.GetEvents()...)
		case *tappv1.ConnectResponse_AnswerRejected:
			kinds = append(kinds, "rejected:"+x.AnswerRejected.GetRuleId())
		case *tappv1.ConnectResponse_GameEnded:
			kinds = append(kinds, fmt.Sprintf("ended:%v", x.GameEnded.GetAborted()))
		}
	}
	want := "welcome started events request rejected:R-PLAY-2 ended:true"
	if strings.Join(kinds, " ") != want {
		t.Fatalf("the bot received %v, want %s", kinds, want)
	}
	for i, e := range events {
		if int(e.GetIndex()) != i {
			t.Fatalf("event %d has index %d: the bot was not told every event in order", i, e.GetIndex())
		}
	}
	sent, err := protoconv.DecodeSent(q.Recorded.Sent)
	if err != nil {
		t.Fatal(err)
	}
	if d := got.GetDeadline().AsTime(); time.Until(d) < -time.Minute || d.Equal(sent.GetDeadline().AsTime()) {
		t.Errorf("deadline %v: want it moved to now (recorded %v)", d, sent.GetDeadline().AsTime())
	}
	got.Deadline, sent.Deadline = nil, nil
	if !proto.Equal(got, sent) {
		t.Fatalf("the bot got\n%v\nwant the recorded request\n%v", got, sent)
	}
}

func TestAskABotThatDoesNotAnswer(t *testing.T) {
	t.Parallel()
	m, recs := play(t, "modern", 1)
	q := question(t, m, &recs[0], 0)
	a := startArena(t)
	connectRaw(t, a, func(*tappv1.DecisionRequest) []string { return nil })
	start := time.Now()
	ans, err := a.Ask(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	if ans.Answered || ans.Same(q) || ans.Fallback != q.Legal()[0] {
		t.Fatalf("answer %+v, want none and the fallback %s", ans, q.Legal()[0])
	}
	if waited, want := time.Since(start), testClock.PerDecision+testClock.Overage; waited < want {
		t.Errorf("gave up after %s, want the time per decision and the overage left (%s)", waited, want)
	}
}

func TestAskABotThatIsNotReachable(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	a := startArena(t)
	if err := a.RunCommand(`sh -c "echo 'cannot import tapp_bot' >&2; exit 3"`, nil); err != nil {
		t.Fatal(err)
	}
	err := a.WaitBot(ctx, 10*time.Second)
	if err == nil || !strings.Contains(err.Error(), "ended before it connected") || !strings.Contains(err.Error(), "exit status 3") ||
		!strings.Contains(err.Error(), "cannot import tapp_bot") {
		t.Fatalf("WaitBot = %v, want an error saying the command ended (exit status 3) with its output", err)
	}

	b := startArena(t)
	err = b.WaitBot(ctx, 100*time.Millisecond)
	if err == nil || !strings.Contains(err.Error(), "no bot connected to the replay arena at "+b.Addr()+" within 100ms") {
		t.Fatalf("WaitBot(nobody) = %v, want an error naming the address and the wait", err)
	}
	m, recs := play(t, "modern", 1)
	if _, err := b.Ask(ctx, question(t, m, &recs[0], 0)); err == nil {
		t.Fatal("Ask without a bot: no error")
	}
}

// TestAskWhereTheArenaPlayedForTheBot: a bot that had forfeited was sent no request; the
// question is rebuilt from the engine as the referee would have sent it.
func TestAskWhereTheArenaPlayedForTheBot(t *testing.T) {
	t.Parallel()
	m, recs := play(t, "modern", 2, replaytest.Silent)
	var rec *domain.DealRecord
	k := -1
	for i := range recs {
		for _, d := range recs[i].Decisions {
			if d.Fallback && len(d.Sent) == 0 && k < 0 {
				rec, k = &recs[i], d.Index
			}
		}
	}
	if k < 0 {
		t.Fatal("no fallback without a request")
	}
	q := askable(t, m, rec, k)
	if !q.Rebuilt || q.Request.GetObservation().GetSeat() != int32(q.Seat) || len(q.Request.GetLegal()) != len(q.Legal()) ||
		len(q.Request.GetEvents()) == 0 || len(q.Earlier) != 0 {
		t.Fatalf("question %+v, want a request rebuilt for seat %d with every event", q, q.Seat)
	}
	a := startArena(t)
	connectRaw(t, a, replaytest.FirstLegal)
	ans, err := a.Ask(context.Background(), q)
	if err != nil || !ans.Answered || ans.Action != q.Legal()[0] {
		t.Fatalf("Ask = %+v, %v; want the first legal action", ans, err)
	}
}

func TestNewQuestionRefusesAMissingDecision(t *testing.T) {
	t.Parallel()
	m, recs := play(t, "modern", 1)
	rec := &recs[0]
	if _, err := NewQuestion(m, rec, len(rec.Moves)); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("decisions 0-%d", len(rec.Moves)-1)) {
		t.Fatalf("NewQuestion(past the end) = %v, want an error naming the decisions", err)
	}
	bad := replaytest.Clone(*rec)
	bad.Moves[1].Action = engine.CardAction(bad.Deal.Tapp.Lowest())
	if _, err := NewQuestion(m, &bad, 3); err == nil || !strings.Contains(err.Error(), "verify") {
		t.Fatalf("NewQuestion(broken record) = %v, want an error pointing to verify", err)
	}
}
