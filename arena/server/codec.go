package server

import (
	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/encoding/proto"
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/encoding/protowire"
)

// encodedResponse is a ConnectResponse in wire form, sent as it is: a decision request is
// encoded once by the referee, for its record and for the bot. The head (seq and the
// request's tag and length) and the request are kept apart, so the request is not copied.
type encodedResponse struct{ head, body []byte }

// encodeRequestResponse frames an encoded DecisionRequest as the ConnectResponse with the
// given seq, with the fields in number order as proto.Marshal writes them.
func encodeRequestResponse(seq uint64, req []byte) *encodedResponse {
	const (
		seqField     = 1 // ConnectResponse.seq
		requestField = 5 // ConnectResponse.decision_request
	)
	head := make([]byte, 0, 2+protowire.SizeVarint(seq)+protowire.SizeVarint(uint64(len(req))))
	head = protowire.AppendTag(head, seqField, protowire.VarintType)
	head = protowire.AppendVarint(head, seq)
	head = protowire.AppendTag(head, requestField, protowire.BytesType)
	head = protowire.AppendVarint(head, uint64(len(req)))
	return &encodedResponse{head: head, body: req}
}

// codec is gRPC's protobuf codec, which also passes an encodedResponse through untouched.
type codec struct{ encoding.CodecV2 }

func newCodec() codec { return codec{encoding.GetCodecV2(proto.Name)} }

func (c codec) Marshal(v any) (mem.BufferSlice, error) {
	if e, ok := v.(*encodedResponse); ok {
		return mem.BufferSlice{mem.SliceBuffer(e.head), mem.SliceBuffer(e.body)}, nil
	}
	return c.CodecV2.Marshal(v)
}
