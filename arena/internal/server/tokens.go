package server

import (
	"context"
	"errors"
	"time"

	"go.uber.org/zap"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/tapparena/tapp/arena/internal/domain"
)

// TokenStore is a store whose bots' tokens can be replaced (the SQL store is one): what
// rotating and revoking tokens needs beyond domain.Store.
type TokenStore interface {
	// SetBotToken replaces the bot's token hash; nil revokes it. domain.ErrNotFound for an
	// unknown bot.
	SetBotToken(ctx context.Context, name string, hash []byte) error
}

// tokenCheckEvery is how often the server checks that the stored tokens its streams connected
// with are still valid, for tokens replaced by another process on the same database (`tapp
// bots rotate` run next to `tapp serve`). Rotations through the admin service act at once.
const tokenCheckEvery = 5 * time.Second

// errTokenReplaced ends the streams of a bot whose token was rotated or revoked.
var errTokenReplaced = status.Error(codes.Unauthenticated,
	"this bot's token was rotated or revoked by the arena's operator: the stream is closed; connect again with the new token")

// tokenStream is a bot stream that connected with a stored token: rotating or revoking that
// token closes it.
type tokenStream struct {
	bot    string
	hash   []byte
	kicked chan struct{} // closed to end the stream
}

// RotateBotToken gives the named bot a fresh token, stores only its hash and returns it; the
// old token stops working at once.
func RotateBotToken(ctx context.Context, store domain.Store, name string) (string, error) {
	token := NewToken("tapp_")
	if err := setToken(ctx, store, name, HashToken(token)); err != nil {
		return "", err
	}
	return token, nil
}

// RevokeBotToken takes the named bot's token away: nothing connects as the bot until it gets a
// new one.
func RevokeBotToken(ctx context.Context, store domain.Store, name string) error {
	return setToken(ctx, store, name, nil)
}

func setToken(ctx context.Context, store domain.Store, name string, hash []byte) error {
	ts, ok := store.(TokenStore)
	if !ok {
		return status.Error(codes.Unimplemented, "this arena's store cannot change tokens")
	}
	err := ts.SetBotToken(ctx, name, hash)
	if errors.Is(err, domain.ErrNotFound) {
		return status.Errorf(codes.NotFound, "no bot named %q", name)
	}
	if err != nil {
		return status.Errorf(codes.Internal, "storing the token: %v", err)
	}
	return nil
}

// authStored finds the bot of a stored token and registers its stream, so that a rotation
// that happens from now on closes it. A rotation between the lookup and the registration is
// caught by looking up again.
func (s *Server) authStored(ctx context.Context, hash []byte) (*domain.Bot, *tokenStream, error) {
	for {
		s.mu.Lock()
		epoch := s.tokenEpoch
		s.mu.Unlock()
		bot, err := s.cfg.Store.BotByTokenHash(ctx, hash)
		if err != nil {
			return nil, nil, err
		}
		s.mu.Lock()
		if s.tokenEpoch == epoch {
			ts := &tokenStream{bot: bot.Name, hash: hash, kicked: make(chan struct{})}
			s.tokenStreams[ts] = struct{}{}
			s.mu.Unlock()
			return bot, ts, nil
		}
		s.mu.Unlock()
	}
}

// forgetStream unregisters a stream that ended.
func (s *Server) forgetStream(ts *tokenStream) {
	if ts == nil {
		return
	}
	s.mu.Lock()
	delete(s.tokenStreams, ts)
	s.mu.Unlock()
}

// kickBot closes every stream of bot that connected with a stored token; it returns how many.
func (s *Server) kickBot(bot string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tokenEpoch++
	n := 0
	for ts := range s.tokenStreams {
		if ts.bot == bot {
			s.kick(ts)
			n++
		}
	}
	return n
}

// kick closes one stream; s.mu is held.
func (s *Server) kick(ts *tokenStream) {
	delete(s.tokenStreams, ts)
	close(ts.kicked)
}

// RotateToken rotates the bot's token (RotateBotToken) and closes the bot's streams that
// connected with the old one; it returns the new token and how many streams it closed.
func (s *Server) RotateToken(ctx context.Context, name string) (string, int, error) {
	token, err := RotateBotToken(ctx, s.cfg.Store, name)
	if err != nil {
		return "", 0, err
	}
	n := s.kickBot(name)
	s.log.Info("bot token rotated", zap.String("bot", name), zap.Int("disconnected", n))
	return token, n, nil
}

// RevokeToken revokes the bot's token (RevokeBotToken) and closes its streams that connected
// with it; it returns how many.
func (s *Server) RevokeToken(ctx context.Context, name string) (int, error) {
	if err := RevokeBotToken(ctx, s.cfg.Store, name); err != nil {
		return 0, err
	}
	n := s.kickBot(name)
	s.log.Info("bot token revoked", zap.String("bot", name), zap.Int("disconnected", n))
	return n, nil
}

// checkTokens closes, every tokenCheckEvery until stop closes, the streams whose stored
// token no longer names their bot.
func (s *Server) checkTokens(stop <-chan struct{}) {
	tick := time.NewTicker(tokenCheckEvery)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			return
		case <-tick.C:
		}
		s.mu.Lock()
		streams := make([]*tokenStream, 0, len(s.tokenStreams))
		for ts := range s.tokenStreams {
			streams = append(streams, ts)
		}
		s.mu.Unlock()
		valid := map[string]bool{} // by hash: the token still names the stream's bot
		for _, ts := range streams {
			key := string(ts.hash) + "\x00" + ts.bot
			ok, seen := valid[key]
			if !seen {
				ctx, cancel := context.WithTimeout(context.Background(), tokenCheckEvery)
				bot, err := s.cfg.Store.BotByTokenHash(ctx, ts.hash)
				cancel()
				switch {
				case errors.Is(err, domain.ErrNotFound):
					ok = false
				case err != nil:
					ok = true // the store is unwell: keep the stream, check again later
				default:
					ok = bot.Name == ts.bot
				}
				valid[key] = ok
			}
			if !ok {
				s.mu.Lock()
				if _, live := s.tokenStreams[ts]; live {
					s.kick(ts)
					s.log.Info("bot token no longer valid: stream closed", zap.String("bot", ts.bot))
				}
				s.mu.Unlock()
			}
		}
	}
}
