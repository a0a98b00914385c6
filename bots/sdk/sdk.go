// Package sdk connects a Go bot to a Tapp arena: it opens the bot stream with the bot's
// token, says hello, answers every decision request from the observation in it by calling the
// bot, keeps to the deadlines, and reconnects (resuming the session) when the stream drops.
// A bot author implements bots.Bot and calls Run.
package sdk

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/keepalive"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/tapparena/tapp/arena/wire"
	"github.com/tapparena/tapp/arena/wire/grpccodec"
	"github.com/tapparena/tapp/bots"
	"github.com/tapparena/tapp/engine"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// Config says where and as whom a bot plays.
type Config struct {
	Arena    string // host:port (default DefaultArena)
	Token    string
	Name     string
	Version  string
	Capacity int          // games at once (default 1)
	Log      *slog.Logger // what the SDK does for the bot: errors, late or illegal answers, strikes (nil: nothing)
	// Margin is kept free before each deadline for the answer to travel: the larger of Margin
	// (default 20 ms) and MarginFraction (default 0.1) of the time the request leaves, so a
	// bot on a loaded host keeps a tenth of its time per decision in hand, not 20 ms.
	Margin         time.Duration
	MarginFraction float64
	// MaxReconnect bounds how long Run keeps trying to reconnect after a drop (default 60 s).
	MaxReconnect time.Duration
	// GameEnded, when set, is called after every game with how it ended: its settlement and
	// the reveal.
	GameEnded func(end GameEnd)
	// TLS connects with TLS, checking the arena's certificate against the system's roots
	// (or CA's). Without TLS or CA the connection is plain text, fit for loopback only.
	TLS bool
	// CA is a PEM file of the certificate authorities that sign the arena's certificate
	// (a private CA, a self-signed arena); it implies TLS.
	CA string
	// Dial, when set, opens the connection to Arena instead of a TCP dial (no name lookup):
	// an arena in the same process (an in-memory listener), a proxy, a test.
	Dial func(ctx context.Context, addr string) (net.Conn, error)
	// Flags names how this bot's user turns TLS on and names a CA, for the error that says
	// what to change when TLS does not fit the arena's (default SDKFlags; `tapp bot` says
	// --tls and --ca).
	Flags Flags
}

func (cfg Config) flags() Flags {
	if cfg.Flags.TLS == "" {
		return SDKFlags
	}
	return cfg.Flags
}

// ConnectError is Run giving up on a connection mistake that trying again cannot mend
// (ConnectProblem): it says what to change.
type ConnectError struct {
	Arena   string
	Problem ConnectProblem
	Tries   int
	Err     error
	Flags   Flags
}

func (e *ConnectError) Error() string {
	return fmt.Sprintf("cannot connect to the arena at %s: %s (gave up after %d tries: %v)", e.Arena, e.Problem.Fix(e.Flags), e.Tries, e.Err)
}

func (e *ConnectError) Unwrap() error { return e.Err }

// keepaliveTime is how often the SDK pings an idle connection to find a dead arena; the arena
// allows pings every 10 s or more.
const keepaliveTime = 20 * time.Second

// DefaultArena is where a bot connects when neither Config.Arena nor TAPP_ARENA says (the
// address `tapp serve` listens on by default), as in the Python SDK.
const DefaultArena = "localhost:7000"

// ConfigFromEnv returns the Config of a bot that a league launches: the arena's address
// (TAPP_ARENA, default DefaultArena), the bot's token (TAPP_TOKEN), name (TAPP_BOT_NAME) and
// capacity (TAPP_CAPACITY) come from the environment the league gives it (docs/league.md);
// TAPP_CA names the CA file of an arena that serves TLS, and TAPP_TLS=1 asks for TLS with the
// system's roots. Other variables that are unset leave their fields zero; a capacity that is
// not a positive whole number is an error.
func ConfigFromEnv() (Config, error) {
	cfg := Config{Arena: os.Getenv("TAPP_ARENA"), Token: os.Getenv("TAPP_TOKEN"), Name: os.Getenv("TAPP_BOT_NAME"),
		CA: os.Getenv("TAPP_CA")}
	if cfg.Arena == "" {
		cfg.Arena = DefaultArena
	}
	if text := strings.TrimSpace(os.Getenv("TAPP_TLS")); text != "" {
		on, err := strconv.ParseBool(text)
		if err != nil {
			return cfg, fmt.Errorf("TAPP_TLS is %q: want 1 or 0", text)
		}
		cfg.TLS = on
	}
	if text := strings.TrimSpace(os.Getenv("TAPP_CAPACITY")); text != "" {
		n, err := strconv.Atoi(text)
		if err != nil || n < 1 {
			return cfg, fmt.Errorf("TAPP_CAPACITY is %q: want a whole number of at least 1", text)
		}
		cfg.Capacity = n
	}
	return cfg, nil
}

// ErrGoingAway is returned by Run when the arena shut down and said so. It is a normal end
// (the arena is done with the bot), not a failure: test for it with errors.Is.
var ErrGoingAway = errors.New("the arena is shutting down")

// Run plays until ctx ends (nil), the arena goes away (ErrGoingAway, a normal end), the token
// is refused, or the arena cannot be reached, or reconnecting fails, for longer than
// MaxReconnect.
func Run(ctx context.Context, cfg Config, bot bots.Bot) error {
	if cfg.Arena == "" {
		cfg.Arena = DefaultArena
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Capacity < 1 {
		cfg.Capacity = 1
	}
	if cfg.Margin <= 0 {
		cfg.Margin = 20 * time.Millisecond
	}
	if cfg.MarginFraction <= 0 {
		cfg.MarginFraction = 0.1
	}
	if cfg.MaxReconnect <= 0 {
		cfg.MaxReconnect = 60 * time.Second
	}
	creds, err := TransportCredentials(cfg.TLS, cfg.CA)
	if err != nil {
		return err
	}
	target := cfg.Arena
	opts := []grpc.DialOption{
		grpc.WithTransportCredentials(creds),
		grpc.WithKeepaliveParams(keepalive.ClientParameters{Time: keepaliveTime, Timeout: 10 * time.Second, PermitWithoutStream: true}),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(4<<20), grpc.MaxCallSendMsgSize(4<<20)),
		// Fixed flow-control windows (as the arena's) turn off gRPC's bandwidth estimation and
		// its pings, which went out all the time on a busy stream.
		grpc.WithInitialWindowSize(flowWindow),
		grpc.WithInitialConnWindowSize(flowWindow),
	}
	if cfg.Dial != nil {
		target = "passthrough:///" + cfg.Arena // the dialer gets the address as it is
		opts = append(opts, grpc.WithContextDialer(cfg.Dial))
	}
	conn, err := grpc.NewClient(target, opts...)
	if err != nil {
		return fmt.Errorf("arena address %q: %w", cfg.Arena, err)
	}
	defer conn.Close()
	c := &client{cfg: cfg, bot: bot, api: tappv1.NewBotServiceClient(conn), log: cfg.Log}
	return c.loop(ctx)
}

// flowWindow is the flow-control window of the stream and the connection, each way.
const flowWindow = 1 << 20

type client struct {
	cfg Config
	bot bots.Bot
	api tappv1.BotServiceClient
	log *slog.Logger

	resumeToken string
	lastSeq     uint64
}

func (c *client) loop(ctx context.Context) error {
	backoff := 50 * time.Millisecond
	var downSince time.Time
	everConnected := false // a connection that never existed is not "lost"
	tries, problemTries := 0, 0
	for {
		connected, err := c.session(ctx)
		everConnected = everConnected || connected
		tries++
		if ctx.Err() != nil {
			return nil
		}
		if errors.Is(err, ErrGoingAway) {
			return err
		}
		if code := status.Code(err); code == codes.Unauthenticated || code == codes.PermissionDenied {
			return fmt.Errorf("the arena at %s refused the bot: %w", c.cfg.Arena, err)
		}
		if connected {
			downSince, backoff, tries, problemTries = time.Time{}, 50*time.Millisecond, 0, 0
		}
		if downSince.IsZero() {
			downSince = time.Now()
		}
		// TLS on one side only, or an untrusted certificate, does not mend by itself: say what
		// to change after a few tries instead of retrying for MaxReconnect.
		if p := ConnectProblemOf(err); p != NoConnectProblem {
			problemTries++
			if problemTries >= connectProblemTries {
				return &ConnectError{Arena: c.cfg.Arena, Problem: p, Tries: problemTries, Err: err, Flags: c.cfg.flags()}
			}
		}
		if time.Since(downSince) > c.cfg.MaxReconnect {
			if !everConnected {
				return fmt.Errorf("cannot reach the arena at %s: gave up after %d tries over %s (is it running, and listening there?): %w",
					c.cfg.Arena, tries, c.cfg.MaxReconnect, err)
			}
			return fmt.Errorf("arena at %s unreachable for %s: gave up after %d tries: %w", c.cfg.Arena, c.cfg.MaxReconnect, tries, err)
		}
		if everConnected {
			c.log.Warn("connection to the arena lost, reconnecting", slog.String("arena", c.cfg.Arena), slog.Any("error", err), slog.Duration("backoff", backoff))
		} else {
			c.log.Warn("cannot reach the arena, retrying", slog.String("arena", c.cfg.Arena), slog.Any("error", err), slog.Duration("backoff", backoff),
				slog.Int("try", tries), slog.Duration("gives_up_after", c.cfg.MaxReconnect))
		}
		select {
		case <-time.After(backoff):
		case <-ctx.Done():
			return nil
		}
		backoff = min(backoff*2, 2*time.Second)
	}
}

// session runs one stream; connected reports whether it got as far as a Welcome.
func (c *client) session(ctx context.Context) (connected bool, err error) {
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	sctx = metadata.AppendToOutgoingContext(sctx, "authorization", "Bearer "+c.cfg.Token)
	stream, err := c.api.Connect(sctx, grpc.ForceCodecV2(grpccodec.Codec()))
	if err != nil {
		return false, err
	}
	hello := &tappv1.Hello{Name: c.cfg.Name, Version: c.cfg.Version, Capacity: int32(c.cfg.Capacity),
		ResumeToken: c.resumeToken, LastSeq: c.lastSeq}
	if err := stream.Send(&tappv1.ConnectRequest{Message: &tappv1.ConnectRequest_Hello{Hello: hello}}); err != nil {
		if errors.Is(err, io.EOF) { // the arena ended the stream first (a refused token): its status says why
			if rerr := stream.RecvMsg(new(grpccodec.Raw)); rerr != nil {
				err = rerr
			}
		}
		return false, err
	}

	// Deciders send their answers themselves (one at a time: a gRPC stream takes one sender),
	// so that an answer leaves as soon as it is chosen. A failed send ends the session. A
	// decider still running when the session ends (a bot that ignores its deadline) can send
	// no more: its send fails on the closed stream.
	out := &answerLine{stream: stream, failed: make(chan error, 1), cancel: cancel}
	open := newOpenRequests()
	slots := make(chan struct{}, c.cfg.Capacity*engine.MaxPlayers)
	run := &deciders{idle: make(chan *wire.DecodedRequest), done: sctx.Done()}
	run.decide = func(req *wire.DecodedRequest, kept **decision) { c.decide(sctx, slots, req, out, kept) }

	var raw grpccodec.Raw // its bytes are reused: everything decoded from them is a copy
	for {
		err := stream.RecvMsg(&raw)
		var (
			msg *tappv1.ConnectResponse
			req *wire.DecodedRequest
		)
		if err == nil {
			if c.lastSeq, req, msg, err = decodeResponse(&raw, c.cfg.GameEnded != nil); err != nil {
				err = fmt.Errorf("unreadable message from the arena: %w", err)
			}
		}
		if err != nil {
			select {
			case serr := <-out.failed:
				err = serr
			default:
			}
			if errors.Is(err, io.EOF) {
				err = errors.New("arena closed the stream")
			}
			return connected, err
		}
		if req != nil {
			c.dispatch(run, open, req)
			continue
		}
		switch m := msg.GetMessage().(type) {
		case *tappv1.ConnectResponse_Welcome:
			connected = true
			c.resumeToken = m.Welcome.GetResumeToken()
			c.log.Info("connected", slog.String("session", m.Welcome.GetSessionId()), slog.Bool("resumed", m.Welcome.GetResumed()))
		case *tappv1.ConnectResponse_DecisionRequest: // sent along with something else
			c.dispatch(run, open, wire.RequestFromProto(m.DecisionRequest))
		case *tappv1.ConnectResponse_Snapshot:
			for _, g := range m.Snapshot.GetGames() {
				if g.GetPending() != nil {
					c.dispatch(run, open, wire.RequestFromProto(g.GetPending()))
				}
			}
		case *tappv1.ConnectResponse_AnswerRejected:
			r := m.AnswerRejected
			c.log.Warn("answer rejected", slog.String("game", r.GetGameId()), slog.String("request", r.GetRequestId()),
				slog.String("rule", r.GetRuleId()), slog.String("reason", r.GetReason()))
			// Correct once with the first legal action while the request is still open.
			if legal, ok := open.takeRetry(r.GetGameId(), r.GetRequestId()); ok {
				out.send(r.GetGameId(), r.GetRequestId(), legal, 0)
			}
		case *tappv1.ConnectResponse_Fallback:
			f := m.Fallback
			c.log.Warn("arena played a fallback for us", slog.String("game", f.GetGameId()), slog.String("request", f.GetRequestId()),
				slog.String("action", f.GetAction()), slog.Int("strikes", int(f.GetStrikes())), slog.Bool("forfeited", f.GetForfeited()))
		case *tappv1.ConnectResponse_GameEnded:
			open.endGame(m.GameEnded.GetGameId())
			if c.cfg.GameEnded != nil {
				c.gameEnded(m.GameEnded)
			}
		case *tappv1.ConnectResponse_GoingAway:
			c.log.Info("arena going away", slog.String("reason", m.GoingAway.GetReason()))
			return connected, ErrGoingAway
		}
	}
}

// answerLine sends answers on the stream, one sender at a time.
type answerLine struct {
	mu     sync.Mutex
	stream tappv1.BotService_ConnectClient
	msg    grpccodec.Encoded // reused under mu: gRPC keeps only the Body (a new one each time) once SendMsg returns
	failed chan error
	cancel context.CancelFunc
}

// send sends an answer (with the bot's thinking time, none when not positive), encoded in
// one allocation.
func (l *answerLine) send(gameID, requestID, action string, think time.Duration) {
	body := wire.AppendAnswer(make([]byte, 0, wire.AnswerSize(gameID, requestID, action)), gameID, requestID, action, think)
	l.mu.Lock()
	l.msg.Body = body
	err := l.stream.SendMsg(&l.msg)
	l.msg.Body = nil
	l.mu.Unlock()
	if err != nil {
		select {
		case l.failed <- err:
		default:
		}
		l.cancel()
	}
}

// dispatch decides one request on its own goroutine, so one slow game never holds up
// another, and answers before the deadline with a legal action whatever the bot does.
func (c *client) dispatch(run *deciders, open *openRequests, req *wire.DecodedRequest) {
	if !open.start(req) {
		return // already being decided (a snapshot repeats an open request)
	}
	run.start(req)
}

// deciders runs each request on a goroutine of its own, at once, as `go decide(req)` would,
// but on a goroutine done with an earlier request when one waits for work: a new goroutine
// starts with a small stack and grew it on every decision (the answer's send is deep), which
// was a sixth of a random bot's CPU. The goroutines end with the session (done).
type deciders struct {
	idle   chan *wire.DecodedRequest // unbuffered: a send succeeds only into a waiting goroutine
	decide func(*wire.DecodedRequest, **decision)
	done   <-chan struct{}
}

func (d *deciders) start(req *wire.DecodedRequest) {
	select {
	case d.idle <- req:
	default:
		go d.work(req)
	}
}

func (d *deciders) work(req *wire.DecodedRequest) {
	var kept *decision // the last decision's storage and guard timer, when nothing holds them any more
	for {
		d.decide(req, &kept)
		select {
		case req = <-d.idle:
		case <-d.done:
			return
		}
	}
}

// decide answers one request: with the bot's choice, or with the first legal action if the
// bot fails, panics, chooses an illegal action or is still thinking when the deadline (less
// the margin) comes. The bot runs on this goroutine, once it has one of the slots; a timer
// sends the fallback in time and gives the slot back, even if the bot never returns.
//
// kept is the decider goroutine's decision of its last request, if nothing holds it any more
// (its guard never fired, the bot never asked for its context's Done): its storage and its
// guard's timer are reused, as the in-process adapter reuses a decision's context once the
// bot's Decide has returned.
func (c *client) decide(ctx context.Context, slots chan struct{}, req *wire.DecodedRequest, out *answerLine, kept **decision) {
	if len(req.Legal) == 0 {
		return
	}
	d := *kept
	*kept = nil
	if d == nil {
		d = new(decision)
	}
	*d = decision{c: c, ctx: ctx, req: req, out: out, slots: slots, timer: d.timer}
	fallback := req.Legal[0]
	deadline := req.Deadline
	if deadline.IsZero() {
		deadline = time.Now().Add(time.Second)
	}
	// The bot's clock: its own time less the margin for the answer to travel, and the bank;
	// a bot that spends the bank (bots.BankSpender) is answered for only when that is spent.
	clock := bots.Clock{Deadline: deadline.Add(-margin(c.cfg, time.Until(deadline))), Overage: max(req.OverageLeft, 0)}
	end := clock.Deadline
	if spendsBank(c.bot) {
		end = clock.End()
	}
	// The bot's context ends at end (the guard's timer closes it), with the session, or when
	// the decision is over, as context.WithDeadline(ctx, end) would, at less cost
	// (decisionctx.go).
	dctx := &d.dctx
	*dctx = decisionContext{parent: ctx, deadline: end, clock: clock}
	// The guard: a timer of its own (not context.AfterFunc on dctx, which cost a registration
	// with dctx per decision); when the session ends first, nothing is to be answered.
	if d.timer == nil {
		d.timer = time.AfterFunc(time.Until(end), d.guard)
	} else {
		d.timer.Reset(time.Until(end))
	}
	defer d.done(kept)
	// A free slot is taken at once (without dctx.Done, whose channel is made when first asked
	// for); else leaving at the deadline, answer here: the guard may not have started yet, and
	// leaving stops it.
	select {
	case slots <- struct{}{}:
		d.holdsSlot.Store(true)
	default:
		select {
		case slots <- struct{}{}:
			d.holdsSlot.Store(true)
		case <-dctx.Done():
			d.answer(fallback, 0)
			return
		}
	}
	if dctx.Err() != nil {
		d.answer(fallback, 0)
		return
	}
	obs := req.Observation
	if req.Err != nil {
		c.log.Error("unreadable observation, answering the first legal action", slog.Any("error", req.Err))
		d.answer(fallback, 0)
		return
	}
	start := time.Now()
	a, err := c.callBot(dctx, obs) // dctx carries the clock (bots.ClockOf)
	think := time.Since(start)
	switch {
	case d.answered.Load():
		return // too late: the guard answered already
	case err != nil:
		c.log.Error("bot failed, answering the first legal action", slog.Any("error", err), slog.String("request", req.RequestID))
		d.answer(fallback, 0)
		return
	}
	if text, ok := legalText(req, a); ok {
		d.answer(text, think)
		return
	}
	c.log.Error("bot chose an illegal action, answering the first legal one", slog.String("chosen", a.String()), slog.Any("legal", req.Legal))
	d.answer(fallback, 0)
}

// legalText is the arena's text of the legal action a, if it is one: the one the arena
// listed for an action equal to a (no text is made), or else a's notation if the arena
// listed that.
func legalText(req *wire.DecodedRequest, a engine.Action) (string, bool) {
	if obs := req.Observation; obs != nil && len(obs.Legal) == len(req.Legal) {
		for i, l := range obs.Legal {
			if l == a {
				return req.Legal[i], true
			}
		}
	}
	text := a.String()
	return text, slices.Contains(req.Legal, text)
}

// decision is one request being decided: whether it is answered yet (by the bot, or for it
// by the guard) and whether it holds one of the session's slots; one allocation for what
// closures over the request cost several.
type decision struct {
	c         *client
	ctx       context.Context // the session's
	req       *wire.DecodedRequest
	out       *answerLine
	slots     chan struct{}
	answered  atomic.Bool
	holdsSlot atomic.Bool
	dctx      decisionContext // the bot's context, in the same allocation
	timer     *time.Timer     // the guard's (guard)
}

// done ends the decision when its decider leaves it: the slot given back, the guard stopped,
// the bot's context ended; d goes into kept for the decider's next request if nothing holds it
// (a guard that fired may still run; a bot that asked for Done may still wait on it).
func (d *decision) done(kept **decision) {
	d.freeSlot()
	stopped := d.timer.Stop()
	if d.dctx.stopUntouched() && stopped {
		*kept = d
	}
}

// answer sends the answer unless one was sent already; false then.
func (d *decision) answer(action string, think time.Duration) bool {
	if !d.answered.CompareAndSwap(false, true) {
		return false
	}
	d.out.send(d.req.GameID, d.req.RequestID, action, think)
	return true
}

func (d *decision) freeSlot() {
	if d.holdsSlot.CompareAndSwap(true, false) {
		<-d.slots
	}
}

// guard answers the first legal action for a bot still thinking at the end of its time,
// and gives its slot back.
func (d *decision) guard() {
	d.dctx.expire()
	if d.ctx.Err() == nil && d.answer(d.req.Legal[0], 0) {
		d.c.log.Warn("bot too slow, answering the first legal action before the deadline", slog.String("request", d.req.RequestID))
	}
	d.freeSlot()
}

// spendsBank reports whether b manages its time from its clock and may spend the bank.
func spendsBank(b bots.Bot) bool {
	s, ok := b.(bots.BankSpender)
	return ok && s.SpendsBank()
}

// margin is how long before the deadline the SDK answers for the bot, for a request with
// left to go: the larger of the fixed margin and the fraction of left.
func margin(cfg Config, left time.Duration) time.Duration {
	return max(cfg.Margin, time.Duration(cfg.MarginFraction*float64(left)))
}

// callBot calls the bot, turning a panic into an error.
func (c *client) callBot(ctx context.Context, obs *engine.Observation) (a engine.Action, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("bot panicked: %v", p)
		}
	}()
	return c.bot.Decide(ctx, obs)
}

// openRequests remembers the requests being decided, by game, so a snapshot does not decide
// one twice and a refused answer is corrected once. A game's requests are a short list (a
// seat is asked one at a time: a few dozen a deal at most), kept for the next game once its
// game ends: a map per game and an entry allocated per request were a twentieth of a random
// bot's CPU (issue 31).
type openRequests struct {
	mu    sync.Mutex
	games map[string][]openRequest // game → its requests, in the order they came
	free  [][]openRequest          // lists of ended games, emptied, for the next games
}

type openRequest struct {
	id      string
	first   string // the first legal action, the correction of a refused answer ("" if none)
	retried bool
}

// maxFreeLists bounds the lists kept for the next games: about as many as games run at once.
const maxFreeLists = 256

func newOpenRequests() *openRequests {
	return &openRequests{games: make(map[string][]openRequest)}
}

func (o *openRequests) start(req *wire.DecodedRequest) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	list, ok := o.games[req.GameID]
	for i := range list {
		if list[i].id == req.RequestID {
			return false
		}
	}
	if !ok && len(o.free) > 0 {
		list, o.free = o.free[len(o.free)-1], o.free[:len(o.free)-1]
	}
	r := openRequest{id: req.RequestID}
	if len(req.Legal) > 0 {
		r.first = req.Legal[0]
	}
	o.games[req.GameID] = append(list, r)
	return true
}

func (o *openRequests) takeRetry(game, req string) (string, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	list := o.games[game]
	for i := range list {
		if r := &list[i]; r.id == req {
			if r.retried || r.first == "" {
				return "", false
			}
			r.retried = true
			return r.first, true
		}
	}
	return "", false
}

func (o *openRequests) endGame(game string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	list, ok := o.games[game]
	if !ok {
		return
	}
	delete(o.games, game)
	if len(o.free) < maxFreeLists {
		clear(list) // holding no strings of the game
		o.free = append(o.free, list[:0])
	}
}
