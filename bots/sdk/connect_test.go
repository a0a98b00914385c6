package sdk_test

import (
	"bytes"
	"context"
	"log/slog"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/tapparena/tapp/bots/random"
	"github.com/tapparena/tapp/bots/sdk"
)

// closedAddr returns a loopback address nothing listens on.
func closedAddr(t *testing.T) string {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := lis.Addr().String()
	lis.Close()
	return addr
}

// A bot started before its arena is told it cannot reach it, not that a connection that
// never existed was lost.
func TestFirstFailureSaysCannotReach(t *testing.T) {
	t.Parallel()
	addr := closedAddr(t)
	var logs bytes.Buffer // written by Run's own goroutine only, and read once it has returned
	log := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	err := sdk.Run(context.Background(), sdk.Config{Arena: addr, Token: "t", Log: log, MaxReconnect: 300 * time.Millisecond}, random.New(1))
	if err == nil || !strings.Contains(err.Error(), "cannot reach the arena at "+addr) {
		t.Errorf("Run = %v, want an error saying it cannot reach the arena at %s", err, addr)
	}
	if !strings.Contains(logs.String(), "cannot reach") {
		t.Errorf("no log line says it cannot reach the arena: %s", logs.String())
	}
	if strings.Contains(logs.String(), "lost") {
		t.Errorf("logged a lost connection that never existed: %s", logs.String())
	}
}

// With no address given, Run tries the default arena instead of an empty address.
func TestRunDefaultsToTheLocalArena(t *testing.T) {
	t.Parallel()
	err := sdk.Run(context.Background(), sdk.Config{Token: "t", MaxReconnect: 200 * time.Millisecond}, random.New(1))
	if err == nil || !strings.Contains(err.Error(), sdk.DefaultArena) {
		t.Errorf("Run without an address = %v, want an error naming %s", err, sdk.DefaultArena)
	}
}

func TestConfigFromEnvDefaultsArenaAndReadsTLS(t *testing.T) {
	t.Setenv("TAPP_ARENA", "")
	t.Setenv("TAPP_CA", "/etc/tapp/ca.pem")
	t.Setenv("TAPP_TLS", "")
	cfg, err := sdk.ConfigFromEnv()
	if err != nil || cfg.Arena != "localhost:7000" || cfg.CA != "/etc/tapp/ca.pem" || cfg.TLS {
		t.Errorf("ConfigFromEnv = arena %q, CA %q, TLS %v, %v; want localhost:7000, /etc/tapp/ca.pem, false, nil", cfg.Arena, cfg.CA, cfg.TLS, err)
	}
	t.Setenv("TAPP_TLS", "1")
	if cfg, err := sdk.ConfigFromEnv(); err != nil || !cfg.TLS {
		t.Errorf("ConfigFromEnv with TAPP_TLS=1: TLS %v, %v; want true", cfg.TLS, err)
	}
	t.Setenv("TAPP_TLS", "yes please")
	if _, err := sdk.ConfigFromEnv(); err == nil || !strings.Contains(err.Error(), "TAPP_TLS") {
		t.Errorf("ConfigFromEnv with TAPP_TLS=%q: %v, want an error naming it", "yes please", err)
	}
}
