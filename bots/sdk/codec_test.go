package sdk

import (
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/tapparena/tapp/arena/wire/grpccodec"
	"github.com/tapparena/tapp/engine"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// A decision request is read straight into the engine's observation; every other message,
// and a request that comes with anything else, is decoded the usual way.
func TestRawResponseDecode(t *testing.T) {
	t.Parallel()
	rules := engine.DefaultRules(engine.Modern)
	st, err := engine.NewState(rules, engine.DealFromSeed(rules, 1, 0), engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	obs := st.Observe(st.ToMove())
	request := &tappv1.DecisionRequest{GameId: "g/1", RequestId: "r1", Legal: []string{"pass", "play"},
		Observation: &tappv1.Observation{Rules: rules.String(), Seat: int32(obs.Seat), Hand: []string{"HA"},
			Current: &tappv1.Trick{Leader: -1, Winner: -1}}}
	for _, tc := range []struct {
		name    string
		msg     *tappv1.ConnectResponse
		request bool
	}{
		{"request", &tappv1.ConnectResponse{Seq: 300, Message: &tappv1.ConnectResponse_DecisionRequest{DecisionRequest: request}}, true},
		{"request without seq", &tappv1.ConnectResponse{Message: &tappv1.ConnectResponse_DecisionRequest{DecisionRequest: request}}, true},
		{"welcome", &tappv1.ConnectResponse{Seq: 1, Message: &tappv1.ConnectResponse_Welcome{Welcome: &tappv1.Welcome{SessionId: "s"}}}, false},
	} {
		b, err := proto.Marshal(tc.msg)
		if err != nil {
			t.Fatal(err)
		}
		seq, req, msg, err := decodeResponse(&grpccodec.Raw{B: b}, true)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if seq != tc.msg.GetSeq() {
			t.Errorf("%s: seq %d, want %d", tc.name, seq, tc.msg.GetSeq())
		}
		if got := req != nil; got != tc.request {
			t.Fatalf("%s: read as a request %v, want %v", tc.name, got, tc.request)
		}
		if tc.request {
			if req.Err != nil || req.GameID != "g/1" || req.RequestID != "r1" || len(req.Observation.Legal) != 2 ||
				!req.Observation.Hand.Has(engine.NewCard(engine.Hearts, engine.Ace)) {
				t.Errorf("%s: decoded %+v (observation %+v)", tc.name, req, req.Observation)
			}
		} else if !proto.Equal(msg, tc.msg) {
			t.Errorf("%s: decoded %v, want %v", tc.name, msg, tc.msg)
		}
	}
	if _, _, _, err := decodeResponse(&grpccodec.Raw{B: []byte{0x2A, 0x05, 0x0A}}, true); err == nil {
		t.Error("a truncated message decoded")
	}
}

// Without a GameEnded callback, a game's end is read for its game id only, and its start
// not at all.
func TestRawResponseGlance(t *testing.T) {
	t.Parallel()
	ended := &tappv1.ConnectResponse{Seq: 9, Message: &tappv1.ConnectResponse_GameEnded{GameEnded: &tappv1.GameEnded{
		GameId: "m/3", Reveal: &tappv1.Reveal{Deal: "x"}, Events: []*tappv1.GameEvent{{Index: 4}}}}}
	b, err := proto.Marshal(ended)
	if err != nil {
		t.Fatal(err)
	}
	seq, req, msg, err := decodeResponse(&grpccodec.Raw{B: b}, false)
	if err != nil || req != nil || seq != 9 || msg.GetGameEnded().GetGameId() != "m/3" {
		t.Fatalf("decode(false) = %d, %v, %v, %v", seq, req, msg, err)
	}
	if _, _, msg, _ := decodeResponse(&grpccodec.Raw{B: b}, true); !proto.Equal(msg, ended) {
		t.Fatalf("decode(true) = %v, want all of %v", msg, ended)
	}
	started, err := proto.Marshal(&tappv1.ConnectResponse{Seq: 10, Message: &tappv1.ConnectResponse_GameStarted{GameStarted: &tappv1.GameStarted{GameId: "m/4"}}})
	if err != nil {
		t.Fatal(err)
	}
	if seq, _, msg, err := decodeResponse(&grpccodec.Raw{B: started}, false); err != nil || seq != 10 || msg.GetMessage() != nil {
		t.Fatalf("decode(false) of a start = %d, %v, %v", seq, msg, err)
	}
}

// A game's end reaches Config.GameEnded in engine types; an aborted game has nothing else,
// and an end the SDK cannot read is an error (the SDK logs it), not a zero settlement.
func TestGameEndFromProto(t *testing.T) {
	t.Parallel()
	end, err := gameEndFromProto(&tappv1.GameEnded{GameId: "m/1", Reveal: &tappv1.Reveal{
		Hands: []*tappv1.Hand{{Cards: []string{"HA"}}, {Cards: []string{"HK"}}, {Cards: []string{"HQ"}}}, Tapp: []string{"HJ"}},
		Settlement: &tappv1.Settlement{Declarer: 1, Contract: "solo", Trump: "C", DeclarerWon: true, Payoff: []int32{-20, 40, -20}}})
	if err != nil {
		t.Fatal(err)
	}
	hk, _ := engine.ParseCard("HK")
	if end.GameID != "m/1" || end.Aborted || end.Players != 3 || end.Outcome.Declarer != 1 || end.Outcome.Contract != engine.Solo ||
		end.Outcome.Trump != engine.Clubs || end.Outcome.Payoff != [engine.MaxPlayers]int{-20, 40, -20, 0} || !end.Deal.Hands[1].Has(hk) {
		t.Errorf("end = %+v", end)
	}
	if end, err := gameEndFromProto(&tappv1.GameEnded{GameId: "m/2", Aborted: true}); err != nil || !end.Aborted || end.Players != 0 {
		t.Errorf("aborted end = %+v, %v", end, err)
	}
	if _, err := gameEndFromProto(&tappv1.GameEnded{GameId: "m/3", Settlement: &tappv1.Settlement{Contract: "grand"}}); err == nil {
		t.Error("an unknown contract read without error")
	}
}
