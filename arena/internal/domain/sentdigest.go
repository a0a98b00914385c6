package domain

import (
	"crypto/sha256"
	"encoding/binary"
)

// SentDigestSize is the length of a SentDigest.
const SentDigestSize = 8

// SentDigest is a short digest of the requests a deal's decisions record as sent: the first
// 8 bytes of SHA-256 over each decision that has a request sent over a wire (not Observed:
// a request rebuilt for a bot in process was never sent, and its clock is in the chain's
// text instead), in the order given (index order
// as the store returns them), as uvarint(index), uvarint(len(Sent)), Sent. The store keeps it
// when it stores a deal without its requests and regenerates them on reading; a replay
// checks the regenerated requests against it (DealRecord.SentDigest), so that a change in
// how requests are built cannot pass unnoticed for the bytes the bots really got.
//
// Eight bytes: an accidental match of different requests is a 2⁻⁶⁴ chance per deal, and the
// digest guards against drift, not against someone who can rewrite the database (and so the
// digest with it).
func SentDigest(ds []DecisionRecord) [SentDigestSize]byte {
	h := sha256.New()
	var head [2 * binary.MaxVarintLen64]byte
	for i := range ds {
		x := &ds[i]
		if len(x.Sent) == 0 || x.Observed { // an observed decision's request was never sent
			continue
		}
		n := binary.PutUvarint(head[:], uint64(x.Index))
		n += binary.PutUvarint(head[n:], uint64(len(x.Sent)))
		h.Write(head[:n])
		h.Write(x.Sent)
	}
	var sum [sha256.Size]byte
	var out [SentDigestSize]byte
	copy(out[:], h.Sum(sum[:0]))
	return out
}
