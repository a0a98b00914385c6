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

func newCodec() codec { return codec{encoding.GetCodecV2(proto.Name)} }

func (c codec) Marshal(v any) (mem.BufferSlice, error) {
	if e, ok := v.(*encodedResponse); ok {
		return mem.BufferSlice{mem.SliceBuffer(e.head), mem.SliceBuffer(e.body)}, nil
	}
	return c.CodecV2.Marshal(v)
}
