package wire

import (
	"unicode/utf8"

	"google.golang.org/grpc/encoding"
	grpcproto "google.golang.org/grpc/encoding/proto"
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/tapparena/tapp/arena/internal/protoappend"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// The bot stream's frequent messages — a decision request each way down, an answer each way
// up, a game's end — are written and read by hand on both ends, without protobuf's generic
// path (a oneof, through reflection), which cost more than anything else the arena or a simple
// bot did per decision. Codec carries them through gRPC as they are.

// Field numbers of ConnectResponse, ConnectRequest and Answer (proto/tapp/v1/bot.proto).
const (
	ResponseSeq             protowire.Number = 1
	ResponseGameStarted     protowire.Number = 3
	ResponseDecisionRequest protowire.Number = 5
	ResponseGameEnded       protowire.Number = 8

	requestAnswer                                                = 2
	answerGameID, answerRequestID, answerAction, answerThinkTime = 1, 2, 3, 4
)

// Encoded is a message in wire form for Codec to send as it is: Head then Body, kept apart so
// that a body encoded once (a request, which is also recorded) is not copied.
type Encoded struct{ Head, Body []byte }

// Raw receives a message undecoded through Codec.
type Raw struct{ B []byte }

// Codec returns gRPC's protobuf codec that also sends an *Encoded as it is and hands over an
// *Raw undecoded.
func Codec() encoding.CodecV2 { return codec{encoding.GetCodecV2(grpcproto.Name)} }

type codec struct{ encoding.CodecV2 }

func (c codec) Marshal(v any) (mem.BufferSlice, error) {
	if e, ok := v.(*Encoded); ok {
		if len(e.Head) == 0 {
			return mem.BufferSlice{mem.SliceBuffer(e.Body)}, nil
		}
		return mem.BufferSlice{mem.SliceBuffer(e.Head), mem.SliceBuffer(e.Body)}, nil
	}
	return c.CodecV2.Marshal(v)
}

func (c codec) Unmarshal(data mem.BufferSlice, v any) error {
	if r, ok := v.(*Raw); ok {
		r.B = data.Materialize() // a copy: gRPC reuses its buffers
		return nil
	}
	return c.CodecV2.Unmarshal(data, v)
}

// EncodeResponse frames a message in wire form as the ConnectResponse with the given seq that
// holds it in field kind, with the fields in number order as proto.Marshal writes them.
func EncodeResponse(seq uint64, kind protowire.Number, body []byte) *Encoded {
	head := make([]byte, 0, 3+protowire.SizeVarint(seq)+protowire.SizeVarint(uint64(len(body))))
	head = protowire.AppendTag(head, ResponseSeq, protowire.VarintType)
	head = protowire.AppendVarint(head, seq)
	head = protowire.AppendTag(head, kind, protowire.BytesType)
	head = protowire.AppendVarint(head, uint64(len(body)))
	return &Encoded{Head: head, Body: body}
}

// SplitResponse finds the one message of a ConnectResponse that holds one and nothing else
// but its seq, in the arena's field order: its field number and bytes; false for anything
// else.
func SplitResponse(b []byte) (seq uint64, kind protowire.Number, body []byte, ok bool) {
	if num, typ, n := protowire.ConsumeTag(b); n > 0 && num == ResponseSeq && typ == protowire.VarintType {
		v, m := protowire.ConsumeVarint(b[n:])
		if m < 0 {
			return 0, 0, nil, false
		}
		seq, b = v, b[n+m:]
	}
	kind, typ, n := protowire.ConsumeTag(b)
	if n < 0 || typ != protowire.BytesType {
		return 0, 0, nil, false
	}
	body, m := protowire.ConsumeBytes(b[n:])
	if m < 0 || n+m != len(b) {
		return 0, 0, nil, false
	}
	return seq, kind, body, true
}

// GameEndedID reads the game id of a GameEnded in wire form, where the arena writes it: first.
func GameEndedID(b []byte) (string, bool) {
	num, typ, n := protowire.ConsumeTag(b)
	if n < 0 || num != endedGameID || typ != protowire.BytesType {
		return "", false
	}
	v, m := protowire.ConsumeBytes(b[n:])
	if m < 0 || !utf8.Valid(v) {
		return "", false
	}
	return string(v), true
}

// EncodeAnswer writes the ConnectRequest that carries an answer, as proto.Marshal would.
func EncodeAnswer(a *tappv1.Answer) *Encoded {
	var body []byte
	body = protoappend.String(body, answerGameID, a.GetGameId())
	body = protoappend.String(body, answerRequestID, a.GetRequestId())
	body = protoappend.String(body, answerAction, a.GetAction())
	if t := a.GetThinkTime(); t != nil {
		var m int
		body, m = protoappend.Open(body, answerThinkTime)
		body = protoappend.Int(body, timeSeconds, t.GetSeconds())
		body = protoappend.Int(body, timeNanos, int64(t.GetNanos()))
		body = protoappend.Close(body, m)
	}
	b := make([]byte, 0, len(body)+4)
	b = protowire.AppendTag(b, requestAnswer, protowire.BytesType)
	return &Encoded{Body: protowire.AppendBytes(b, body)}
}

// DecodeAnswer reads a ConnectRequest that holds an answer and nothing else, its fields in
// number order, each at most once, strings valid UTF-8; false for anything else (which
// protobuf is then to read).
func DecodeAnswer(b []byte) (*tappv1.Answer, bool) {
	num, typ, n := protowire.ConsumeTag(b)
	if n < 0 || num != requestAnswer || typ != protowire.BytesType {
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
		case answerGameID, answerRequestID, answerAction:
			if !utf8.Valid(v) {
				return nil, false
			}
			switch num {
			case answerGameID:
				a.GameId = string(v)
			case answerRequestID:
				a.RequestId = string(v)
			default:
				a.Action = string(v)
			}
		case answerThinkTime:
			secs, nanos, ok := secondsNanos(v)
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

// secondsNanos reads a Timestamp or a Duration (they share their fields); false for anything
// else. As protobuf, a field given twice counts as given last.
func secondsNanos(b []byte) (secs int64, nanos int32, ok bool) {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 || typ != protowire.VarintType {
			return 0, 0, false
		}
		v, m := protowire.ConsumeVarint(b[n:])
		if m < 0 {
			return 0, 0, false
		}
		b = b[n+m:]
		switch num {
		case timeSeconds:
			secs = int64(v)
		case timeNanos:
			nanos = int32(v)
		default:
			return 0, 0, false
		}
	}
	return secs, nanos, true
}
