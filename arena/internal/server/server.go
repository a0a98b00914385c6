// Package server is the arena's gRPC front: the bot stream (BotService.Connect) with its
// sessions, token checks and resumes, the admin service, and the server hygiene (keepalive,
// message limits, health, reflection, graceful shutdown).
package server

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/keepalive"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/reflection"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/referee"
	"github.com/tapparena/tapp/arena/wire/grpccodec"
	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// Version is the arena's protocol implementation version, sent in Welcome.
const Version = "tapp-arena/1"

// MaxMessageBytes limits every message in both directions.
const MaxMessageBytes = 4 << 20

var errOutboxFull = errors.New("bot is not reading: outbox full")

// Config configures a Server.
type Config struct {
	Store      domain.Store
	Log        *zap.Logger
	AdminToken string        // required for the admin service; empty disables it
	Grace      time.Duration // how long a dropped session waits for a resume (default 30 s)
	TLS        *tls.Config   // serve TLS with it (LoadTLS); nil serves plain text
}

// Server serves bots and admins.
type Server struct {
	tappv1.UnimplementedBotServiceServer
	cfg  Config
	log  *zap.Logger
	grpc *grpc.Server
	// local serves plain text on a loopback listener beside a TLS server (ServeLocal): for
	// the bots this arena launches itself, whose tokens never leave the machine.
	local  *grpc.Server
	health *health.Server
	admin  *adminService

	mu       sync.Mutex
	sessions map[string]*Session // by id
	byToken  map[string]*Session // by resume token
	changed  chan struct{}       // closed and replaced whenever sessions change or free up
	closing  bool
	// launchTokens are tokens the arena minted for bots it launched itself, by hash: valid
	// only for this process's lifetime and never stored.
	launchTokens map[string]string
	// lastSeen is when each bot last had a connected session, for seating absent bots.
	lastSeen map[string]time.Time
	// tokenStreams are the streams that connected with a stored token (tokens.go); tokenEpoch
	// counts the token changes, so that a stream never registers under a replaced token.
	tokenStreams map[*tokenStream]struct{}
	tokenEpoch   uint64
	checkOnce    sync.Once
	stopCheck    chan struct{}
}

// flowWindow is the flow-control window of a bot's stream and connection, each way.
const flowWindow = 1 << 20

// New builds a server; call Serve to accept connections.
func New(cfg Config) *Server {
	if cfg.Log == nil {
		cfg.Log = zap.NewNop()
	}
	if cfg.Grace <= 0 {
		cfg.Grace = 30 * time.Second
	}
	s := &Server{
		cfg: cfg, log: cfg.Log, sessions: make(map[string]*Session), byToken: make(map[string]*Session),
		changed: make(chan struct{}), launchTokens: make(map[string]string), lastSeen: make(map[string]time.Time),
		tokenStreams: make(map[*tokenStream]struct{}), stopCheck: make(chan struct{}),
	}
	opts := []grpc.ServerOption{
		grpc.ForceServerCodecV2(grpccodec.Codec()), // requests and answers go through it in wire form
		grpc.MaxRecvMsgSize(MaxMessageBytes),
		grpc.MaxSendMsgSize(MaxMessageBytes),
		// Fixed flow-control windows, large enough for a burst of requests to every table of a
		// bot, turn off gRPC's bandwidth estimation, whose pings went out with the answers all
		// the time on a busy stream (a frame each way, and a wake-up, per round trip of them).
		grpc.InitialWindowSize(flowWindow),
		grpc.InitialConnWindowSize(flowWindow),
		// Bot streams live for hours: no MaxConnectionAge, pings from clients allowed every
		// 10 s even without streams, dead peers found by server pings.
		grpc.KeepaliveParams(keepalive.ServerParameters{Time: 30 * time.Second, Timeout: 10 * time.Second}),
		grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{MinTime: 10 * time.Second, PermitWithoutStream: true}),
	}
	var creds credentials.TransportCredentials
	if cfg.TLS != nil {
		// The launched bots' loopback listener stays plain text (ServeLocal).
		s.local = grpc.NewServer(opts...)
		tappv1.RegisterBotServiceServer(s.local, s)
		creds = credentials.NewTLS(cfg.TLS)
	}
	opts = append(opts, grpc.Creds(loggedCredentials(creds, cfg.Log))) // refused handshakes are logged (handshake.go)
	s.grpc = grpc.NewServer(opts...)
	tappv1.RegisterBotServiceServer(s.grpc, s)
	s.admin = &adminService{s: s}
	tappv1.RegisterAdminServiceServer(s.grpc, s.admin)
	s.health = health.NewServer()
	healthpb.RegisterHealthServer(s.grpc, s.health)
	if s.local != nil {
		healthpb.RegisterHealthServer(s.local, s.health)
	}
	s.health.SetServingStatus("", healthpb.HealthCheckResponse_SERVING)
	s.health.SetServingStatus(tappv1.BotService_ServiceDesc.ServiceName, healthpb.HealthCheckResponse_SERVING)
	reflection.Register(s.grpc)
	return s
}

// Serve accepts connections on lis until Shutdown.
func (s *Server) Serve(lis net.Listener) error {
	s.checkOnce.Do(func() { go s.checkTokens(s.stopCheck) })
	return s.grpc.Serve(lis)
}

// ServeLocal serves bots in plain text on lis, which must listen on loopback only, beside a
// server that serves TLS (Config.TLS) on Serve's listener: the bots the arena launches
// connect there, so that their tokens never cross a network and need no certificate that
// names 127.0.0.1. It returns at once when the server serves plain text anyway.
func (s *Server) ServeLocal(lis net.Listener) error {
	if s.local == nil {
		return lis.Close()
	}
	if !IsLoopback(lis.Addr().String()) {
		lis.Close()
		return fmt.Errorf("the plain-text listener for launched bots must be on loopback, not %s", lis.Addr())
	}
	s.checkOnce.Do(func() { go s.checkTokens(s.stopCheck) })
	return s.local.Serve(lis)
}

// SetMatchStarter lets the admin service start matches (the arena wires the match runner in).
func (s *Server) SetMatchStarter(f MatchStarter) { s.admin.start = f }

// Shutdown stops the server gracefully: health goes NOT_SERVING, every bot is told it is going
// away, streams get until the context ends to finish, then the server stops hard.
func (s *Server) Shutdown(ctx context.Context) {
	s.health.Shutdown()
	s.mu.Lock()
	if !s.closing {
		close(s.stopCheck)
	}
	s.closing = true
	sessions := make([]*Session, 0, len(s.sessions))
	for _, ss := range s.sessions {
		sessions = append(sessions, ss)
	}
	s.mu.Unlock()
	for _, ss := range sessions {
		_ = ss.Send(&tappv1.ConnectResponse{Message: &tappv1.ConnectResponse_GoingAway{GoingAway: &tappv1.GoingAway{Reason: "arena shutting down"}}})
	}
	done := make(chan struct{})
	go func() {
		var wg sync.WaitGroup
		if s.local != nil {
			wg.Go(s.local.GracefulStop)
		}
		s.grpc.GracefulStop()
		wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
		if s.local != nil {
			s.local.Stop()
		}
		s.grpc.Stop()
	}
	for _, ss := range sessions {
		ss.end()
	}
}

// HashToken is how bot tokens are stored: SHA-256 (tokens are long random strings, so a
// fast hash is enough).
func HashToken(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}

// NewToken returns a fresh random token with the given prefix.
func NewToken(prefix string) string {
	var b [24]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return prefix + hex.EncodeToString(b[:])
}

// bearer returns the token the caller presents, exactly as sent: tokens never hold spaces,
// so a token with spaces around it (a copy-paste slip) is no token, and refused alike for bots
// and admins rather than trimmed here and compared as sent there.
func bearer(ctx context.Context) string {
	md, _ := metadata.FromIncomingContext(ctx)
	for _, v := range md.Get("authorization") {
		if t, ok := strings.CutPrefix(v, "Bearer "); ok && t == strings.TrimSpace(t) {
			return t
		}
	}
	return ""
}

// CheckToken refuses a configured token with spaces around it (an environment variable with
// a trailing space or newline): no caller could present it.
func CheckToken(what, token string) error {
	if token != strings.TrimSpace(token) {
		return fmt.Errorf("%s has spaces or a newline around it: set it without them", what)
	}
	return nil
}

// AddLaunchToken lets a bot that the arena launches itself connect as bot with token, for
// this process's lifetime only; the token is never stored.
func (s *Server) AddLaunchToken(token, bot string) {
	s.mu.Lock()
	s.launchTokens[string(HashToken(token))] = bot
	s.mu.Unlock()
}

// authBot finds the bot of the stream's token. A stored (registered) token's stream is
// registered too (ts), so that rotating or revoking the token closes it; a launch token's
// (ts nil) lives as long as this process.
func (s *Server) authBot(ctx context.Context) (bot *domain.Bot, ts *tokenStream, err error) {
	token := bearer(ctx)
	if token == "" {
		return nil, nil, status.Error(codes.Unauthenticated, "missing bot token: send metadata \"authorization: Bearer <token>\", the token exactly as issued")
	}
	s.mu.Lock()
	name, ok := s.launchTokens[string(HashToken(token))]
	s.mu.Unlock()
	if ok {
		return &domain.Bot{Name: name}, nil, nil
	}
	bot, ts, err = s.authStored(ctx, HashToken(token))
	if errors.Is(err, domain.ErrNotFound) {
		return nil, nil, status.Error(codes.Unauthenticated, "unknown bot token (revoked or replaced, or never given: tapp bots list shows the bots)")
	}
	if err != nil {
		return nil, nil, status.Errorf(codes.Unavailable, "checking token: %v", err)
	}
	return bot, ts, nil
}

// isBotToken reports whether token is a bot's (a launch token or a stored one).
func (s *Server) isBotToken(ctx context.Context, token string) bool {
	hash := HashToken(token)
	s.mu.Lock()
	_, ok := s.launchTokens[string(hash)]
	s.mu.Unlock()
	if ok {
		return true
	}
	_, err := s.cfg.Store.BotByTokenHash(ctx, hash)
	return err == nil
}

func (s *Server) authAdmin(ctx context.Context) error {
	token := bearer(ctx)
	if s.cfg.AdminToken == "" {
		return status.Error(codes.PermissionDenied, "the admin service is disabled (no admin token configured)")
	}
	if token == "" {
		return status.Error(codes.Unauthenticated, "admin token missing: send metadata \"authorization: Bearer <admin token>\"")
	}
	if subtle.ConstantTimeCompare([]byte(token), []byte(s.cfg.AdminToken)) != 1 {
		if s.isBotToken(ctx, token) {
			return status.Error(codes.PermissionDenied, "a bot token cannot call the admin service: use the arena's admin token (TAPP_ADMIN_TOKEN of tapp serve)")
		}
		return status.Error(codes.Unauthenticated, "admin token wrong")
	}
	return nil
}

// Connect implements the bot stream. A bot name may hold several sessions at once (several
// instances of one bot, e.g. one per seat of a table); a session never sits in two seats of
// the same game.
func (s *Server) Connect(stream tappv1.BotService_ConnectServer) error {
	ctx := stream.Context()
	bot, ts, err := s.authBot(ctx)
	if err != nil {
		s.log.Warn("bot stream refused", zap.Error(err))
		return err
	}
	defer s.forgetStream(ts)
	first, err := stream.Recv()
	if err != nil {
		return err
	}
	hello := first.GetHello()
	if hello == nil {
		return status.Error(codes.InvalidArgument, "PROTO-OUT-OF-ORDER: the first message must be hello")
	}
	log := s.log.With(zap.String("bot", bot.Name))
	if hello.GetName() != "" && hello.GetName() != bot.Name {
		if ts != nil { // a registered token speaks for one bot only
			log.Warn("bot stream refused: hello names another bot", zap.String("hello_name", hello.GetName()))
			return status.Errorf(codes.PermissionDenied,
				"hello names bot %q but the token is bot %q's: say %q in the hello (TAPP_BOT_NAME) or leave the name empty",
				hello.GetName(), bot.Name, bot.Name)
		}
		// A launch token names the seat the arena started it for; the program may call itself otherwise.
		log.Info("bot says another name than its token's", zap.String("hello_name", hello.GetName()))
	}

	ss, resumed := s.resume(hello.GetResumeToken(), bot.Name)
	if ss == nil {
		if ss, err = s.newSession(bot.Name, hello, log); err != nil {
			return err
		}
	}
	outbox, stop := ss.attach()
	log = log.With(zap.String("session", ss.ID))
	log.Info("bot connected", zap.Bool("resumed", resumed), zap.String("version", ss.Version), zap.Int("capacity", ss.Capacity))

	welcome := &tappv1.Welcome{SessionId: ss.ID, ResumeToken: ss.ResumeToken, Resumed: resumed,
		ArenaVersion: Version, Grace: durationpb.New(s.cfg.Grace)}
	_ = ss.Send(&tappv1.ConnectResponse{Message: &tappv1.ConnectResponse_Welcome{Welcome: welcome}})
	if resumed {
		_ = ss.Send(&tappv1.ConnectResponse{Message: &tappv1.ConnectResponse_Snapshot{Snapshot: ss.snapshot()}})
	}
	s.notify()

	writeErr := make(chan error, 1)
	go func() { writeErr <- writeLoop(stream, outbox, stop) }()
	readErr := s.readUntilKicked(stream, ss, ts, log)
	s.mu.Lock()
	s.lastSeen[ss.Bot] = time.Now()
	s.mu.Unlock()
	ss.detach(stop, s.cfg.Grace, func() { s.drop(ss); log.Info("session ended after grace period") })
	s.notify()
	werr := <-writeErr
	if errors.Is(readErr, errTokenReplaced) {
		ss.end() // the token that opened the session is void: nothing resumes it
		s.drop(ss)
		log.Info("bot stream closed: its token was rotated or revoked")
		return readErr
	}
	if readErr == nil || errors.Is(readErr, io.EOF) || status.Code(readErr) == codes.Canceled {
		log.Info("bot disconnected")
		return werr
	}
	log.Warn("bot stream failed", zap.Error(readErr))
	return readErr
}

// readUntilKicked reads the stream until it ends or, for a stream of a stored token, until
// the token is rotated or revoked (errTokenReplaced). The reader is left to end with the
// stream, which the handler's return cancels.
func (s *Server) readUntilKicked(stream tappv1.BotService_ConnectServer, ss *Session, ts *tokenStream, log *zap.Logger) error {
	if ts == nil {
		return s.readLoop(stream, ss, log)
	}
	readErr := make(chan error, 1)
	go func() { readErr <- s.readLoop(stream, ss, log) }()
	select {
	case err := <-readErr:
		return err
	case <-ts.kicked:
		return errTokenReplaced
	}
}

func writeLoop(stream tappv1.BotService_ConnectServer, outbox chan any, stop chan struct{}) error {
	for {
		select {
		case msg := <-outbox:
			h, _ := msg.(*handOff)
			if h != nil {
				h.handed <- time.Now()
				msg = &h.msg
			}
			if err := stream.SendMsg(msg); err != nil {
				return err
			}
			if h != nil {
				h.sent.Store(true) // gRPC keeps msg's bytes, not msg: the game's next request may reuse it
			}
			if m, ok := msg.(*tappv1.ConnectResponse); ok && m.GetGoingAway() != nil {
				return nil
			}
		case <-stop:
			return nil
		case <-stream.Context().Done():
			return nil
		}
	}
}

func (s *Server) readLoop(stream tappv1.BotService_ConnectServer, ss *Session, log *zap.Logger) error {
	var raw grpccodec.Raw // its bytes are reused: the session copies what it keeps of an answer
	for {
		if err := stream.RecvMsg(&raw); err != nil {
			return err
		}
		now := time.Now()
		// An answer, the message of nearly every round trip, is read without protobuf's
		// messages (decodeAnswerView); anything else goes the general way.
		if a, ok := decodeAnswerView(raw.B); ok {
			s.deliverAnswer(ss, &a, now, stream.Context().Done(), log)
			continue
		}
		msg, err := decodeRequest(&raw)
		if err != nil {
			return status.Errorf(codes.InvalidArgument, "PROTO-MALFORMED: a message that does not decode: %v", err)
		}
		switch m := msg.GetMessage().(type) {
		case *tappv1.ConnectRequest_Answer: // an answer decodeAnswerView does not read: still one
			a := answerView{game: []byte(m.Answer.GetGameId()), request: []byte(m.Answer.GetRequestId()), action: []byte(m.Answer.GetAction())}
			if d := m.Answer.GetThinkTime(); d != nil {
				a.thinkSet, a.thinkSecs, a.thinkNanos = true, d.GetSeconds(), d.GetNanos()
			}
			s.deliverAnswer(ss, &a, now, stream.Context().Done(), log)
		case *tappv1.ConnectRequest_Hello:
			s.reject(ss, &tappv1.Answer{}, "PROTO-OUT-OF-ORDER", "hello may only be the first message")
		default:
			s.reject(ss, &tappv1.Answer{}, "PROTO-MALFORMED", "message has no known content")
		}
	}
}

// deliverAnswer hands an answer to its game, or refuses it.
func (s *Server) deliverAnswer(ss *Session, a *answerView, at time.Time, stop <-chan struct{}, log *zap.Logger) {
	ok, full := ss.deliver(a, at, stop)
	switch {
	case !ok:
		// Each refusal is counted in the session's summary line; this one is named at debug
		// level too, for `tapp bot check`, which tells a bot that missed a GameEnded.
		game := string(a.game)
		log.Debug("answer for a game this session is not in", zap.String("game", game), zap.ByteString("request", a.request))
		s.reject(ss, a.proto(), "PROTO-UNKNOWN-GAME", "no running game "+game+" for this session: it is over, or the bot forfeited its match (the referee plays its seat)")
	case full:
		s.reject(ss, a.proto(), "PROTO-FLOOD", "too many answers queued for this game")
	}
}

func (s *Server) reject(ss *Session, a *tappv1.Answer, rule, reason string) {
	_ = ss.Send(&tappv1.ConnectResponse{Message: &tappv1.ConnectResponse_AnswerRejected{AnswerRejected: &tappv1.AnswerRejected{
		GameId: a.GetGameId(), RequestId: a.GetRequestId(), RuleId: rule, Reason: reason,
	}}})
}

func (s *Server) resume(token, bot string) (*Session, bool) {
	if token == "" {
		return nil, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ss := s.byToken[token]
	if ss == nil || ss.Bot != bot || ss.isGone() {
		return nil, false
	}
	return ss, true
}

func (s *Server) newSession(bot string, hello *tappv1.Hello, log *zap.Logger) (*Session, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing {
		return nil, status.Error(codes.Unavailable, "arena shutting down")
	}
	ss := newSession(NewToken("s-")[:14], NewToken("resume-"), bot, hello, log)
	s.sessions[ss.ID] = ss
	s.byToken[ss.ResumeToken] = ss
	return ss, nil
}

func (s *Server) drop(ss *Session) {
	s.mu.Lock()
	delete(s.sessions, ss.ID)
	delete(s.byToken, ss.ResumeToken)
	s.mu.Unlock()
	s.notify()
}

// notify wakes everyone waiting for a session to connect or free up.
func (s *Server) notify() {
	s.mu.Lock()
	for _, ss := range s.sessions {
		if ss.isConnected() {
			s.lastSeen[ss.Bot] = time.Now()
		}
	}
	close(s.changed)
	s.changed = make(chan struct{})
	s.mu.Unlock()
}

// Acquire reserves a seat for bot on a session that is not in exclude, waiting until one is
// connected and has capacity. release gives the slot back. A bot that has had no live session
// for the grace period (it never came, or it left and did not come back) is seated as absent:
// every decision of that seat is a fallback and the bot forfeits the match.
func (s *Server) Acquire(ctx context.Context, bot string, exclude []referee.Conn) (referee.Conn, func(), error) {
	conns, release, err := s.seat(ctx, []string{bot}, exclude)
	if err != nil {
		return nil, nil, err
	}
	return conns[0], release, nil
}

// SeatTable reserves a session for every seat of a table (bots by seat, a bot on a different
// session in each of its seats), all at once: while some seat cannot be had, it holds none
// and waits. Tables that each held some seats while waiting for others could wait for each
// other for ever when bots have little capacity. Absent bots are seated as in Acquire.
func (s *Server) SeatTable(ctx context.Context, bots []string) ([]referee.Conn, func(), error) {
	return s.seat(ctx, bots, nil)
}

func (s *Server) seat(ctx context.Context, bots []string, exclude []referee.Conn) ([]referee.Conn, func(), error) {
	waitStart := time.Now()
	for {
		s.mu.Lock()
		wait := s.changed
		conns := append(make([]referee.Conn, 0, len(bots)+len(exclude)), exclude...)
		var taken []*Session
		var absentIn time.Duration // how long until the missing bot counts as absent
		for _, bot := range bots {
			ss, live := s.trySession(bot, conns)
			if ss != nil {
				taken = append(taken, ss)
				conns = append(conns, ss)
				continue
			}
			since, seen := s.lastSeen[bot]
			if !seen {
				since = waitStart
			}
			if in := s.cfg.Grace - time.Since(since); !live && in <= 0 {
				if !seen {
					s.lastSeen[bot] = since // later seats of a bot that never came need not wait again
				}
				s.log.Warn("bot absent: its seat plays fallbacks", zap.String("bot", bot))
				conns = append(conns, referee.Absent{})
				continue
			} else if absentIn = in; live {
				absentIn = time.Hour // connected but without free capacity: wait for a change
			}
			for _, t := range taken {
				t.release()
			}
			taken = nil
			break
		}
		s.mu.Unlock()
		if len(conns) == len(bots)+len(exclude) {
			return conns[len(exclude):], func() {
				for _, t := range taken {
					t.release()
				}
				s.notify()
			}, nil
		}
		timer := time.NewTimer(max(absentIn, 10*time.Millisecond))
		select {
		case <-wait:
		case <-timer.C:
		case <-ctx.Done():
			timer.Stop()
			return nil, nil, ctx.Err()
		}
		timer.Stop()
	}
}

// trySession reserves a slot on a session of bot that is not in exclude (the stable choice:
// the lowest id with free capacity); live reports whether the bot has any session at all.
// s.mu is held.
func (s *Server) trySession(bot string, exclude []referee.Conn) (best *Session, live bool) {
	for _, ss := range s.sessions {
		if ss.Bot != bot || contains(exclude, ss) || ss.isGone() {
			continue
		}
		live = true
		if best == nil || ss.ID < best.ID {
			if ss.acquire() {
				if best != nil {
					best.release()
				}
				best = ss
			}
		}
	}
	return best, live
}

func contains(conns []referee.Conn, ss *Session) bool {
	for _, c := range conns {
		if c == referee.Conn(ss) {
			return true
		}
	}
	return false
}

// Sessions lists the live sessions.
func (s *Server) Sessions() []*tappv1.SessionInfo {
	s.mu.Lock()
	list := make([]*Session, 0, len(s.sessions))
	for _, ss := range s.sessions {
		list = append(list, ss)
	}
	s.mu.Unlock()
	out := make([]*tappv1.SessionInfo, len(list))
	for i, ss := range list {
		out[i] = ss.info()
	}
	return out
}

// connectedBots counts the live sessions of each bot name.
func (s *Server) connectedBots() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]int)
	for _, ss := range s.sessions {
		out[ss.Bot]++
	}
	return out
}

func timestamp(t time.Time) *timestamppb.Timestamp {
	if t.IsZero() {
		return nil
	}
	return timestamppb.New(t)
}
