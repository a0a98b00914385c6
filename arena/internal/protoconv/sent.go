package protoconv

import (
	"bytes"
	"encoding/base64"
	"fmt"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// A decision's record keeps the request exactly as it went to the bot
// (domain.DecisionRecord.Sent): its protobuf wire form, the very bytes the referee encoded
// once for the bot and for the record. Records stored before schema version 4 hold the same
// bytes in base64, and replay exports hold protobuf JSON; DecodeSent reads all three.

// MarshalRequest encodes a decision request as it goes on the wire (deterministically, so
// the same request always has the same bytes, those of AppendRequest).
func MarshalRequest(req *tappv1.DecisionRequest) ([]byte, error) {
	return proto.MarshalOptions{Deterministic: true}.Marshal(req)
}

// DecodeSent reads a recorded request: wire form, base64 of it, or protobuf JSON.
func DecodeSent(sent []byte) (*tappv1.DecisionRequest, error) {
	req := &tappv1.DecisionRequest{}
	t := bytes.TrimSpace(sent)
	switch {
	case len(t) > 0 && t[0] == '{':
		if err := protojson.Unmarshal(t, req); err != nil {
			return nil, fmt.Errorf("recorded request: %w", err)
		}
		return req, nil
	case isBase64(sent):
		b := make([]byte, base64.StdEncoding.DecodedLen(len(sent)))
		n, err := base64.StdEncoding.Decode(b, sent)
		if err != nil {
			return nil, fmt.Errorf("recorded request: %w", err)
		}
		sent = b[:n]
	}
	if err := proto.Unmarshal(sent, req); err != nil {
		return nil, fmt.Errorf("recorded request: %w", err)
	}
	return req, nil
}

// isBase64 reports whether b is non-empty padded standard base64. A request's wire form
// never is: it starts with the tag of its game id (0x0A), which is no base64 character.
func isBase64(b []byte) bool {
	if len(b) == 0 || len(b)%4 != 0 {
		return false
	}
	for i, c := range b {
		switch {
		case 'A' <= c && c <= 'Z', 'a' <= c && c <= 'z', '0' <= c && c <= '9', c == '+', c == '/':
		case c == '=' && i >= len(b)-2:
		default:
			return false
		}
	}
	return true
}

// SentJSON returns a recorded request as protobuf JSON (unchanged if it is JSON already).
func SentJSON(sent []byte) ([]byte, error) {
	if t := bytes.TrimSpace(sent); len(t) > 0 && t[0] == '{' {
		return t, nil
	}
	req, err := DecodeSent(sent)
	if err != nil {
		return nil, err
	}
	return protojson.Marshal(req)
}
