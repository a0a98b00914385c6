package wire

import (
	"errors"
	"maps"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"

	wf "github.com/tapparena/tapp/arena/internal/wireform"
	"github.com/tapparena/tapp/engine"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// DecodedRequest is a decision request as a Go bot needs it: what to answer, by when (and
// the bank left beyond that), and the engine's observation.
type DecodedRequest struct {
	GameID    string
	RequestID string
	Legal     []string // in the arena's notation, as the answer must quote one
	Deadline  time.Time
	// OverageLeft is the bank left for overruns past Deadline in this game (in this match,
	// with a per-match clock); 0 when the request says none.
	OverageLeft time.Duration
	// Observation is the seat's observation, or nil with Err saying why it is unreadable.
	Observation *engine.Observation
	Err         error
}

// DecodeRequest reads a DecisionRequest in wire form straight into the engine's terms, for
// the Go SDK: the same result as proto.Unmarshal followed by ObservationFromProto, several
// times faster. Requests as the arena encodes them (arena/internal/encode) take the fast path;
// anything else — fields out of order or repeated, unknown fields, invalid UTF-8 — is read
// the reference way, so the result never differs. An error means the bytes are no request;
// an unreadable observation is Err of the result.
func DecodeRequest(b []byte) (*DecodedRequest, error) {
	if r, ok := decodeRequestFast(b); ok {
		return r, nil
	}
	req := &tappv1.DecisionRequest{}
	if err := proto.Unmarshal(b, req); err != nil {
		return nil, err
	}
	return RequestFromProto(req), nil
}

// RequestFromProto is DecodeRequest for a request decoded already (e.g. in a snapshot).
func RequestFromProto(req *tappv1.DecisionRequest) *DecodedRequest {
	r := &DecodedRequest{GameID: req.GetGameId(), RequestID: req.GetRequestId(), Legal: req.GetLegal()}
	if req.GetDeadline() != nil {
		r.Deadline = req.GetDeadline().AsTime()
	}
	if req.GetOverageLeft() != nil {
		r.OverageLeft = req.GetOverageLeft().AsDuration()
	}
	r.Observation, r.Err = ObservationFromProto(req.GetObservation(), req.GetLegal())
	return r
}

// errSlowPath sends a request down the reference path.
var errSlowPath = errors.New("not in the arena's encoding")

// decoded is a request, its observation and room for the lists of a typical request, in one
// allocation: the fast path allocates it, the request's strings (one copy of the bytes that
// hold them) and whatever outgrows the room, instead of two dozen small objects (the Go SDK
// decodes every request a bot is sent; issue 31).
type decoded struct {
	req     DecodedRequest
	obs     engine.Observation
	legal   [legalRoom]string
	actions [legalRoom]engine.Action
	history [historyRoom]engine.Move
	bids    [bidRoom]engine.Move
	tricks  [trickRoom]engine.Trick
}

// The room in a decoded for its lists: a request's legal actions (a hand's cards, or the
// bids open), the moves of a deal, its bids and its tricks. Longer lists grow as appends do.
const (
	legalRoom   = 16
	historyRoom = 48
	bidRoom     = 16
	trickRoom   = 12
)

// span is where a string field's bytes are in a request.
type span struct{ at, n int }

// decodeRequestFast reads a request as the arena writes it; false when it is not one.
func decodeRequestFast(b []byte) (*DecodedRequest, bool) {
	d := &decoded{}
	r := &d.req
	var obsBytes []byte
	var gameID, requestID span
	var legalRoomSpans [legalRoom]span
	legal := legalRoomSpans[:0]
	strEnd := 0 // the strings are copied once, up to where the last one ends
	whole := b
	last := protowire.Number(0)
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 || num < last || num == last && num != wf.ReqLegal && num != wf.ReqEvents {
			return nil, false // out of order or repeated: the reference path merges fields
		}
		last = num
		b = b[n:]
		var v []byte
		switch {
		case typ == protowire.BytesType:
			v, n = protowire.ConsumeBytes(b)
		case typ == protowire.VarintType && num == wf.ReqDecision:
			_, n = protowire.ConsumeVarint(b) // the observation says it again
		default:
			return nil, false
		}
		if n < 0 {
			return nil, false
		}
		at := len(whole) - len(b) + n - len(v) // where v starts in whole
		b = b[n:]
		switch num {
		case wf.ReqGameID, wf.ReqRequestID, wf.ReqLegal:
			if !utf8.Valid(v) {
				return nil, false
			}
			sp := span{at, len(v)}
			strEnd = at + len(v)
			switch num {
			case wf.ReqGameID:
				gameID = sp
			case wf.ReqRequestID:
				requestID = sp
			default:
				legal = append(legal, sp)
			}
		case wf.ReqDecision:
		case wf.ReqDeadline:
			t, err := decodeTime(v)
			if err != nil {
				return nil, false
			}
			r.Deadline = t
		case wf.ReqOverage:
			secs, nanos, ok := wf.SecondsNanos(v)
			if !ok {
				return nil, false
			}
			// as the reference path reads it (durationpb.AsDuration, saturating)
			r.OverageLeft = (&durationpb.Duration{Seconds: secs, Nanos: nanos}).AsDuration()
		case wf.ReqObservation:
			obsBytes = v
		case wf.ReqEvents:
			// Events are for bots that keep a log; the observation holds the game so far.
			// They are only checked, so that what the reference path refuses is refused.
			if !wellFormedEvent(v) {
				return nil, false
			}
		default:
			return nil, false
		}
	}
	text := string(whole[:strEnd])
	r.GameID = text[gameID.at : gameID.at+gameID.n]
	r.RequestID = text[requestID.at : requestID.at+requestID.n]
	if len(legal) > 0 {
		r.Legal = d.legal[:0]
		for _, sp := range legal {
			r.Legal = append(r.Legal, text[sp.at:sp.at+sp.n])
		}
	}
	o := &d.obs
	if err := decodeObservation(obsBytes, d); err != nil {
		return nil, false
	}
	if len(r.Legal) <= legalRoom {
		o.Legal = d.actions[:len(r.Legal)]
	} else {
		o.Legal = make([]engine.Action, len(r.Legal))
	}
	for i, sp := range legal {
		v := whole[sp.at : sp.at+sp.n]
		if c, ok := cardOf(v); ok && c != engine.NoCard {
			o.Legal[i] = engine.CardAction(c)
		} else if o.Legal[i], ok = legalActions.of(v); !ok {
			return nil, false
		}
	}
	r.Observation = o
	return r, true
}

// wellFormedEvent reports whether b is a GameEvent in the arena's encoding: every field
// known, of its declared type, strings valid UTF-8.
func wellFormedEvent(b []byte) bool {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return false
		}
		b = b[n:]
		switch {
		case typ == protowire.VarintType && (num <= wf.EvSeat || num >= wf.EvHolder && num <= wf.EvTout || num == wf.EvPotAfter):
			_, n = protowire.ConsumeVarint(b)
		case typ == protowire.BytesType && num >= wf.EvAction && num <= wf.EvTrump || num == wf.EvDiscards:
			var v []byte
			v, n = protowire.ConsumeBytes(b)
			if n >= 0 && !utf8.Valid(v) {
				return false
			}
		case typ == protowire.BytesType && num == wf.EvHands:
			var v []byte
			v, n = protowire.ConsumeBytes(b)
			if n >= 0 {
				if !wellFormedStrings(v, wf.HandCards) {
					return false
				}
			}
		case typ == protowire.BytesType && num == wf.EvPayoff:
			var v []byte
			v, n = protowire.ConsumeBytes(b)
			if n >= 0 && !wellFormedPacked(v) {
				return false
			}
		default:
			return false
		}
		if n < 0 {
			return false
		}
		b = b[n:]
	}
	return true
}

// wellFormedStrings reports whether b holds only the repeated string field num.
func wellFormedStrings(b []byte, num protowire.Number) bool {
	for len(b) > 0 {
		got, typ, n := protowire.ConsumeTag(b)
		if n < 0 || got != num || typ != protowire.BytesType {
			return false
		}
		v, m := protowire.ConsumeBytes(b[n:])
		if m < 0 || !utf8.Valid(v) {
			return false
		}
		b = b[n+m:]
	}
	return true
}

// wellFormedPacked reports whether b is a packed list of varints.
func wellFormedPacked(b []byte) bool {
	for len(b) > 0 {
		_, n := protowire.ConsumeVarint(b)
		if n < 0 {
			return false
		}
		b = b[n:]
	}
	return true
}

// decodeTime reads a Timestamp (seconds, nanos).
func decodeTime(b []byte) (time.Time, error) {
	secs, nanos, ok := wf.SecondsNanos(b)
	if !ok {
		return time.Time{}, errSlowPath
	}
	return time.Unix(secs, int64(nanos)).UTC(), nil
}

// decodeObservation reads an Observation as the arena writes it, straight into the
// engine's observation. Anything else — out of order, unknown, malformed, or a value the
// reference path would refuse (an unknown card, a repeated one) — is errSlowPath, and the
// reference path says what is wrong.
func decodeObservation(b []byte, d *decoded) error {
	// What the arena leaves out when empty reads as cardFrom, wf.SuitFrom and wf.ContractFrom read "".
	o := &d.obs
	*o = engine.Observation{Called: engine.NoCard, Given: engine.NoCard, Trump: engine.NoSuit, Contract: engine.NoContract}
	var hasRules, hasCurrent bool
	var voids, played, taken, sizes int
	last := protowire.Number(0)
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 || num < last || num == last && !repeatedObservationField(num) {
			return errSlowPath
		}
		last = num
		b = b[n:]
		if typ == protowire.VarintType {
			v, m := protowire.ConsumeVarint(b)
			if m < 0 {
				return errSlowPath
			}
			b = b[m:]
			x := int(int32(v))
			switch num {
			case wf.ObsSeat:
				o.Seat = engine.Seat(x)
			case wf.ObsDecision:
				o.Decision = DecisionFromProto(tappv1.Decision(x))
			case wf.ObsToMove:
				o.ToMove = engine.Seat(x)
			case wf.ObsDeclarer:
				o.Declarer = engine.Seat(x)
			case wf.ObsTout:
				o.Tout = v != 0
			case wf.ObsCalledHolder:
				o.CalledHolder = engine.Seat(x)
			case wf.ObsCalledInTapp:
				o.CalledInTapp = v != 0
			case wf.ObsPot:
				o.Options.Pot = x
			case wf.ObsForcedRamsch:
				o.Options.ForcedRamsch = v != 0
			default:
				return errSlowPath
			}
			continue
		}
		if typ != protowire.BytesType {
			return errSlowPath
		}
		v, m := protowire.ConsumeBytes(b)
		if m < 0 {
			return errSlowPath
		}
		b = b[m:]
		var ok bool
		switch num {
		case wf.ObsRules:
			o.Rules, ok = rulesOf(v)
			hasRules = true
		case wf.ObsHand:
			o.Hand, ok = withCard(o.Hand, v)
		case wf.ObsBids:
			o.Bids, ok = appendMove(withRoom(o.Bids, d.bids[:0]), v)
		case wf.ObsContract:
			o.Contract, ok = contractOf(v)
		case wf.ObsTrump:
			o.Trump, ok = suitOf(v)
		case wf.ObsTapp:
			o.Tapp, ok = withCard(o.Tapp, v)
		case wf.ObsDiscarded:
			o.Discarded, ok = withCard(o.Discarded, v)
		case wf.ObsCalled:
			o.Called, ok = cardOf(v)
		case wf.ObsGiven:
			o.Given, ok = cardOf(v)
		case wf.ObsExposed:
			o.Exposed, ok = withCard(o.Exposed, v)
		case wf.ObsTricks:
			var t engine.Trick
			if t, ok = trickOf(v); ok {
				o.Tricks = append(withRoom(o.Tricks, d.tricks[:0]), t)
			}
		case wf.ObsCurrent:
			o.Current, ok = trickOf(v)
			hasCurrent = true
		case wf.ObsTricksTaken:
			taken, ok = packedInto(o.TricksTaken[:], taken, v)
		case wf.ObsHandSizes:
			sizes, ok = packedInto(o.HandSizes[:], sizes, v)
		case wf.ObsHistory:
			o.History, ok = appendMove(withRoom(o.History, d.history[:0]), v)
		case wf.ObsDealt:
			o.Dealt, ok = withCard(o.Dealt, v)
		case wf.ObsVoids:
			if ok = voids < engine.MaxPlayers; ok {
				o.Voids[voids], ok = suitsOf(v)
				voids++
			}
		case wf.ObsPlayed:
			if ok = played < engine.MaxPlayers; ok {
				o.Played[played], ok = handOf(v)
				played++
			}
		}
		if !ok {
			return errSlowPath
		}
	}
	if !hasRules || !hasCurrent {
		return errSlowPath // the arena always sends both
	}
	// movesFrom gives empty lists, not nil ones.
	o.History, o.Bids = withRoom(o.History, d.history[:0]), withRoom(o.Bids, d.bids[:0])
	return nil
}

// withRoom is list, or room (of a decoded) for a list not started yet.
func withRoom[T any](list, room []T) []T {
	if list == nil {
		return room
	}
	return list
}

func repeatedObservationField(num protowire.Number) bool {
	switch num {
	case wf.ObsHand, wf.ObsBids, wf.ObsTapp, wf.ObsDiscarded, wf.ObsExposed, wf.ObsTricks, wf.ObsTricksTaken, wf.ObsHandSizes,
		wf.ObsHistory, wf.ObsDealt, wf.ObsVoids, wf.ObsPlayed:
		return true
	}
	return false
}

// lastRules remembers the last rule set read: every request names its rule set, and a bot
// mostly plays one.
var lastRules atomic.Pointer[struct {
	text  string
	rules engine.RuleSet
}]

func rulesOf(v []byte) (engine.RuleSet, bool) {
	if last := lastRules.Load(); last != nil && last.text == string(v) {
		return last.rules, true
	}
	r, err := engine.ParseRuleSet(string(v))
	if err != nil {
		return r, false
	}
	lastRules.Store(&struct {
		text  string
		rules engine.RuleSet
	}{string(v), r})
	return r, true
}

// withCard adds one card of a list to a set; false for anything but a new card.
func withCard(set engine.CardSet, v []byte) (engine.CardSet, bool) {
	c, ok := cardOf(v)
	if !ok || c == engine.NoCard || set.Has(c) {
		return set, false
	}
	return set.With(c), true
}

// cardOf reads a card's notation (either case); false if it is none. "" is NoCard, as in
// wireform.CardFrom.
func cardOf(v []byte) (engine.Card, bool) {
	if len(v) == 0 {
		return engine.NoCard, true
	}
	if len(v) != 2 {
		return engine.NoCard, false
	}
	c := cardCodes[uint16(v[0])<<8|uint16(v[1])]
	return c - 1, c != 0
}

// cardCodes maps a card's two letters, in either case, to the card plus one (0: no card).
var cardCodes = func() *[1 << 16]engine.Card {
	var t [1 << 16]engine.Card
	for c := range engine.Card(engine.NumCards) {
		name := c.String()
		for _, s := range []byte{name[0], name[0] | 0x20} {
			for _, r := range []byte{name[1], name[1] | 0x20} {
				t[uint16(s)<<8|uint16(r)] = c + 1
			}
		}
	}
	return &t
}()

func contractOf(v []byte) (engine.Contract, bool) {
	if c, ok := contractNames[string(v)]; ok { // the lookup makes no string
		return c, true
	}
	c, err := wf.ContractFrom(string(v)) // another letter case
	return c, err == nil
}

// contractNames are the contracts' ids as the arena writes them (wf.ContractText).
var contractNames = func() map[string]engine.Contract {
	m := map[string]engine.Contract{}
	for c := range engine.Contract(engine.NumContracts) {
		text := wf.ContractText(c)
		if back, err := wf.ContractFrom(text); err == nil && back == c {
			m[text] = c
		}
	}
	return m
}()

func suitOf(v []byte) (engine.Suit, bool) {
	s, err := wf.SuitFrom(string(v))
	return s, err == nil && (len(v) == 1 || len(v) == 0)
}

func suitsOf(v []byte) (engine.Suits, bool) {
	var x engine.Suits
	for _, c := range v {
		s, err := engine.ParseSuit(string(rune(c)))
		if err != nil || c >= utf8.RuneSelf {
			return 0, false
		}
		x |= 1 << s
	}
	return x, true
}

// packedInto reads a packed list of int32 into list from index at; false when malformed or
// longer than list.
func packedInto(list []int, at int, b []byte) (int, bool) {
	for len(b) > 0 {
		v, n := protowire.ConsumeVarint(b)
		if n < 0 || at >= len(list) {
			return at, false
		}
		list[at] = int(int32(v))
		at++
		b = b[n:]
	}
	return at, true
}

// handOf reads a Hand message into a card set.
func handOf(b []byte) (engine.CardSet, bool) {
	var set engine.CardSet
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 || num != wf.HandCards || typ != protowire.BytesType {
			return 0, false
		}
		v, m := protowire.ConsumeBytes(b[n:])
		if m < 0 {
			return 0, false
		}
		var ok bool
		if set, ok = withCard(set, v); !ok {
			return 0, false
		}
		b = b[n+m:]
	}
	return set, true
}

// appendMove reads a Move message (its action a played card, or parsed like movesFrom).
func appendMove(list []engine.Move, b []byte) ([]engine.Move, bool) {
	var mv engine.Move
	var action []byte
	last := protowire.Number(0)
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 || num <= last {
			return list, false
		}
		last = num
		b = b[n:]
		switch {
		case num == wf.MoveSeat && typ == protowire.VarintType:
			v, m := protowire.ConsumeVarint(b)
			if m < 0 {
				return list, false
			}
			mv.Seat, b = engine.Seat(int32(v)), b[m:]
		case num == wf.MoveAction && typ == protowire.BytesType:
			v, m := protowire.ConsumeBytes(b)
			if m < 0 {
				return list, false
			}
			action, b = v, b[m:]
		default:
			return list, false
		}
	}
	if c, ok := cardOf(action); ok && c != engine.NoCard {
		mv.Action = engine.CardAction(c)
	} else {
		a, ok := moveActions.of(action)
		if !ok {
			return list, false
		}
		mv.Action = a
	}
	return append(list, mv), true
}

// actionTexts is a cache of the actions that are not a card, read by wf.ActionFrom (a move's
// action) and by engine.ParseAction (a legal action): a bot is sent the same few dozen (bids,
// trumps, calls) over and over, and either function takes a string, which reading it from a
// request's bytes allocated.
var (
	moveActions  = actionCache{parse: wf.ActionFrom}
	legalActions = actionCache{parse: engine.ParseAction}
)

// actionCache remembers what parse read from each text, copy on write, for up to
// maxActionTexts texts.
type actionCache struct {
	parse func(string) (engine.Action, error)
	m     atomic.Pointer[map[string]engine.Action]
	mu    sync.Mutex
}

// maxActionTexts bounds an actionCache: the notation's actions are fewer, but each is also
// read in other letter cases.
const maxActionTexts = 512

// of reads an action's notation as parse does; false for anything parse refuses or that is
// not UTF-8.
func (c *actionCache) of(v []byte) (engine.Action, bool) {
	if m := c.m.Load(); m != nil {
		if a, ok := (*m)[string(v)]; ok { // the lookup makes no string
			return a, true
		}
	}
	text := string(v)
	a, err := c.parse(text)
	if err != nil || !utf8.ValidString(text) {
		return a, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	old := c.m.Load()
	size := 0
	if old != nil {
		size = len(*old)
	}
	if size >= maxActionTexts {
		return a, true
	}
	next := make(map[string]engine.Action, size+1)
	if old != nil {
		maps.Copy(next, *old)
	}
	next[text] = a
	c.m.Store(&next)
	return a, true
}

// trickOf reads a Trick message as trickFrom does for a present one.
func trickOf(b []byte) (engine.Trick, bool) {
	t := engine.Trick{}
	for i := range t.Cards {
		t.Cards[i] = engine.NoCard
	}
	cards := 0
	last := protowire.Number(0)
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 || num < last || num == last && num != wf.TrickCards {
			return t, false
		}
		last = num
		b = b[n:]
		if num == wf.TrickCards {
			v, m := protowire.ConsumeBytes(b)
			if typ != protowire.BytesType || m < 0 || cards == engine.MaxPlayers {
				return t, false
			}
			b = b[m:]
			c, ok := cardOf(v)
			if !ok || c == engine.NoCard {
				return t, false
			}
			t.Cards[cards] = c
			cards++
			continue
		}
		v, m := protowire.ConsumeVarint(b)
		if typ != protowire.VarintType || m < 0 {
			return t, false
		}
		b = b[m:]
		switch num {
		case wf.TrickLeader:
			t.Leader = engine.Seat(int32(v))
		case wf.TrickWinner:
			t.Winner = engine.Seat(int32(v))
		case wf.TrickPoints:
			t.Points = int(int32(v))
		default:
			return t, false
		}
	}
	return t, true
}
