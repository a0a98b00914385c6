package server_test

import (
	"strings"
	"testing"

	"github.com/tapparena/tapp/arena/internal/server"
	"github.com/tapparena/tapp/arena/internal/testcert"
)

func TestCheckPlainText(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		listen          string
		useTLS, plainOK bool
		refused         bool
	}{
		{"127.0.0.1:7000", false, false, false},
		{"localhost:7000", false, false, false},
		{"[::1]:7000", false, false, false},
		{":7000", false, false, true},
		{"0.0.0.0:7000", false, false, true},
		{"192.168.1.5:7000", false, false, true},
		{"0.0.0.0:7000", true, false, false},
		{"0.0.0.0:7000", false, true, false},
	} {
		err := server.CheckPlainText(tc.listen, tc.useTLS, tc.plainOK)
		if got := err != nil; got != tc.refused {
			t.Errorf("CheckPlainText(%q, tls %v, insecure %v) = %v, want refused %v", tc.listen, tc.useTLS, tc.plainOK, err, tc.refused)
		}
		if err != nil && !strings.Contains(err.Error(), "--insecure") {
			t.Errorf("refusal %q does not say how to proceed", err)
		}
	}
}

func TestLoadTLS(t *testing.T) {
	t.Parallel()
	cert := testcert.MustWrite(t)
	if cfg, err := server.LoadTLS(cert.Cert, cert.Key); err != nil || cfg == nil || len(cfg.Certificates) != 1 {
		t.Errorf("LoadTLS = %v, %v; want one certificate", cfg, err)
	}
	if cfg, err := server.LoadTLS("", ""); cfg != nil || err != nil {
		t.Errorf("LoadTLS without files = %v, %v; want plain text (nil, nil)", cfg, err)
	}
	if _, err := server.LoadTLS(cert.Cert, ""); err == nil || !strings.Contains(err.Error(), "--tls-key") {
		t.Errorf("LoadTLS without a key: %v, want an error asking for both", err)
	}
	if _, err := server.LoadTLS(cert.Key, cert.Cert); err == nil {
		t.Error("LoadTLS with certificate and key swapped: no error")
	}
}
