package server

import (
	"unicode/utf8"

	"google.golang.org/grpc/encoding"
	grpcproto "google.golang.org/grpc/encoding/proto"
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"

	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// encodedResponse is a ConnectResponse in wire form, sent as it is: a decision request is
// encoded once by the referee, for its record and for the bot. The head (seq and the
// request's tag and length) and the request are kept apart, so the request is not copied.
type encodedResponse struct{ head, body []byte }

// encodeResponse frames an encoded message as the ConnectResponse with the given seq that
// holds it in field kind, with the fields in number order as proto.Marshal writes them.
func encodeResponse(seq uint64, kind protowire.Number, body []byte) *encodedResponse {
	const seqField = 1 // ConnectResponse.seq
	head := make([]byte, 0, 3+protowire.SizeVarint(seq)+protowire.SizeVarint(uint64(len(body))))
	head = protowire.AppendTag(head, seqField, protowire.VarintType)
	head = protowire.AppendVarint(head, seq)
	head = protowire.AppendTag(head, kind, protowire.BytesType)
	head = protowire.AppendVarint(head, uint64(len(body)))
	return &encodedResponse{head: head, body: body}
}

// codec is gRPC's protobuf codec, which also passes an encodedResponse through untouched.
type codec struct{ encoding.CodecV2 }

func newCodec() codec { return codec{encoding.GetCodecV2(grpcproto.Name)} }

func (c codec) Marshal(v any) (mem.BufferSlice, error) {
	if e, ok := v.(*encodedResponse); ok {
		return mem.BufferSlice{mem.SliceBuffer(e.head), mem.SliceBuffer(e.body)}, nil
	}
	return c.CodecV2.Marshal(v)
}

func (c codec) Unmarshal(data mem.BufferSlice, v any) error {
	if r, ok := v.(*rawRequest); ok {
		r.b = data.Materialize() // a copy: gRPC reuses its buffers
		return nil
	}
	return c.CodecV2.Unmarshal(data, v)
}

// rawRequest receives a ConnectRequest undecoded, so that an answer (nearly every message) is
// read without protobuf's generic path for a oneof.
type rawRequest struct{ b []byte }

// Field numbers of ConnectRequest, Answer and Duration.
const (
	requestAnswer                                                = 2
	answerGameID, answerRequestID, answerAction, answerThinkTime = 1, 2, 3, 4
	durationSeconds, durationNanos                               = 1, 2
)

// decode reads the message: an answer as the SDKs write it straight into an Answer, anything
// else through protobuf (whose error, if any, is returned).
func (r *rawRequest) decode() (*tappv1.ConnectRequest, error) {
	if a, ok := decodeAnswer(r.b); ok {
		return &tappv1.ConnectRequest{Message: &tappv1.ConnectRequest_Answer{Answer: a}}, nil
	}
	msg := &tappv1.ConnectRequest{}
	return msg, proto.Unmarshal(r.b, msg)
}

// decodeAnswer reads a ConnectRequest that holds an answer and nothing else, its fields in
// number order, each at most once, strings valid UTF-8; false for anything else.
func decodeAnswer(b []byte) (*tappv1.Answer, bool) {
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
			d, ok := decodeDuration(v)
			if !ok {
				return nil, false
			}
			a.ThinkTime = d
		default:
			return nil, false
		}
	}
	return a, true
}

func decodeDuration(b []byte) (*durationpb.Duration, bool) {
	d := &durationpb.Duration{}
	last := protowire.Number(0)
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 || num <= last || typ != protowire.VarintType {
			return nil, false
		}
		last = num
		v, m := protowire.ConsumeVarint(b[n:])
		if m < 0 {
			return nil, false
		}
		b = b[n+m:]
		switch num {
		case durationSeconds:
			d.Seconds = int64(v)
		case durationNanos:
			d.Nanos = int32(v)
		default:
			return nil, false
		}
	}
	return d, true
}
