package wire

import (
	"time"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/tapparena/tapp/arena/internal/protoappend"
	wf "github.com/tapparena/tapp/arena/internal/wireform"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// The bot stream's frequent messages — a decision request each way down, an answer each way
// up, a game's end — are written and read by hand on both ends, without protobuf's generic
// path (a oneof, through reflection), which cost more than anything else the arena or a simple
// bot did per decision. arena/wire/grpccodec carries them through gRPC as they are.

// Field numbers of the messages of a ConnectResponse that SplitResponse tells apart.
const (
	ResponseGameStarted     = wf.ResponseGameStarted
	ResponseDecisionRequest = wf.ResponseDecisionRequest
	ResponseGameEnded       = wf.ResponseGameEnded
)

// SplitResponse finds the one message of a ConnectResponse that holds one and nothing else
// but its seq, in the arena's field order: its field number and bytes; false for anything
// else.
func SplitResponse(b []byte) (seq uint64, kind protowire.Number, body []byte, ok bool) {
	if num, typ, n := protowire.ConsumeTag(b); n > 0 && num == wf.ResponseSeq && typ == protowire.VarintType {
		v, m := protowire.ConsumeVarint(b[n:])
		if m < 0 {
			return 0, 0, nil, false
		}
		seq, b = v, b[n+m:]
	}
	kind, typ, n := protowire.ConsumeTag(b)
	if n < 0 || typ != protowire.BytesType {
		return 0, 0, nil, false
	}
	body, m := protowire.ConsumeBytes(b[n:])
	if m < 0 || n+m != len(b) {
		return 0, 0, nil, false
	}
	return seq, kind, body, true
}

// GameEndedID reads the game id of a GameEnded in wire form, where the arena writes it: first.
func GameEndedID(b []byte) (string, bool) {
	num, typ, n := protowire.ConsumeTag(b)
	if n < 0 || num != wf.EndedGameID || typ != protowire.BytesType {
		return "", false
	}
	v, m := protowire.ConsumeBytes(b[n:])
	if m < 0 || !utf8.Valid(v) {
		return "", false
	}
	return string(v), true
}

// EncodeAnswer writes the ConnectRequest that carries an answer, as proto.Marshal would, in
// one allocation (every answer of a bot goes through it).
func EncodeAnswer(a *tappv1.Answer) []byte {
	// The tags, lengths and think time take at most 32 bytes besides the strings.
	b := make([]byte, 0, 32+len(a.GetGameId())+len(a.GetRequestId())+len(a.GetAction()))
	b, outer := protoappend.Open(b, wf.RequestAnswer)
	b = protoappend.String(b, wf.AnswerGameID, a.GetGameId())
	b = protoappend.String(b, wf.AnswerRequestID, a.GetRequestId())
	b = protoappend.String(b, wf.AnswerAction, a.GetAction())
	if t := a.GetThinkTime(); t != nil {
		var m int
		b, m = protoappend.Open(b, wf.AnswerThinkTime)
		b = protoappend.Int(b, wf.TimeSeconds, t.GetSeconds())
		b = protoappend.Int(b, wf.TimeNanos, int64(t.GetNanos()))
		b = protoappend.Close(b, m)
	}
	return protoappend.Close(b, outer)
}

// AppendAnswer appends the ConnectRequest that carries an answer with these fields, the bytes
// EncodeAnswer writes for the Answer with think_time durationpb.New(think), or without
// think_time when think is not positive: the Go SDK's way, with no messages built.
func AppendAnswer(b []byte, gameID, requestID, action string, think time.Duration) []byte {
	b, outer := protoappend.Open(b, wf.RequestAnswer)
	b = protoappend.String(b, wf.AnswerGameID, gameID)
	b = protoappend.String(b, wf.AnswerRequestID, requestID)
	b = protoappend.String(b, wf.AnswerAction, action)
	if think > 0 {
		var m int
		b, m = protoappend.Open(b, wf.AnswerThinkTime)
		b = protoappend.Int(b, wf.TimeSeconds, int64(think/time.Second))
		b = protoappend.Int(b, wf.TimeNanos, int64(think%time.Second))
		b = protoappend.Close(b, m)
	}
	return protoappend.Close(b, outer)
}

// AnswerSize is room enough for AppendAnswer's bytes: the strings and at most 32 more.
func AnswerSize(gameID, requestID, action string) int {
	return 32 + len(gameID) + len(requestID) + len(action)
}
