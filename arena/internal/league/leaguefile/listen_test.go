package leaguefile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A league listening beyond loopback serves TLS (tls_cert and tls_key, relative to the file)
// or says insecure: true; plain text there is refused at the listen line.
func TestListenBeyondLoopbackNeedsTLSOrInsecure(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, f := range []string{"arena.pem", "arena-key.pem"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("-"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	const bots = "bots: [{name: a, builtin: random}, {name: b, builtin: random}, {name: c, builtin: random}]\n"
	for _, c := range []struct {
		name, text string
		line       int
		want       string
	}{
		{"plain beyond loopback", "name: x\nlisten: 0.0.0.0:7391\n" + bots, 2, "bot tokens would cross the network in clear text"},
		{"a certificate without its key", "name: x\nlisten: 0.0.0.0:7391\ntls_cert: arena.pem\n" + bots, 1, "TLS needs both"},
		{"a missing certificate", "name: x\nlisten: 0.0.0.0:7391\ntls_cert: nope.pem\ntls_key: arena-key.pem\n" + bots, 3, "nope.pem"},
		{"TLS", "name: x\nlisten: 0.0.0.0:7391\ntls_cert: arena.pem\ntls_key: arena-key.pem\n" + bots, 0, ""},
		{"insecure", "name: x\nlisten: 0.0.0.0:7391\ninsecure: true\n" + bots, 0, ""},
		{"loopback", "name: x\nlisten: 127.0.0.1:7391\n" + bots, 0, ""},
	} {
		cfg, err := Parse(filepath.Join(dir, "l.yaml"), []byte(c.text), Options{})
		if c.want == "" {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			} else if c.name == "TLS" && cfg.TLSCert != filepath.Join(dir, "arena.pem") {
				t.Errorf("%s: tls_cert %q, want it next to the league file", c.name, cfg.TLSCert)
			}
			continue
		}
		var ce *Error
		if !errors.As(err, &ce) || !strings.Contains(ce.Msg, c.want) || (c.line > 1 && ce.Line != c.line) {
			t.Errorf("%s: %v, want an error at line %d saying %q", c.name, err, c.line, c.want)
		}
	}
}
