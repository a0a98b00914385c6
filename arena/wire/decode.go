package wire

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/tapparena/tapp/engine"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// DecodedRequest is a decision request as a Go bot needs it: what to answer, by when, and
// the engine's observation.
type DecodedRequest struct {
	GameID    string
	RequestID string
	Legal     []string // in the arena's notation, as the answer must quote one
	Deadline  time.Time
	// Observation is the seat's observation, or nil with Err saying why it is unreadable.
	Observation *engine.Observation
	Err         error
}

// DecodeRequest reads a DecisionRequest in wire form straight into the engine's terms, for
// the Go SDK: the same result as proto.Unmarshal followed by ObservationFromProto, several
// times faster. Requests as the arena encodes them (AppendRequest) take the fast path;
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
	r.Observation, r.Err = ObservationFromProto(req.GetObservation(), req.GetLegal())
	return r
}

// errSlowPath sends a request down the reference path.
var errSlowPath = errors.New("not in the arena's encoding")

// decodeRequestFast reads a request as AppendRequest writes it; false when it is not one.
func decodeRequestFast(b []byte) (*DecodedRequest, bool) {
	r := &DecodedRequest{}
	var obsBytes []byte
	last := protowire.Number(0)
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 || num < last || num == last && num != reqLegal && num != reqEvents {
			return nil, false // out of order or repeated: the reference path merges fields
		}
		last = num
		b = b[n:]
		var v []byte
		switch {
		case typ == protowire.BytesType:
			v, n = protowire.ConsumeBytes(b)
		case typ == protowire.VarintType && num == reqDecision:
			_, n = protowire.ConsumeVarint(b) // the observation says it again
		default:
			return nil, false
		}
		if n < 0 {
			return nil, false
		}
		b = b[n:]
		switch num {
		case reqGameID:
			r.GameID = string(v)
		case reqRequestID:
			r.RequestID = string(v)
		case reqDecision:
		case reqLegal:
			r.Legal = append(r.Legal, string(v))
		case reqDeadline:
			t, err := decodeTime(v)
			if err != nil {
				return nil, false
			}
			r.Deadline = t
		case reqOverage:
			if _, err := decodeTime(v); err != nil {
				return nil, false
			}
		case reqObservation:
			obsBytes = v
		case reqEvents:
			// Events are for bots that keep a log; the observation holds the game so far.
			// They are only checked, so that what the reference path refuses is refused.
			if !wellFormedEvent(v) {
				return nil, false
			}
		default:
			return nil, false
		}
	}
	if !utf8.ValidString(r.GameID) || !utf8.ValidString(r.RequestID) {
		return nil, false
	}
	for _, l := range r.Legal {
		if !utf8.ValidString(l) {
			return nil, false
		}
	}
	o, err := decodeObservation(obsBytes)
	if errors.Is(err, errSlowPath) {
		return nil, false
	}
	if err == nil {
		o.Legal, err = ActionsFromProto(r.Legal)
		if err != nil {
			err = fmt.Errorf("observation legal actions: %w", err)
		}
	}
	if err != nil {
		return &DecodedRequest{GameID: r.GameID, RequestID: r.RequestID, Legal: r.Legal, Deadline: r.Deadline, Err: err}, true
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
		case typ == protowire.VarintType && (num <= evSeat || num >= evHolder && num <= evTout || num == evPotAfter):
			_, n = protowire.ConsumeVarint(b)
		case typ == protowire.BytesType && num >= evAction && num <= evTrump || num == evDiscards:
			var v []byte
			v, n = protowire.ConsumeBytes(b)
			if n >= 0 && !utf8.Valid(v) {
				return false
			}
		case typ == protowire.BytesType && num == evHands:
			var v []byte
			v, n = protowire.ConsumeBytes(b)
			if n >= 0 {
				if _, err := decodeStrings(v, handCards); err != nil {
					return false
				}
			}
		case typ == protowire.BytesType && num == evPayoff:
			var v []byte
			v, n = protowire.ConsumeBytes(b)
			if n >= 0 && appendPackedInts(nil, v) == nil {
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

// decodeTime reads a Timestamp (seconds, nanos).
func decodeTime(b []byte) (time.Time, error) {
	var secs, nanos int64
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 || typ != protowire.VarintType {
			return time.Time{}, errSlowPath
		}
		v, m := protowire.ConsumeVarint(b[n:])
		if m < 0 {
			return time.Time{}, errSlowPath
		}
		b = b[n+m:]
		switch num {
		case timeSeconds:
			secs = int64(v)
		case timeNanos:
			nanos = int64(int32(v))
		default:
			return time.Time{}, errSlowPath
		}
	}
	return time.Unix(secs, nanos).UTC(), nil
}

// decodeObservation reads an Observation as appendObservation writes it (errSlowPath for
// anything else); other errors are what ObservationFromProto would say.
func decodeObservation(b []byte) (*engine.Observation, error) {
	o := &engine.Observation{Declarer: 0, ToMove: 0}
	var (
		rulesText                              string
		hand, dealt, tapp, discarded, exposed  []string
		contract, trump, called, given         string
		handSizes, tricksTaken                 []int64
		voids                                  []string
		played                                 [][]byte
		current                                []byte
		hasCurrent                             bool
		tricks                                 [][]byte
		bids, history                          [][]byte
		seat, decision, toMove, declarer, hold int64
		pot                                    int64
	)
	last := protowire.Number(0)
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 || num < last || num == last && !repeatedObservationField(num) {
			return nil, errSlowPath
		}
		last = num
		b = b[n:]
		if typ == protowire.VarintType {
			v, m := protowire.ConsumeVarint(b)
			if m < 0 {
				return nil, errSlowPath
			}
			b = b[m:]
			switch num {
			case obsSeat:
				seat = int64(int32(v))
			case obsDecision:
				decision = int64(int32(v))
			case obsToMove:
				toMove = int64(int32(v))
			case obsDeclarer:
				declarer = int64(int32(v))
			case obsTout:
				o.Tout = v != 0
			case obsCalledHolder:
				hold = int64(int32(v))
			case obsCalledInTapp:
				o.CalledInTapp = v != 0
			case obsPot:
				pot = int64(int32(v))
			case obsForcedRamsch:
				o.Options.ForcedRamsch = v != 0
			default:
				return nil, errSlowPath
			}
			continue
		}
		if typ != protowire.BytesType {
			return nil, errSlowPath
		}
		v, m := protowire.ConsumeBytes(b)
		if m < 0 {
			return nil, errSlowPath
		}
		b = b[m:]
		if num != obsTricksTaken && num != obsHandSizes && !validText(num, v) {
			return nil, errSlowPath
		}
		switch num {
		case obsRules:
			rulesText = string(v)
		case obsHand:
			hand = append(hand, string(v))
		case obsBids:
			bids = append(bids, v)
		case obsContract:
			contract = string(v)
		case obsTrump:
			trump = string(v)
		case obsTapp:
			tapp = append(tapp, string(v))
		case obsDiscarded:
			discarded = append(discarded, string(v))
		case obsCalled:
			called = string(v)
		case obsGiven:
			given = string(v)
		case obsExposed:
			exposed = append(exposed, string(v))
		case obsTricks:
			tricks = append(tricks, v)
		case obsCurrent:
			current, hasCurrent = v, true
		case obsTricksTaken:
			if tricksTaken = appendPackedInts(tricksTaken, v); tricksTaken == nil {
				return nil, errSlowPath
			}
		case obsHandSizes:
			if handSizes = appendPackedInts(handSizes, v); handSizes == nil {
				return nil, errSlowPath
			}
		case obsHistory:
			history = append(history, v)
		case obsDealt:
			dealt = append(dealt, string(v))
		case obsVoids:
			voids = append(voids, string(v))
		case obsPlayed:
			played = append(played, v)
		default:
			return nil, errSlowPath
		}
	}

	// Every nested message is read before anything is interpreted, so that bytes the
	// reference path refuses are refused before any other error is found.
	if !hasCurrent {
		return nil, errSlowPath // the arena always sends it
	}
	historyMoves, err := parseMoves(history)
	if err != nil {
		return nil, err
	}
	bidMoves, err := parseMoves(bids)
	if err != nil {
		return nil, err
	}
	currentTrick, err := parseTrick(current)
	if err != nil {
		return nil, err
	}
	doneTricks := make([]rawTrick, len(tricks))
	for i, tb := range tricks {
		if doneTricks[i], err = parseTrick(tb); err != nil {
			return nil, err
		}
	}
	playedCards := make([][]string, len(played))
	for i, hb := range played {
		if playedCards[i], err = decodeStrings(hb, handCards); err != nil {
			return nil, err
		}
	}

	// From here on, as ObservationFromProto.
	rules, err := parseRulesCached(rulesText)
	if err != nil {
		return nil, fmt.Errorf("observation rules: %w", err)
	}
	o.Rules, o.Seat, o.Decision = rules, engine.Seat(seat), DecisionFromProto(tappv1.Decision(decision))
	o.ToMove, o.Declarer, o.CalledHolder = engine.Seat(toMove), engine.Seat(declarer), engine.Seat(hold)
	o.Options.Pot = int(pot)
	errs := func(what string, err error) error { return fmt.Errorf("observation %s: %w", what, err) }
	if o.Hand, err = CardsFromProto(hand); err != nil {
		return nil, errs("hand", err)
	}
	if o.Dealt, err = CardsFromProto(dealt); err != nil {
		return nil, errs("dealt", err)
	}
	if o.Tapp, err = CardsFromProto(tapp); err != nil {
		return nil, errs("tapp", err)
	}
	if o.Discarded, err = CardsFromProto(discarded); err != nil {
		return nil, errs("discarded", err)
	}
	if o.Exposed, err = CardsFromProto(exposed); err != nil {
		return nil, errs("exposed", err)
	}
	if o.Contract, err = contractFrom(contract); err != nil {
		return nil, errs("contract", err)
	}
	if o.Trump, err = suitFrom(trump); err != nil {
		return nil, errs("trump", err)
	}
	if o.Called, err = cardFrom(called); err != nil {
		return nil, errs("called", err)
	}
	if o.Given, err = cardFrom(given); err != nil {
		return nil, errs("given", err)
	}
	if o.History, err = movesOf(historyMoves); err != nil {
		return nil, errs("history", err)
	}
	if o.Bids, err = movesOf(bidMoves); err != nil {
		return nil, errs("bids", err)
	}
	if o.Current, err = currentTrick.trick(); err != nil {
		return nil, errs("current trick", err)
	}
	for _, rt := range doneTricks {
		t, err := rt.trick()
		if err != nil {
			return nil, errs("trick", err)
		}
		o.Tricks = append(o.Tricks, t)
	}
	if len(handSizes) > engine.MaxPlayers || len(played) > engine.MaxPlayers ||
		len(voids) > engine.MaxPlayers || len(tricksTaken) > engine.MaxPlayers {
		return nil, fmt.Errorf("observation: more than %d seats", engine.MaxPlayers)
	}
	for i, v := range handSizes {
		o.HandSizes[i] = int(int32(v))
	}
	for i, v := range tricksTaken {
		o.TricksTaken[i] = int(int32(v))
	}
	for i, v := range voids {
		if o.Voids[i], err = suitsFrom(v); err != nil {
			return nil, errs("voids", err)
		}
	}
	for i, cards := range playedCards {
		if o.Played[i], err = CardsFromProto(cards); err != nil {
			return nil, errs("played", err)
		}
	}
	return o, nil
}

func repeatedObservationField(num protowire.Number) bool {
	switch num {
	case obsHand, obsBids, obsTapp, obsDiscarded, obsExposed, obsTricks, obsTricksTaken, obsHandSizes,
		obsHistory, obsDealt, obsVoids, obsPlayed:
		return true
	}
	return false
}

// validText reports whether a string field's bytes are valid UTF-8, as proto3 requires
// (message fields are checked as they are read).
func validText(num protowire.Number, v []byte) bool {
	switch num {
	case obsBids, obsTricks, obsCurrent, obsHistory, obsPlayed:
		return true
	}
	return utf8.Valid(v)
}

// appendPackedInts reads a packed list of int32; nil when malformed.
func appendPackedInts(out []int64, b []byte) []int64 {
	if out == nil {
		out = make([]int64, 0, engine.MaxPlayers)
	}
	for len(b) > 0 {
		v, n := protowire.ConsumeVarint(b)
		if n < 0 {
			return nil
		}
		out = append(out, int64(int32(v)))
		b = b[n:]
	}
	return out
}

// decodeStrings reads the repeated string field num of a message; errSlowPath for
// anything else in it.
func decodeStrings(b []byte, num protowire.Number) ([]string, error) {
	var out []string
	for len(b) > 0 {
		got, typ, n := protowire.ConsumeTag(b)
		if n < 0 || got != num || typ != protowire.BytesType {
			return nil, errSlowPath
		}
		v, m := protowire.ConsumeBytes(b[n:])
		if m < 0 || !utf8.Valid(v) {
			return nil, errSlowPath
		}
		out = append(out, string(v))
		b = b[n+m:]
	}
	return out, nil
}

// rawMove is a Move as read from the wire, not yet interpreted.
type rawMove struct {
	seat   int64
	action string
}

func parseMoves(list [][]byte) ([]rawMove, error) {
	out := make([]rawMove, len(list))
	for i, b := range list {
		last := protowire.Number(0)
		for len(b) > 0 {
			num, typ, n := protowire.ConsumeTag(b)
			if n < 0 || num <= last {
				return nil, errSlowPath
			}
			last = num
			b = b[n:]
			switch {
			case num == moveSeat && typ == protowire.VarintType:
				v, m := protowire.ConsumeVarint(b)
				if m < 0 {
					return nil, errSlowPath
				}
				out[i].seat, b = int64(int32(v)), b[m:]
			case num == moveAction && typ == protowire.BytesType:
				v, m := protowire.ConsumeBytes(b)
				if m < 0 || !utf8.Valid(v) {
					return nil, errSlowPath
				}
				out[i].action, b = string(v), b[m:]
			default:
				return nil, errSlowPath
			}
		}
	}
	return out, nil
}

// movesOf is movesFrom for moves read by parseMoves.
func movesOf(raw []rawMove) ([]engine.Move, error) {
	out := make([]engine.Move, len(raw))
	for i, r := range raw {
		a, err := actionFrom(r.action)
		if err != nil {
			return nil, err
		}
		out[i] = engine.Move{Seat: engine.Seat(r.seat), Action: a}
	}
	return out, nil
}

// rawTrick is a Trick as read from the wire, not yet interpreted.
type rawTrick struct {
	leader, winner, points int64
	cards                  []string
}

func parseTrick(b []byte) (rawTrick, error) {
	var t rawTrick
	last := protowire.Number(0)
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 || num < last || num == last && num != trickCards {
			return t, errSlowPath
		}
		last = num
		b = b[n:]
		if num == trickCards {
			if typ != protowire.BytesType {
				return t, errSlowPath
			}
			v, m := protowire.ConsumeBytes(b)
			if m < 0 || !utf8.Valid(v) {
				return t, errSlowPath
			}
			t.cards, b = append(t.cards, string(v)), b[m:]
			continue
		}
		if typ != protowire.VarintType {
			return t, errSlowPath
		}
		v, m := protowire.ConsumeVarint(b)
		if m < 0 {
			return t, errSlowPath
		}
		b = b[m:]
		switch num {
		case trickLeader:
			t.leader = int64(int32(v))
		case trickWinner:
			t.winner = int64(int32(v))
		case trickPoints:
			t.points = int64(int32(v))
		default:
			return t, errSlowPath
		}
	}
	return t, nil
}

// trick is trickFrom for a trick read by parseTrick.
func (r rawTrick) trick() (engine.Trick, error) {
	return trickFrom(&tappv1.Trick{Leader: int32(r.leader), Winner: int32(r.winner), Points: int32(r.points), Cards: r.cards})
}

// parseRulesCached is engine.ParseRuleSet, remembering the rule sets it has read: every
// request names its rule set, and a bot sees few of them.
func parseRulesCached(text string) (engine.RuleSet, error) {
	if r, ok := rulesCache.Load(text); ok {
		return r.(engine.RuleSet), nil
	}
	r, err := engine.ParseRuleSet(text)
	if err == nil && rulesCached.Add(1) <= maxRulesCached {
		rulesCache.Store(text, r)
	}
	return r, err
}

const maxRulesCached = 64 // a bound, should an arena send a new rule set every time

var (
	rulesCache  sync.Map
	rulesCached atomic.Int32
)
