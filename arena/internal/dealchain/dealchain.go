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

// AppendText appends Text to b. It is written without fmt: the store makes it for every deal
// it stores.
func AppendText(b []byte, rec *domain.DealRecord, sentDigest []byte, players int) []byte {
	t := text{b}
	t.s("tapp deal record 1\nmatch ").str(rec.MatchID).s("\ndeal ").n(rec.Number).s(" group ").n(rec.Group).
		s("\nseating ").n(len(rec.Seating))
	for _, name := range rec.Seating {
		t.s(" ").str(name)
	}
	t.s("\n")
	for s := 0; s < players; s++ {
		t.s("hand ").n(s).s(" ").cards(rec.Deal.Hands[s]).s("\n")
	}
	t.s("tapp ").cards(rec.Deal.Tapp).s("\noptions pot ").n(rec.Options.Pot).s(" forced_ramsch ").flag(rec.Options.ForcedRamsch).
		s("\nmoves ").n(len(rec.Moves))
	for _, m := range rec.Moves {
		t.s(" ").s(m.Seat.String()).s(":").s(m.Action.String()) // m.String(), without building it
	}
	t.s("\n")
	sorted := byIndex(rec.Decisions) // nil when they are in index order
	for i := range rec.Decisions {
		x := &rec.Decisions[i]
		if sorted != nil {
			x = sorted[i]
		}
		t.s("decision ").n(x.Index).s(" seat ").n(int(x.Seat)).s(" bot ").str(x.Bot).s(" kind ").s(x.Decision.String()).
			s(" request ").str(x.RequestID).s(" action ").s(x.Action.String()).
			s(" latency_us ").i64(x.Latency.Microseconds()).s(" arena_share_us ").i64(x.ArenaShare.Microseconds()).
			s(" think_us ").i64(x.Think.Microseconds()).s(" strike ").flag(x.Strike).s(" fallback ").flag(x.Fallback).
			s(" attempts ").n(len(x.Attempts))
		if x.Flooded != 0 { // added with the field: written only when not zero
			t.s(" flooded ").n(x.Flooded)
		}
		if x.Observed { // record format 2: the clock of a request that was never sent, which the sent digest leaves out
			t.s(" observed 1 deadline_us ").i64(x.Deadline.UnixMicro()).s(" overage_us ").i64(x.Overage.Microseconds())
		}
		t.s("\n")
		for _, a := range x.Attempts {
			t.s("attempt ").str(a.Text).s(" after_us ").i64(a.After.Microseconds()).s(" rejected ").str(a.Rejected).s("\n")
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
	t.s("outcome thrown_in ").flag(o.ThrownIn).s(" declarer ").n(int(o.Declarer)).s(" contract ").str(contract).
		s(" trump ").str(trump).s(" tout ").flag(o.Tout).s(" declarer_won ").flag(o.DeclarerWon).s(" draw ").flag(o.Draw).
		s(" pot_before ").n(o.PotBefore).s(" pot_after ").n(o.PotAfter).s("\n")
	for s := 0; s < players; s++ {
		t.s("seat ").n(s).s(" points ").n(o.Points[s]).s(" tricks ").n(o.Tricks[s]).s(" payoff ").n(o.Payoff[s]).s("\n")
	}
	bySeat := func(a, b domain.SeatResult) int { return cmp.Compare(a.Seat, b.Seat) }
	results := rec.Results
	if !slices.IsSortedFunc(results, bySeat) {
		results = slices.Clone(results)
		slices.SortStableFunc(results, bySeat)
	}
	for _, r := range results {
		t.s("result ").n(int(r.Seat)).s(" bot ").str(r.Bot).s(" payoff ").n(r.Payoff).s(" points ").n(r.Points).
			s(" tricks ").n(r.Tricks).s(" declarer ").flag(r.Declarer).s("\n")
	}
	t.s("started_us ").i64(rec.Started.UnixMicro()).s(" duration_us ").i64(rec.Duration.Microseconds()).s("\nsent ")
	t.b = hex.AppendEncode(t.b, sentDigest)
	return append(t.b, '\n')
}

// text builds a canonical text.
type text struct{ b []byte }

func (t *text) s(v string) *text   { t.b = append(t.b, v...); return t }
func (t *text) n(v int) *text      { t.b = strconv.AppendInt(t.b, int64(v), 10); return t }
func (t *text) i64(v int64) *text  { t.b = strconv.AppendInt(t.b, v, 10); return t }
func (t *text) flag(v bool) *text  { return t.n(flag(v)) }
func (t *text) str(v string) *text { return t.n(len(v)).s(":").s(v) } // its byte length, a colon and its bytes
func (t *text) cards(set engine.CardSet) *text { // in the pack's order, comma-separated
	var buf [engine.NumCards]engine.Card
	for i, c := range set.Cards(buf[:0]) {
		if i > 0 {
			t.b = append(t.b, ',')
		}
		t.b = append(t.b, c.String()...)
	}
	return t
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

func flag(v bool) int {
	if v {
		return 1
	}
	return 0
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
