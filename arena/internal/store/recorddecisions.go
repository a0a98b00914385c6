package store

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/referee"
	"github.com/tapparena/tapp/engine"
)

// The decisions section of a compact record (record.go): one entry per decision, written by
// decisionFields.append and read by readDecisionFields, with what the engine's replay of
// the deal (replay) and the record's model of the requests (requestModel) do not give.

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
	recExtra                 // fields added to records later follow, tagged (extraFields)
	// recObserved (format 2): the bot was handed the engine's observation in process and no
	// request was sent (domain.DecisionRecord.Observed); the request's clock follows, as
	// for a request rebuilt (recBank, recEvents), and the request is rebuilt from it.
	recObserved
)

// Fields of a decision's entry added after format 1's first records, each written only when
// not zero, as a tag and a value after everything else (recExtra): a record without them reads
// as before. A field added later gets the next tag; a tag is never reused.
const (
	extraFlooded = 1 // DecisionRecord.Flooded
	extraRetimed = 2 // DecisionRecord.Retimed
)

// recUsual are the flags of a decision a bot answered in time, which a compact record writes
// in the move's varint instead of a byte of their own.
const recUsual = recSent | recThink | recShare

// recUsualObserved are the flags of a decision a bot in process answered in time, which
// format 2 writes in the move's varint too: its think time is its latency (the bot's own
// time is all of it), written once.
const recUsualObserved = recObserved | recThink

// Format 2's kinds of decision in the move's varint's two low bits.
const (
	moveFlags         = 0 // the flags follow
	moveUsual         = 1 // recUsual
	moveUsualObserved = 2 // recUsualObserved, the think time the latency
)

// decisionFields are the fields of one decision's entry, as written: what is there depends
// on flags.
type decisionFields struct {
	move                  uint64 // the index of the move in the legal actions
	flags                 uint64
	latency, think, share int64 // µs
	attempts              []domain.AnswerAttempt
	requestID             string
	sent                  []byte // recVerbatim: the request as sent
	askDelta              uint64 // packAskDelta
	bank                  time.Duration
	events                int
	flooded               int // extraFlooded
	retimed               int // extraRetimed
}

// append writes the entry in format fm.
func (f *decisionFields) append(b []byte, fm *recordFormat) []byte {
	thinkIsLatency := false
	switch {
	case fm.observes && f.flags == recUsual:
		b = appendUvarint(b, f.move<<2|moveUsual)
	case fm.observes && f.flags == recUsualObserved && f.think == f.latency:
		b = appendUvarint(b, f.move<<2|moveUsualObserved)
		thinkIsLatency = true
	case fm.observes:
		b = appendUvarint(b, f.move<<2|moveFlags)
		b = appendUvarint(b, f.flags)
	case f.flags == recUsual:
		b = appendUvarint(b, f.move<<1|1)
	default:
		b = appendUvarint(b, f.move<<1)
		b = appendUvarint(b, f.flags)
	}
	b = appendVarint(b, f.latency)
	if f.flags&recThink != 0 && !thinkIsLatency {
		b = appendVarint(b, f.think)
	}
	if f.flags&recShare != 0 {
		b = appendVarint(b, f.share)
	}
	if f.flags&recAttempts != 0 {
		b = appendUvarint(b, uint64(len(f.attempts)))
		for _, a := range f.attempts {
			b = appendString(b, a.Text)
			b = appendVarint(b, us(a.After))
			b = appendString(b, a.Rejected)
		}
	}
	if f.flags&recRequestID != 0 {
		b = appendString(b, f.requestID)
	}
	switch {
	case f.flags&recVerbatim != 0:
		b = appendUvarint(b, uint64(len(f.sent)))
		b = append(b, f.sent...)
	case f.flags&(recSent|recObserved) != 0:
		b = appendUvarint(b, f.askDelta)
		if f.flags&recBank != 0 {
			b = appendVarint(b, int64(f.bank))
		}
		if f.flags&recEvents != 0 {
			b = appendUvarint(b, uint64(f.events))
		}
	}
	if f.flags&recExtra != 0 {
		var tagged [2][2]uint64
		n := 0
		for _, x := range [...][2]uint64{{extraFlooded, uint64(f.flooded)}, {extraRetimed, uint64(f.retimed)}} {
			if x[1] != 0 {
				tagged[n] = x
				n++
			}
		}
		b = appendUvarint(b, uint64(n)) // the number of tagged fields
		for _, x := range tagged[:n] {
			b = appendUvarint(b, x[0])
			b = appendUvarint(b, x[1])
		}
	}
	return b
}

// readDecisionFields reads an entry of a record in format fm; rd.err says if it was not one.
func readDecisionFields(rd *recordReader, fm *recordFormat) decisionFields {
	f := decisionFields{move: rd.uvarint(), flags: recUsual}
	thinkIsLatency := false
	if fm.observes {
		switch f.move & 3 {
		case moveFlags:
			f.flags = rd.uvarint()
		case moveUsualObserved:
			f.flags, thinkIsLatency = recUsualObserved, true
		case moveUsual:
		default:
			rd.err = fmt.Errorf("a kind of decision (%d) this build does not know", f.move&3)
			return f
		}
		f.move >>= 2
	} else {
		if f.move&1 == 0 {
			f.flags = rd.uvarint()
		}
		f.move >>= 1
		if f.flags&recObserved != 0 {
			rd.err = fmt.Errorf("an observed decision in a record of format %d", fm.id)
			return f
		}
	}
	if f.flags&recObserved != 0 && f.flags&(recSent|recVerbatim) != 0 {
		rd.err = errors.New("a decision both observed and sent")
		return f
	}
	f.latency = rd.varint()
	switch {
	case thinkIsLatency:
		f.think = f.latency
	case f.flags&recThink != 0:
		f.think = rd.varint()
	}
	if f.flags&recShare != 0 {
		f.share = rd.varint()
	}
	if f.flags&recAttempts != 0 {
		n := rd.uvarint()
		if n > uint64(len(rd.b)) { // an attempt takes three bytes at least
			rd.err = fmt.Errorf("%d attempts in %d bytes", n, len(rd.b))
			return f
		}
		if n > 0 {
			f.attempts = make([]domain.AnswerAttempt, n)
		}
		for j := range f.attempts {
			f.attempts[j] = domain.AnswerAttempt{Text: rd.string(), After: fromUS(rd.varint()), Rejected: rd.string()}
		}
	}
	if f.flags&recRequestID != 0 {
		f.requestID = rd.string()
	}
	switch {
	case f.flags&recSent != 0 && f.flags&recVerbatim != 0:
		f.sent = rd.bytes(int(rd.uvarint()))
	case f.flags&(recSent|recObserved) != 0:
		f.askDelta = rd.uvarint()
		if f.flags&recBank != 0 {
			f.bank = time.Duration(rd.varint())
		}
		if f.flags&recEvents != 0 {
			f.events = int(rd.uvarint())
		}
	}
	if f.flags&recExtra != 0 {
		n := rd.uvarint()
		for range min(n, uint64(len(rd.b))) {
			switch tag, v := rd.uvarint(), rd.uvarint(); tag {
			case extraFlooded:
				f.flooded = int(v)
			case extraRetimed:
				f.retimed = int(v)
			default:
				rd.err = fmt.Errorf("a decision field (tag %d) this build does not know", tag)
				return f
			}
		}
	}
	return f
}

// recordedFlags are the flags of what a decision's record gives as it is: its timings,
// strike, fallback and unusual attempts.
func recordedFlags(x *domain.DecisionRecord) uint64 {
	var flags uint64
	if us(x.Think) != 0 {
		flags |= recThink
	}
	if us(x.ArenaShare) != 0 {
		flags |= recShare
	}
	if x.Strike {
		flags |= recStrike
	}
	if x.Fallback {
		flags |= recFallback
	}
	if !standardAttempts(x) {
		flags |= recAttempts
	}
	if x.Flooded > 0 || x.Retimed > 0 {
		flags |= recExtra
	}
	return flags
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

// requestModel is what a compact record expects of a deal's next request from the ones before
// it, kept alike by the encoder and the decoder, so that a request as expected costs no byte:
// its id, its ask time, the seat's overage left, and the events it carries. It is a model
// only: a request that differs has the difference in its entry, and a request the referee
// built otherwise than replay rebuilds it is kept verbatim.
type requestModel struct {
	ask  time.Time // the next request's ask time: the last one's plus its arena share and latency
	bank [engine.MaxPlayers]time.Duration
	// Events sent to each seat up to its last request, and the same for a seat that streams
	// events (it is sent every move's events as they happen).
	sinceReq, sinceMove [engine.MaxPlayers]int
	requests            int // the requests named so far: the next is "r<requests+1>"
}

func newRequestModel(started time.Time, overage time.Duration) requestModel {
	m := requestModel{ask: started}
	for i := range m.bank {
		m.bank[i] = overage
	}
	return m
}

// nextID is the id the next request is expected to have.
func (m *requestModel) nextID() string { return "r" + strconv.Itoa(m.requests+1) }

// named counts a decision's request id.
func (m *requestModel) named(id string) {
	if id != "" {
		m.requests++
	}
}

// events is the number of events a request of seat is expected to carry, with the log at n
// events.
func (m *requestModel) events(seat engine.Seat, streaming bool, n int) int {
	if streaming {
		return n - m.sinceMove[seat]
	}
	return n - m.sinceReq[seat]
}

// clocked takes in what a request said of the clock, and how long its answer took.
func (m *requestModel) clocked(seat engine.Seat, ask time.Time, share, latency, bank time.Duration) {
	m.ask, m.bank[seat] = ask.Add(share+latency), bank
}

// sent takes in that seat was sent its events up to n.
func (m *requestModel) sent(seat engine.Seat, n int) { m.sinceReq[seat], m.sinceMove[seat] = n, n }

// moved takes in a move, after which a streaming seat has been sent the log's n events.
func (m *requestModel) moved(n int) {
	for i := range m.sinceMove {
		m.sinceMove[i] = n
	}
}

// replay is a deal replayed move by move for its compact record, as the referee played it:
// the engine's state before each decision, the request the referee built there, and the
// record's model of the requests.
type replay struct {
	f     *recordFormat
	st    *engine.State
	model requestModel
	// req is the request of the decision st waits for, rebuilt as the referee built it; its
	// Legal, the decision's legal actions, is filled before the rest (Build fills it again
	// alike, in the same storage).
	req         referee.Request
	gameID      string
	perDecision time.Duration
	seating     []string
}

// init starts the replay of deal d, a deal of the match info describes that started then.
func (rp *replay) init(f *recordFormat, d *domain.DealRecord, info *matchInfo, started time.Time) error {
	st, err := engine.NewState(info.rules, d.Deal, d.Options)
	if err != nil {
		return err
	}
	rp.start(f, st, d, info, started)
	return nil
}

// start is init with the engine's state st at the deal's start.
func (rp *replay) start(f *recordFormat, st *engine.State, d *domain.DealRecord, info *matchInfo, started time.Time) {
	rp.f, rp.st, rp.model, rp.gameID = f, st, newRequestModel(started, info.overage), referee.GameID(d.MatchID, d.Number)
	rp.perDecision, rp.seating = info.perDecision, d.Seating
}

// replayStates are engine states kept between the deals a store encodes (every deal it
// stores is replayed for its compact record; a state is 2.9 KB with its buffers).
var replayStates = sync.Pool{New: func() any {
	st, _ := engine.NewState(engine.DefaultRules(engine.Modern), engine.DealFromSeed(engine.DefaultRules(engine.Modern), 0, 0), engine.Options{})
	return st
}}

// request appends the request of the decision the replay waits for, built and encoded as the
// referee does, with the clock and the number of events given.
func (rp *replay) request(b []byte, requestID string, deadline time.Time, overage time.Duration, events int) []byte {
	rp.req.Build(rp.st, rp.gameID, requestID, deadline, overage, rp.st.NumEvents()-events)
	return rp.f.appendRequest(b, &rp.req)
}

// legalActions returns the legal actions of the decision the replay waits for, in the
// request's storage.
func (rp *replay) legalActions() []engine.Action {
	rp.req.Legal = rp.st.LegalActions(rp.req.Legal[:0])
	return rp.req.Legal
}

// apply plays a decision's move.
func (rp *replay) apply(a engine.Action) error {
	if err := rp.st.Apply(a); err != nil {
		return err
	}
	rp.model.moved(rp.st.NumEvents())
	return nil
}

// readDecision reads decision k's entry into x and plays its move; withSent rebuilds its
// request. kept reports a request kept verbatim.
func (rp *replay) readDecision(rd *recordReader, k int, x *domain.DecisionRecord, streaming uint64, withSent bool) (kept bool, err error) {
	st := rp.st
	if st.Terminal() {
		return false, fmt.Errorf("compact record: decision %d after the end of the deal", k)
	}
	seat := st.ToMove()
	legal := rp.legalActions()
	f := readDecisionFields(rd, rp.f)
	if rd.err != nil {
		return false, rd.fail()
	}
	if f.move >= uint64(len(legal)) {
		return false, fmt.Errorf("compact record: decision %d: move %d of %d legal actions", k, f.move, len(legal))
	}
	action := legal[f.move]
	*x = domain.DecisionRecord{Index: k, Seat: seat, Bot: rp.seating[seat], Decision: st.Decision(), Action: action,
		Latency: fromUS(f.latency), Think: fromUS(f.think), ArenaShare: fromUS(f.share),
		Strike: f.flags&recStrike != 0, Fallback: f.flags&recFallback != 0, Attempts: f.attempts, Flooded: f.flooded,
		Retimed: f.retimed}
	if f.flags&recAttempts == 0 && !x.Fallback {
		x.Attempts = []domain.AnswerAttempt{{Text: action.String(), After: x.Latency}}
	}
	sent := f.flags&(recSent|recObserved) != 0 // a request sent, or one an observed decision stands for
	if f.flags&recRequestID != 0 {
		x.RequestID = f.requestID
	} else if sent {
		x.RequestID = rp.model.nextID()
	}
	rp.model.named(x.RequestID)
	if sent {
		kept = f.flags&recVerbatim != 0
		if err := rp.readRequest(&f, k, x, streaming>>seat&1 != 0, withSent); err != nil {
			return kept, err
		}
	}
	if err := rp.apply(action); err != nil {
		return kept, fmt.Errorf("compact record: decision %d: %w", k, err)
	}
	return kept, nil
}

// readRequest gives decision k the request its entry f says was sent: as it was kept
// (recVerbatim), or rebuilt (if withSent) from the clock fields and the model's
// expectations, the seat streaming events or not.
func (rp *replay) readRequest(f *decisionFields, k int, x *domain.DecisionRecord, streaming, withSent bool) error {
	seat, n := x.Seat, rp.st.NumEvents()
	defer rp.model.sent(seat, n)
	if f.flags&recVerbatim != 0 {
		if withSent {
			x.Sent = slices.Clone(f.sent)
		}
		return nil
	}
	ask := rp.model.ask.Add(unpackAskDelta(f.askDelta))
	bank := rp.model.bank[seat]
	if f.flags&recBank != 0 {
		bank = f.bank
	}
	rp.model.clocked(seat, ask, x.ArenaShare, x.Latency, bank)
	events := rp.model.events(seat, streaming, n)
	if f.flags&recEvents != 0 {
		events = f.events
	}
	if events < 0 || events > n {
		return fmt.Errorf("compact record: decision %d: %d events of %d", k, events, n)
	}
	if f.flags&recObserved != 0 {
		x.Observed, x.Deadline, x.Overage = true, ask.Add(rp.perDecision).UTC(), bank
	}
	if withSent {
		x.Sent = rp.request(nil, x.RequestID, ask.Add(rp.perDecision), bank, events)
	}
	return nil
}

// errRebuildAll says the request of the deal that was compared as a sample did not rebuild:
// the deal's requests are to be compared all.
var errRebuildAll = errors.New("a sampled request does not rebuild")

// decisionPlan is the decisions section of a deal's record, planned: each decision's entry,
// and the seats written as streaming events.
type decisionPlan struct {
	steps     []step
	streaming uint64
}

// step is one decision's entry as planned: its decision, and what the record keeps beside
// what the decision gives as it is (fields), with what the choice of streaming seats needs:
// the events its request carried, and those each model of its seat's event stream expected.
type step struct {
	x         *domain.DecisionRecord
	move      uint64
	flags     uint64
	askDelta  uint64
	bank      time.Duration
	events    int
	seat      engine.Seat
	predicted [2]int // the events expected if the seat does not stream, if it does
}

// fields are the step's entry, to write.
func (s *step) fields() decisionFields {
	x := s.x
	return decisionFields{move: s.move, flags: s.flags, latency: us(x.Latency), think: us(x.Think), share: us(x.ArenaShare),
		attempts: x.Attempts, requestID: x.RequestID, sent: x.Sent, askDelta: s.askDelta, bank: s.bank, events: s.events,
		flooded: x.Flooded, retimed: x.Retimed}
}

// planDecisions replays the deal, checks each decision against it and plans its entry,
// rebuilding requests to compare them with the ones sent (all of them unless trust: then
// only those the referee did not build, and the last it did, as a sample); errRebuildAll
// when the sample differs. The events each request carried are compared with both models of
// a seat's event stream, and the seats are then written as streaming or not, whichever
// expects more of their requests right.
func planDecisions(f *recordFormat, d *domain.DealRecord, ds []domain.DecisionRecord, started time.Time, info *matchInfo, trust bool) (decisionPlan, error) {
	var rp replay
	st := replayStates.Get().(*engine.State)
	defer replayStates.Put(st) // the plan keeps nothing of the state
	if err := st.Reset(info.rules, d.Deal, d.Options); err != nil {
		return decisionPlan{}, errNotCompact
	}
	rp.start(f, st, d, info, started)
	sample := -1 // the request built from the state that is compared
	size := 0    // one buffer for the rebuilt requests, as large as the largest
	for k := range ds {
		if trust && ds[k].SentFromState && len(ds[k].Sent) > 0 {
			sample = k
		}
		size = max(size, len(ds[k].Sent))
	}
	buf := make([]byte, 0, size)
	plan := decisionPlan{steps: make([]step, len(ds))}
	for k := range ds {
		x := &ds[k]
		compare := !trust || !x.SentFromState || k == sample
		s, err := rp.planDecision(k, x, d.Moves[k], compare, k == sample, &buf)
		if err != nil {
			return decisionPlan{}, err
		}
		plan.steps[k] = s
	}
	if !rp.st.Terminal() || rp.st.Outcome() != d.Outcome {
		return decisionPlan{}, errNotCompact
	}
	plan.chooseStreaming(info.rules.Players)
	return plan, nil
}

// chooseStreaming writes each seat as streaming events or not, whichever model expects more
// of its rebuilt requests' events right, and flags (recEvents) the requests it does not.
func (p *decisionPlan) chooseStreaming(players int) {
	rebuilt := func(s *step) bool { return s.flags&(recSent|recObserved) != 0 && s.flags&recVerbatim == 0 }
	var misses [engine.MaxPlayers][2]int
	for k := range p.steps {
		if s := &p.steps[k]; rebuilt(s) {
			for m := range 2 {
				if s.predicted[m] != s.events {
					misses[s.seat][m]++
				}
			}
		}
	}
	for i := range players {
		if misses[i][1] < misses[i][0] {
			p.streaming |= 1 << i
		}
	}
	for k := range p.steps {
		if s := &p.steps[k]; rebuilt(s) && s.predicted[p.streaming>>s.seat&1] != s.events {
			s.flags |= recEvents
		}
	}
}

// planDecision checks decision k of the deal against the replay, plans its entry (but for
// recEvents, which needs every decision) and plays its move.
func (rp *replay) planDecision(k int, x *domain.DecisionRecord, mv engine.Move, compare, sampled bool, buf *[]byte) (step, error) {
	st := rp.st
	seat := st.ToMove()
	if st.Terminal() || x.Index != k || mv.Seat != seat || x.Seat != seat || x.Bot != rp.seating[seat] ||
		x.Decision != st.Decision() || x.Action != mv.Action {
		return step{}, errNotCompact
	}
	move := slices.Index(rp.legalActions(), mv.Action)
	if move < 0 {
		return step{}, errNotCompact
	}
	s := step{x: x, move: uint64(move), flags: recordedFlags(x), seat: seat}
	observed := x.Observed && rp.f.observes // the request it stands for is rebuilt: whatever Sent holds is not kept
	if observed && x.Deadline.IsZero() {
		return step{}, errNotCompact
	}
	wantID := ""
	switch {
	case observed:
		s.flags |= recObserved
		wantID = rp.model.nextID()
	case len(x.Sent) > 0:
		s.flags |= recSent
		wantID = rp.model.nextID()
	}
	if x.RequestID != wantID {
		s.flags |= recRequestID
	}
	rp.model.named(x.RequestID)
	switch {
	case observed:
		rp.planObserved(&s, x)
	case len(x.Sent) > 0:
		if err := rp.planRequest(&s, x, compare, sampled, buf); err != nil {
			return s, err
		}
	}
	if err := rp.apply(mv.Action); err != nil {
		return s, errNotCompact
	}
	return s, nil
}

// planRequest plans what decision x's entry keeps of its request: the clock fields that
// rebuild it, or (recVerbatim) the request as sent when it does not rebuild, or is not
// compared and cannot be read. With compare, the rebuilt request is compared with the one
// sent; a sampled one that differs is errRebuildAll.
func (rp *replay) planRequest(s *step, x *domain.DecisionRecord, compare, sampled bool, buf *[]byte) error {
	n := rp.st.NumEvents()
	defer rp.model.sent(s.seat, n)
	deadline, overage, events, parsed := scanRequest(x.Sent)
	if parsed && events <= n && compare {
		*buf = rp.request((*buf)[:0], x.RequestID, deadline, overage, events)
		if !bytes.Equal(*buf, x.Sent) {
			if sampled {
				return errRebuildAll
			}
			parsed = false
		}
	}
	if !parsed || events > n {
		s.flags |= recVerbatim
		return nil
	}
	ask := deadline.Add(-rp.perDecision)
	s.askDelta = packAskDelta(int64(ask.Sub(rp.model.ask)))
	if overage != rp.model.bank[s.seat] {
		s.flags |= recBank
		s.bank = overage
	}
	rp.model.clocked(s.seat, ask, fromUS(us(x.ArenaShare)), fromUS(us(x.Latency)), overage)
	s.events = events
	s.predicted = [2]int{rp.model.events(s.seat, false, n), rp.model.events(s.seat, true, n)}
	return nil
}

// planObserved plans what an observed decision's entry keeps of the request it stands for:
// its clock, as planRequest keeps a rebuilt one's, and the events the referee counts as sent
// to a bot in process (those since the seat's last request: it streams none).
func (rp *replay) planObserved(s *step, x *domain.DecisionRecord) {
	n := rp.st.NumEvents()
	defer rp.model.sent(s.seat, n)
	ask := x.Deadline.Add(-rp.perDecision)
	s.askDelta = packAskDelta(int64(ask.Sub(rp.model.ask)))
	if x.Overage != rp.model.bank[s.seat] {
		s.flags |= recBank
		s.bank = x.Overage
	}
	rp.model.clocked(s.seat, ask, fromUS(us(x.ArenaShare)), fromUS(us(x.Latency)), x.Overage)
	s.events = rp.model.events(s.seat, false, n)
	s.predicted = [2]int{s.events, rp.model.events(s.seat, true, n)}
}
