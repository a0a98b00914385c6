package cli

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/tapparena/tapp/arena/internal/domain"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// floodExtras is how many answers the flooding bot sends for its last request but one, and
// floodThink the think time it reports with its answers.
const (
	floodExtras = 50
	floodThink  = 1234 * time.Microsecond
)

// A bot that floods the arena with answers to its own closed requests — as many as it likes,
// far past what its connection queues — has every one of them traced in the deal: refused at
// the referee and recorded as an attempt of the decision it names, or refused by its
// connection (PROTO-FLOOD) and counted with that decision. An export carries the counts and
// the think times.
func TestE2EEveryAnswerIsTraced(t *testing.T) {
	t.Parallel()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	a := startServe(t)
	a.startBot("flood", []string{"TAPP_E2E_BOT=flood", "TAPP_BOT_NAME=flood"}, self, "-test.run=^$")
	a.goBot("q1", "random")
	a.goBot("q2", "random")
	a.waitConnected("flood", "q1", "q2")
	got := a.playMatch(&tappv1.StartMatchRequest{Bots: []string{"flood", "q1", "q2"}, Rules: "modern", Deals: 4, Seed: 8,
		// A clock no busy host runs out: a late answer here is an extra the bot sent, never its
		// own answer after a fallback.
		TimeControl: &tappv1.TimeControl{PerDecision: durationpb.New(10 * time.Second), Overage: durationpb.New(20 * time.Second), MaxStrikes: 3}})
	checkComplete(t, got, 4)
	id := got.GetMatch().GetMatchId()
	st := openDB(t, a.db)
	deals, err := st.Deals(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	checked, flooded := 0, 0
	for _, d := range deals {
		var mine []domain.DecisionRecord // the flooding bot's decisions with a request, in order
		for _, x := range d.Decisions {
			if x.Bot == "flood" && x.RequestID != "" {
				mine = append(mine, x)
			}
		}
		// The extras for a request follow the answer to the next one on the stream; they are
		// all in the deal when a request after that comes (the game goes on past them).
		for k := 0; k+2 < len(mine); k++ {
			x := mine[k]
			refused := 0
			for _, at := range x.Attempts {
				if strings.Contains(at.Rejected, "is over") {
					refused++
				}
			}
			if refused+x.Flooded != floodExtras {
				t.Errorf("deal %d, request %s: %d late answers recorded and %d counted, want the %d sent", d.Number, x.RequestID,
					refused, x.Flooded, floodExtras)
			}
			checked++
			flooded += x.Flooded
		}
	}
	if checked == 0 || flooded == 0 {
		t.Fatalf("%d decisions checked, %d answers counted as PROTO-FLOOD: the test must see the connection refuse some", checked, flooded)
	}
	out, err := exec.Command(tappBin, "replay", "export", id, "--no-sent", "--db", a.db).Output()
	if err != nil {
		t.Fatal(err)
	}
	exported, thinks := 0, 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var e struct {
			Decisions []struct {
				Flooded int   `json:"flooded"`
				ThinkUS int64 `json:"think_us"`
			} `json:"decisions"`
		}
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatal(err)
		}
		for _, x := range e.Decisions {
			exported += x.Flooded
			if x.ThinkUS == floodThink.Microseconds() {
				thinks++
			}
		}
	}
	if exported < flooded || thinks == 0 {
		t.Errorf("the export counts %d flooded answers (the store %d at least) and %d think times; want them all", exported, flooded, thinks)
	}
	// The counts are in what the chain covers: the third party's check (docs/replay.md) of
	// the export holds.
	file := filepath.Join(t.TempDir(), "flood.jsonl")
	if err := os.WriteFile(file, out, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := checkExportByScript(t, file); err != nil || !strings.Contains(out, "holds") {
		t.Errorf("the script of docs/replay.md on the export: %v\n%s", err, out)
	}
}

// runFloodBot answers every request with its first legal action, then sends floodExtras more
// answers to its request before: late, every one.
func runFloodBot() int {
	conn, err := grpc.NewClient(os.Getenv("TAPP_ARENA"), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return 1
	}
	ctx := metadata.AppendToOutgoingContext(context.Background(), "authorization", "Bearer "+os.Getenv("TAPP_TOKEN"))
	stream, err := tappv1.NewBotServiceClient(conn).Connect(ctx)
	if err != nil {
		return 1
	}
	if err := stream.Send(&tappv1.ConnectRequest{Message: &tappv1.ConnectRequest_Hello{Hello: &tappv1.Hello{Name: os.Getenv("TAPP_BOT_NAME"), Capacity: 8}}}); err != nil {
		return 1
	}
	last := map[string]string{}
	for {
		msg, err := stream.Recv()
		if err != nil {
			return 0
		}
		req := msg.GetDecisionRequest()
		if req == nil || len(req.GetLegal()) == 0 {
			continue
		}
		answer := func(id string, think time.Duration) {
			_ = stream.Send(&tappv1.ConnectRequest{Message: &tappv1.ConnectRequest_Answer{Answer: &tappv1.Answer{
				GameId: req.GetGameId(), RequestId: id, Action: req.GetLegal()[0], ThinkTime: durationpb.New(think)}}})
		}
		answer(req.GetRequestId(), floodThink)
		if prev := last[req.GetGameId()]; prev != "" {
			for range floodExtras {
				answer(prev, 0)
			}
		}
		last[req.GetGameId()] = req.GetRequestId()
	}
}
