package server

import (
	"encoding/binary"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"

	wf "github.com/tapparena/tapp/arena/internal/wireform"
	"github.com/tapparena/tapp/arena/wire/grpccodec"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// The session writes its frequent messages (a decision request, a game's end) by hand and
// frames them here; a bot's answers are read here by hand. grpccodec carries both through
// gRPC as they are.

// decodeRequest reads a message a bot sent: an answer straight into an Answer (decodeAnswer),
// anything else through protobuf (whose error, if any, is returned).
func decodeRequest(raw *grpccodec.Raw) (*tappv1.ConnectRequest, error) {
	if a, ok := decodeAnswer(raw.B); ok {
		return &tappv1.ConnectRequest{Message: &tappv1.ConnectRequest_Answer{Answer: a}}, nil
	}
	msg := &tappv1.ConnectRequest{}
	return msg, proto.Unmarshal(raw.B, msg)
}

// encodeResponse frames a message in wire form as the ConnectResponse with the given seq that
// holds it in field kind, with the fields in number order as proto.Marshal writes them.
func encodeResponse(seq uint64, kind protowire.Number, body []byte) *grpccodec.Encoded {
	head := appendResponseHead(make([]byte, 0, 3+protowire.SizeVarint(seq)+protowire.SizeVarint(uint64(len(body)))), seq, kind, len(body))
	return &grpccodec.Encoded{Head: head, Body: body}
}

// maxResponseHead is the longest head appendResponseHead writes: two one-byte tags (the
// message fields' numbers are below 16) and two varints of at most 10 bytes.
const maxResponseHead = 2 + 2*binary.MaxVarintLen64

// appendResponseHead appends the head of the ConnectResponse with the given seq that holds a
// body of size bytes in field kind: the seq, and the field's tag and length.
func appendResponseHead(head []byte, seq uint64, kind protowire.Number, size int) []byte {
	head = protowire.AppendTag(head, wf.ResponseSeq, protowire.VarintType)
	head = protowire.AppendVarint(head, seq)
	head = protowire.AppendTag(head, kind, protowire.BytesType)
	return protowire.AppendVarint(head, uint64(size))
}

// decodeAnswer reads a ConnectRequest that holds an answer and nothing else, its fields in
// number order, each at most once, strings valid UTF-8; false for anything else (which
// protobuf is then to read).
func decodeAnswer(b []byte) (*tappv1.Answer, bool) {
	num, typ, n := protowire.ConsumeTag(b)
	if n < 0 || num != wf.RequestAnswer || typ != protowire.BytesType {
		return nil, false
	}
	body, m := protowire.ConsumeBytes(b[n:])
	if m < 0 || n+m != len(b) {
		return nil, false
	}
	a := &tappv1.Answer{}
	last := protowire.Number(0)
	for len(body) > 0 {
		num, typ, n := protowire.ConsumeTag(body)
		if n < 0 || num <= last || typ != protowire.BytesType {
			return nil, false
		}
		last = num
		v, m := protowire.ConsumeBytes(body[n:])
		if m < 0 {
			return nil, false
		}
		body = body[n+m:]
		switch num {
		case wf.AnswerGameID, wf.AnswerRequestID, wf.AnswerAction:
			if !utf8.Valid(v) {
				return nil, false
			}
			switch num {
			case wf.AnswerGameID:
				a.GameId = string(v)
			case wf.AnswerRequestID:
				a.RequestId = string(v)
			default:
				a.Action = string(v)
			}
		case wf.AnswerThinkTime:
			secs, nanos, ok := wf.SecondsNanos(v)
			if !ok {
				return nil, false
			}
			a.ThinkTime = &durationpb.Duration{Seconds: secs, Nanos: nanos}
		default:
			return nil, false
		}
	}
	return a, true
}
