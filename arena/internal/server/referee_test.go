package server_test

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/referee"
	"github.com/tapparena/tapp/engine"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// The tests of late and hanging bots run in fake time (clock_bubble_test.go). Tests of bots
// that answer use slowClock (seconds per decision), so that a busy machine's scheduling never
// makes them late.

// table connects good bots (first legal action) for every seat but the last, which is given.
func table(t *testing.T, a *testArena, ctx context.Context, last func(*tappv1.DecisionRequest) *string) (names []string, odd *rawBot) {
	t.Helper()
	names = []string{"good1", "good2", "odd"}
	for i, name := range names {
		answer := firstLegal
		if i == 2 {
			answer = last
		}
		b, err := a.connectRaw(ctx, name, a.register(name), nil, answer)
		if err != nil {
			t.Fatal(err)
		}
		odd = b
	}
	return names, odd
}

func modernSpec(bots []string, deals int) domain.MatchSpec {
	return domain.MatchSpec{Rules: engine.DefaultRules(engine.Modern), Bots: bots, Deals: deals, Seed: 3, TimeControl: slowClock}
}

func decisionsOf(t *testing.T, a *testArena, matchID, bot string) []domain.DecisionRecord {
	t.Helper()
	deals, err := a.store.Deals(context.Background(), matchID)
	if err != nil {
		t.Fatal(err)
	}
	var out []domain.DecisionRecord
	for _, d := range deals {
		for _, dec := range d.Decisions {
			if dec.Bot == bot {
				out = append(out, dec)
			}
		}
	}
	return out
}

func TestIllegalAndMalformedAnswersAreRefusedAndMayBeCorrected(t *testing.T) {
	t.Parallel()
	a := newTestArena(t, time.Second)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	names, oddBot := table(t, a, ctx, func(req *tappv1.DecisionRequest) *string {
		if req.GetDecision() != tappv1.Decision_DECISION_CARD {
			return &req.Legal[0]
		}
		// First a card that is not in the hand, then garbage; the corrections come from the
		// AnswerRejected handler below.
		bad := illegalCard(req)
		return &bad
	})
	// Correct after each rejection: garbage first, then the legal answer.
	go func() {
		seen := 0
		for {
			msgs := oddBot.messages()
			for _, msg := range msgs[seen:] {
				if r := msg.GetAnswerRejected(); r != nil {
					if r.GetRuleId() == referee.ReasonMalformed {
						oddBot.send(r.GetGameId(), r.GetRequestId(), legalFor(oddBot, r.GetRequestId(), r.GetGameId()))
					} else {
						oddBot.send(r.GetGameId(), r.GetRequestId(), "not-an-action")
					}
				}
			}
			seen = len(msgs)
			time.Sleep(2 * time.Millisecond)
			if ctx.Err() != nil {
				return
			}
		}
	}()
	res := a.play(ctx, domain.MatchSpec{Rules: engine.DefaultRules(engine.Modern), Bots: names, Deals: 2, Seed: 3,
		TimeControl: domain.TimeControl{PerDecision: 2 * time.Second, Overage: time.Second, MaxStrikes: 3}})
	if len(res.Forfeited) != 0 {
		t.Fatalf("forfeited = %v, want none: corrections were in time", res.Forfeited)
	}
	var rules, malformed int
	for _, msg := range oddBot.messages() {
		if r := msg.GetAnswerRejected(); r != nil {
			switch {
			case strings.HasPrefix(r.GetRuleId(), "R-"):
				rules++
			case r.GetRuleId() == referee.ReasonMalformed:
				malformed++
			}
			if r.GetReason() == "" {
				t.Fatalf("rejection without a reason: %v", r)
			}
		}
	}
	if rules == 0 || malformed == 0 {
		t.Fatalf("rejections: %d by rule id, %d malformed; want both", rules, malformed)
	}
	for _, d := range decisionsOf(t, a, res.Match.ID, "odd") {
		if d.Fallback || d.Strike {
			t.Fatalf("decision %d: fallback/strike although corrected in time", d.Index)
		}
		if d.Decision == engine.DecideCard && len(d.Attempts) != 3 {
			t.Fatalf("card decision %d recorded %d attempts, want 3 (illegal, malformed, legal): %+v", d.Index, len(d.Attempts), d.Attempts)
		}
	}
}

// illegalCard names a card the bot does not hold.
func illegalCard(req *tappv1.DecisionRequest) string {
	hand := strings.Join(req.GetObservation().GetHand(), " ")
	for _, c := range []string{"HA", "CA", "SA", "DA", "H6", "C6"} {
		if !strings.Contains(hand, c) {
			return c
		}
	}
	return "HA"
}

// legalFor finds the request's first legal action in what the bot received.
func legalFor(b *rawBot, reqID, gameID string) string {
	for _, msg := range b.messages() {
		if r := msg.GetDecisionRequest(); r != nil && r.GetRequestId() == reqID && r.GetGameId() == gameID {
			return r.GetLegal()[0]
		}
	}
	return ""
}

func TestAnswersForUnknownGamesRequestsAndDuplicatesAreRefused(t *testing.T) {
	t.Parallel()
	a := newTestArena(t, time.Second)
	ctx := context.Background()
	var oddBot *rawBot
	var once sync.Once
	names, oddBot := table(t, a, ctx, func(req *tappv1.DecisionRequest) *string {
		first := false
		once.Do(func() {
			first = true
			oddBot.send("no-such-game", "r1", req.Legal[0])
			oddBot.send(req.GetGameId(), "r-unknown", req.Legal[0])
			// The first request answered twice, in one go: the second answer is a duplicate
			// that reaches the deal before it can end, however slow the machine.
			oddBot.send(req.GetGameId(), req.GetRequestId(), req.Legal[0])
			oddBot.send(req.GetGameId(), req.GetRequestId(), req.Legal[0])
		})
		if first {
			return nil
		}
		return &req.Legal[0]
	})
	res := a.play(ctx, modernSpec(names, 2))
	if res.Deals != 2 || len(res.Forfeited) != 0 {
		t.Fatalf("match: deals %d forfeited %v", res.Deals, res.Forfeited)
	}
	reasons := make(map[string]bool)
	for _, msg := range oddBot.messages() {
		if r := msg.GetAnswerRejected(); r != nil {
			reasons[r.GetRuleId()] = true
		}
	}
	for _, want := range []string{"PROTO-UNKNOWN-GAME", referee.ReasonUnknownRequest, referee.ReasonDuplicate} {
		if !reasons[want] {
			t.Errorf("no rejection %s; got %v", want, reasons)
		}
	}
	// The second answer is in the record of the decision it was meant for, refused.
	d, err := a.store.Deal(ctx, res.Match.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	late := 0
	for _, x := range d.Decisions {
		for _, at := range x.Attempts {
			if strings.Contains(at.Rejected, "is over") && x.Action.String() == at.Text && at.After >= 0 {
				late++
			}
		}
	}
	if late != 1 {
		t.Errorf("%d decisions of deal 0 record the duplicate answer, want 1", late)
	}
}

func TestTokensAreCheckedOnEveryStream(t *testing.T) {
	t.Parallel()
	a := newTestArena(t, time.Second)
	ctx := context.Background()
	a.register("real")
	for name, token := range map[string]string{"wrong token": "tapp_wrong", "missing token": ""} {
		conn := a.dial()
		cctx := ctx
		if token != "" {
			cctx = metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+token)
		}
		stream, err := tappv1.NewBotServiceClient(conn).Connect(cctx)
		if err == nil {
			_ = stream.Send(&tappv1.ConnectRequest{Message: &tappv1.ConnectRequest_Hello{Hello: &tappv1.Hello{Name: "real"}}})
			_, err = stream.Recv()
		}
		if status.Code(err) != codes.Unauthenticated {
			t.Errorf("%s: got %v, want Unauthenticated", name, err)
		}
	}
	// The admin service wants the admin token.
	conn := a.dial()
	_, err := tappv1.NewAdminServiceClient(conn).ListBots(metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer nope"), &tappv1.ListBotsRequest{})
	if status.Code(err) != codes.Unauthenticated {
		t.Errorf("admin with a wrong token: got %v, want Unauthenticated", err)
	}
	resp, err := tappv1.NewAdminServiceClient(conn).ListBots(metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+testAdminToken), &tappv1.ListBotsRequest{})
	if err != nil || len(resp.GetBots()) != 1 {
		t.Errorf("admin ListBots = %v, %v; want the one bot", resp, err)
	}
}

func TestFirstMessageMustBeHello(t *testing.T) {
	t.Parallel()
	a := newTestArena(t, time.Second)
	ctx := metadata.AppendToOutgoingContext(context.Background(), "authorization", "Bearer "+a.register("eager"))
	stream, err := tappv1.NewBotServiceClient(a.dial()).Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	_ = stream.Send(&tappv1.ConnectRequest{Message: &tappv1.ConnectRequest_Answer{Answer: &tappv1.Answer{GameId: "g", RequestId: "r", Action: "HA"}}})
	_, err = stream.Recv()
	if status.Code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), "hello") {
		t.Fatalf("got %v, want InvalidArgument naming hello", err)
	}
}

func TestDroppedBotResumesWithSnapshotWithinGrace(t *testing.T) {
	t.Parallel()
	a := newTestArena(t, 5*time.Second)
	ctx := context.Background()
	names := []string{"good1", "good2", "flaky"}
	tokens := map[string]string{}
	for _, n := range names {
		tokens[n] = a.register(n)
	}
	for _, n := range names[:2] {
		if _, err := a.connectRaw(ctx, n, tokens[n], nil, firstLegal); err != nil {
			t.Fatal(err)
		}
	}
	// The flaky bot drops its stream at its first request without answering, then resumes.
	sctx, cancel := context.WithCancel(ctx)
	var dropped atomic.Bool
	flaky, err := a.connectRaw(sctx, "flaky", tokens["flaky"], nil, func(req *tappv1.DecisionRequest) *string {
		if dropped.CompareAndSwap(false, true) {
			go cancel()
			return nil
		}
		return &req.Legal[0]
	})
	if err != nil {
		t.Fatal(err)
	}
	var welcome *tappv1.Welcome
	for _, msg := range flaky.messages() {
		if w := msg.GetWelcome(); w != nil {
			welcome = w
		}
	}
	type result struct {
		bot *rawBot
		err error
	}
	resumed := make(chan result, 1)
	go func() {
		for !dropped.Load() {
			time.Sleep(time.Millisecond)
		}
		<-flaky.done
		hello := &tappv1.Hello{Name: "flaky", Capacity: 8, ResumeToken: welcome.GetResumeToken(), LastSeq: 1}
		b, err := a.connectRaw(ctx, "flaky", tokens["flaky"], hello, firstLegal)
		resumed <- result{b, err}
	}()
	spec := modernSpec(names, 2)
	spec.TimeControl = domain.TimeControl{PerDecision: 3 * time.Second, Overage: time.Second, MaxStrikes: 3}
	res := a.play(ctx, spec)
	r := <-resumed
	if r.err != nil {
		t.Fatal(r.err)
	}
	var sawWelcome, sawSnapshot bool
	for _, msg := range r.bot.messages() {
		if w := msg.GetWelcome(); w != nil && w.GetResumed() {
			sawWelcome = true
		}
		for _, g := range msg.GetSnapshot().GetGames() {
			if g.GetPending() != nil && g.GetObservation() != nil && g.GetStarted().GetSeat() >= 0 {
				sawSnapshot = true
			}
		}
	}
	if !sawWelcome || !sawSnapshot {
		t.Fatalf("resumed welcome %v, snapshot with the pending request %v", sawWelcome, sawSnapshot)
	}
	for _, d := range decisionsOf(t, a, res.Match.ID, "flaky") {
		if d.Strike {
			t.Fatalf("decision %d got a strike although the bot resumed in time", d.Index)
		}
	}
}
