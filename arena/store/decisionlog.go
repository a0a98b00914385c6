package store

import (
	"bytes"
	"fmt"
	"slices"
	"sync"

	"github.com/klauspost/compress/zstd"
	"google.golang.org/protobuf/proto"

	"github.com/tapparena/tapp/arena"
	"github.com/tapparena/tapp/engine"
	storev1 "github.com/tapparena/tapp/proto/tapp/store/v1"
)

// A deal's decisions are stored in one column, deals.decision_log (schema version 4): a
// storev1.DecisionLog in protobuf wire form (proto/tapp/store/v1/decision_log.proto),
// compressed as one Zstandard frame with a content checksum. Each decision's request (Sent)
// is the bulk of a deal record and repeats the seat's growing observation, so the log
// compresses about 6:1 (docs/BENCHMARKS.md, "Store"). Deals stored before version 4 have a
// NULL column and their decisions in rows of the decisions table; both read back alike.

// zstdMagic starts every Zstandard frame (RFC 8878).
var zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}

// maxDecisionLog bounds the decoded size of a decision log: far above any real deal (a long
// 4-player deal records well under 1 MB), low enough that a damaged or hostile value cannot
// make a reader allocate without limit.
const maxDecisionLog = 64 << 20

// The encoder and decoder are shared: EncodeAll and DecodeAll are safe for concurrent use,
// and each keeps a few internal states (GOMAXPROCS at most) that are reused from call to call.
var (
	logEncoder = sync.OnceValue(func() *zstd.Encoder {
		e, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderCRC(true))
		if err != nil {
			panic(err) // only for invalid options
		}
		return e
	})
	logDecoder = sync.OnceValue(func() *zstd.Decoder {
		d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(0), zstd.WithDecoderMaxMemory(maxDecisionLog))
		if err != nil {
			panic(err) // only for invalid options
		}
		return d
	})
	// logBuffers holds the buffers the uncompressed logs are built and read in.
	logBuffers = sync.Pool{New: func() any { return new([]byte) }}
)

// encodeDecisionLog returns the column value of a deal's decisions, in index order. Two
// decisions with the same index are an error: a deal has one decision per index.
func encodeDecisionLog(ds []arena.DecisionRecord) ([]byte, error) {
	if !slices.IsSortedFunc(ds, func(a, b arena.DecisionRecord) int { return a.Index - b.Index }) {
		ds = slices.Clone(ds)
		slices.SortStableFunc(ds, func(a, b arena.DecisionRecord) int { return a.Index - b.Index })
	}
	log := &storev1.DecisionLog{Decisions: make([]*storev1.Decision, len(ds))}
	all := make([]storev1.Decision, len(ds))
	var attempts int
	for _, x := range ds {
		attempts += len(x.Attempts)
	}
	allAttempts := make([]storev1.Attempt, attempts)
	ptrs := make([]*storev1.Attempt, attempts)
	for i := range ds {
		x := &ds[i]
		if i > 0 && x.Index == ds[i-1].Index {
			return nil, fmt.Errorf("two decisions with index %d", x.Index)
		}
		p := &all[i]
		p.Index, p.Seat, p.Bot = int32(x.Index), int32(x.Seat), x.Bot
		p.Decision, p.RequestId, p.Sent = formatDecision(x.Decision), x.RequestID, x.Sent
		p.Action, p.LatencyUs, p.Strike, p.Fallback = formatAction(x.Action), us(x.Latency), x.Strike, x.Fallback
		if n := len(x.Attempts); n > 0 {
			p.Attempts, ptrs = ptrs[:n:n], ptrs[n:]
			for j, a := range x.Attempts {
				q := &allAttempts[0]
				allAttempts = allAttempts[1:]
				q.Text, q.AfterUs, q.Rejected = a.Text, us(a.After), a.Rejected
				p.Attempts[j] = q
			}
		}
		log.Decisions[i] = p
	}
	buf := logBuffers.Get().(*[]byte)
	defer logBuffers.Put(buf)
	raw, err := proto.MarshalOptions{}.MarshalAppend((*buf)[:0], log)
	if err != nil {
		return nil, fmt.Errorf("decision log: %w", err)
	}
	*buf = raw
	return logEncoder().EncodeAll(raw, make([]byte, 0, len(raw)/4+64)), nil
}

// decodeDecisionLog reads a deal's decisions from their column value; withSent false leaves
// out each decision's request (Sent), as listings do.
func decodeDecisionLog(blob []byte, withSent bool) ([]arena.DecisionRecord, error) {
	if !bytes.HasPrefix(blob, zstdMagic) {
		return nil, fmt.Errorf("decision log: not a Zstandard frame (%d bytes starting % x)", len(blob), blob[:min(len(blob), 4)])
	}
	buf := logBuffers.Get().(*[]byte)
	defer logBuffers.Put(buf)
	raw, err := logDecoder().DecodeAll(blob, (*buf)[:0])
	if err != nil {
		return nil, fmt.Errorf("decision log: %w", err)
	}
	*buf = raw
	var log storev1.DecisionLog
	// Unmarshal copies bytes fields (Sent) out of raw, so the buffer can be reused.
	if err := proto.Unmarshal(raw, &log); err != nil {
		return nil, fmt.Errorf("decision log: %w", err)
	}
	if len(log.Decisions) == 0 {
		return nil, nil
	}
	ds := make([]arena.DecisionRecord, len(log.Decisions))
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
			x.Attempts = make([]arena.AnswerAttempt, len(p.Attempts))
			for j, a := range p.Attempts {
				x.Attempts[j] = arena.AnswerAttempt{Text: a.Text, After: fromUS(a.AfterUs), Rejected: a.Rejected}
			}
		}
		x.Latency, x.Strike, x.Fallback = fromUS(p.LatencyUs), p.Strike, p.Fallback
	}
	return ds, nil
}
