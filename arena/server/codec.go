package server

import (
	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/encoding/proto"
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/encoding/protowire"
)

// encodedResponse is a ConnectResponse in wire form, sent as it is: a decision request is
// encoded once by the referee, for its record and for the bot.
type encodedResponse struct{ b []byte }

// encodeRequestResponse frames an encoded DecisionRequest as the ConnectResponse with the
// given seq, with the fields in number order as proto.Marshal writes them.
func encodeRequestResponse(seq uint64, req []byte) *encodedResponse {
	const (
		seqField     = 1 // ConnectResponse.seq
		requestField = 5 // ConnectResponse.decision_request
	)
	b := make([]byte, 0, 1+protowire.SizeVarint(seq)+1+protowire.SizeBytes(len(req)))
	b = protowire.AppendTag(b, seqField, protowire.VarintType)
	b = protowire.AppendVarint(b, seq)
	b = protowire.AppendTag(b, requestField, protowire.BytesType)
	b = protowire.AppendBytes(b, req)
	return &encodedResponse{b: b}
}

// codec is gRPC's protobuf codec, which also passes an encodedResponse through untouched.
type codec struct{ encoding.CodecV2 }

func newCodec() codec { return codec{encoding.GetCodecV2(proto.Name)} }

func (c codec) Marshal(v any) (mem.BufferSlice, error) {
	if e, ok := v.(*encodedResponse); ok {
		return mem.BufferSlice{mem.SliceBuffer(e.b)}, nil
	}
	return c.CodecV2.Marshal(v)
}
