package sdk

import (
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

// Field numbers of ConnectResponse.
const (
	responseSeq             = 1
	responseDecisionRequest = 5
)

// decode reads a ConnectResponse: a decision request into req (msg nil), anything else into
// msg. An error means the bytes are no ConnectResponse.
func (r *rawResponse) decode() (seq uint64, req *wire.DecodedRequest, msg *tappv1.ConnectResponse, err error) {
	if seq, body, ok := requestOnly(r.b); ok {
		req, err := wire.DecodeRequest(body)
		return seq, req, nil, err
	}
	msg = &tappv1.ConnectResponse{}
	if err := protobuf.Unmarshal(r.b, msg); err != nil {
		return 0, nil, nil, err
	}
	return msg.GetSeq(), nil, msg, nil
}

// requestOnly finds the decision request in a ConnectResponse that holds one and nothing
// else but its seq, in the arena's field order; false for anything else.
func requestOnly(b []byte) (seq uint64, body []byte, ok bool) {
	if num, typ, n := protowire.ConsumeTag(b); n > 0 && num == responseSeq && typ == protowire.VarintType {
		v, m := protowire.ConsumeVarint(b[n:])
		if m < 0 {
			return 0, nil, false
		}
		seq, b = v, b[n+m:]
	}
	num, typ, n := protowire.ConsumeTag(b)
	if n < 0 || num != responseDecisionRequest || typ != protowire.BytesType {
		return 0, nil, false
	}
	body, m := protowire.ConsumeBytes(b[n:])
	if m < 0 || n+m != len(b) {
		return 0, nil, false
	}
	return seq, body, true
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
