// Package grpccodec is the bot stream's gRPC codec, used by both of its ends (the arena's
// server and the Go SDK): gRPC's protobuf codec, except that a message encoded by hand
// (Encoded) is sent as it is and a message received into a Raw is handed over undecoded, for
// arena/wire (the bot's side) or the arena to read by hand. It is the one piece of the
// hand-written codecs that knows gRPC.
package grpccodec

import (
	"google.golang.org/grpc/encoding"
	grpcproto "google.golang.org/grpc/encoding/proto"
	"google.golang.org/grpc/mem"
)

// Encoded is a message in wire form to send as it is: Head then Body, kept apart so that a
// body encoded once (a decision request, which is also recorded) is not copied to be framed.
type Encoded struct{ Head, Body []byte }

// Raw receives a message undecoded, as a copy of gRPC's buffers (which gRPC reuses). A Raw
// received into again reuses its bytes when they are large enough (and not larger than
// maxReuse): who receives into the same Raw again must be done with the last message's
// bytes, and gets one allocation less per message.
type Raw struct{ B []byte }

// maxReuse bounds the bytes a Raw keeps for the next message: a stream that once received a
// large message (a resume's snapshot) does not hold on to its size.
const maxReuse = 64 << 10

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
		if n := data.Len(); n <= cap(r.B) && cap(r.B) <= maxReuse {
			r.B = r.B[:n]
			data.CopyTo(r.B)
		} else {
			r.B = data.Materialize() // a copy: gRPC reuses its buffers
		}
		return nil
	}
	return c.CodecV2.Unmarshal(data, v)
}
