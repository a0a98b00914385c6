package cli

import (
	"bufio"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tapparena/tapp/arena/internal/testcert"
)

// Every listener that takes a token refuses plain text beyond loopback unless told
// --insecure: the dashboard of tapp serve and tapp web, a league's listen (file or flag), the
// replay arena of tapp replay ask --listen.
func TestEveryListenerRefusesPlainTextBeyondLoopback(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "x.db")
	if _, e, err := runTapp(t, "bots", "add", "b", "--db", db); err != nil {
		t.Fatalf("bots add: %v\n%s", err, e)
	}
	plainLeague := leagueFile(t, dir, "plain", "listen: 0.0.0.0:0\n", 1)
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"serve --http", []string{"serve", "--listen", "127.0.0.1:0", "--http", "0.0.0.0:0", "--viewer-token", "v", "--db", db}, "--http: refusing to listen on 0.0.0.0:0 without TLS"},
		{"web", []string{"web", "--http", "0.0.0.0:0", "--viewer-token", "v", "--db", db}, "refusing to listen on 0.0.0.0:0 without TLS"},
		{"league file", []string{"league", "run", plainLeague, "--db", db}, "plain.yaml:15:9: listen: 0.0.0.0:0 is reachable beyond this machine"},
		{"league --listen", []string{"league", "run", leagueFile(t, dir, "flag", "", 1), "--listen", "0.0.0.0:0", "--db", db}, "refusing to listen on 0.0.0.0:0 without TLS"},
		{"replay ask --listen", []string{"replay", "ask", "m", "--deal", "0", "--decision", "0", "--listen", "0.0.0.0:0", "--db", db}, "--listen: refusing to listen on 0.0.0.0:0: the replay arena has no TLS"},
	} {
		_, stderr, err := runTapp(t, c.args...)
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: %v\n%s\nwant exit status 2 saying %q", c.name, err, stderr, c.want)
		}
	}
}

// A league served with TLS beyond loopback: token bots connect over TLS, and the bots the
// arena launches itself reach it on a plain-text listener of its own on loopback.
func TestLeagueServesTLSAndItsLaunchedBotsStayOnLoopback(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: runs a league with bot processes")
	}
	t.Parallel()
	dir := t.TempDir()
	cert := testcert.MustWrite(t)
	file := leagueFile(t, dir, "tls", "listen: 0.0.0.0:0\ntls_cert: "+cert.Cert+"\ntls_key: "+cert.Key+"\n", 1)
	out, stderr, err := runTapp(t, "league", "run", file, "--db", filepath.Join(dir, "tls.db"), "--logs", filepath.Join(dir, "logs"))
	if err != nil || !strings.Contains(out, "league tls finished") {
		t.Fatalf("league over TLS: %v\n%s\n%s", err, out, stderr)
	}
}

// tapp serve --http with --tls-cert serves the dashboard (and the admin API on it) over
// HTTPS with the arena's certificate; its URL and its log carry no viewer token.
func TestServeDashboardOverTLS(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: runs tapp serve")
	}
	t.Parallel()
	cert := testcert.MustWrite(t)
	cmd := exec.Command(tappBin, "serve", "--listen", "127.0.0.1:0", "--http", "127.0.0.1:0", "--viewer-token", "v1ewer",
		"--tls-cert", cert.Cert, "--tls-key", cert.Key, "--db", filepath.Join(t.TempDir(), "a.db"))
	cmd.Env = append(os.Environ(), "TAPP_ADMIN_TOKEN="+e2eAdmin)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	urls := make(chan string, 1)
	logs := &lockedBuffer{}
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			logs.Write([]byte(sc.Text() + "\n"))
			if rest, ok := strings.CutPrefix(sc.Text(), "dashboard: "); ok {
				urls <- strings.Fields(rest)[0]
			}
		}
	}()
	var url string
	select {
	case url = <-urls:
	case <-time.After(30 * time.Second):
		t.Fatalf("no dashboard URL in 30 s:\n%s", logs.String())
	}
	if !strings.HasPrefix(url, "https://") {
		t.Fatalf("dashboard URL %q, want https://", url)
	}
	pem, err := os.ReadFile(cert.Cert)
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(pem)
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots}}}
	req, _ := http.NewRequest("POST", url+"tapp.v1.AdminService/ListBots", strings.NewReader("{}"))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+e2eAdmin)
	req.Header.Set("Connect-Protocol-Version", "1")
	res, err := client.Do(req)
	if err != nil {
		t.Fatalf("the admin API over the dashboard's HTTPS: %v", err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Errorf("ListBots over HTTPS: HTTP %d", res.StatusCode)
	}
	plain, err := http.Post(strings.Replace(url, "https://", "http://", 1)+"tapp.v1.AdminService/ListBots", "application/json", strings.NewReader("{}"))
	if err == nil {
		plain.Body.Close()
		if plain.StatusCode == http.StatusOK {
			t.Errorf("the admin API answered plain HTTP beside TLS")
		}
	}
	if strings.Contains(logs.String(), "v1ewer") {
		t.Errorf("the viewer token is in the log:\n%s", logs.String())
	}
}
