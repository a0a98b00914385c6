package server

import (
	"crypto/tls"
	"fmt"

	"github.com/tapparena/tapp/arena/internal/loopback"
)

// LoadTLS reads the arena's certificate (PEM, the chain after the leaf) and its private key
// for Config.TLS.
func LoadTLS(certFile, keyFile string) (*tls.Config, error) {
	switch {
	case certFile == "" && keyFile == "":
		return nil, nil
	case certFile == "" || keyFile == "":
		return nil, fmt.Errorf("TLS needs both a certificate and its key (--tls-cert FILE --tls-key FILE)")
	}
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, fmt.Errorf("loading the TLS certificate %s and key %s: %w", certFile, keyFile, err)
	}
	return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}, nil
}

// CheckPlainText refuses to serve without TLS on an address reachable beyond this machine,
// where bot and admin tokens would travel in clear text, unless the operator said so
// (insecure: behind a TLS-terminating proxy, on a private network).
func CheckPlainText(listen string, useTLS, insecure bool) error {
	if useTLS || insecure || IsLoopback(listen) {
		return nil
	}
	return fmt.Errorf("refusing to listen on %s without TLS: tokens would cross the network in clear text; "+
		"give --tls-cert FILE --tls-key FILE, listen on 127.0.0.1, or pass --insecure if something else encrypts the traffic", listen)
}

// IsLoopback reports whether a listen address (host:port) is bound to loopback only; an empty
// host, "0.0.0.0" or "::" listen everywhere.
func IsLoopback(listen string) bool { return loopback.Listen(listen) }
