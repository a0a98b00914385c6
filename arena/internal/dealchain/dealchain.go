// Package dealchain is the hash chain that ties a match's stored deals together, so that a
// deal missing, added, moved, reordered or altered after it was stored is seen: by `tapp
// replay verify`, `tapp db check`, and by anyone who checks an export with no more than
// SHA-256 (docs/replay.md, "Checking an export without the arena").
//
// Each deal has a digest, the SHA-256 of its record's canonical text (Text). The deals of a
// match are chained in the order they were stored: the first link is Anchor(match, its
// commitment), and each stored deal's link is SHA-256(the link before it ‖ its digest). The
// store keeps, with each deal, its place in the chain and the first bytes of its link, and
// with the match the number of chained deals and the last link (the head); an export carries
// every line's place, the link before it and its own.
//
// The order of storing is the chain's order, not the deal numbers': tables finish in any
// order, and several arena hosts store the deals of one league match.
package dealchain

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"sync"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/engine"
)

// Version names the chain's construction and the canonical text's; it is stored with every
// match whose deals are chained, and written in exports. A later version would be a new
// construction beside this one, never a change of it: stored chains must check forever.
const Version = 1

// Link is a link of the chain: 32 bytes of SHA-256.
type Link [sha256.Size]byte

// String is the link in lowercase hex.
func (l Link) String() string { return hex.EncodeToString(l[:]) }

// ParseLink reads a link in hex.
func ParseLink(text string) (Link, error) {
	var l Link
	b, err := hex.DecodeString(text)
	if err != nil || len(b) != len(l) {
		return l, fmt.Errorf("link %q: want %d hex digits", text, 2*len(l))
	}
	copy(l[:], b)
	return l, nil
}

// StoredLinkSize is how much of each deal's link the store keeps beside it: enough to say
// which deal breaks the chain (a chance of 2⁻⁶⁴ to miss one), while the whole last link,
// kept with the match, is what the chain is checked against.
const StoredLinkSize = 8

// Anchor is the chain's first link: SHA-256 of "tapp deal chain 1\n", the match id and the
// match's commitment (lowercase hex, empty for a match that made none), each on a line.
func Anchor(matchID, commitment string) Link {
	return sha256.Sum256([]byte("tapp deal chain 1\nmatch " + matchID + "\ncommitment " + commitment + "\n"))
}

// Next is the link after prev for a deal of the given digest: SHA-256(prev ‖ digest).
func Next(prev Link, digest [sha256.Size]byte) Link {
	var b [2 * sha256.Size]byte
	copy(b[:], prev[:])
	copy(b[sha256.Size:], digest[:])
	return sha256.Sum256(b[:])
}

// Digest is the SHA-256 of the record's canonical text.
func Digest(rec *domain.DealRecord, sentDigest []byte, players int) [sha256.Size]byte {
	p := texts.Get().(*[]byte)
	b := AppendText((*p)[:0], rec, sentDigest, players)
	sum := sha256.Sum256(b)
	if cap(b) <= maxKeptText {
		*p = b
		texts.Put(p)
	}
	return sum
}

// texts are buffers for the canonical texts Digest hashes, kept between deals: a store makes
// one for every deal it stores, and a text grown anew each time (7 KB or so) was half the
// cost of its digest.
var texts = sync.Pool{New: func() any { return new([]byte) }}

// maxKeptText is the largest text buffer kept in texts: a deal of thousands of answers is not
// worth keeping the room for.
const maxKeptText = 64 << 10

// Text is the canonical text of a deal record, version 1: what its digest covers — every
// field the record keeps, in a fixed order, one line each, ending in "\n". Numbers are
// decimal; cards and actions in the engine's notation (R-CARD-5), a hand's cards in the
// pack's order and comma-separated; names and the texts bots sent as their byte length, a
// colon and the bytes (so any text fits); flags as 0 or 1; times in whole microseconds.
//
//	tapp deal record 1
//	match 5:m-001
//	deal 3 group 0
//	seating 3 2:r1 2:r2 2:r3
//	hand 0 CA,CK,…           (one line per seat)
//	tapp HA,S7
//	options pot 0 forced_ramsch 0
//	moves 31 0:play 1:pass …
//	decision 0 seat 0 bot 2:r1 kind bid request 2:r1 action play latency_us 812 arena_share_us 40 think_us 300 strike 0 fallback 0 attempts 1
//	                         (then " flooded N" when N answers were refused, counted, not listed: PROTO-FLOOD;
//	                         then " observed 1 deadline_us D overage_us O" for a bot in process handed the
//	                         engine's observation: its request's clock, as the request was never sent)
//	attempt 4:play after_us 812 rejected 0:   (one line per answer, after its decision)
//	outcome thrown_in 0 declarer 0 contract 4:solo trump 1:C tout 0 declarer_won 1 draw 0 pot_before 0 pot_after 0
//	seat 0 points 75 tricks 7 payoff 10      (one line per seat)
//	result 0 bot 2:r1 payoff 10 points 75 tricks 7 declarer 1   (one line per stored result)
//	started_us 1796164638493617 duration_us 48211
//	sent 3f2c…               (the digest of the requests as sent, hex; empty if none)
//
// A field added to records later is written only when it is not zero, as " name value" at the
// end of its line, so that the records stored before it keep their digests.
func Text(rec *domain.DealRecord, sentDigest []byte, players int) string {
	return string(AppendText(make([]byte, 0, 512+192*len(rec.Decisions)), rec, sentDigest, players))
}

// AppendText appends Text to b. It is written without fmt, and with b kept in a local
// variable rather than behind a pointer (the store makes a text for every deal it stores, and
// a chain of small appends through a pointer was most of a deal's digest).
func AppendText(b []byte, rec *domain.DealRecord, sentDigest []byte, players int) []byte {
	b = append(b, "tapp deal record 1\nmatch "...)
	b = appendStr(b, rec.MatchID)
	b = append(b, "\ndeal "...)
	b = strconv.AppendInt(b, int64(rec.Number), 10)
	b = append(b, " group "...)
	b = strconv.AppendInt(b, int64(rec.Group), 10)
	b = append(b, "\nseating "...)
	b = strconv.AppendInt(b, int64(len(rec.Seating)), 10)
	for _, name := range rec.Seating {
		b = append(b, ' ')
		b = appendStr(b, name)
	}
	b = append(b, '\n')
	for s := 0; s < players; s++ {
		b = append(b, "hand "...)
		b = strconv.AppendInt(b, int64(s), 10)
		b = append(b, ' ')
		b = appendCards(b, rec.Deal.Hands[s])
		b = append(b, '\n')
	}
	b = append(b, "tapp "...)
	b = appendCards(b, rec.Deal.Tapp)
	b = append(b, "\noptions pot "...)
	b = strconv.AppendInt(b, int64(rec.Options.Pot), 10)
	b = append(b, " forced_ramsch "...)
	b = appendFlag(b, rec.Options.ForcedRamsch)
	b = append(b, "\nmoves "...)
	b = strconv.AppendInt(b, int64(len(rec.Moves)), 10)
	for _, m := range rec.Moves {
		b = append(b, ' ')
		b = append(b, m.Seat.String()...)
		b = append(b, ':')
		b = append(b, m.Action.String()...) // m.String(), without building it
	}
	b = append(b, '\n')
	sorted := byIndex(rec.Decisions) // nil when they are in index order
	for i := range rec.Decisions {
		x := &rec.Decisions[i]
		if sorted != nil {
			x = sorted[i]
		}
		b = append(b, "decision "...)
		b = strconv.AppendInt(b, int64(x.Index), 10)
		b = append(b, " seat "...)
		b = strconv.AppendInt(b, int64(x.Seat), 10)
		b = append(b, " bot "...)
		b = appendStr(b, x.Bot)
		b = append(b, " kind "...)
		b = append(b, x.Decision.String()...)
		b = append(b, " request "...)
		b = appendStr(b, x.RequestID)
		b = append(b, " action "...)
		b = append(b, x.Action.String()...)
		b = append(b, " latency_us "...)
		b = strconv.AppendInt(b, x.Latency.Microseconds(), 10)
		b = append(b, " arena_share_us "...)
		b = strconv.AppendInt(b, x.ArenaShare.Microseconds(), 10)
		b = append(b, " think_us "...)
		b = strconv.AppendInt(b, x.Think.Microseconds(), 10)
		b = append(b, " strike "...)
		b = appendFlag(b, x.Strike)
		b = append(b, " fallback "...)
		b = appendFlag(b, x.Fallback)
		b = append(b, " attempts "...)
		b = strconv.AppendInt(b, int64(len(x.Attempts)), 10)
		if x.Flooded != 0 { // added with the field: written only when not zero
			b = append(b, " flooded "...)
			b = strconv.AppendInt(b, int64(x.Flooded), 10)
		}
		if x.Observed { // record format 2: the clock of a request that was never sent, which the sent digest leaves out
			b = append(b, " observed 1 deadline_us "...)
			b = strconv.AppendInt(b, x.Deadline.UnixMicro(), 10)
			b = append(b, " overage_us "...)
			b = strconv.AppendInt(b, x.Overage.Microseconds(), 10)
		}
		b = append(b, '\n')
		for _, a := range x.Attempts {
			b = append(b, "attempt "...)
			b = appendStr(b, a.Text)
			b = append(b, " after_us "...)
			b = strconv.AppendInt(b, a.After.Microseconds(), 10)
			b = append(b, " rejected "...)
			b = appendStr(b, a.Rejected)
			b = append(b, '\n')
		}
	}
	o := &rec.Outcome
	contract, trump := "", ""
	if o.Contract != engine.NoContract {
		contract = o.Contract.String()
	}
	if o.Trump < engine.NumSuits {
		trump = o.Trump.String()
	}
	b = append(b, "outcome thrown_in "...)
	b = appendFlag(b, o.ThrownIn)
	b = append(b, " declarer "...)
	b = strconv.AppendInt(b, int64(o.Declarer), 10)
	b = append(b, " contract "...)
	b = appendStr(b, contract)
	b = append(b, " trump "...)
	b = appendStr(b, trump)
	b = append(b, " tout "...)
	b = appendFlag(b, o.Tout)
	b = append(b, " declarer_won "...)
	b = appendFlag(b, o.DeclarerWon)
	b = append(b, " draw "...)
	b = appendFlag(b, o.Draw)
	b = append(b, " pot_before "...)
	b = strconv.AppendInt(b, int64(o.PotBefore), 10)
	b = append(b, " pot_after "...)
	b = strconv.AppendInt(b, int64(o.PotAfter), 10)
	b = append(b, '\n')
	for s := 0; s < players; s++ {
		b = append(b, "seat "...)
		b = strconv.AppendInt(b, int64(s), 10)
		b = append(b, " points "...)
		b = strconv.AppendInt(b, int64(o.Points[s]), 10)
		b = append(b, " tricks "...)
		b = strconv.AppendInt(b, int64(o.Tricks[s]), 10)
		b = append(b, " payoff "...)
		b = strconv.AppendInt(b, int64(o.Payoff[s]), 10)
		b = append(b, '\n')
	}
	bySeat := func(a, b domain.SeatResult) int { return cmp.Compare(a.Seat, b.Seat) }
	results := rec.Results
	if !slices.IsSortedFunc(results, bySeat) {
		results = slices.Clone(results)
		slices.SortStableFunc(results, bySeat)
	}
	for _, r := range results {
		b = append(b, "result "...)
		b = strconv.AppendInt(b, int64(r.Seat), 10)
		b = append(b, " bot "...)
		b = appendStr(b, r.Bot)
		b = append(b, " payoff "...)
		b = strconv.AppendInt(b, int64(r.Payoff), 10)
		b = append(b, " points "...)
		b = strconv.AppendInt(b, int64(r.Points), 10)
		b = append(b, " tricks "...)
		b = strconv.AppendInt(b, int64(r.Tricks), 10)
		b = append(b, " declarer "...)
		b = appendFlag(b, r.Declarer)
		b = append(b, '\n')
	}
	b = append(b, "started_us "...)
	b = strconv.AppendInt(b, rec.Started.UnixMicro(), 10)
	b = append(b, " duration_us "...)
	b = strconv.AppendInt(b, rec.Duration.Microseconds(), 10)
	b = append(b, "\nsent "...)
	b = hex.AppendEncode(b, sentDigest)
	return append(b, '\n')
}

// appendStr appends a name or a text a bot sent: its byte length, a colon and its bytes.
func appendStr(b []byte, v string) []byte {
	b = strconv.AppendInt(b, int64(len(v)), 10)
	b = append(b, ':')
	return append(b, v...)
}

// appendFlag appends a flag as 0 or 1.
func appendFlag(b []byte, v bool) []byte {
	if v {
		return append(b, '1')
	}
	return append(b, '0')
}

// appendCards appends a set of cards in the pack's order, comma-separated.
func appendCards(b []byte, set engine.CardSet) []byte {
	var buf [engine.NumCards]engine.Card
	for i, c := range set.Cards(buf[:0]) {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, c.String()...)
	}
	return b
}

// byIndex is the decisions in index order, as stores return them, or nil when ds is in that
// order already.
func byIndex(ds []domain.DecisionRecord) []*domain.DecisionRecord {
	if domain.InIndexOrder(ds) {
		return nil
	}
	out := make([]*domain.DecisionRecord, len(ds))
	for i := range ds {
		out[i] = &ds[i]
	}
	slices.SortStableFunc(out, func(a, b *domain.DecisionRecord) int { return cmp.Compare(a.Index, b.Index) })
	return out
}

// SentDigestOf is the digest of a record's requests as sent that its text covers: the one the
// store kept (rec.SentDigest, for a record whose requests it rebuilds), else that of the
// requests it holds, in index order.
func SentDigestOf(rec *domain.DealRecord) []byte {
	if rec.SentDigest != nil {
		return rec.SentDigest
	}
	ds := rec.Decisions
	if !domain.InIndexOrder(ds) {
		ds = slices.Clone(ds)
		slices.SortStableFunc(ds, func(a, b domain.DecisionRecord) int { return cmp.Compare(a.Index, b.Index) })
	}
	d := domain.SentDigest(ds)
	return d[:]
}

// RecordDigest is Digest with the record's own digest of the requests as sent (SentDigestOf).
func RecordDigest(rec *domain.DealRecord, players int) [sha256.Size]byte {
	return Digest(rec, SentDigestOf(rec), players)
}
