package cli

import (
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/testcert"
	"github.com/tapparena/tapp/bots/sdk"
)

// An arena served with TLS: built-in bots and `tapp match --arena` reach it with the CA
// file; `tapp bots rotate` replaces a token, closing the bot's running session; `tapp bots
// revoke` takes it away.
func TestServeTLSRotateRevoke(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: runs tapp serve and bot processes")
	}
	t.Parallel()
	cert := testcert.MustWrite(t)
	creds, err := sdk.TransportCredentials(true, cert.Cert)
	if err != nil {
		t.Fatal(err)
	}
	a := startServeCreds(t, creds, "--tls-cert", cert.Cert, "--tls-key", cert.Key)
	bot := func(name string, extra ...string) *exec.Cmd {
		return a.startBot(name, extra, tappBin, "bot", "random", "--ca", cert.Cert, "--capacity", "4")
	}
	alice := bot("alice")
	bot("b2")
	bot("b3", "TAPP_CA="+cert.Cert) // the environment variable does what --ca does
	a.waitConnected("alice", "b2", "b3")

	match := exec.Command(tappBin, "match", "--arena", a.addr, "--ca", cert.Cert, "--bots", "alice,b2,b3", "--deals", "2", "--seed", "5")
	match.Env = append(match.Environ(), "TAPP_ADMIN_TOKEN="+e2eAdmin)
	if out, err := match.CombinedOutput(); err != nil || !strings.Contains(string(out), "2 deals") {
		t.Fatalf("tapp match --arena over TLS: %v\n%s", err, out)
	}
	plain := exec.Command(tappBin, "match", "--arena", a.addr, "--bots", "alice,b2,b3", "--deals", "1")
	plain.Env = append(plain.Environ(), "TAPP_ADMIN_TOKEN="+e2eAdmin)
	if out, err := plain.CombinedOutput(); err == nil {
		t.Errorf("tapp match --arena in plain text against a TLS arena succeeded:\n%s", out)
	}

	rotate := exec.Command(tappBin, "bots", "rotate", "alice", "--db", a.db)
	out, err := rotate.Output()
	if err != nil {
		t.Fatalf("tapp bots rotate: %v", err)
	}
	newToken := strings.TrimSpace(string(out))
	if !strings.HasPrefix(newToken, "tapp_") {
		t.Fatalf("tapp bots rotate printed %q, want the new token", out)
	}
	exited := make(chan error, 1)
	go func() { exited <- alice.Wait() }()
	select {
	case err := <-exited:
		logs := alice.Stderr.(*lockedBuffer).String()
		if err == nil || !strings.Contains(logs, "rotated or revoked") {
			t.Errorf("alice after its token was rotated: exit %v, log %s; want a failure saying the token was rotated or revoked", err, logs)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("alice's session was not closed within 30 s of the rotation")
	}
	again := exec.Command(tappBin, "bot", "random", "--arena", a.addr, "--ca", cert.Cert, "--token", newToken)
	again.Stderr = &lockedBuffer{}
	if err := again.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = again.Process.Kill(); _ = again.Wait() })
	a.waitConnected("alice")

	revoke := exec.Command(tappBin, "bots", "revoke", "alice", "--db", a.db)
	if out, err := revoke.CombinedOutput(); err != nil {
		t.Fatalf("tapp bots revoke: %v\n%s", err, out)
	}
	refused := exec.Command(tappBin, "bot", "random", "--arena", a.addr, "--ca", cert.Cert, "--token", newToken)
	if out, err := refused.CombinedOutput(); err == nil || !strings.Contains(string(out), "unknown bot token") {
		t.Errorf("tapp bot with a revoked token: %v\n%s; want it refused as an unknown token", err, out)
	}
	if out, err := exec.Command(tappBin, "bots", "rotate", "nobody", "--db", a.db).CombinedOutput(); err == nil || !strings.Contains(string(out), `no bot named "nobody"`) {
		t.Errorf("tapp bots rotate of an unknown bot: %v\n%s", err, out)
	}
}

// tapp serve refuses plain text beyond loopback unless told --insecure.
func TestServeRefusesPlainTextBeyondLoopback(t *testing.T) {
	t.Parallel()
	out, err := exec.Command(tappBin, "serve", "--listen", "0.0.0.0:0", "--db", "memory:").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "without TLS") {
		t.Errorf("tapp serve --listen 0.0.0.0:0 in plain text: %v\n%s; want a refusal naming TLS", err, out)
	}
}

// The Python SDK's bundled bot reaches a TLS arena with --ca, as a real process.
func TestPythonBotOverTLS(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: runs tapp serve and a Python bot")
	}
	t.Parallel()
	py := pythonBin(t)
	cert := testcert.MustWrite(t)
	creds, err := sdk.TransportCredentials(false, cert.Cert)
	if err != nil {
		t.Fatal(err)
	}
	a := startServeCreds(t, creds, "--tls-cert", cert.Cert, "--tls-key", cert.Key)
	a.startBot("py-tls", nil, py, "-m", "tapp_bot.examples.random", "--name", "py-tls", "--ca", cert.Cert)
	a.waitConnected("py-tls")
}
