package server_test

import (
	"context"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/referee"
	"github.com/tapparena/tapp/arena/internal/server"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// Hostile clients: bots that answer other seats' requests, flood their games with answers, or
// repeat themselves. Whatever they send, the records of the honest bots stay theirs, and a
// correct answer on time is taken.

// slowClock leaves seconds per decision: these tests are about records, not about time, and
// must pass on a busy machine.
var slowClock = domain.TimeControl{PerDecision: 5 * time.Second, Overage: 5 * time.Second, MaxStrikes: 3}

// refusedIn counts the refused attempts in the decisions of bot.
func refusedIn(decs []domain.DecisionRecord) int {
	n := 0
	for _, d := range decs {
		for _, at := range d.Attempts {
			if at.Rejected != "" {
				n++
			}
		}
	}
	return n
}

// F1: an answer with the id of another seat's finished request is refused, and recorded in
// no honest bot's decision.
func TestAnswersToOtherSeatsRequestsStayOutOfTheirRecords(t *testing.T) {
	t.Parallel()
	a := newTestArena(t, time.Second)
	ctx := context.Background()
	var thief atomic.Pointer[rawBot]
	var foreign atomic.Int64
	mine := make(map[string]bool) // the thief's own request ids (one game at a time: Deals run in turn below)
	names, odd := table(t, a, ctx, func(req *tappv1.DecisionRequest) *string {
		b := thief.Load()
		k, _ := strconv.Atoi(req.GetRequestId()[1:])
		mine[req.GetGameId()+"/"+req.GetRequestId()] = true
		// The last earlier requests of the game that were other seats', answered again (few
		// enough that none is refused as a flood: each must reach the referee).
		for i := max(1, k-3); i < k; i++ {
			id := "r" + strconv.Itoa(i)
			if !mine[req.GetGameId()+"/"+id] {
				b.send(req.GetGameId(), id, req.Legal[0])
				foreign.Add(1)
			}
		}
		return &req.Legal[0]
	})
	thief.Store(odd)
	a.runner.Parallel = 1 // mine is not locked: one deal at a time
	spec := modernSpec(names, 3)
	res := a.play(ctx, spec)
	if res.Deals != 3 || len(res.Forfeited) != 0 {
		t.Fatalf("match: deals %d forfeited %v", res.Deals, res.Forfeited)
	}
	if foreign.Load() == 0 {
		t.Fatal("the thief never answered another seat's request: the test tests nothing")
	}
	// Every game started with the match's commitment to its deals, made before the first.
	stored, err := a.store.GetMatch(ctx, res.Match.ID)
	if err != nil {
		t.Fatal(err)
	}
	games := 0
	for _, msg := range odd.messages() {
		if gs := msg.GetGameStarted(); gs != nil {
			games++
			if gs.GetDealCommitment() == "" || gs.GetDealCommitment() != stored.Commitment {
				t.Errorf("game %s started with commitment %q, want the match's %q", gs.GetGameId(), gs.GetDealCommitment(), stored.Commitment)
			}
		}
	}
	if games != 3 {
		t.Errorf("%d games started, want 3", games)
	}
	for _, honest := range names[:2] {
		if n := refusedIn(decisionsOf(t, a, res.Match.ID, honest)); n != 0 {
			t.Errorf("%s's record shows %d refused answers; it sent none", honest, n)
		}
	}
	// Each foreign answer is refused: as not the thief's request, or as a flood when more
	// of them waited for the game than a session queues. The last refusals may still be on
	// their way when the match ends.
	refused := 0
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		refused = 0
		for _, msg := range odd.messages() {
			if r := msg.GetAnswerRejected(); r != nil && (r.GetRuleId() == referee.ReasonUnknownRequest || r.GetRuleId() == referee.ReasonFlood) {
				refused++
			}
		}
		if int64(refused) >= foreign.Load() {
			break
		}
	}
	if int64(refused) != foreign.Load() {
		t.Errorf("the thief was refused %d times; it answered %d foreign requests", refused, foreign.Load())
	}
}

// F2: a bot that floods its game with junk between its turns still has its correct answer
// taken at once: no strike, no fallback. The flood is refused, and logged once per session and
// interval rather than once per message.
func TestAFloodNeverCostsACorrectAnswer(t *testing.T) {
	t.Parallel()
	core, logs := observer.New(zapcore.InfoLevel)
	a := newTestArenaLog(t, time.Second, zap.New(core))
	ctx := context.Background()
	var flooder atomic.Pointer[rawBot]
	const junkPerTurn = 3 * 4 // three times what a session queues for a game
	names, odd := table(t, a, ctx, func(req *tappv1.DecisionRequest) *string {
		b := flooder.Load()
		// Junk in front of the answer, and right after it, while the other seats play: then
		// it waits for the bot's next turn in front of its next correct answer.
		for i := range junkPerTurn {
			b.send(req.GetGameId(), "junk"+strconv.Itoa(i), req.Legal[0])
		}
		b.send(req.GetGameId(), req.GetRequestId(), req.Legal[0])
		for i := range junkPerTurn {
			b.send(req.GetGameId(), "junk"+strconv.Itoa(i), req.Legal[0])
		}
		return nil
	})
	flooder.Store(odd)
	spec := modernSpec(names, 4)
	res := a.play(ctx, spec)
	if res.Deals != 4 || len(res.Forfeited) != 0 {
		t.Fatalf("match: deals %d forfeited %v", res.Deals, res.Forfeited)
	}
	decs := decisionsOf(t, a, res.Match.ID, "odd")
	for _, d := range decs {
		if d.Fallback || d.Strike {
			t.Fatalf("decision %d of the flooder was a fallback (strike %v): its correct answer was lost", d.Index, d.Strike)
		}
		if last := d.Attempts[len(d.Attempts)-1]; last.Rejected != "" || last.Text != d.Action.String() {
			t.Fatalf("decision %d: last attempt %+v, want the accepted answer %s", d.Index, last, d.Action)
		}
	}
	flood := 0
	for _, msg := range odd.messages() {
		if r := msg.GetAnswerRejected(); r != nil && r.GetRuleId() == referee.ReasonFlood {
			flood++
		}
	}
	if flood == 0 {
		t.Error("no answer was refused as a flood: the flood was not throttled")
	}
	sent := 2 * len(decs) * junkPerTurn
	_ = odd.stream.CloseSend() // the session's summary is written when its stream ends, at the latest
	for deadline := time.Now().Add(10 * time.Second); logs.FilterMessage("answers refused").Len() == 0 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	perMessage := logs.FilterMessageSnippet("refused").Len() + logs.FilterMessageSnippet("flood").Len()
	if perMessage > 3 {
		t.Errorf("%d log lines about refusals for %d junk answers, want a summary per session and interval", perMessage, sent)
	}
	if logs.FilterMessage("answers refused").Len() == 0 {
		t.Error("no summary of the refused answers was logged")
	}
}

// A token with a space around it is refused, for an admin as for a bot: tokens are compared
// exactly as sent, never trimmed on one side and not on the other.
func TestTokensWithSpacesAroundThemAreRefused(t *testing.T) {
	t.Parallel()
	a := newTestArena(t, time.Second)
	ctx := context.Background()
	token := a.register("spaced")
	admin := tappv1.NewAdminServiceClient(a.dial())
	for _, padded := range []string{testAdminToken + " ", " " + testAdminToken} {
		_, err := admin.ListBots(metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+padded), &tappv1.ListBotsRequest{})
		if status.Code(err) != codes.Unauthenticated {
			t.Errorf("admin token %q: %v, want Unauthenticated", padded, err)
		}
	}
	if _, err := admin.ListBots(metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+testAdminToken), &tappv1.ListBotsRequest{}); err != nil {
		t.Errorf("the admin token as issued: %v", err)
	}
	if _, err := a.connectRaw(ctx, "spaced", token+" ", nil, firstLegal); status.Code(err) != codes.Unauthenticated {
		t.Errorf("bot token with a trailing space: %v, want Unauthenticated", err)
	}
	if _, err := a.connectRaw(ctx, "spaced", token, nil, firstLegal); err != nil {
		t.Errorf("the bot token as issued: %v", err)
	}
	if err := server.CheckToken("TAPP_ADMIN_TOKEN", "secret\n"); err == nil {
		t.Error("CheckToken accepted a configured token ending in a newline")
	}
}
