package server

import (
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/tapparena/tapp/arena/internal/encode"
	"github.com/tapparena/tapp/arena/internal/protoconv"
	"github.com/tapparena/tapp/arena/internal/referee"
	wf "github.com/tapparena/tapp/arena/internal/wireform"
	"github.com/tapparena/tapp/arena/wire/grpccodec"
	"github.com/tapparena/tapp/engine"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// outboxSize bounds the messages queued for one bot. A bot that stops reading fills it, and
// the referee then treats its requests as late answers instead of blocking the arena.
const outboxSize = 4096

// answerBuffer bounds the answers queued for one game that are not for its open request; a
// bot flooding a game with them gets the extra ones refused (PROTO-FLOOD). Answers for the open
// request have answerReserve more places, and when even those are taken the session stops
// reading from the bot until the referee has taken one: a flood is throttled, and a correct
// answer is never refused for it.
const (
	answerBuffer  = 4 // an answer, and a correction or two after a refusal
	answerReserve = 4
)

// refusalSummaryEvery is how often a session logs the answers it refused, counted by rule:
// one line per session and interval, however many a hostile bot sends.
const refusalSummaryEvery = 10 * time.Second

// Session is one bot connection that may survive a dropped stream: it outlives the stream for
// a grace period, during which the bot may resume it with its resume token. It is the gRPC
// adapter of the referee (referee.Conn): it encodes what the referee says into the protocol's
// messages, each decision request once, straight from the observation.
type Session struct {
	ID          string
	ResumeToken string
	Bot         string
	Version     string
	Capacity    int
	Since       time.Time
	events      bool

	log *zap.Logger
	// requestSize is the size of the last request encoded, to allocate the next one at once.
	requestSize atomic.Int64

	mu        sync.Mutex
	seq       uint64
	outbox    chan any // *tappv1.ConnectResponse or *grpccodec.Encoded
	connected bool
	stop      chan struct{} // closed when the current stream's writer must stop
	games     map[string]*route
	active    int // games this session sits in
	// refused counts the refusals sent since the last summary line, by rule: every refusal
	// of the session, those the referee also records with a decision and those that belong to
	// no decision of the bot (an unknown game, another seat's request, a flood).
	refused     map[string]int
	refusedFrom time.Time
	gone        chan struct{}
	goneOnce    sync.Once
	graceTmr    *time.Timer
}

type route struct {
	answers chan referee.Answer
	start   *referee.Start
	pending func(use func(*referee.Request)) // the open request, for a resume snapshot
	open    string                           // the id of the game's open request for this session, if any
	closed  chan struct{}                    // closed when the referee leaves the game
	// flooded counts the answers refused for a full buffer (PROTO-FLOOD), by the request id
	// they named, for the referee to record (Flooded); s.mu guards it.
	flooded map[string]int
	last    *handOff // the hand-off of the game's last request, for the next (s.mu guards it)
}

// maxFloodIDs bounds the request ids a game's flood counts keep apart: a bot naming ever new
// ids has the rest counted under "" (they name no decision of its anyway).
const maxFloodIDs = 64

// handOff is a decision request in the outbox: the writer tells the referee when it hands the
// request to the stream, and the bot's clock starts then. The writer hands &msg to gRPC, which
// keeps its bytes (not msg) until its transport has written them, and says when it is done
// with msg (sent): the game's next request may then reuse the hand-off (route.handOff).
type handOff struct {
	msg    grpccodec.Encoded
	handed chan time.Time
	sent   atomic.Bool
}

func newSession(id, token, bot string, hello *tappv1.Hello, log *zap.Logger) *Session {
	capacity := int(hello.GetCapacity())
	if capacity < 1 {
		capacity = 1
	}
	return &Session{
		ID: id, ResumeToken: token, Bot: bot, Version: hello.GetVersion(), Capacity: capacity,
		Since: time.Now(), events: hello.GetStreamEvents(), log: log,
		games: make(map[string]*route), gone: make(chan struct{}), refused: make(map[string]int),
	}
}

// Send queues msg without blocking. While the bot is disconnected, messages are dropped (a
// resume brings a snapshot instead); a full outbox is an error.
func (s *Session) Send(msg *tappv1.ConnectResponse) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.connected {
		return nil
	}
	s.seq++
	msg.Seq = s.seq
	if r := msg.GetAnswerRejected(); r != nil {
		s.countRefusal(r.GetRuleId())
	}
	return s.queue(msg)
}

// Ask implements referee.Conn: it encodes the request once, straight from the observation,
// and queues it with the moment the writer hands it to the stream, when the bot's clock
// starts. While the bot is disconnected the request is not sent (a resume brings it in the
// snapshot) and its clock runs from now.
func (s *Session) Ask(req *referee.Request) ([]byte, <-chan time.Time, error) {
	// The request is encoded after room for its head, which is written in front of it once
	// its seq is known: the message goes to gRPC as one buffer (each buffer of a message cost
	// gRPC's codec interface two allocations), and the referee keeps the request's bytes.
	buf := encode.AppendRequest(make([]byte, maxResponseHead, maxResponseHead+s.requestSize.Load()+256), req)
	body := buf[maxResponseHead:]
	s.requestSize.Store(int64(len(body)))
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.games[req.GameID]
	if r != nil {
		r.open = req.RequestID
	}
	if !s.connected {
		handed := make(chan time.Time, 1)
		handed <- time.Now()
		return body, handed, nil
	}
	s.seq++
	h := r.handOff()
	h.msg.Body = frameInFront(buf, s.seq, wf.ResponseDecisionRequest)
	return body, h.handed, s.queue(h)
}

// handOff is the hand-off for the game's next request: the one of its last request when
// that is done with — sent by the writer, and its moment taken by the referee, which asks the
// next request only once it is done with the last one — else a new one (r may be nil: a game
// not opened). A hand-off and its channel were two of the arena's allocations a decision.
func (r *route) handOff() *handOff {
	if r == nil {
		return &handOff{handed: make(chan time.Time, 1)}
	}
	if h := r.last; h != nil && h.sent.Load() && len(h.handed) == 0 {
		h.sent.Store(false)
		return h
	}
	r.last = &handOff{handed: make(chan time.Time, 1)}
	return r.last
}

// Refuse implements referee.Conn.
func (s *Session) Refuse(r referee.Refusal) {
	_ = s.Send(&tappv1.ConnectResponse{Message: &tappv1.ConnectResponse_AnswerRejected{AnswerRejected: &tappv1.AnswerRejected{
		GameId: r.GameID, RequestId: r.RequestID, RuleId: r.Rule, Reason: r.Reason,
	}}})
}

// Fallback implements referee.Conn.
func (s *Session) Fallback(f referee.FallbackPlayed) {
	_ = s.Send(&tappv1.ConnectResponse{Message: &tappv1.ConnectResponse_Fallback{Fallback: &tappv1.Fallback{
		GameId: f.GameID, RequestId: f.RequestID, Action: f.Action.String(),
		Strikes: int32(f.Strikes), Forfeited: f.Forfeited,
	}}})
}

// Events implements referee.Conn.
func (s *Session) Events(gameID string, evs []engine.Event, first int) {
	_ = s.Send(&tappv1.ConnectResponse{Message: &tappv1.ConnectResponse_Event{Event: &tappv1.EventNotice{
		GameId: gameID, Events: protoconv.EventsToProto(evs, first),
	}}})
}

// End implements referee.Conn: the reveal and the settlement are encoded once per game.
func (s *Session) End(end *referee.End, evs []engine.Event, first int) {
	if end.Aborted {
		_ = s.Send(&tappv1.ConnectResponse{Message: &tappv1.ConnectResponse_GameEnded{GameEnded: &tappv1.GameEnded{GameId: end.GameID, Aborted: true}}})
		return
	}
	enc := end.Encoded(encodeEnd)
	if enc.Err != nil {
		s.log.Error("encoding the end of a game", zap.String("game", end.GameID), zap.Error(enc.Err))
		return
	}
	room := make([]byte, maxResponseHead, maxResponseHead+len(end.GameID)+len(enc.Reveal)+len(enc.Settlement)+64*len(evs)+16)
	_ = s.sendEncoded(wf.ResponseGameEnded, encode.AppendGameEnded(room, end.GameID, enc.Reveal, enc.Settlement, evs, first))
}

// encodeEnd encodes a game's reveal and settlement, the same for every seat, by hand
// (encode.AppendReveal, encode.AppendSettlement: the bytes of proto.Marshal of protoconv's
// messages, which protobuf's generic path took several times longer to write).
func encodeEnd(end *referee.End) referee.EncodedEnd {
	reveal := encode.AppendReveal(make([]byte, 0, 320), end.Rules, end.Deal, end.State)
	settlement := encode.AppendSettlement(make([]byte, 0, 48), end.Outcome, end.Rules.Players)
	return referee.EncodedEnd{Reveal: reveal, Settlement: settlement}
}

// countRefusal counts one refusal for the session's summary and logs the summary when its
// interval is over; s.mu is held.
func (s *Session) countRefusal(rule string) {
	now := time.Now()
	if len(s.refused) == 0 {
		s.refusedFrom = now
	}
	s.refused[rule]++
	if now.Sub(s.refusedFrom) >= refusalSummaryEvery {
		s.logRefusals(now)
	}
}

// logRefusals writes the summary of the refusals counted so far and starts a new interval;
// s.mu is held.
func (s *Session) logRefusals(now time.Time) {
	if len(s.refused) == 0 {
		return
	}
	total := 0
	fields := make([]zap.Field, 0, len(s.refused)+2)
	for rule, n := range s.refused {
		total += n
		fields = append(fields, zap.Int(rule, n))
	}
	fields = append(fields, zap.Int("total", total), zap.Duration("interval", now.Sub(s.refusedFrom)))
	s.log.Warn("answers refused", fields...)
	clear(s.refused)
}

// sendEncoded is Send for a message encoded already in buf, after maxResponseHead bytes of
// room for its head (frameInFront).
func (s *Session) sendEncoded(kind protowire.Number, buf []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.connected {
		return nil
	}
	s.seq++
	return s.queue(&grpccodec.Encoded{Body: frameInFront(buf, s.seq, kind)})
}

// queue puts a message (with its seq) in the outbox; s.mu is held.
func (s *Session) queue(msg any) error {
	select {
	case s.outbox <- msg:
		return nil
	default:
		return errOutboxFull
	}
}

// Open implements referee.Conn: it routes the game's answers and sends GameStarted.
func (s *Session) Open(start *referee.Start, pending func(use func(*referee.Request))) (<-chan referee.Answer, func()) {
	gameID := start.GameID
	r := &route{answers: make(chan referee.Answer, answerBuffer+answerReserve), start: start, pending: pending, closed: make(chan struct{})}
	s.mu.Lock()
	s.games[gameID] = r
	s.mu.Unlock()
	_ = s.sendEncoded(wf.ResponseGameStarted, appendGameStarted(make([]byte, maxResponseHead, maxResponseHead+192), start))
	return r.answers, func() {
		s.mu.Lock()
		if s.games[gameID] == r {
			delete(s.games, gameID)
		}
		s.mu.Unlock()
		close(r.closed)
	}
}

// Gone implements referee.Conn.
func (s *Session) Gone() <-chan struct{} { return s.gone }

// StreamEvents implements referee.Conn.
func (s *Session) StreamEvents() bool { return s.events }

// isGone reports whether the session has ended for good.
func (s *Session) isGone() bool {
	select {
	case <-s.gone:
		return true
	default:
		return false
	}
}

func (s *Session) isConnected() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.connected
}

// acquire reserves one game slot; false when the session is full, disconnected or gone.
func (s *Session) acquire() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.connected || s.active >= s.Capacity || s.isGone() {
		return false
	}
	s.active++
	return true
}

func (s *Session) release() {
	s.mu.Lock()
	s.active--
	s.mu.Unlock()
}

// attach binds a new stream to the session and returns the outbox to write from and the
// channel that tells the writer to stop. A stale outbox from an earlier stream is dropped:
// the resume snapshot replaces it.
func (s *Session) attach() (chan any, chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.graceTmr != nil {
		s.graceTmr.Stop()
		s.graceTmr = nil
	}
	s.outbox = make(chan any, outboxSize)
	s.stop = make(chan struct{})
	s.connected = true
	return s.outbox, s.stop
}

// detach marks the stream lost and starts the grace period, after which the session is gone
// and its seats are played by fallbacks.
func (s *Session) detach(stop chan struct{}, grace time.Duration, onGone func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stop != stop { // a newer stream has already taken over
		return
	}
	close(s.stop)
	s.connected = false
	s.logRefusals(time.Now())
	s.graceTmr = time.AfterFunc(grace, func() {
		s.mu.Lock()
		stillDown := !s.connected
		s.mu.Unlock()
		if stillDown {
			s.end()
			onGone()
		}
	})
}

// end closes the session for good.
func (s *Session) end() { s.goneOnce.Do(func() { close(s.gone) }) }

// deliver routes an answer to its game; ok is false when the session is not in that game, and
// full when the answer was refused because too many answers wait for the game. An answer for
// the game's open request is never refused: while its places are taken, deliver waits for the
// referee (or for the game to end, or for stop), and the bot's stream waits with it.
func (s *Session) deliver(a *answerView, at time.Time, stop <-chan struct{}) (ok, full bool) {
	s.mu.Lock()
	r := s.games[string(a.game)] // looked up by the bytes: no string is made
	open := r != nil && r.open == string(a.request)
	id := ""
	if open {
		id = r.open // the open request's id, the referee's own string
	}
	s.mu.Unlock()
	if r == nil {
		return false, false
	}
	if !open {
		id = string(a.request)
	}
	ans := referee.Answer{RequestID: id, Action: string(a.action), At: at, Think: a.think()}
	if !open {
		if len(r.answers) < answerBuffer {
			select {
			case r.answers <- ans:
				return true, false
			default:
			}
		}
		s.countFlood(r, id)
		return true, true
	}
	select {
	case r.answers <- ans:
	case <-r.closed:
	case <-stop:
	}
	return true, false
}

// countFlood counts an answer refused for a full buffer against the request it named.
func (s *Session) countFlood(r *route, id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r.flooded == nil {
		r.flooded = make(map[string]int)
	}
	if _, ok := r.flooded[id]; !ok && len(r.flooded) >= maxFloodIDs {
		id = ""
	}
	r.flooded[id]++
}

// Flooded implements referee.FloodCounter: the answers this session refused for gameID's
// full buffer since it was last asked, by the request id they named.
func (s *Session) Flooded(gameID string) map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.games[gameID]
	if r == nil {
		return nil
	}
	out := r.flooded
	r.flooded = nil
	return out
}

// snapshot lists every running game of the session as the bot sees it now.
func (s *Session) snapshot() *tappv1.Snapshot {
	s.mu.Lock()
	routes := make([]*route, 0, len(s.games))
	for _, r := range s.games {
		routes = append(routes, r)
	}
	s.mu.Unlock()
	snap := &tappv1.Snapshot{}
	for _, r := range routes {
		snap.Games = append(snap.Games, r.snapshot())
	}
	return snap
}

// snapshot is the game as the seat sees it now: its GameStarted and its open request, encoded
// as it was sent (the same inputs give the same bytes).
func (r *route) snapshot() *tappv1.Snapshot_Game {
	snap := &tappv1.Snapshot_Game{Started: started(r.start)}
	if r.pending == nil {
		return snap
	}
	r.pending(func(req *referee.Request) {
		pending := &tappv1.DecisionRequest{}
		if err := proto.Unmarshal(encode.AppendRequest(nil, req), pending); err == nil { // encoded here: it decodes
			snap.Pending, snap.Observation = pending, pending.GetObservation()
		}
	})
	return snap
}

func (s *Session) info() *tappv1.SessionInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	return &tappv1.SessionInfo{
		SessionId: s.ID, BotName: s.Bot, Version: s.Version, Capacity: int32(s.Capacity),
		Games: int32(s.active), Connected: s.connected, Since: timestamp(s.Since),
	}
}
