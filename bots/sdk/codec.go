package sdk

import (
	"unicode/utf8"

	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/encoding/proto"
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/encoding/protowire"
	protobuf "google.golang.org/protobuf/proto"

	"github.com/tapparena/tapp/arena/wire"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// rawResponse receives a ConnectResponse undecoded, so that a decision request (nearly every
// message) is read straight into the engine's observation by wire.DecodeRequest.
type rawResponse struct{ b []byte }

// codec is gRPC's protobuf codec, which also hands over a rawResponse undecoded.
type codec struct{ encoding.CodecV2 }

func newCodec() codec { return codec{encoding.GetCodecV2(proto.Name)} }

func (c codec) Marshal(v any) (mem.BufferSlice, error) {
	if e, ok := v.(*encodedRequest); ok {
		return mem.BufferSlice{mem.SliceBuffer(e.b)}, nil
	}
	return c.CodecV2.Marshal(v)
}

func (c codec) Unmarshal(data mem.BufferSlice, v any) error {
	if r, ok := v.(*rawResponse); ok {
		r.b = data.Materialize() // a copy: gRPC reuses its buffers
		return nil
	}
	return c.CodecV2.Unmarshal(data, v)
}

// Field numbers of ConnectResponse and GameEnded.
const (
	responseSeq             = 1
	responseGameStarted     = 3
	responseDecisionRequest = 5
	responseGameEnded       = 8
	gameEndedGameID         = 1
)

// decode reads a ConnectResponse: a decision request into req (msg nil), anything else into
// msg. An error means the bytes are no ConnectResponse. With full false, the messages the
// SDK has no use for then are only glanced at: a game's start is skipped, and of its end
// only the game id is read (the reveal and the last events are the bulk of it).
func (r *rawResponse) decode(full bool) (seq uint64, req *wire.DecodedRequest, msg *tappv1.ConnectResponse, err error) {
	seq, num, body, ok := single(r.b)
	switch {
	case ok && num == responseDecisionRequest:
		req, err := wire.DecodeRequest(body)
		return seq, req, nil, err
	case ok && num == responseGameStarted && !full:
		return seq, nil, &tappv1.ConnectResponse{Seq: seq}, nil
	case ok && num == responseGameEnded && !full:
		if id, ok := firstString(body, gameEndedGameID); ok {
			return seq, nil, &tappv1.ConnectResponse{Seq: seq,
				Message: &tappv1.ConnectResponse_GameEnded{GameEnded: &tappv1.GameEnded{GameId: id}}}, nil
		}
	}
	msg = &tappv1.ConnectResponse{}
	if err := protobuf.Unmarshal(r.b, msg); err != nil {
		return 0, nil, nil, err
	}
	return msg.GetSeq(), nil, msg, nil
}

// single finds the one message in a ConnectResponse that holds one and nothing else but its
// seq, in the arena's field order: its field number and bytes; false for anything else.
func single(b []byte) (seq uint64, num protowire.Number, body []byte, ok bool) {
	if num, typ, n := protowire.ConsumeTag(b); n > 0 && num == responseSeq && typ == protowire.VarintType {
		v, m := protowire.ConsumeVarint(b[n:])
		if m < 0 {
			return 0, 0, nil, false
		}
		seq, b = v, b[n+m:]
	}
	num, typ, n := protowire.ConsumeTag(b)
	if n < 0 || typ != protowire.BytesType {
		return 0, 0, nil, false
	}
	body, m := protowire.ConsumeBytes(b[n:])
	if m < 0 || n+m != len(b) {
		return 0, 0, nil, false
	}
	return seq, num, body, true
}

// firstString reads string field num when it comes first in a message, as the arena writes
// the game id of a GameEnded.
func firstString(b []byte, num protowire.Number) (string, bool) {
	got, typ, n := protowire.ConsumeTag(b)
	if n < 0 || got != num || typ != protowire.BytesType {
		return "", false
	}
	v, m := protowire.ConsumeBytes(b[n:])
	if m < 0 || !utf8.Valid(v) {
		return "", false
	}
	return string(v), true
}

// encodedRequest is a ConnectRequest in wire form (an answer, see encodeAnswer).
type encodedRequest struct{ b []byte }

// Field numbers of ConnectRequest, Answer and Duration.
const (
	requestAnswer                                                = 2
	answerGameID, answerRequestID, answerAction, answerThinkTime = 1, 2, 3, 4
	durationSeconds, durationNanos                               = 1, 2
)

// encodeAnswer writes the ConnectRequest carrying an answer, as proto.Marshal would: an answer
// per decision is the bot's most frequent message, and the generic path to marshal it (a
// oneof, through reflection) cost a sixth of a simple bot's CPU.
func encodeAnswer(a *tappv1.Answer) *encodedRequest {
	var body []byte
	body = appendString(body, answerGameID, a.GetGameId())
	body = appendString(body, answerRequestID, a.GetRequestId())
	body = appendString(body, answerAction, a.GetAction())
	if t := a.GetThinkTime(); t != nil {
		var d []byte
		if t.GetSeconds() != 0 {
			d = protowire.AppendTag(d, durationSeconds, protowire.VarintType)
			d = protowire.AppendVarint(d, uint64(t.GetSeconds()))
		}
		if t.GetNanos() != 0 {
			d = protowire.AppendTag(d, durationNanos, protowire.VarintType)
			d = protowire.AppendVarint(d, uint64(int64(t.GetNanos())))
		}
		body = protowire.AppendTag(body, answerThinkTime, protowire.BytesType)
		body = protowire.AppendBytes(body, d)
	}
	b := make([]byte, 0, len(body)+4)
	b = protowire.AppendTag(b, requestAnswer, protowire.BytesType)
	return &encodedRequest{b: protowire.AppendBytes(b, body)}
}

func appendString(b []byte, num protowire.Number, s string) []byte {
	if s == "" {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendString(b, s)
}
