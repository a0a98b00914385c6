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
