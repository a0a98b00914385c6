package sdk

import (
	"google.golang.org/protobuf/proto"

	"github.com/tapparena/tapp/arena/wire"
	"github.com/tapparena/tapp/arena/wire/grpccodec"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// decodeResponse reads a message from the arena: a decision request into req (msg nil),
// anything else into msg. An error means the bytes are no ConnectResponse. With full false,
// the messages the SDK has no use for then are only glanced at: a game's start is skipped, and
// of its end only the game id is read (the reveal and the last events are the bulk of it).
func decodeResponse(raw *grpccodec.Raw, full bool) (seq uint64, req *wire.DecodedRequest, msg *tappv1.ConnectResponse, err error) {
	seq, kind, body, ok := wire.SplitResponse(raw.B)
	switch {
	case ok && kind == wire.ResponseDecisionRequest:
		req, err := wire.DecodeRequest(body)
		return seq, req, nil, err
	case ok && kind == wire.ResponseGameStarted && !full:
		return seq, nil, &tappv1.ConnectResponse{Seq: seq}, nil
	case ok && kind == wire.ResponseGameEnded && !full:
		if id, ok := wire.GameEndedID(body); ok {
			return seq, nil, &tappv1.ConnectResponse{Seq: seq,
				Message: &tappv1.ConnectResponse_GameEnded{GameEnded: &tappv1.GameEnded{GameId: id}}}, nil
		}
	}
	msg = &tappv1.ConnectResponse{}
	if err := proto.Unmarshal(raw.B, msg); err != nil {
		return 0, nil, nil, err
	}
	return msg.GetSeq(), nil, msg, nil
}
