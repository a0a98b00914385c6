// Command rawbot is a bot for the tests of package botcheck, written on the bare gRPC stubs
// (no SDK, which would hide its faults): -mode good plays the first legal action; illegal
// answers an action that is not legal; slow answers after 3 s; crash dies at its 5th request;
// noresume reconnects after a drop without its resume token; linger ignores GoingAway;
// afterend answers again for a game after its GameEnded; malformed answers "no-such-action".
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"slices"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"

	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

func main() {
	mode := flag.String("mode", "good", "good, illegal, slow, crash, noresume, linger, afterend or malformed")
	flag.Parse()
	conn, err := grpc.NewClient(os.Getenv("TAPP_ARENA"), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	client := tappv1.NewBotServiceClient(conn)
	ctx := metadata.AppendToOutgoingContext(context.Background(), "authorization", "Bearer "+os.Getenv("TAPP_TOKEN"))
	var resume string
	var lastSeq uint64
	requests := 0
	for {
		stream, err := client.Connect(ctx)
		if err != nil {
			time.Sleep(100 * time.Millisecond)
			continue
		}
		hello := &tappv1.Hello{Name: os.Getenv("TAPP_BOT_NAME"), Version: *mode, Capacity: 2}
		if *mode != "noresume" {
			hello.ResumeToken, hello.LastSeq = resume, lastSeq
		}
		if err := stream.Send(&tappv1.ConnectRequest{Message: &tappv1.ConnectRequest_Hello{Hello: hello}}); err != nil {
			continue
		}
		answer := func(req *tappv1.DecisionRequest) {
			requests++
			action := req.GetLegal()[0]
			switch *mode {
			case "crash":
				if requests == 5 {
					fmt.Fprintln(os.Stderr, "panic: crashed on purpose")
					os.Exit(2)
				}
			case "malformed":
				action = "no-such-action"
			case "slow":
				time.Sleep(3 * time.Second)
			case "illegal":
				for _, a := range []string{"tout", "HA", "SA", "CA", "DA", "pass"} {
					if !slices.Contains(req.GetLegal(), a) {
						action = a
						break
					}
				}
			}
			_ = stream.Send(&tappv1.ConnectRequest{Message: &tappv1.ConnectRequest_Answer{Answer: &tappv1.Answer{
				GameId: req.GetGameId(), RequestId: req.GetRequestId(), Action: action}}})
		}
		for {
			msg, err := stream.Recv()
			if err != nil {
				break
			}
			lastSeq = msg.GetSeq()
			switch {
			case msg.GetWelcome() != nil:
				resume = msg.GetWelcome().GetResumeToken()
			case msg.GetDecisionRequest() != nil:
				answer(msg.GetDecisionRequest())
			case msg.GetSnapshot() != nil:
				for _, g := range msg.GetSnapshot().GetGames() {
					if g.GetPending() != nil {
						answer(g.GetPending())
					}
				}
			case msg.GetGameEnded() != nil && *mode == "afterend":
				_ = stream.Send(&tappv1.ConnectRequest{Message: &tappv1.ConnectRequest_Answer{Answer: &tappv1.Answer{
					GameId: msg.GetGameEnded().GetGameId(), RequestId: "r1", Action: "pass"}}})
			case msg.GetGoingAway() != nil && *mode != "linger":
				return
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
}
