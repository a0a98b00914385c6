package store

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/tapparena/tapp/arena/internal/domain"
)

// A rotated token replaces the old one at once; a revoked bot keeps its name but no token
// finds it.
func TestSetBotToken(t *testing.T) {
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		old, rotated := []byte("old-hash-0123456789"), []byte("new-hash-0123456789")
		if err := s.CreateBot(ctx, &domain.Bot{Name: "alice", TokenHash: old}); err != nil {
			t.Fatal(err)
		}
		if err := s.SetBotToken(ctx, "alice", rotated); err != nil {
			t.Fatal(err)
		}
		if _, err := s.BotByTokenHash(ctx, old); !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("old token after rotation: %v, want ErrNotFound", err)
		}
		if b, err := s.BotByTokenHash(ctx, rotated); err != nil || b.Name != "alice" {
			t.Errorf("new token after rotation = %v, %v; want alice", b, err)
		}
		if err := s.SetBotToken(ctx, "alice", nil); err != nil {
			t.Fatal(err)
		}
		if _, err := s.BotByTokenHash(ctx, rotated); !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("token after revocation: %v, want ErrNotFound", err)
		}
		b, err := s.BotByName(ctx, "alice")
		if err != nil || !bytes.Equal(b.TokenHash, nil) {
			t.Errorf("revoked bot = %v, %v; want alice without a token hash", b, err)
		}
		if err := s.SetBotToken(ctx, "nobody", rotated); !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("SetBotToken of an unknown bot: %v, want ErrNotFound", err)
		}
	})
}
