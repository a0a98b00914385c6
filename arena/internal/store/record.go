package store

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/encode/encodev1"
	"github.com/tapparena/tapp/arena/internal/referee"
	"github.com/tapparena/tapp/engine"
)

// A compact deal record (schema version 11) keeps, in one column (deals.record), only what
// cannot be derived from the match and the rules: the cards, the options, the seating, each
// move as its position among the legal actions, and per decision its timings, answers,
// strikes and fallbacks. Everything else is derived on reading by replaying the deal with the
// engine: the moves' actions and seats, the decisions' seats, bots and kinds, the outcome,
// and the requests sent to the bots (DecisionRecord.Sent), which the referee's own
// construction (referee.Request.Build) and encoder (arena/internal/encode) rebuild byte for
// byte from the engine's state and the clock fields kept here. A digest of the requests as
// sent (domain.SentDigest) is kept too, so that a replay can prove the rebuilt bytes are the
// ones the bots got.
//
// A deal is stored compactly only if it can be: its moves replay to the end with its
// recorded outcome, its decisions are one per move and agree with them. On saving, requests
// are rebuilt and compared with the ones given; a request that is not rebuilt exactly (an
// imported replay's, say) is kept verbatim in the record. A deal that cannot be stored
// compactly at all is stored as before: text columns and a decision log (decisionlog.go),
// with a NULL record.
//
// The format, section by section (integers are unsigned varints, "zigzag" ones signed
// varints as encoding/binary writes them, strings a varint length and the bytes); each
// section is written and read by the pair of functions named beside it:
//
//	header      appendHeader, readHeader
//	  byte      the format (recordFormat), which names the request encoding: 1 or 2
//	  8 bytes   domain.SentDigest of the requests as sent (over a wire: not the observed)
//	cards       appendDealCards, readDealCards (recorddeal.go)
//	            for each card of the rule set's pack in card order, its owner (seat, or
//	            Players for the tapp), in bits.Len(Players) bits, little-endian, the last
//	            byte padded with zero bits
//	options     packOptions, unpackOptions (recorddeal.go)
//	  varint    zigzag(pot) << 1 | forced Ramsch
//	seating     appendSeating, readSeating (recorddeal.go)
//	  varint    0, then Players strings (the bots' names); or 1 + the seats' indexes into
//	            the match's bots as digits base len(bots), seat 0 lowest
//	streaming   the seats that asked for streamed events, a bit per seat (see events below)
//	  varint
//	decisions   the number of moves (= decisions), then per decision
//	            (decisionFields.append, readDecisionFields, recorddecisions.go):
//	  varint    the move: its index in the engine's legal actions << 1, | 1 when the
//	            decision's flags are recUsual; in format 2 << 2, | 1 for recUsual, | 2 for
//	            recUsualObserved
//	  varint    flags (rec* in recorddecisions.go), unless recUsual (or recUsualObserved)
//	  zigzag    latency, µs
//	  zigzag    think, µs (recThink, but for recUsualObserved: its latency); arena share,
//	            µs (recShare)
//	  attempts  (recAttempts) a count, then per attempt: text, zigzag after (µs), rejected;
//	            without the flag: one accepted answer spelling the action, after the latency,
//	            or none for a fallback
//	  string    the request id (recRequestID); without it "r<k>" for the k-th decision with a
//	            request, "" for one without
//	  request   (recSent) with recVerbatim: the bytes as sent; else (also for
//	            recObserved, format 2: the request an observed decision stands for), to
//	            rebuild it, what requestModel does not predict:
//	    varint  the ask time (the deadline less the match's time per decision) less the
//	            expected one (the deal's start for the first request, then the previous
//	            request's ask time plus its arena share and latency): zigzag(µs) << 1 when
//	            it is whole µs, as the referee's deadlines are, else zigzag(ns) << 1 | 1
//	    zigzag  (recBank) the overage left, ns; without the flag the seat's last one (at
//	            first the match's overage)
//	    varint  (recEvents) the number of events sent with it; without the flag the seat's
//	            events since its last request (since the last move for a streaming seat)
//
// The outcome and the results are not in the record: the outcome is the replay's (checked
// on saving), the results stay in their table.
//
// Every time is kept in whole µs, as the latency and the answers' times always were: think
// time and arena share too (a decision log kept them in ns; sub-µs parts are noise).
// Rebuilding a deal's requests costs about what encoding them cost the referee: the store
// rebuilds them on saving, to compare, and on reading with them (Deal, Deals), not for
// listings (DealSummaries).

// recordFormat is one format of compact records, named by a record's first byte: the layout
// of its sections and the request encoding its requests are rebuilt with. A record is read
// in the format it names for as long as it is kept, so a format never changes once records
// are written in it: its encoder is frozen (arena/internal/encode/encodev1 for format 1),
// apart from the one the arena sends with (arena/internal/encode), which may gain fields.
// When that encoder changes, the store writes a new format whose encoder is a frozen copy of
// the changed one (docs/protocol.md, "Changing the protocol"): the records written before go
// on rebuilding, byte for byte, the requests their bots got.
type recordFormat struct {
	id byte
	// observes says the format keeps observed decisions (recObserved: a bot in process handed
	// the engine's observation, its request rebuilt from the clock kept) and writes the two
	// usual kinds of decision in the move's varint (decisionFields.append): format 2 on.
	observes bool
	// encoding names the request encoding, as tapp version prints it.
	encoding string
	// encode encodes a rebuilt request as the arena's encoder did when the format was written.
	encode func(b []byte, r *referee.Request) []byte
}

// recordFormat1 is the first format: request encoding 1 (encodev1).
var recordFormat1 = &recordFormat{id: 1, encoding: "tapp.v1 request encoding 1", encode: encodev1.AppendRequest}

// recordFormat2 is format 1 with observed decisions (recObserved): a decision of a bot in
// process keeps its request's clock, no request, and the digest in the header leaves it out
// (it covers the requests sent over a wire); the move's varint says, in its two low bits,
// whether the decision's flags follow (0), are recUsual (1) or recUsualObserved (2, its think
// time its latency, not written again). Request encoding 1, as format 1.
var recordFormat2 = &recordFormat{id: 2, observes: true, encoding: "tapp.v1 request encoding 1", encode: encodev1.AppendRequest}

// writeFormat is the format records are written in: the one whose encoder is the arena's
// (TestTheWriteFormatEncodesAsTheArena holds the two together).
var writeFormat = recordFormat2

// appendRequest encodes a request rebuilt for a record of format f.
func (f *recordFormat) appendRequest(b []byte, r *referee.Request) []byte { return f.encode(b, r) }

// recordFormats are the formats this build reads, by their first byte: every format ever
// written.
var recordFormats = map[byte]*recordFormat{recordFormat1.id: recordFormat1, recordFormat2.id: recordFormat2}

// RecordFormat names the format compact records are written in and its request encoding (for
// tapp version).
func RecordFormat() (id int, encoding string) { return int(writeFormat.id), writeFormat.encoding }

// errNotCompact says a deal cannot be stored as a compact record: it is stored as before.
var errNotCompact = errors.New("not a compact record")

// encodeRecord returns the compact record of d, a deal of the match info describes whose
// start is stored as started, or errNotCompact when the deal cannot be stored so.
//
// Each request is rebuilt and compared with the one given, but for requests the referee
// built from the engine's state (DecisionRecord.SentFromState): of those only the last one
// of the deal is, a guard against a referee and a store that disagree on what goes into a
// request (the game's id, the rules' text), and if it differs every request is. Rebuilding
// them all would cost the store about as much CPU again as storing the deal; a replay's
// verification checks them all against the digest.
func encodeRecord(d *domain.DealRecord, started time.Time, info *matchInfo) ([]byte, error) {
	return encodeRecordTrusting(d, started, info, true)
}

// encodeRecordTrusting is encodeRecord; trust false rebuilds and compares every request.
func encodeRecordTrusting(d *domain.DealRecord, started time.Time, info *matchInfo, trust bool) ([]byte, error) {
	f := writeFormat
	r := info.rules
	ds := d.Decisions
	if !domain.InIndexOrder(ds) {
		ds = slices.Clone(ds)
		slices.SortStableFunc(ds, func(a, b domain.DecisionRecord) int { return a.Index - b.Index })
	}
	if len(ds) != len(d.Moves) || len(d.Seating) != r.Players || d.Options.Pot != int(int32(d.Options.Pot)) {
		return nil, errNotCompact
	}
	plan, err := planDecisions(f, d, ds, started, info, trust)
	if errors.Is(err, errRebuildAll) {
		return encodeRecordTrusting(d, started, info, false)
	}
	if err != nil {
		return nil, err
	}
	b := make([]byte, 0, 64+8*len(ds))
	b = appendHeader(b, f, domain.SentDigest(ds))
	var ok bool
	if b, ok = appendDealCards(b, r, d.Deal); !ok {
		return nil, errNotCompact
	}
	b = appendUvarint(b, packOptions(d.Options))
	b = appendSeating(b, d.Seating, info.bots)
	b = appendUvarint(b, plan.streaming)
	b = appendUvarint(b, uint64(len(plan.steps)))
	for k := range plan.steps {
		fs := plan.steps[k].fields()
		b = fs.append(b, f)
	}
	return b, nil
}

// appendHeader writes the header section: the format and the digest of the requests.
func appendHeader(b []byte, f *recordFormat, digest [domain.SentDigestSize]byte) []byte {
	b = append(b, f.id)
	return append(b, digest[:]...)
}

// readHeader reads the header section: the record's format, and fills in the digest.
func readHeader(rd *recordReader, d *domain.DealRecord) (*recordFormat, error) {
	id := rd.byte()
	f := recordFormats[id]
	if f == nil || rd.err != nil {
		blob := rd.all
		return nil, fmt.Errorf("compact record: not in a format this build knows (%d bytes starting % x)", len(blob), blob[:min(len(blob), 4)])
	}
	d.SentDigest = slices.Clone(rd.bytes(domain.SentDigestSize))
	return f, nil
}

// decodeRecord fills d (whose MatchID, Number and Started are set) from its compact record;
// withSent false leaves out the requests, which are then not rebuilt.
func decodeRecord(d *domain.DealRecord, blob []byte, info *matchInfo, withSent bool) error {
	_, err := decodeRecordCounting(d, blob, info, withSent)
	return err
}

// decodeOutcome fills d (whose MatchID, Number and Started are set) from its compact record
// as far as its results need (domain.ResultsOf): the cards, options, seating and outcome,
// which the moves replayed give, but neither the moves nor the decisions. It reads what
// decodeRecord reads and fails alike on a record that does not replay.
func decodeOutcome(d *domain.DealRecord, blob []byte, info *matchInfo) error {
	rd := &recordReader{b: blob, all: blob}
	format, err := readHeader(rd, d)
	if err != nil {
		return err
	}
	r := info.rules
	d.Deal = rd.dealCards(r)
	d.Options = unpackOptions(rd.uvarint())
	d.Seating = rd.seating(r.Players, info.bots)
	rd.uvarint() // the streaming seats: the requests' business
	n := rd.uvarint()
	if rd.err != nil {
		return rd.fail()
	}
	st, err := engine.NewState(r, d.Deal, d.Options)
	if err != nil {
		return fmt.Errorf("compact record: %w", err)
	}
	var legal []engine.Action
	for k := range n {
		if st.Terminal() {
			return fmt.Errorf("compact record: decision %d after the end of the deal", k)
		}
		legal = st.LegalActions(legal[:0])
		f := readDecisionFields(rd, format)
		if rd.err != nil {
			return rd.fail()
		}
		if f.move >= uint64(len(legal)) {
			return fmt.Errorf("compact record: decision %d: move %d of %d legal actions", k, f.move, len(legal))
		}
		if err := st.Apply(legal[f.move]); err != nil {
			return fmt.Errorf("compact record: decision %d: %w", k, err)
		}
	}
	if len(rd.b) != 0 {
		return fmt.Errorf("compact record: %d bytes left over", len(rd.b))
	}
	if !st.Terminal() {
		return fmt.Errorf("compact record: the %d moves end before the deal is over", n)
	}
	d.Outcome = st.Outcome()
	return nil
}

// decodeRecordCounting is decodeRecord, and counts the requests kept verbatim.
func decodeRecordCounting(d *domain.DealRecord, blob []byte, info *matchInfo, withSent bool) (verbatim int, err error) {
	return decodeRecordAs(d, blob, info, withSent, nil)
}

// decodeRecordAs is decodeRecordCounting reading the record in format as (nil: the one it
// names): what tests compare encoders with.
func decodeRecordAs(d *domain.DealRecord, blob []byte, info *matchInfo, withSent bool, as *recordFormat) (verbatim int, err error) {
	rd := &recordReader{b: blob, all: blob}
	f, err := readHeader(rd, d)
	if err != nil {
		return 0, err
	}
	if as != nil { // as's encoder, the layout the record's
		g := *as
		g.observes = f.observes
		f = &g
	}
	r := info.rules
	d.Deal = rd.dealCards(r)
	d.Options = unpackOptions(rd.uvarint())
	d.Seating = rd.seating(r.Players, info.bots)
	streaming := rd.uvarint()
	n := rd.uvarint()
	if rd.err != nil {
		return 0, rd.fail()
	}
	if n > uint64(len(blob)) {
		return 0, fmt.Errorf("compact record: %d moves in %d bytes", n, len(blob))
	}
	var rp replay
	if err := rp.init(f, d, info, d.Started); err != nil {
		return 0, fmt.Errorf("compact record: %w", err)
	}
	if n > 0 {
		d.Moves = make([]engine.Move, 0, n)
		d.Decisions = make([]domain.DecisionRecord, n)
	}
	for k := range d.Decisions {
		kept, err := rp.readDecision(rd, k, &d.Decisions[k], streaming, withSent)
		if err != nil {
			return verbatim, err
		}
		if kept {
			verbatim++
		}
		d.Moves = append(d.Moves, engine.Move{Seat: d.Decisions[k].Seat, Action: d.Decisions[k].Action})
	}
	if len(rd.b) != 0 {
		return verbatim, fmt.Errorf("compact record: %d bytes left over", len(rd.b))
	}
	if !rp.st.Terminal() {
		return verbatim, fmt.Errorf("compact record: the %d moves end before the deal is over", n)
	}
	d.Outcome = rp.st.Outcome()
	return verbatim, nil
}
