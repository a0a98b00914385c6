package cli

import (
	"os"
	"os/exec"
	"path/filepath"
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
	case <-time.After(patience(t, 30*time.Second)):
		t.Fatal("alice's session was not closed in time (30 s on an idle machine) after the rotation")
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

// A client whose TLS does not fit the arena's gives up after a stated number of tries with a
// non-zero exit and an error that names the flag that fixes it: tapp bot, tapp match --arena
// and a Python SDK bot; the arena logs the refused handshakes.
func TestTLSMismatchesAreNamedAndGivenUp(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: runs tapp serve and bot processes")
	}
	t.Parallel()
	cert := testcert.MustWrite(t)
	other := testcert.MustWrite(t) // a CA that did not sign the arena's certificate
	creds, err := sdk.TransportCredentials(true, cert.Cert)
	if err != nil {
		t.Fatal(err)
	}
	tlsArena := startServeCreds(t, creds, "--tls-cert", cert.Cert, "--tls-key", cert.Key)
	plainArena := startServe(t)
	token := tlsArena.register("b")
	py, _ := filepath.Abs("../../../.venv/bin/python")
	_, pyErr := os.Stat(py)
	for _, tc := range []struct {
		name string
		cmd  []string
		env  []string
		want []string
	}{
		{"tapp bot in plain text at a TLS arena", []string{tappBin, "bot", "random", "--arena", tlsArena.addr, "--token", token},
			nil, []string{"serves TLS", "--tls", "--ca FILE", "gave up after 3 tries"}},
		{"tapp bot with --tls at a plain arena", []string{tappBin, "bot", "random", "--arena", plainArena.addr, "--token", token, "--tls"},
			nil, []string{"serves plain text", "leave them out", "gave up after 3 tries"}},
		{"tapp bot with another CA", []string{tappBin, "bot", "random", "--arena", tlsArena.addr, "--token", token, "--ca", other.Cert},
			nil, []string{"does not trust", "--ca FILE", "gave up after 3 tries"}},
		{"tapp match --arena in plain text at a TLS arena", []string{tappBin, "match", "--arena", tlsArena.addr, "--bots", "b,b,b", "--deals", "1"},
			[]string{"TAPP_ADMIN_TOKEN=" + e2eAdmin}, []string{"serves TLS", "--tls", "gave up after 3 tries"}},
		{"a Python bot in plain text at a TLS arena", []string{py, "-m", "tapp_bot.examples.random", "--arena", tlsArena.addr, "--token", token},
			nil, []string{"serves TLS", "tls=True", "TAPP_CA", "gave up after 3 tries"}},
		{"a Python bot with another CA", []string{py, "-m", "tapp_bot.examples.random", "--arena", tlsArena.addr, "--token", token, "--ca", other.Cert},
			nil, []string{"does not trust", "ca=FILE", "gave up after 3 tries"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if strings.HasSuffix(tc.cmd[0], "python") && pyErr != nil {
				t.Skipf("no Python venv (make venv): %v", pyErr)
			}
			cmd := exec.Command(tc.cmd[0], tc.cmd[1:]...)
			cmd.Env = append(os.Environ(), tc.env...)
			done := make(chan struct{})
			var out []byte
			go func() { out, err = cmd.CombinedOutput(); close(done) }()
			select {
			case <-done:
			case <-time.After(patience(t, 90*time.Second)):
				_ = cmd.Process.Kill()
				<-done
				t.Fatalf("still trying after 90 s on an idle machine's scale:\n%s", out)
			}
			if err == nil {
				t.Fatalf("exit status 0, want a failure:\n%s", out)
			}
			for _, w := range tc.want {
				if !strings.Contains(string(out), w) {
					t.Errorf("the output does not say %q:\n%s", w, lastLines(string(out), 8))
				}
			}
		})
	}
	for _, a := range []*arenaProc{tlsArena, plainArena} {
		if !strings.Contains(a.logs.String(), "refused a connection: its handshake failed") {
			t.Errorf("the arena logged no refused handshake:\n%s", lastLines(a.logs.String(), 10))
		}
	}
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
