package sdk_test

import (
	"strings"
	"testing"

	"github.com/tapparena/tapp/bots/sdk"
)

// A bot that a league launches finds the arena, its token, name and capacity in its
// environment (docs/league.md, "How bots are reached").
func TestConfigFromEnv(t *testing.T) {
	t.Setenv("TAPP_ARENA", "127.0.0.1:7123")
	t.Setenv("TAPP_TOKEN", "launch_x")
	t.Setenv("TAPP_BOT_NAME", "mybot")
	t.Setenv("TAPP_CAPACITY", "8")
	cfg, err := sdk.ConfigFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := [4]any{cfg.Arena, cfg.Token, cfg.Name, cfg.Capacity}, [4]any{"127.0.0.1:7123", "launch_x", "mybot", 8}; got != want {
		t.Errorf("ConfigFromEnv = %v, want %v", got, want)
	}
	t.Setenv("TAPP_CAPACITY", "")
	if cfg, err := sdk.ConfigFromEnv(); err != nil || cfg.Capacity != 0 {
		t.Errorf("ConfigFromEnv without TAPP_CAPACITY = capacity %d, %v; want 0 (Run's default), no error", cfg.Capacity, err)
	}
	for _, bad := range []string{"eight", "0", "-2"} {
		t.Setenv("TAPP_CAPACITY", bad)
		if _, err := sdk.ConfigFromEnv(); err == nil || !strings.Contains(err.Error(), "TAPP_CAPACITY") {
			t.Errorf("ConfigFromEnv with TAPP_CAPACITY=%q: %v, want an error naming it", bad, err)
		}
	}
}
