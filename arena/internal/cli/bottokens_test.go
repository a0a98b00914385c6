package cli

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tapparena/tapp/arena/internal/domain"
	"github.com/tapparena/tapp/arena/internal/server"
	"github.com/tapparena/tapp/arena/internal/store"
)

// tapp bots rotate prints a new token that replaces the old one; tapp bots revoke leaves the
// bot without one, and tapp bots list says so.
func TestBotsRotateAndRevoke(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "bots.db")
	old, err := cli(t, "bots", "add", "alpha", "--db", db)
	if err != nil {
		t.Fatal(err)
	}
	rotated, err := cli(t, "bots", "rotate", "alpha", "--db", db)
	if err != nil || !strings.HasPrefix(rotated, "tapp_") || rotated == old {
		t.Fatalf("bots rotate = %q, %v; want a new tapp_ token", rotated, err)
	}
	botOf := func(token string) (string, error) {
		st, err := store.Open(context.Background(), db)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		b, err := st.BotByTokenHash(context.Background(), server.HashToken(strings.TrimSpace(token)))
		if err != nil {
			return "", err
		}
		return b.Name, nil
	}
	if _, err := botOf(old); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("old token after rotate: %v, want not found", err)
	}
	if name, err := botOf(rotated); err != nil || name != "alpha" {
		t.Errorf("new token = bot %q, %v; want alpha", name, err)
	}
	if _, err := cli(t, "bots", "revoke", "alpha", "--db", db); err != nil {
		t.Fatal(err)
	}
	if _, err := botOf(rotated); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("token after revoke: %v, want not found", err)
	}
	if list, err := cli(t, "bots", "list", "--db", db); err != nil || !strings.Contains(list, "token revoked") {
		t.Errorf("bots list after revoke = %q, %v; want alpha marked as revoked", list, err)
	}
	if _, err := cli(t, "bots", "revoke", "beta", "--db", db); err == nil || err.Error() != `no bot named "beta" (tapp bots list shows the bots)` {
		t.Errorf("revoking an unknown bot: %v", err)
	}
}
