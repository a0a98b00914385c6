package server_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/tapparena/tapp/arena/internal/testcert"
	"github.com/tapparena/tapp/bots/random"
	"github.com/tapparena/tapp/bots/sdk"
)

// A client whose TLS does not fit the arena's gives up after a few tries with an error that
// names the flag to change, and the arena logs the refused handshake with the fix.
func TestTLSMismatchIsNamedOnBothSides(t *testing.T) {
	t.Parallel()
	cert := testcert.MustWrite(t)
	other := testcert.MustWrite(t) // a CA that did not sign the arena's certificate
	for _, tc := range []struct {
		name        string
		arenaTLS    bool
		useTLS      bool
		ca          string
		want        sdk.ConnectProblem
		fix, logFix string
	}{
		{"plain client, TLS arena", true, false, "", sdk.PlainToTLS, "TAPP_TLS=1", "needs --tls"},
		{"TLS client, plain arena", false, true, "", sdk.TLSToPlain, "serves plain text", "serves plain text"},
		{"untrusted certificate", true, false, other.Cert, sdk.UntrustedCertificate, "TAPP_CA=FILE", "does not trust"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			core, logs := observer.New(zapcore.WarnLevel)
			var served *testcert.Files
			if tc.arenaTLS {
				served = &cert
			}
			_, addr := startArenaLogging(t, served, zap.New(core))
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			err := sdk.Run(ctx, sdk.Config{Arena: addr, Token: "token-b", TLS: tc.useTLS, CA: tc.ca, MaxReconnect: time.Minute}, random.New(1))
			var ce *sdk.ConnectError
			if !errors.As(err, &ce) || ce.Problem != tc.want {
				t.Fatalf("Run = %v; want a ConnectError %v", err, tc.want)
			}
			if msg := err.Error(); !strings.Contains(msg, tc.fix) || !strings.Contains(msg, "gave up after 3 tries") {
				t.Errorf("the error %q does not say %q and how often it tried", msg, tc.fix)
			}
			if ctx.Err() != nil {
				t.Error("Run tried until the test's deadline instead of giving up")
			}
			var logged []string
			for _, e := range logs.All() {
				logged = append(logged, e.Message+" "+e.ContextMap()["fix"].(string))
			}
			if len(logged) == 0 || !strings.Contains(logged[0], "refused a connection") || !strings.Contains(logged[0], tc.logFix) {
				t.Errorf("the arena logged %q; want the refused handshake with a fix saying %q", logged, tc.logFix)
			}
		})
	}
}
