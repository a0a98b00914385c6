package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"time"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/referee"
	"github.com/tapparena/tapp/arena/internal/encode"
	"github.com/tapparena/tapp/engine"
)

// A compact deal record (schema version 11) keeps, in one column (deals.record), only what
// cannot be derived from the match and the rules: the cards, the options, the seating, each
// move as its position among the legal actions, and per decision its timings, answers,
// strikes and fallbacks. Everything else is derived on reading by replaying the deal with the
// engine: the moves' actions and seats, the decisions' seats, bots and kinds, the outcome,
// and the requests sent to the bots (DecisionRecord.Sent), which are rebuilt byte for byte
// with wire.AppendRequest from the engine's state and the clock fields kept here. A digest
// of the requests as sent (domain.SentDigest) is kept too, so that a replay can prove the
// rebuilt bytes are the ones the bots got.
//
// A deal is stored compactly only if it can be: its moves replay to the end with its
// recorded outcome, its decisions are one per move and agree with them. On saving, every
// request is rebuilt and compared with the one given; a request that is not rebuilt exactly
// (an imported replay's, say) is kept verbatim in the record. A deal that cannot be stored
// compactly at all is stored as before: text columns and a decision log (decisionlog.go),
// with a NULL record.
//
// The column value (integers are unsigned varints, "zigzag" ones signed varints as
// encoding/binary writes them, strings a varint length and the bytes):
//
//	byte        the format: 1
//	8 bytes     domain.SentDigest of the requests as sent
//	bytes       the cards: for each card of the rule set's pack in card order, its owner
//	            (seat, or Players for the tapp), in bits.Len(Players) bits, little-endian,
//	            the last byte padded with zero bits
//	varint      options: zigzag(pot) << 1 | forced Ramsch
//	varint      seating: 0, then Players strings (the bots' names); or 1 + the seats' indexes
//	            into the match's bots as digits base len(bots), seat 0 lowest
//	varint      the seats that asked for streamed events, a bit per seat (see events below)
//	varint      the number of moves (= decisions), then per decision:
//	  varint    the move: its index in the engine's legal actions << 1, | 1 when the
//	            decision's flags are recUsual
//	  varint    flags (rec* below), unless recUsual
//	  zigzag    latency, µs
//	  zigzag    think, µs (recThink); arena share, µs (recShare)
//	  attempts  (recAttempts) a count, then per attempt: text, zigzag after (µs), rejected;
//	            without the flag: one accepted answer spelling the action, after the latency,
//	            or none for a fallback
//	  string    the request id (recRequestID); without it "r<k>" for the k-th decision with a
//	            request, "" for one without
//	  request   (recSent) with recVerbatim: the bytes as sent; else, to rebuild it:
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

// recordFormat1 is the first byte of a compact record.
const recordFormat1 = 1

// Flags of one decision in a compact record. The common ones are in the low 7 bits, so that
// a decision of a bot that answered in time takes one byte of flags.
const (
	recSent      = 1 << iota // a request was sent
	recThink                 // think time follows
	recShare                 // arena share follows
	recStrike                // DecisionRecord.Strike
	recFallback              // DecisionRecord.Fallback
	recAttempts              // the attempts follow
	recBank                  // the overage left differs from the seat's last
	recEvents                // the number of events differs from the expected one
	recRequestID             // the request id is not the expected one
	recVerbatim              // the request is kept as sent
)

// recUsual are the flags of a decision a bot answered in time, which a compact record writes
// in the move's varint instead of a byte of their own.
const recUsual = recSent | recThink | recShare

// packAskDelta writes an ask time's difference from the expected one: in µs (the referee
// gives deadlines in whole µs) when it is whole µs, else in ns.
func packAskDelta(d int64) uint64 {
	zigzag := func(v int64) uint64 { return uint64(v<<1 ^ v>>63) }
	if d%1000 == 0 {
		return zigzag(d/1000) << 1
	}
	return zigzag(d)<<1 | 1
}

func unpackAskDelta(v uint64) time.Duration {
	z := v >> 1
	d := int64(z>>1) ^ -int64(z&1)
	if v&1 == 0 {
		d *= 1000
	}
	return time.Duration(d)
}

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
	r := info.rules
	players := r.Players
	ds := d.Decisions
	if !slices.IsSortedFunc(ds, func(a, b domain.DecisionRecord) int { return a.Index - b.Index }) {
		ds = slices.Clone(ds)
		slices.SortStableFunc(ds, func(a, b domain.DecisionRecord) int { return a.Index - b.Index })
	}
	if len(ds) != len(d.Moves) || len(d.Seating) != players {
		return nil, errNotCompact
	}
	st, err := engine.NewState(r, d.Deal, d.Options)
	if err != nil {
		return nil, errNotCompact
	}
	digest := domain.SentDigest(ds)
	b := make([]byte, 0, 64+8*len(ds))
	b = append(b, recordFormat1)
	b = append(b, digest[:]...)
	var ok bool
	if b, ok = appendDealCards(b, r, d.Deal); !ok {
		return nil, errNotCompact
	}
	if d.Options.Pot != int(int32(d.Options.Pot)) {
		return nil, errNotCompact
	}
	b = binary.AppendUvarint(b, packOptions(d.Options))
	b = appendSeating(b, d.Seating, info.bots)

	// A first pass replays the deal, checks it and rebuilds each request; the events each
	// request carried are compared with both models of a seat's event stream, and the seats
	// are then written as streaming or not, whichever expects more of their requests right.
	type step struct {
		move      int
		flags     int
		askDelta  int64
		bank      time.Duration
		events    int
		predicted [2]int // events expected if the seat does not stream, if it does
		seat      engine.Seat
		x         *domain.DecisionRecord
	}
	steps := make([]step, len(ds))
	var misses [engine.MaxPlayers][2]int
	gameID := referee.GameID(d.MatchID, d.Number)
	var req referee.Request // each request in turn, built as the referee built it
	var (
		legal     []engine.Action
		sinceReq  [engine.MaxPlayers]int // events sent to the seat up to its last request
		sinceMove [engine.MaxPlayers]int // the same, for a seat that is also sent every move's events
		bank      [engine.MaxPlayers]time.Duration
		requests  int
		expected  = started // the ask time expected for the next request
	)
	for i := range bank {
		bank[i] = info.overage
	}
	// One buffer for the rebuilt requests, as large as the largest (the pool's buffers are
	// dropped by every garbage collection, and growing one costs more than this).
	size := 0
	for i := range ds {
		size = max(size, len(ds[i].Sent))
	}
	buf := make([]byte, 0, size)
	sample := -1 // the request built from the state that is compared
	for k := range ds {
		if trust && ds[k].SentFromState && len(ds[k].Sent) > 0 {
			sample = k
		}
	}
	for k := range ds {
		x, mv := &ds[k], d.Moves[k]
		seat := st.ToMove()
		if st.Terminal() || x.Index != k || mv.Seat != seat || x.Seat != seat || x.Bot != d.Seating[seat] ||
			x.Decision != st.Decision() || x.Action != mv.Action {
			return nil, errNotCompact
		}
		legal = st.LegalActions(legal[:0])
		idx := slices.Index(legal, mv.Action)
		if idx < 0 {
			return nil, errNotCompact
		}
		s := step{move: idx, seat: seat, x: x}
		if us(x.Think) != 0 {
			s.flags |= recThink
		}
		if us(x.ArenaShare) != 0 {
			s.flags |= recShare
		}
		if x.Strike {
			s.flags |= recStrike
		}
		if x.Fallback {
			s.flags |= recFallback
		}
		if !standardAttempts(x) {
			s.flags |= recAttempts
		}
		wantID := ""
		if len(x.Sent) > 0 {
			s.flags |= recSent
			wantID = "r" + strconv.Itoa(requests+1)
		}
		if x.RequestID != wantID {
			s.flags |= recRequestID
		}
		if x.RequestID != "" {
			requests++
		}
		if len(x.Sent) > 0 {
			n := st.NumEvents()
			deadline, overage, events, parsed := scanRequest(x.Sent)
			verbatim := !parsed || events > n
			if !verbatim {
				ask := deadline.Add(-info.perDecision)
				first := n - events
				if !trust || !x.SentFromState || k == sample {
					req.Build(st, gameID, x.RequestID, deadline, overage, first)
					buf = encode.AppendRequest(buf[:0], &req)
					verbatim = !bytes.Equal(buf, x.Sent)
					if verbatim && k == sample {
						return encodeRecordTrusting(d, started, info, false)
					}
				}
				if !verbatim {
					s.askDelta = int64(ask.Sub(expected))
					expected = ask.Add(fromUS(us(x.ArenaShare)) + fromUS(us(x.Latency)))
					if overage != bank[seat] {
						s.flags |= recBank
						s.bank, bank[seat] = overage, overage
					}
					s.events = events
					s.predicted = [2]int{n - sinceReq[seat], n - sinceMove[seat]}
					for m := range 2 {
						if s.predicted[m] != events {
							misses[seat][m]++
						}
					}
				}
			}
			if verbatim {
				s.flags |= recVerbatim
			}
			sinceReq[seat], sinceMove[seat] = n, n
		}
		steps[k] = s
		if err := st.Apply(mv.Action); err != nil {
			return nil, errNotCompact
		}
		for i := range players {
			sinceMove[i] = st.NumEvents()
		}
	}
	if !st.Terminal() || st.Outcome() != d.Outcome {
		return nil, errNotCompact
	}
	var streaming uint64
	for i := range players {
		if misses[i][1] < misses[i][0] {
			streaming |= 1 << i
		}
	}
	b = binary.AppendUvarint(b, streaming)
	b = binary.AppendUvarint(b, uint64(len(ds)))
	for k := range steps {
		s := &steps[k]
		x := s.x
		if s.flags&recSent != 0 && s.flags&recVerbatim == 0 {
			if s.predicted[streaming>>s.seat&1] != s.events {
				s.flags |= recEvents
			}
		}
		if s.flags == recUsual {
			b = binary.AppendUvarint(b, uint64(s.move)<<1|1)
		} else {
			b = binary.AppendUvarint(b, uint64(s.move)<<1)
			b = binary.AppendUvarint(b, uint64(s.flags))
		}
		b = binary.AppendVarint(b, us(x.Latency))
		if s.flags&recThink != 0 {
			b = binary.AppendVarint(b, us(x.Think))
		}
		if s.flags&recShare != 0 {
			b = binary.AppendVarint(b, us(x.ArenaShare))
		}
		if s.flags&recAttempts != 0 {
			b = binary.AppendUvarint(b, uint64(len(x.Attempts)))
			for _, a := range x.Attempts {
				b = appendString(b, a.Text)
				b = binary.AppendVarint(b, us(a.After))
				b = appendString(b, a.Rejected)
			}
		}
		if s.flags&recRequestID != 0 {
			b = appendString(b, x.RequestID)
		}
		switch {
		case s.flags&recVerbatim != 0:
			b = binary.AppendUvarint(b, uint64(len(x.Sent)))
			b = append(b, x.Sent...)
		case s.flags&recSent != 0:
			b = binary.AppendUvarint(b, packAskDelta(s.askDelta))
			if s.flags&recBank != 0 {
				b = binary.AppendVarint(b, int64(s.bank))
			}
			if s.flags&recEvents != 0 {
				b = binary.AppendUvarint(b, uint64(s.events))
			}
		}
	}
	return b, nil
}

// standardAttempts reports whether a decision's attempts are the usual ones, which a compact
// record leaves out: one accepted answer spelling the action, at the latency; none for a
// fallback.
func standardAttempts(x *domain.DecisionRecord) bool {
	if x.Fallback {
		return len(x.Attempts) == 0
	}
	if len(x.Attempts) != 1 {
		return false
	}
	a := x.Attempts[0]
	return a.Rejected == "" && us(a.After) == us(x.Latency) && a.Text == x.Action.String()
}

// decodeRecord fills d (whose MatchID, Number and Started are set) from its compact record;
// withSent false leaves out the requests, which are then not rebuilt.
func decodeRecord(d *domain.DealRecord, blob []byte, info *matchInfo, withSent bool) error {
	_, err := decodeRecordCounting(d, blob, info, withSent)
	return err
}

// decodeRecordCounting is decodeRecord, and counts the requests kept verbatim.
func decodeRecordCounting(d *domain.DealRecord, blob []byte, info *matchInfo, withSent bool) (verbatim int, err error) {
	rd := &recordReader{b: blob}
	if rd.byte() != recordFormat1 {
		return verbatim, fmt.Errorf("compact record: not in a format this build knows (%d bytes starting % x)", len(blob), blob[:min(len(blob), 4)])
	}
	r := info.rules
	players := r.Players
	d.SentDigest = slices.Clone(rd.bytes(domain.SentDigestSize))
	d.Deal = rd.dealCards(r)
	d.Options = unpackOptions(rd.uvarint())
	d.Seating = rd.seating(players, info.bots)
	streaming := rd.uvarint()
	n := rd.uvarint()
	if rd.err != nil {
		return verbatim, rd.fail()
	}
	if n > uint64(len(blob)) {
		return verbatim, fmt.Errorf("compact record: %d moves in %d bytes", n, len(blob))
	}
	st, err := engine.NewState(r, d.Deal, d.Options)
	if err != nil {
		return verbatim, fmt.Errorf("compact record: %w", err)
	}
	gameID := referee.GameID(d.MatchID, d.Number)
	var req referee.Request // each request in turn, built as the referee built it
	var (
		legal     []engine.Action
		sinceReq  [engine.MaxPlayers]int
		sinceMove [engine.MaxPlayers]int
		bank      [engine.MaxPlayers]time.Duration
		requests  int
		expected  = d.Started
	)
	for i := range bank {
		bank[i] = info.overage
	}
	if n > 0 {
		d.Moves = make([]engine.Move, 0, n)
		d.Decisions = make([]domain.DecisionRecord, n)
	}
	for k := range d.Decisions {
		if st.Terminal() {
			return verbatim, fmt.Errorf("compact record: decision %d after the end of the deal", k)
		}
		seat := st.ToMove()
		legal = st.LegalActions(legal[:0])
		idx := rd.uvarint()
		flags := uint64(recUsual)
		if idx&1 == 0 {
			flags = rd.uvarint()
		}
		idx >>= 1
		if rd.err != nil {
			return verbatim, rd.fail()
		}
		if idx >= uint64(len(legal)) {
			return verbatim, fmt.Errorf("compact record: decision %d: move %d of %d legal actions", k, idx, len(legal))
		}
		action := legal[idx]
		x := &d.Decisions[k]
		x.Index, x.Seat, x.Bot, x.Decision, x.Action = k, seat, d.Seating[seat], st.Decision(), action
		x.Latency = fromUS(rd.varint())
		if flags&recThink != 0 {
			x.Think = fromUS(rd.varint())
		}
		if flags&recShare != 0 {
			x.ArenaShare = fromUS(rd.varint())
		}
		x.Strike, x.Fallback = flags&recStrike != 0, flags&recFallback != 0
		if flags&recAttempts != 0 {
			na := rd.uvarint()
			if na > uint64(len(blob)) {
				return verbatim, fmt.Errorf("compact record: decision %d: %d attempts", k, na)
			}
			if na > 0 {
				x.Attempts = make([]domain.AnswerAttempt, na)
			}
			for j := range x.Attempts {
				x.Attempts[j] = domain.AnswerAttempt{Text: rd.string(), After: fromUS(rd.varint()), Rejected: rd.string()}
			}
		} else if !x.Fallback {
			x.Attempts = []domain.AnswerAttempt{{Text: action.String(), After: x.Latency}}
		}
		sent := flags&recSent != 0
		if flags&recRequestID != 0 {
			x.RequestID = rd.string()
		} else if sent {
			x.RequestID = "r" + strconv.Itoa(requests+1)
		}
		if x.RequestID != "" {
			requests++
		}
		switch {
		case sent && flags&recVerbatim != 0:
			verbatim++
			if sent := rd.bytes(int(rd.uvarint())); withSent {
				x.Sent = slices.Clone(sent)
			}
			sinceReq[seat], sinceMove[seat] = st.NumEvents(), st.NumEvents()
		case sent:
			ask := expected.Add(unpackAskDelta(rd.uvarint()))
			expected = ask.Add(x.ArenaShare + x.Latency)
			if flags&recBank != 0 {
				bank[seat] = time.Duration(rd.varint())
			}
			ne := st.NumEvents()
			events := ne - sinceReq[seat]
			if streaming>>seat&1 != 0 {
				events = ne - sinceMove[seat]
			}
			if flags&recEvents != 0 {
				events = int(rd.uvarint())
			}
			if rd.err != nil {
				return verbatim, rd.fail()
			}
			if events < 0 || events > ne {
				return verbatim, fmt.Errorf("compact record: decision %d: %d events of %d", k, events, ne)
			}
			if withSent {
				first := ne - events
				req.Build(st, gameID, x.RequestID, ask.Add(info.perDecision), bank[seat], first)
				x.Sent = encode.AppendRequest(nil, &req)
			}
			sinceReq[seat], sinceMove[seat] = ne, ne
		}
		if rd.err != nil {
			return verbatim, rd.fail()
		}
		d.Moves = append(d.Moves, engine.Move{Seat: seat, Action: action})
		if err := st.Apply(action); err != nil {
			return verbatim, fmt.Errorf("compact record: decision %d: %w", k, err)
		}
		for i := range players {
			sinceMove[i] = st.NumEvents()
		}
	}
	if len(rd.b) != 0 {
		return verbatim, fmt.Errorf("compact record: %d bytes left over", len(rd.b))
	}
	if !st.Terminal() {
		return verbatim, fmt.Errorf("compact record: the %d moves end before the deal is over", n)
	}
	d.Outcome = st.Outcome()
	return verbatim, nil
}

// scanRequest reads what a request as sent says of its clock and its events: its deadline,
// the overage left and the number of events; ok false if it is not a DecisionRequest in wire
// form.
func scanRequest(b []byte) (deadline time.Time, overage time.Duration, events int, ok bool) {
	const reqDeadline, reqOverage, reqEvents = 5, 6, 8 // tapp.v1.DecisionRequest
	var secs, nanos [2]int64
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return time.Time{}, 0, 0, false
		}
		b = b[n:]
		if typ == protowire.BytesType && (num == reqDeadline || num == reqOverage) {
			v, n := protowire.ConsumeBytes(b)
			if n < 0 {
				return time.Time{}, 0, 0, false
			}
			b = b[n:]
			i := 0
			if num == reqOverage {
				i = 1
			}
			for len(v) > 0 {
				f, t, m := protowire.ConsumeTag(v)
				if m < 0 || t != protowire.VarintType {
					return time.Time{}, 0, 0, false
				}
				x, m2 := protowire.ConsumeVarint(v[m:])
				if m2 < 0 {
					return time.Time{}, 0, 0, false
				}
				v = v[m+m2:]
				switch f {
				case 1:
					secs[i] = int64(x)
				case 2:
					nanos[i] = int64(x)
				}
			}
			continue
		}
		if num == reqEvents {
			events++
		}
		n = protowire.ConsumeFieldValue(num, typ, b)
		if n < 0 {
			return time.Time{}, 0, 0, false
		}
		b = b[n:]
	}
	return time.Unix(secs[0], int64(int32(nanos[0]))), time.Duration(secs[1])*time.Second + time.Duration(int32(nanos[1])), events, true
}

// appendDealCards writes the owner of every card of the pack; ok false if the deal does not
// deal the pack exactly (Validate has checked it does).
func appendDealCards(b []byte, r engine.RuleSet, d engine.Deal) ([]byte, bool) {
	pack := r.Pack()
	players := r.Players
	union, count := d.Tapp, d.Tapp.Len()
	for i := range engine.MaxPlayers {
		if i >= players && !d.Hands[i].Empty() {
			return b, false
		}
		union |= d.Hands[i]
		count += d.Hands[i].Len()
	}
	if union != pack || count != pack.Len() {
		return b, false
	}
	width := uint(bits.Len(uint(players)))
	var acc uint64
	var nb uint
	for c := range engine.Card(engine.NumCards) {
		if !pack.Has(c) {
			continue
		}
		owner := uint64(players)
		for i := range players {
			if d.Hands[i].Has(c) {
				owner = uint64(i)
			}
		}
		acc |= owner << nb
		nb += width
		for nb >= 8 {
			b = append(b, byte(acc))
			acc >>= 8
			nb -= 8
		}
	}
	if nb > 0 {
		b = append(b, byte(acc))
	}
	return b, true
}

func packOptions(o engine.Options) uint64 {
	v := uint64(int64(o.Pot)<<1^int64(o.Pot)>>63) << 1
	if o.ForcedRamsch {
		v |= 1
	}
	return v
}

func unpackOptions(v uint64) engine.Options {
	z := v >> 1
	return engine.Options{Pot: int(int64(z>>1) ^ -int64(z&1)), ForcedRamsch: v&1 != 0}
}

// appendSeating writes the seating as indexes into the match's bots when it can, else as
// names.
func appendSeating(b []byte, seating, bots []string) []byte {
	base := uint64(len(bots))
	code, place := uint64(0), uint64(1)
	indexed := base > 0 && base < 1<<8 && len(seating) <= engine.MaxPlayers
	for _, name := range seating {
		j := slices.Index(bots, name)
		if !indexed || j < 0 {
			indexed = false
			break
		}
		code += uint64(j) * place
		place *= base
	}
	if indexed {
		return binary.AppendUvarint(b, code+1)
	}
	b = binary.AppendUvarint(b, 0)
	for _, name := range seating {
		b = appendString(b, name)
	}
	return b
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// recordReader reads a compact record; the first error sticks and later reads give zeros.
type recordReader struct {
	b   []byte
	err error
}

func (r *recordReader) fail() error { return fmt.Errorf("compact record: %w", r.err) }

func (r *recordReader) byte() byte {
	if len(r.b) == 0 {
		r.err = errors.New("truncated")
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

func (r *recordReader) bytes(n int) []byte {
	if r.err != nil || n < 0 || n > len(r.b) {
		if r.err == nil {
			r.err = errors.New("truncated")
		}
		return nil
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}

func (r *recordReader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = errors.New("truncated or bad varint")
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *recordReader) varint() int64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.err = errors.New("truncated or bad varint")
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *recordReader) string() string { return string(r.bytes(int(r.uvarint()))) }

func (r *recordReader) dealCards(rules engine.RuleSet) engine.Deal {
	pack := rules.Pack()
	players := rules.Players
	width := uint(bits.Len(uint(players)))
	raw := r.bytes((pack.Len()*int(width) + 7) / 8)
	var d engine.Deal
	if raw == nil {
		return d
	}
	var acc uint64
	var nb uint
	for c := range engine.Card(engine.NumCards) {
		if !pack.Has(c) {
			continue
		}
		for nb < width {
			acc |= uint64(raw[0]) << nb
			raw = raw[1:]
			nb += 8
		}
		owner := int(acc & (1<<width - 1))
		acc >>= width
		nb -= width
		switch {
		case owner < players:
			d.Hands[owner] = d.Hands[owner].With(c)
		case owner == players:
			d.Tapp = d.Tapp.With(c)
		default:
			r.err = fmt.Errorf("card %s has owner %d at a table of %d", c, owner, players)
		}
	}
	return d
}

func (r *recordReader) seating(players int, bots []string) []string {
	code := r.uvarint()
	seating := make([]string, players)
	if code == 0 {
		for i := range seating {
			seating[i] = r.string()
		}
		return seating
	}
	code--
	base := uint64(len(bots))
	if base == 0 {
		r.err = errors.New("a seating by index, but the match has no bots")
		return seating
	}
	for i := range seating {
		seating[i] = bots[code%base]
		code /= base
	}
	return seating
}
