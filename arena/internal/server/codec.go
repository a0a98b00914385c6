package server

import (
	"google.golang.org/protobuf/proto"

	"github.com/tapparena/tapp/arena/wire"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// decodeRequest reads a message a bot sent: an answer straight into an Answer (wire.DecodeAnswer),
// anything else through protobuf (whose error, if any, is returned).
func decodeRequest(raw *wire.Raw) (*tappv1.ConnectRequest, error) {
	if a, ok := wire.DecodeAnswer(raw.B); ok {
		return &tappv1.ConnectRequest{Message: &tappv1.ConnectRequest_Answer{Answer: a}}, nil
	}
	msg := &tappv1.ConnectRequest{}
	return msg, proto.Unmarshal(raw.B, msg)
}
