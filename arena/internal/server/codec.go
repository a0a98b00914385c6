package server

import (
	"encoding/binary"
	"time"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"

	wf "github.com/tapparena/tapp/arena/internal/wireform"
	"github.com/tapparena/tapp/arena/wire/grpccodec"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// The session writes its frequent messages (a decision request, a game's end) by hand and
// frames them here; a bot's answers are read here by hand. grpccodec carries both through
// gRPC as they are.

// decodeRequest reads a message a bot sent: an answer straight into an Answer (decodeAnswer),
// anything else through protobuf (whose error, if any, is returned).
func decodeRequest(raw *grpccodec.Raw) (*tappv1.ConnectRequest, error) {
	if a, ok := decodeAnswer(raw.B); ok {
		return &tappv1.ConnectRequest{Message: &tappv1.ConnectRequest_Answer{Answer: a}}, nil
	}
	msg := &tappv1.ConnectRequest{}
	return msg, proto.Unmarshal(raw.B, msg)
}

// maxResponseHead is the longest head appendResponseHead writes: two one-byte tags (the
// message fields' numbers are below 16) and two varints of at most 10 bytes.
const maxResponseHead = 2 + 2*binary.MaxVarintLen64

// frameInFront frames the message buf holds after maxResponseHead bytes of room as the
// ConnectResponse with the given seq that holds it in field kind: the head is written into
// the end of the room, and the message is the head and the body, one slice of buf.
func frameInFront(buf []byte, seq uint64, kind protowire.Number) []byte {
	body := buf[maxResponseHead:]
	var head [maxResponseHead]byte
	h := appendResponseHead(head[:0], seq, kind, len(body))
	at := maxResponseHead - len(h)
	copy(buf[at:], h)
	return buf[at:]
}

// appendResponseHead appends the head of the ConnectResponse with the given seq that holds a
// body of size bytes in field kind: the seq, and the field's tag and length.
func appendResponseHead(head []byte, seq uint64, kind protowire.Number, size int) []byte {
	head = protowire.AppendTag(head, wf.ResponseSeq, protowire.VarintType)
	head = protowire.AppendVarint(head, seq)
	head = protowire.AppendTag(head, kind, protowire.BytesType)
	return protowire.AppendVarint(head, uint64(size))
}

// answerView is an answer as decodeAnswerView reads it: views into the message's bytes, so
// that the session takes only what it keeps (the action's text), and looks the game and the
// open request up by their bytes.
type answerView struct {
	game, request, action []byte
	thinkSet              bool // think_time was sent (thinkSecs, thinkNanos)
	thinkSecs             int64
	thinkNanos            int32
}

// think is the bot's reported thinking time (0 when it sent none), saturated as
// durationpb's AsDuration saturates.
func (v *answerView) think() time.Duration {
	if !v.thinkSet {
		return 0
	}
	d := durationpb.Duration{Seconds: v.thinkSecs, Nanos: v.thinkNanos}
	return d.AsDuration()
}

// proto is the view as the protocol's Answer.
func (v *answerView) proto() *tappv1.Answer {
	a := &tappv1.Answer{GameId: string(v.game), RequestId: string(v.request), Action: string(v.action)}
	if v.thinkSet {
		a.ThinkTime = &durationpb.Duration{Seconds: v.thinkSecs, Nanos: v.thinkNanos}
	}
	return a
}

// decodeAnswer reads a ConnectRequest that holds an answer and nothing else (decodeAnswerView)
// into an Answer.
func decodeAnswer(b []byte) (*tappv1.Answer, bool) {
	v, ok := decodeAnswerView(b)
	if !ok {
		return nil, false
	}
	return v.proto(), true
}

// decodeAnswerView reads a ConnectRequest that holds an answer and nothing else, its fields
// in number order, each at most once, strings valid UTF-8; false for anything else (which
// protobuf is then to read).
func decodeAnswerView(b []byte) (answerView, bool) {
	var v answerView
	num, typ, n := protowire.ConsumeTag(b)
	if n < 0 || num != wf.RequestAnswer || typ != protowire.BytesType {
		return v, false
	}
	body, m := protowire.ConsumeBytes(b[n:])
	if m < 0 || n+m != len(b) {
		return v, false
	}
	last := protowire.Number(0)
	for len(body) > 0 {
		num, typ, n := protowire.ConsumeTag(body)
		if n < 0 || num <= last || typ != protowire.BytesType {
			return v, false
		}
		last = num
		field, m := protowire.ConsumeBytes(body[n:])
		if m < 0 {
			return v, false
		}
		body = body[n+m:]
		switch num {
		case wf.AnswerGameID, wf.AnswerRequestID, wf.AnswerAction:
			if !utf8.Valid(field) {
				return v, false
			}
			switch num {
			case wf.AnswerGameID:
				v.game = field
			case wf.AnswerRequestID:
				v.request = field
			default:
				v.action = field
			}
		case wf.AnswerThinkTime:
			secs, nanos, ok := wf.SecondsNanos(field)
			if !ok {
				return v, false
			}
			v.thinkSet, v.thinkSecs, v.thinkNanos = true, secs, nanos
		default:
			return v, false
		}
	}
	return v, true
}
