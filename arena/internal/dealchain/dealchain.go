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
	"strings"

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
	return sha256.Sum256([]byte(Text(rec, sentDigest, players)))
}

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
//	                         (then " flooded N" when N answers were refused, counted, not listed: PROTO-FLOOD)
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
	var b strings.Builder
	b.Grow(256 + 160*len(rec.Decisions))
	b.WriteString("tapp deal record 1\nmatch ")
	str(&b, rec.MatchID)
	fmt.Fprintf(&b, "\ndeal %d group %d\nseating %d", rec.Number, rec.Group, len(rec.Seating))
	for _, s := range rec.Seating {
		b.WriteByte(' ')
		str(&b, s)
	}
	b.WriteByte('\n')
	for s := 0; s < players; s++ {
		fmt.Fprintf(&b, "hand %d ", s)
		cards(&b, rec.Deal.Hands[s])
		b.WriteByte('\n')
	}
	b.WriteString("tapp ")
	cards(&b, rec.Deal.Tapp)
	fmt.Fprintf(&b, "\noptions pot %d forced_ramsch %d\nmoves %d", rec.Options.Pot, flag(rec.Options.ForcedRamsch), len(rec.Moves))
	for _, m := range rec.Moves {
		b.WriteByte(' ')
		b.WriteString(m.String())
	}
	b.WriteByte('\n')
	for _, x := range byIndex(rec.Decisions) {
		fmt.Fprintf(&b, "decision %d seat %d bot ", x.Index, x.Seat)
		str(&b, x.Bot)
		fmt.Fprintf(&b, " kind %s request ", x.Decision)
		str(&b, x.RequestID)
		fmt.Fprintf(&b, " action %s latency_us %d arena_share_us %d think_us %d strike %d fallback %d attempts %d",
			x.Action, x.Latency.Microseconds(), x.ArenaShare.Microseconds(), x.Think.Microseconds(),
			flag(x.Strike), flag(x.Fallback), len(x.Attempts))
		if x.Flooded != 0 { // added with the field: written only when not zero
			fmt.Fprintf(&b, " flooded %d", x.Flooded)
		}
		b.WriteByte('\n')
		for _, a := range x.Attempts {
			b.WriteString("attempt ")
			str(&b, a.Text)
			fmt.Fprintf(&b, " after_us %d rejected ", a.After.Microseconds())
			str(&b, a.Rejected)
			b.WriteByte('\n')
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
	fmt.Fprintf(&b, "outcome thrown_in %d declarer %d contract ", flag(o.ThrownIn), o.Declarer)
	str(&b, contract)
	b.WriteString(" trump ")
	str(&b, trump)
	fmt.Fprintf(&b, " tout %d declarer_won %d draw %d pot_before %d pot_after %d\n", flag(o.Tout), flag(o.DeclarerWon),
		flag(o.Draw), o.PotBefore, o.PotAfter)
	for s := 0; s < players; s++ {
		fmt.Fprintf(&b, "seat %d points %d tricks %d payoff %d\n", s, o.Points[s], o.Tricks[s], o.Payoff[s])
	}
	results := slices.Clone(rec.Results)
	slices.SortStableFunc(results, func(a, b domain.SeatResult) int { return cmp.Compare(a.Seat, b.Seat) })
	for _, r := range results {
		fmt.Fprintf(&b, "result %d bot ", r.Seat)
		str(&b, r.Bot)
		fmt.Fprintf(&b, " payoff %d points %d tricks %d declarer %d\n", r.Payoff, r.Points, r.Tricks, flag(r.Declarer))
	}
	fmt.Fprintf(&b, "started_us %d duration_us %d\nsent %s\n", rec.Started.UnixMicro(), rec.Duration.Microseconds(),
		hex.EncodeToString(sentDigest))
	return b.String()
}

// byIndex is the decisions in index order, as stores return them.
func byIndex(ds []domain.DecisionRecord) []*domain.DecisionRecord {
	out := make([]*domain.DecisionRecord, len(ds))
	for i := range ds {
		out[i] = &ds[i]
	}
	slices.SortStableFunc(out, func(a, b *domain.DecisionRecord) int { return cmp.Compare(a.Index, b.Index) })
	return out
}

// str writes a text as its byte length, a colon and its bytes.
func str(b *strings.Builder, s string) {
	b.WriteString(strconv.Itoa(len(s)))
	b.WriteByte(':')
	b.WriteString(s)
}

// cards writes a card set in the pack's order, comma-separated.
func cards(b *strings.Builder, set engine.CardSet) {
	var buf [engine.NumCards]engine.Card
	for i, c := range set.Cards(buf[:0]) {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(c.String())
	}
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
	if !slices.IsSortedFunc(ds, func(a, b domain.DecisionRecord) int { return cmp.Compare(a.Index, b.Index) }) {
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
