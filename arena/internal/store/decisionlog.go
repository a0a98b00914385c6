package store

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"slices"
	"sync"
	"time"

	"github.com/klauspost/compress/s2"
	"google.golang.org/protobuf/proto"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/protoappend"
	"github.com/tapparena/tapp/engine"
	storev1 "github.com/tapparena/tapp/proto/tapp/store/v1"
)

// A deal's decisions are stored in one column, deals.decision_log (schema version 4): a
// storev1.DecisionLog in protobuf wire form (proto/tapp/store/v1/decision_log.proto),
// compressed. Each decision's request (Sent) is the bulk of a deal record and repeats the
// seat's growing observation, so a log compresses 3-5 times. Deals stored before version 4
// have a NULL column and their decisions in rows of the decisions table; both read back alike.
//
// The column value is
//
//	byte 0      the format: 1, an S2 block follows
//	bytes 1-4   CRC-32C (Castagnoli) of the uncompressed DecisionLog, little-endian
//	bytes 5-    the DecisionLog compressed as one S2 block (github.com/klauspost/compress/s2,
//	            block format: the uncompressed length as a uvarint, then the elements)
//
// S2 rather than Zstandard: on real deals (docs/BENCHMARKS.md, "Store") zstd's fastest level
// makes logs 22% smaller but costs 3-4 times as much CPU to compress, and a league of quick
// bots is bound by CPU, not by the bytes it writes. The format byte leaves room for another
// codec: a reader knows every format written before it.

// logFormatS2 is the format byte of a decision log in an S2 block.
const logFormatS2 = 1

// logHeader is the length of the format byte and the checksum.
const logHeader = 5

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// maxDecisionLog bounds the decoded size of a decision log: far above any real deal (a long
// 4-player deal records well under 1 MB), low enough that a damaged value cannot make a
// reader allocate without limit.
const maxDecisionLog = 64 << 20

// logBuffers holds scratch buffers for the uncompressed logs and their blocks.
var logBuffers = sync.Pool{New: func() any { return new([]byte) }}

// encodeDecisionLog returns the column value of a deal's decisions, in index order. Two
// decisions with the same index are an error: a deal has one decision per index.
func encodeDecisionLog(ds []domain.DecisionRecord) ([]byte, error) {
	if !domain.InIndexOrder(ds) {
		ds = slices.Clone(ds)
		slices.SortStableFunc(ds, func(a, b domain.DecisionRecord) int { return a.Index - b.Index })
	}
	for i := 1; i < len(ds); i++ {
		if ds[i].Index == ds[i-1].Index {
			return nil, fmt.Errorf("two decisions with index %d", ds[i].Index)
		}
	}
	buf := logBuffers.Get().(*[]byte)
	defer logBuffers.Put(buf)
	*buf = appendDecisionLog((*buf)[:0], ds)
	return packDecisionLog(*buf)
}

// Field numbers of storev1.DecisionLog, Decision and Attempt.
const (
	logDecisions = 1

	decisionIndex, decisionSeat, decisionBot, decisionKind, decisionRequestID, decisionSent = 1, 2, 3, 4, 5, 6
	decisionAttempts, decisionAction, decisionLatency, decisionStrike, decisionFallback     = 7, 8, 9, 10, 11
	decisionThink, decisionArenaShare, decisionFlooded, decisionRetimed                     = 12, 13, 14, 15

	attemptText, attemptAfter, attemptRejected = 1, 2, 3
)

// appendDecisionLog appends the storev1.DecisionLog of ds in wire form, written by hand: a
// deal's log is mostly its requests, bytes that are already encoded, and building the
// messages to marshal them cost as much as compressing the log. The bytes are those of
// proto.Marshal (TestDecisionLogIsProtoMarshal).
func appendDecisionLog(b []byte, ds []domain.DecisionRecord) []byte {
	for i := range ds {
		x := &ds[i]
		var m int
		b, m = protoappend.Open(b, logDecisions)
		b = protoappend.Int(b, decisionIndex, int64(int32(x.Index)))
		b = protoappend.Int(b, decisionSeat, int64(int32(x.Seat)))
		b = protoappend.String(b, decisionBot, x.Bot)
		b = protoappend.String(b, decisionKind, formatDecision(x.Decision))
		b = protoappend.String(b, decisionRequestID, x.RequestID)
		b = protoappend.Bytes(b, decisionSent, x.Sent)
		for _, a := range x.Attempts {
			var n int
			b, n = protoappend.Open(b, decisionAttempts)
			b = protoappend.String(b, attemptText, a.Text)
			b = protoappend.Int(b, attemptAfter, us(a.After))
			b = protoappend.String(b, attemptRejected, a.Rejected)
			b = protoappend.Close(b, n)
		}
		b = protoappend.String(b, decisionAction, formatAction(x.Action))
		b = protoappend.Int(b, decisionLatency, us(x.Latency))
		b = protoappend.Bool(b, decisionStrike, x.Strike)
		b = protoappend.Bool(b, decisionFallback, x.Fallback)
		b = protoappend.Int(b, decisionThink, int64(x.Think))
		b = protoappend.Int(b, decisionArenaShare, int64(x.ArenaShare))
		b = protoappend.Int(b, decisionFlooded, int64(int32(x.Flooded)))
		b = protoappend.Int(b, decisionRetimed, int64(int32(x.Retimed)))
		b = protoappend.Close(b, m)
	}
	return b
}

// packDecisionLog compresses an uncompressed log into a column value.
func packDecisionLog(raw []byte) ([]byte, error) {
	limit := s2.MaxEncodedLen(len(raw))
	if limit < 0 || len(raw) > maxDecisionLog {
		return nil, fmt.Errorf("decision log: %d bytes, more than a deal may record (%d)", len(raw), maxDecisionLog)
	}
	buf := logBuffers.Get().(*[]byte)
	defer logBuffers.Put(buf)
	if cap(*buf) < limit {
		*buf = make([]byte, limit)
	}
	block := s2.Encode((*buf)[:limit], raw)
	out := make([]byte, logHeader+len(block))
	out[0] = logFormatS2
	binary.LittleEndian.PutUint32(out[1:], crc32.Checksum(raw, castagnoli))
	copy(out[logHeader:], block)
	return out, nil
}

// unpackDecisionLog returns the uncompressed log of a column value, in a buffer of the pool
// that the caller puts back.
func unpackDecisionLog(blob []byte) (raw []byte, buf *[]byte, err error) {
	if len(blob) <= logHeader || blob[0] != logFormatS2 {
		return nil, nil, fmt.Errorf("decision log: not in a format this build knows (%d bytes starting % x)",
			len(blob), blob[:min(len(blob), 4)])
	}
	block := blob[logHeader:]
	n, err := s2.DecodedLen(block)
	if err != nil {
		return nil, nil, fmt.Errorf("decision log: %w", err)
	}
	if n > maxDecisionLog {
		return nil, nil, fmt.Errorf("decision log: says it holds %d bytes, more than a deal may record", n)
	}
	buf = logBuffers.Get().(*[]byte)
	if cap(*buf) < n {
		*buf = make([]byte, n)
	}
	if raw, err = s2.Decode((*buf)[:n], block); err != nil {
		logBuffers.Put(buf)
		return nil, nil, fmt.Errorf("decision log: %w", err)
	}
	if sum, want := crc32.Checksum(raw, castagnoli), binary.LittleEndian.Uint32(blob[1:]); sum != want {
		logBuffers.Put(buf)
		return nil, nil, fmt.Errorf("decision log: damaged: checksum %08x, want %08x", sum, want)
	}
	return raw, buf, nil
}

// decodeDecisionLog reads a deal's decisions from their column value; withSent false leaves
// out each decision's request (Sent), as listings do. No decisions read back as nil, as from
// rows.
func decodeDecisionLog(blob []byte, withSent bool) ([]domain.DecisionRecord, error) {
	raw, buf, err := unpackDecisionLog(blob)
	if err != nil {
		return nil, err
	}
	defer logBuffers.Put(buf)
	var log storev1.DecisionLog
	// Unmarshal copies bytes and strings out of raw, so the buffer can be reused.
	if err := proto.Unmarshal(raw, &log); err != nil {
		return nil, fmt.Errorf("decision log: %w", err)
	}
	if len(log.Decisions) == 0 {
		return nil, nil
	}
	ds := make([]domain.DecisionRecord, len(log.Decisions))
	for i, p := range log.Decisions {
		x := &ds[i]
		x.Index, x.Seat, x.Bot, x.RequestID = int(p.Index), engine.Seat(p.Seat), p.Bot, p.RequestId
		if x.Decision, err = parseDecision(p.Decision); err != nil {
			return nil, fmt.Errorf("decision log: decision %d: %w", p.Index, err)
		}
		if x.Action, err = parseAction(p.Action); err != nil {
			return nil, fmt.Errorf("decision log: decision %d: %w", p.Index, err)
		}
		if withSent && len(p.Sent) > 0 {
			x.Sent = p.Sent
		}
		if len(p.Attempts) > 0 {
			x.Attempts = make([]domain.AnswerAttempt, len(p.Attempts))
			for j, a := range p.Attempts {
				x.Attempts[j] = domain.AnswerAttempt{Text: a.Text, After: fromUS(a.AfterUs), Rejected: a.Rejected}
			}
		}
		x.Latency, x.Strike, x.Fallback = fromUS(p.LatencyUs), p.Strike, p.Fallback
		x.Think = time.Duration(p.ThinkNs)
		x.ArenaShare = time.Duration(p.ArenaShareNs)
		x.Flooded = int(p.Flooded)
		x.Retimed = int(p.Retimed)
	}
	return ds, nil
}
